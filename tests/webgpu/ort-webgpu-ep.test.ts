// unpool/webgpu between two ONNX Runtime Web sessions of
// `onnxruntime-web/webgpu` (ORT's native WebGPU EP, not the default import's
// JSEP), in Chromium on SwiftShader only: there the device can go the other
// way, `{ name: 'webgpu', device }` as the execution provider runs the
// sessions on unpool's device. The sessions are made by docs/webgpu.md's
// example, as written; the same chain and checks as ort.test.ts
// (tests/webgpu/ort-chain.ts).
/// <reference types="@webgpu/types" />
import * as ort from 'onnxruntime-web/webgpu';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as unpool from '../../dist/index.js';
import * as webgpu from '../../dist/webgpu/index.js';
import type { WebGPUBackend } from '../../dist/webgpu/index.js';
import { docBlock, runBlock } from './doc-blocks.js';
import { checkChain, countMapAsync, models, usableOn } from './ort-chain.js';

ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;

let gpu: WebGPUBackend;
let s: { encoder: ort.InferenceSession; decoder: ort.InferenceSession };
let calls: ReturnType<typeof countMapAsync>;

beforeAll(async () => {
  await unpool.init();
  calls = countMapAsync();
  // unpool's device first, then the sessions on it: the docs' example.
  const r = await runBlock(docBlock("import * as ort from 'onnxruntime-web/webgpu';"),
    { 'onnxruntime-web/webgpu': ort, 'unpool/webgpu': webgpu }, await models(), ['gpu', 'encoder', 'decoder']);
  gpu = r.gpu as WebGPUBackend;
  s = { encoder: r.encoder as ort.InferenceSession, decoder: r.decoder as ort.InferenceSession };
});

afterAll(() => calls.restore());

describe('ONNX Runtime Web (onnxruntime-web/webgpu, { name: \'webgpu\', device }) on unpool\'s device', () => {
  test('ORT runs on the device it was given', async () => {
    const device = gpu.device;
    expect(device).toBeInstanceOf(GPUDevice);
    // (env.webgpu.device stays unset when the device is given.)
    const { features } = await s.encoder.run({ x: new ort.Tensor('float32', new Float32Array(256), [1, 1, 16, 16]) });
    expect(features.location).toBe('gpu-buffer');
    expect(await usableOn(device, features.gpuBuffer as GPUBuffer)).toBe(true);
    // ... and not on another device (the check can fail).
    const adapter = await navigator.gpu.requestAdapter();
    const other = await adapter!.requestDevice();
    expect(await usableOn(other, features.gpuBuffer as GPUBuffer)).toBe(false);
    other.destroy();
    features.dispose();
  });

  test('encoder -> gpu.maxPool2d -> gpu.maxUnpool2d -> decoder, with no read-back, equal to the wasm API', async () => {
    await checkChain(ort as never, gpu, s, calls);
  });
});
