// The exporter's fixtures marked "gpu" run by unpool/onnx on the default
// onnxruntime-web import's WebGPU EP (JSEP), every mapAsync counted
// (tests/models/models-cases.ts).
import * as ort from 'onnxruntime-web';
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

describe('onnxruntime-web (webgpu, JSEP)', () => modelCases(fixtures, { ort: ort as OrtLike, ep: 'webgpu', gpu: watch }));
