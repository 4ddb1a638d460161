// unpool/onnx on the CPU execution providers in Node: onnxruntime-node's cpu
// and onnxruntime-web's wasm (tests/models/runner-cases.ts).
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web';
import { beforeAll, describe } from 'vitest';
import * as unpool from '../../dist/index.js';
import { OrtLike, runnerCases } from './runner-cases.js';

ortWeb.env.wasm.numThreads = 1;
ortWeb.env.wasm.proxy = false;

beforeAll(async () => {
  await unpool.init();
});

describe('onnxruntime-node (cpu)', () => {
  runnerCases({ ort: ortNode as OrtLike, ep: 'cpu', reference: { ort: ortNode as OrtLike, ep: 'cpu' } });
});

describe('onnxruntime-web (wasm)', () => {
  runnerCases({ ort: ortWeb as OrtLike, ep: 'wasm', reference: { ort: ortWeb as OrtLike, ep: 'wasm' } });
});
