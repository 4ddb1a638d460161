// The exporter's fixtures run by unpool/onnx in Node: onnxruntime-node's cpu
// EP and onnxruntime-web's wasm EP (tests/models/models-cases.ts).
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web';
import { describe } from 'vitest';
import { loadFixtures } from './load-fixtures.js';
import { modelCases } from './models-cases.js';
import type { OrtLike } from './runner-cases.js';

ortWeb.env.wasm.numThreads = 1;
ortWeb.env.wasm.proxy = false;

const fixtures = loadFixtures(process.env.UNPOOL_MODELS_DIR ?? 'build/models');

describe('onnxruntime-node (cpu)', () => modelCases(fixtures, { ort: ortNode as OrtLike, ep: 'cpu' }));
describe('onnxruntime-web (wasm)', () => modelCases(fixtures, { ort: ortWeb as OrtLike, ep: 'wasm' }));
