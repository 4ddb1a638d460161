// The exporter's fixtures run by unpool/onnx on onnxruntime-web's wasm EP in
// a browser engine (tests/models/models-cases.ts).
import * as ort from 'onnxruntime-web';
import { describe } from 'vitest';
import { fetchFixtures } from './fetch-fixtures.js';
import { modelCases } from './models-cases.js';
import type { OrtLike } from './runner-cases.js';

ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
ort.env.logLevel = 'error';

const fixtures = await fetchFixtures();

describe('onnxruntime-web (wasm)', () => modelCases(fixtures, { ort: ort as OrtLike, ep: 'wasm' }));
