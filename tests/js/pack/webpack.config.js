// The least a webpack 5 user writes to bundle the smoke pages: the entries
// and an output folder. No rule for .wasm: the loader's
// `new URL('./unpool.wasm', import.meta.url)` (and ORT Web's own, on the
// onnx page) makes webpack emit it as an asset.
import { fileURLToPath } from 'node:url';

export default {
  mode: 'production',
  entry: { main: './main.js', onnx: './onnx.js' },
  output: { path: fileURLToPath(new URL('./dist-webpack/', import.meta.url)), clean: true },
};
