// A page running a model with `unpool/onnx` on ONNX Runtime Web's wasm EP
// (onnx-example.js). Bundled by Vite and webpack with ORT Web bundled too
// (its .wasm emitted by the bundler from ORT's own new URL(...,
// import.meta.url)); loaded unbundled by importmap.html.
import * as ort from 'onnxruntime-web';
import { isReady } from 'unpool';
import { createSession } from 'unpool/onnx';
import { onnxExample } from './onnx-example.js';

try {
  ort.env.wasm.numThreads = 1;
  const response = await fetch('./model.onnx');
  if (!response.ok) throw new Error(`model.onnx: HTTP ${response.status}`);
  const model = new Uint8Array(await response.arrayBuffer());
  window.__result = await onnxExample({ createSession, isReady, ort, model, ep: 'wasm' });
  document.getElementById('out').textContent = 'done';
} catch (error) {
  window.__result = { error: String(error && error.stack || error) };
}
