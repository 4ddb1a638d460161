// The least a webpack 5 user writes to bundle the smoke page: an entry and an
// output folder. No rule for .wasm: the loader's
// `new URL('./unpool.wasm', import.meta.url)` makes webpack emit it as an asset.
import { fileURLToPath } from 'node:url';

export default {
  mode: 'production',
  entry: './main.js',
  output: { path: fileURLToPath(new URL('./dist-webpack/', import.meta.url)), clean: true },
};
