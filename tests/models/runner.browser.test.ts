// unpool/onnx on onnxruntime-web's wasm EP in a browser engine (Chromium,
// Firefox ESR, WebKitGTK: vitest.models.browser.config.ts).
import * as ort from 'onnxruntime-web';
import { beforeAll, describe } from 'vitest';
import * as unpool from '../../dist/index.js';
import { OrtLike, runnerCases } from './runner-cases.js';

ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
ort.env.logLevel = 'error';

beforeAll(async () => {
  await unpool.init();
});

describe('onnxruntime-web (wasm)', () => {
  runnerCases({ ort: ort as OrtLike, ep: 'wasm', reference: { ort: ort as OrtLike, ep: 'wasm' } });
});
