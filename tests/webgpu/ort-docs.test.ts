// docs/webgpu.md's "With ONNX Runtime Web" example, run as written in
// Chromium on SwiftShader, on a fresh page: its sessions are the page's first
// WebGPU sessions of the default `onnxruntime-web` import (JSEP), so the
// order it documents (sessions first, then ORT's device) is tested for real,
// and so is its gpu.check() of the chain before the decoder's output is read.
/// <reference types="@webgpu/types" />
import * as ort from 'onnxruntime-web';
import { expect, test } from 'vitest';
import * as unpool from '../../dist/index.js';
import * as webgpu from '../../dist/webgpu/index.js';
import type { GpuTensor, WebGPUBackend } from '../../dist/webgpu/index.js';
import { docBlock, runBlock } from './doc-blocks.js';
import { bytes, encoderInput, models, wasmChain } from './ort-chain.js';

ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;

test('the example runs on ORT\'s device, checks the chain, and its logits are the chain through the wasm API', async () => {
  await unpool.init();
  const image = encoderInput();
  const r = await runBlock(docBlock("import * as ort from 'onnxruntime-web';"),
    { 'onnxruntime-web': ort, 'unpool/webgpu': webgpu }, { ...await models(), image },
    ['gpu', 'encoder', 'decoder', 'y', 'unpooled', 'f', 'logits']);
  const gpu = r.gpu as WebGPUBackend;
  const y = r.y as ort.Tensor;
  expect(gpu.device).toBe(await ort.env.webgpu.device);
  expect((r.f as GpuTensor).buffer).not.toBe(undefined);
  expect((r.unpooled as GpuTensor).isDestroyed).toBe(true);   // input.dispose() destroyed it
  // Every tensor the block made is released: none of unpool's is left.
  expect(gpu.memoryUsage()).toEqual({ liveTensors: 0, liveBytes: 0 });
  expect(y.dims).toEqual([1, 2, 16, 16]);
  const got = r.logits as Float32Array;
  expect(got).toBeInstanceOf(Float32Array);
  expect(got.length).toBe(512);
  const s = { encoder: r.encoder as ort.InferenceSession, decoder: r.decoder as ort.InferenceSession };
  expect(bytes(got)).toEqual(bytes(await wasmChain(ort, s, image)));
  // The comparison can fail: another image gives another y.
  expect(bytes(got)).not.toEqual(bytes(await wasmChain(ort, s, image.map((v) => -v))));
});
