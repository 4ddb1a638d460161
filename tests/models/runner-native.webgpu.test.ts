// unpool/onnx on the onnxruntime-web/webgpu import's WebGPU EP (ORT's native one), in
// Chromium (SwiftShader) and Firefox ESR (lavapipe): the runner's cases
// (tests/models/runner-cases.ts) against ORT's wasm EP, with every mapAsync
// and live GPUBuffer of the page counted.
import * as ort from 'onnxruntime-web/webgpu';
import { afterAll, beforeAll, describe } from 'vitest';
import * as unpool from '../../dist/index.js';
import { watchGpu } from './gpu-watch.js';
import { OrtLike, runnerCases } from './runner-cases.js';

ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
ort.env.logLevel = 'error';

const watch = watchGpu();
beforeAll(async () => {
  await unpool.init();
});
afterAll(() => watch.restore());

describe('onnxruntime-web (onnxruntime-web/webgpu)', () => {
  runnerCases({ ort: ort as OrtLike, ep: 'webgpu', reference: { ort: ort as OrtLike, ep: 'wasm' }, gpu: watch });
});
