// The worker side of examples/worker.mjs: the same file runs in a Node.js
// worker_threads Worker and in a browser Web Worker (module worker):
//
//   Node:    new Worker(new URL('./pool-worker.mjs', import.meta.url))
//   browser: new Worker(new URL('./pool-worker.mjs', import.meta.url), { type: 'module' })
//
// Each worker loads its own WebAssembly instance once (init()), then answers
// { id, x, kernelSize } messages with the pooled output, the indices and the
// unpooled tensor. Result buffers are transferred, not copied.
import { init, maxPool2d, maxUnpool2d } from 'unpool';

// A Web Worker talks through its global scope; a Node worker through parentPort.
const port = typeof WorkerGlobalScope !== 'undefined'
  ? globalThis
  : (await import('node:worker_threads')).parentPort;

const ready = init();

port.addEventListener('message', async (event) => {
  const { id, x, kernelSize } = event.data;
  try {
    await ready;
    const { output, indices } = maxPool2d(x, { kernelSize });
    const restored = maxUnpool2d(output, indices, { kernelSize, outputSize: x.shape });
    port.postMessage({ id, output, indices, restored },
                     [output.data.buffer, indices.data.buffer, restored.data.buffer]);
  } catch (e) {
    port.postMessage({ id, error: String(e?.message ?? e) });
  }
});
