// Starts a bundled worker from a Blob URL, as apps and extensions do when
// they cannot serve the worker as a file: location.hash picks the bundle
// (#binary: worker.js, given the .wasm bytes; #inline: inline-worker.js).
import { report, text } from './report.mjs';

report(async () => {
  const inline = location.hash === '#inline';
  const code = await text(inline ? './inline-worker.js' : './worker.js');
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  const worker = new Worker(url, { type: 'module' });
  const message = { vectors: await text('./vectors.json') };
  if (!inline) message.wasmBinary = await (await fetch('./unpool.wasm')).arrayBuffer();
  try {
    const summary = await new Promise((resolve, reject) => {
      worker.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data));
      worker.onerror = (e) => reject(new Error(`worker: ${e.message}`));
      worker.postMessage(message);
    });
    return summary;
  } finally {
    worker.terminate();
    URL.revokeObjectURL(url);
  }
});
