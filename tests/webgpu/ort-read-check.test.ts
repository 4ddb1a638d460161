// The default onnxruntime-web import (JSEP), on a fresh page: a GpuTensor
// handed over by toOrtTensor before ORT's first WebGPU session (when no
// device of ORT's is known, so the call cannot check it) is checked when a
// session run reads it, the latest moment (issue 44): a tensor of another
// device than the one JSEP made is refused there, before ORT reads anything,
// and the session still runs right afterwards. (Handed by hand, such a buffer
// gives a silently wrong output with this bundle: ort.test.ts.)
/// <reference types="@webgpu/types" />
import * as ort from 'onnxruntime-web';
import { expect, test } from 'vitest';
import * as unpool from '../../dist/index.js';
import { initWebGPU, toOrtTensor } from '../../dist/webgpu/index.js';
import { bytes, sessions } from './ort-chain.js';

ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;

test('made before ORT\'s first session, refused by the run that reads it; the session stays right', async () => {
  await unpool.init();
  const gpu = await initWebGPU();
  const data = Float32Array.from({ length: 1024 }, (_, i) => Math.sin(i * 0.7));
  const t = gpu.upload({ data, shape: [1, 4, 16, 16] });
  expect(Object.getOwnPropertyDescriptor(ort.env.webgpu, 'device')).toBe(undefined);
  const handed = toOrtTensor(t, ort);  // nothing to compare with yet
  const { decoder } = await sessions(ort, { executionProviders: ['webgpu'], preferredOutputLocation: 'gpu-buffer' });
  expect(await ort.env.webgpu.device).not.toBe(gpu.device);
  let e: unknown;
  try {
    await decoder.run({ unpooled: handed });
  } catch (err) {
    e = err;
  }
  expect(e).toBeInstanceOf(unpool.UnpoolTypeError);
  expect((e as Error).message).toMatch(/^toOrtTensor: the ort\.Tensor made from t is a GpuTensor of another GPUDevice than ONNX Runtime's \(ort\.env\.webgpu\.device\): this onnxruntime-web bundle \(the default import, whose WebGPU EP is JSEP\) runs every session on the one device it made at its first WebGPU session/);
  // Refused before ORT read the buffer: the session's first run is still to come, and right.
  const y = (await decoder.run({ unpooled: new ort.Tensor('float32', data, [1, 4, 16, 16]) })).y;
  const ortGpu = await initWebGPU({ device: await ort.env.webgpu.device });
  const right = toOrtTensor(ortGpu.upload({ data, shape: [1, 4, 16, 16] }), ort);
  const y2 = (await decoder.run({ unpooled: right })).y;
  expect(bytes(await y2.getData() as Float32Array)).toEqual(bytes(await y.getData() as Float32Array));
  handed.dispose(); right.dispose(); y.dispose(); y2.dispose();
});
