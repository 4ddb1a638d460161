// The browser legs of the runner's tests, one call a test file: ORT set up
// for a page (its .wasm served from node_modules, one thread), then the
// runner's own cases (runner-cases.ts) and the exporter's fixtures
// (models-cases.ts) on that ORT. A WebGPU leg counts every mapAsync and live
// GPUBuffer of the page. One ORT bundle a file: the default import and
// onnxruntime-web/webgpu each keep global state.
import { afterAll, beforeAll, describe } from 'vitest';
import * as unpool from '../../dist/index.js';
import { fetchFixtures } from './fetch-fixtures.js';
import { watchGpu } from './gpu-watch.js';
import { modelCases } from './models-cases.js';
import { OrtLike, runnerCases } from './runner-cases.js';

export async function browserLeg(ort: OrtLike, label: string, ep: 'wasm' | 'webgpu'): Promise<void> {
  ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  ort.env.logLevel = 'error';
  const fixtures = await fetchFixtures();
  const gpu = ep === 'webgpu' ? watchGpu() : undefined;
  beforeAll(() => unpool.init());
  afterAll(() => gpu?.restore());
  describe(`${label}: the runner's cases`, () => runnerCases({ ort, ep, reference: { ort, ep: 'wasm' }, gpu }));
  describe(`${label}: the exporter's fixtures`, () => modelCases(fixtures, { ort, ep, gpu }));
}
