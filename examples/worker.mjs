#!/usr/bin/env node
// unpool off the main thread: a Node.js worker_threads Worker (the same
// worker file runs as a browser Web Worker; see examples/pool-worker.mjs)
// pools and unpools while the main thread stays free.
//
//   node examples/worker.mjs
//
// Sends the PyTorch documentation example (a 4x4 ramp) and a random batch,
// and prints each result as one JSON line.
import { Worker } from 'node:worker_threads';

const worker = new Worker(new URL('./pool-worker.mjs', import.meta.url));
let nextId = 0;
const pending = new Map();
worker.on('message', (msg) => {
  const { resolve, reject } = pending.get(msg.id);
  pending.delete(msg.id);
  if (msg.error) reject(new Error(msg.error));
  else resolve(msg);
});

/** Pools `x` in the worker; resolves to { output, indices, restored }. */
function poolInWorker(x, kernelSize) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, x, kernelSize });
  });
}

const ramp = { data: Float32Array.from({ length: 16 }, (_, i) => i + 1), shape: [1, 1, 4, 4] };
const batch = { data: Float32Array.from({ length: 2 * 3 * 8 * 8 }, (_, i) => Math.sin(i * 12.9898) * 100),
  shape: [2, 3, 8, 8] };
// Both requests are in flight at once; the main thread only waits.
const results = await Promise.all([poolInWorker(ramp, 2), poolInWorker(batch, 3)]);
for (const [name, r] of [['ramp', results[0]], ['batch', results[1]]]) {
  console.log(JSON.stringify({
    name,
    output: { shape: r.output.shape, data: Array.from(r.output.data) },
    indices: { shape: r.indices.shape, data: Array.from(r.indices.data) },
    restored: { shape: r.restored.shape, data: Array.from(r.restored.data) },
  }));
}
// An error in the worker comes back as a rejected promise.
await poolInWorker(ramp, 0).catch((e) => console.log(JSON.stringify({ name: 'error', message: e.message })));
await worker.terminate();
