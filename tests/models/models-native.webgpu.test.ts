// The exporter's fixtures marked "gpu" run by unpool/onnx on the onnxruntime-web/webgpu
// import's WebGPU EP (ORT's native one), every mapAsync counted
// (tests/models/models-cases.ts).
import * as ort from 'onnxruntime-web/webgpu';
import { afterAll, describe } from 'vitest';
import { fetchFixtures } from './fetch-fixtures.js';
import { watchGpu } from './gpu-watch.js';
import { modelCases } from './models-cases.js';
import type { OrtLike } from './runner-cases.js';

ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
ort.env.logLevel = 'error';

const fixtures = await fetchFixtures();
const watch = watchGpu();
afterAll(() => watch.restore());

describe('onnxruntime-web (onnxruntime-web/webgpu)', () => modelCases(fixtures, { ort: ort as OrtLike, ep: 'webgpu', gpu: watch }));
