/// <reference types="@webgpu/types" />
import * as ort from 'onnxruntime-web';
import { expect, test } from 'vitest';
import { createSession } from '../../dist/onnx/index.js';
import { countMapAsync } from './ort-chain.js';
import url from '../models/tmp/segsmall.onnx?url';

ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;

test('runner on JSEP webgpu', async () => {
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const x = Float32Array.from({ length: 3 * 15 * 17 }, (_, i) => Math.sin(i * 0.37) * 2);
  const cpu = await createSession(bytes, { ort, executionProviders: ['wasm'] });
  const want = await cpu.run({ x: new ort.Tensor('float32', x, [1, 3, 15, 17]) });
  const t0 = performance.now();
  const gpu = await createSession(bytes, { ort, executionProviders: ['webgpu'], preferredOutputLocation: 'gpu-buffer' });
  console.log('created in', performance.now() - t0, JSON.stringify(gpu.steps));
  const calls = countMapAsync();
  const t1 = performance.now();
  const got = await gpu.run({ x: new ort.Tensor('float32', x, [1, 3, 15, 17]) });
  console.log('run in', performance.now() - t1, 'maps', calls.count, got.logits.location, got.i1.location);
  const maps = calls.count;
  calls.restore();
  const logits = await got.logits.getData() as Float32Array;
  const i1 = await got.i1.getData() as BigInt64Array;
  let md = 0; for (let k = 0; k < logits.length; k++) md = Math.max(md, Math.abs(logits[k] - (want.logits.data as Float32Array)[k]));
  console.log('maxdiff', md, 'idx equal', i1.every((v, k) => v === (want.i1.data as BigInt64Array)[k]));
  expect(md).toBeLessThan(1e-4);
  expect(maps).toBeLessThanOrEqual(1);
});
