// Why docs/webgpu.md says "create the session first" for the default
// `onnxruntime-web` import (JSEP): in ONNX Runtime Web 1.30 a GPUDevice set
// on env.webgpu.device before the first WebGPU session is ignored; JSEP
// requests a device of its own (microsoft/onnxruntime#26107). Chromium on
// SwiftShader only. Its own file: the first session of the page matters.
/// <reference types="@webgpu/types" />
import * as ort from 'onnxruntime-web';
import { expect, test } from 'vitest';
import { sessions, usableOn } from './ort-chain.js';

ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;

test('a device set on env.webgpu.device before the first JSEP session is not the one ORT runs on', async () => {
  const adapter = await navigator.gpu.requestAdapter();
  const mine = await adapter!.requestDevice();
  ort.env.webgpu.device = mine;
  const { encoder } = await sessions(ort, { executionProviders: ['webgpu'], preferredOutputLocation: 'gpu-buffer' });
  const used = await ort.env.webgpu.device;
  expect(used).toBeInstanceOf(GPUDevice);
  expect(used).not.toBe(mine);
  const { features } = await encoder.run({ x: new ort.Tensor('float32', new Float32Array(256), [1, 1, 16, 16]) });
  expect(features.location).toBe('gpu-buffer');
  expect(await usableOn(used, features.gpuBuffer as GPUBuffer)).toBe(true);
  expect(await usableOn(mine, features.gpuBuffer as GPUBuffer)).toBe(false);
  features.dispose();
  mine.destroy();
});
