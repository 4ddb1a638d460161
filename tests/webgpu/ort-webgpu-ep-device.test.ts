// onnxruntime-web/webgpu (ORT's native WebGPU EP) after a session on ORT's
// own default device exists (issue 44), in Chromium on SwiftShader, on a
// fresh page: ort.env.webgpu.device is then that default device, yet
// docs/webgpu.md's second recipe (initWebGPU(), then sessions given
// { name: 'webgpu', device: gpu.device }) runs those sessions on unpool's
// device. toOrtTensor used to compare with the global and refuse a tensor
// the reading session uses right; it now refuses nothing with this bundle,
// and ORT refuses a buffer of a truly foreign device itself: run() rejects
// (measured: "WebGPU validation failed. [Buffer "unpool upload"] is
// associated with [Device], and cannot be used with [Device]."), no output.
// The MaxPool-with-Indices test runs first: after that refusal, ORT's
// sessions may not run again.
/// <reference types="@webgpu/types" />
import * as ort from 'onnxruntime-web/webgpu';
import { expect, test } from 'vitest';
import * as unpool from '../../dist/index.js';
import * as webgpu from '../../dist/webgpu/index.js';
import { initWebGPU, toOrtTensor } from '../../dist/webgpu/index.js';
import type { WebGPUBackend } from '../../dist/webgpu/index.js';
import { FLOAT, INT64, oneNodeModel } from '../js/onnx-model.mjs';
import markdown from '../../docs/webgpu.md?raw';
import { docBlock, runBlock } from './doc-blocks.js';
import { checkChain, countMapAsync, models, sessions } from './ort-chain.js';

ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;

const FOREIGN = /^failed to call OrtRun\(\)\. ERROR_CODE: 1, ERROR_MESSAGE: WebGPU validation failed\. \[Buffer "unpool upload"\] is associated with \[Device\], and cannot be used with \[Device\]\./;

test('this bundle\'s error for a MaxPool with Indices on WebGPU is the one docs/webgpu.md quotes', async () => {
  const shape = [1, 1, 4, 4], outShape = [1, 1, 2, 2];
  const s = await ort.InferenceSession.create(oneNodeModel({
    opType: 'MaxPool', inputs: [{ name: 'X', type: FLOAT, shape }],
    outputs: [{ name: 'Y', type: FLOAT, shape: outShape }, { name: 'Indices', type: INT64, shape: outShape }],
    attributes: { kernel_shape: [2, 2], strides: [2, 2] },
  }), { executionProviders: ['webgpu'] });
  let e: unknown;
  try {
    await s.run({ X: new ort.Tensor('float32', new Float32Array(16), shape) });
  } catch (err) {
    e = err;
  }
  await s.release();
  const quote = 'The Indices output is not supported yet.';
  expect((e as Error).message).toContain(quote);
  expect((e as Error).message).toContain('pool.cc:276 ComputeInternal');
  expect(markdown.replace(/\s+/g, ' ')).toContain(quote);
});

test('a session on ORT\'s default device first, then the docs\' recipe: toOrtTensor hands unpool\'s tensor over, and the session\'s result is right', async () => {
  await unpool.init();
  const calls = countMapAsync();
  try {
    // Any session on ORT's default device: ort.env.webgpu.device is set (a plain property with this bundle).
    const def = await sessions(ort as never, { executionProviders: ['webgpu'], preferredOutputLocation: 'gpu-buffer' });
    const ortDevice = await ort.env.webgpu.device;
    expect(ortDevice).toBeInstanceOf(GPUDevice);
    expect(Object.getOwnPropertyDescriptor(ort.env.webgpu, 'device')?.writable).toBe(true);
    // docs/webgpu.md's second block, as written: unpool's device, the sessions on it.
    const r = await runBlock(docBlock("import * as ort from 'onnxruntime-web/webgpu';"),
      { 'onnxruntime-web/webgpu': ort, 'unpool/webgpu': webgpu }, await models(), ['gpu', 'encoder', 'decoder']);
    const gpu = r.gpu as WebGPUBackend;
    expect(gpu.device).not.toBe(ortDevice);
    expect(await ort.env.webgpu.device).toBe(ortDevice);
    const s = { encoder: r.encoder as ort.InferenceSession, decoder: r.decoder as ort.InferenceSession };
    // The whole chain (toOrtTensor included) equals the WebAssembly API bit for bit (ort-chain.ts).
    await checkChain(ort as never, gpu, s, calls);

    // A tensor of a truly foreign device (neither ORT's nor any session's): toOrtTensor cannot
    // know the reading session's device here, and ORT's run() refuses it, giving no output.
    const other = await initWebGPU();
    const data = Float32Array.from({ length: 1024 }, (_, i) => Math.cos(i));
    for (const [what, session] of [['a session given unpool\'s device', (await sessions(ort as never, {
      executionProviders: [{ name: 'webgpu', device: gpu.device as unknown as GPUDevice }], preferredOutputLocation: 'gpu-buffer',
    })).decoder], ['a session on ORT\'s default device', def.decoder]] as const) {
      const t = toOrtTensor(other.upload({ data, shape: [1, 4, 16, 16] }), ort);
      let e: unknown;
      try {
        await session.run({ unpooled: t });
      } catch (err) {
        e = err;
      }
      expect((e as Error)?.message, what).toMatch(FOREIGN);
      t.dispose();
    }
    // (After such a failure ORT 1.30's sessions may not run again: later runs threw
    // "TypeError: Failed to execute 'createBindGroup' on 'GPUDevice': ... Required member
    // is undefined" here. So nothing more runs on this page.)
    (other.device as unknown as GPUDevice).destroy();
  } finally {
    calls.restore();
  }
});
