// unpool/webgpu between two ONNX Runtime Web WebGPU sessions (issue 30), in
// Chromium on SwiftShader only (vitest.webgpu.config.ts; the Deno and Node
// stacks run tests/webgpu/cases/*.mjs, not this file). The default
// `onnxruntime-web` import: its WebGPU EP is JSEP, which makes its own
// GPUDevice at the first WebGPU session (a device set on env.webgpu.device
// before is ignored, microsoft/onnxruntime#26107), so the session comes
// first and initWebGPU takes ORT's device.
//
// tests/webgpu/models/{encoder,decoder}.onnx are a network cut at its
// MaxPool2d(2, return_indices=True) / MaxUnpool2d(2), made by
// tests/webgpu/models/make-models.py.
/// <reference types="@webgpu/types" />
import * as ort from 'onnxruntime-web';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as unpool from '../../dist/index.js';
import { initWebGPU, toOrtTensor } from '../../dist/webgpu/index.js';
import type { GpuTensor, WebGPUBackend } from '../../dist/webgpu/index.js';
import { FLOAT, INT64, oneNodeModel } from '../js/onnx-model.mjs';
import { docBlock, runBlock } from './doc-blocks.js';
import { bytes, checkChain, countMapAsync, sessions, usableOn } from './ort-chain.js';

// ORT's .wasm and its glue, served by Vite from node_modules (the
// pre-bundled copy of ORT in .vite/deps has no .wasm beside it).
ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;

const WEBGPU = { executionProviders: ['webgpu'], preferredOutputLocation: 'gpu-buffer' } as const;

let encoder: ort.InferenceSession;
let decoder: ort.InferenceSession;
let gpu: WebGPUBackend;

let calls: ReturnType<typeof countMapAsync>;

beforeAll(async () => {
  await unpool.init();
  calls = countMapAsync();
  // The documented order: sessions first, then ORT's device.
  ({ encoder, decoder } = await sessions(ort, WEBGPU));
  // No cast: with @webgpu/types loaded (ORT's types load it), the package's
  // GPUDeviceType is WebGPU's own GPUDevice.
  gpu = await initWebGPU({ device: await ort.env.webgpu.device });
});

afterAll(() => calls.restore());

describe('ONNX Runtime Web (default import, JSEP WebGPU EP) and unpool/webgpu on one device', () => {
  test('the device is ORT\'s, and it is SwiftShader', async () => {
    const device = await ort.env.webgpu.device;
    expect(device).toBeInstanceOf(GPUDevice);
    expect(gpu.device).toBe(device);
    const { features } = await encoder.run({ x: new ort.Tensor('float32', new Float32Array(256), [1, 1, 16, 16]) });
    expect(await usableOn(device as GPUDevice, features.gpuBuffer as GPUBuffer)).toBe(true);
    features.dispose();
    expect((ort.env.webgpu.adapter as unknown as { info: { architecture: string } }).info.architecture).toBe('swiftshader');
  });

  test('encoder -> gpu.maxPool2d -> gpu.maxUnpool2d -> decoder, with no read-back, equal to the wasm API', async () => {
    await checkChain(ort, gpu, { encoder, decoder }, calls);
  });

  test('toOrtTensor: dataType, dims, download (getData), and dispose() destroying the GpuTensor', async () => {
    const data = Float32Array.from({ length: 24 }, (_, i) => i - 11.5);
    const t = gpu.upload({ data, shape: [2, 3, 4] });
    const o = toOrtTensor(t, ort);
    expect(o.location).toBe('gpu-buffer');
    expect(o.type).toBe('float32');
    expect(o.dims).toEqual([2, 3, 4]);
    expect(o.gpuBuffer).toBe(t.buffer);
    expect(bytes(await o.getData() as Float32Array)).toEqual(bytes(data));
    expect(t.isDestroyed).toBe(false);
    o.dispose();
    expect(t.isDestroyed).toBe(true);

    // float16 goes as ORT's class, Uint16Array bits; int64 indices as BigInt64Array.
    const h = gpu.upload({ data: Uint16Array.of(0x3c00, 0x8000, 0x7e00, 0xfc00), shape: [4], dtype: 'float16' });
    const oh = toOrtTensor(h, ort);
    expect(oh.type).toBe('float16');
    const hd = await oh.getData();
    expect(hd).toBeInstanceOf(Uint16Array);
    expect(Array.from(hd as Uint16Array)).toEqual([0x3c00, 0x8000, 0x7e00, 0xfc00]);
    oh.dispose();
    const i64 = gpu.upload({ data: BigInt64Array.of(0n, -1n, 2n ** 40n), shape: [3] });
    const oi = toOrtTensor(i64, ort);
    expect(oi.type).toBe('int64');
    expect(await oi.getData()).toEqual(BigInt64Array.of(0n, -1n, 2n ** 40n));
    oi.dispose();

    const d = gpu.upload({ data: Float64Array.of(1, 2), shape: [2] });
    expect(() => toOrtTensor(d, ort)).toThrow(/^toOrtTensor: ONNX Runtime takes no float64 tensor from a GPU buffer/);
    d.destroy();
    expect(() => toOrtTensor(d, ort)).toThrow(/^toOrtTensor: t is a destroyed GpuTensor/);
    expect(() => toOrtTensor(t, ort)).toThrow(/destroyed/);
    expect(() => toOrtTensor(gpu.upload({ data, shape: [24] }), {} as never))
      .toThrow(/^toOrtTensor: ort must be the onnxruntime-web namespace/);
  });

  test('a handed-over tensor: ORT owns it (destroy() refuses, the session stays right); another device\'s is refused', async () => {
    const data = Float32Array.from({ length: 1024 }, (_, i) => Math.sin(i));
    const t = gpu.upload({ data, shape: [1, 4, 16, 16] });
    const u = toOrtTensor(t, ort);
    // Before the fix, destroy() here made the run read a destroyed buffer:
    // a WebGPU warning, a wrong y, and a session broken from then on.
    expect(() => t.destroy()).toThrow(/^gpu\.destroy: this GpuTensor was handed to ONNX Runtime by toOrtTensor\(\)/);
    expect(() => toOrtTensor(t, ort)).toThrow(/^toOrtTensor: t was handed to ONNX Runtime by an earlier toOrtTensor\(\)/);
    const { y } = await decoder.run({ unpooled: u });
    const ref = (await decoder.run({ unpooled: new ort.Tensor('float32', data, [1, 4, 16, 16]) })).y;
    expect(bytes(await y.getData() as Float32Array)).toEqual(bytes(await ref.getData() as Float32Array));
    u.dispose();
    expect(t.isDestroyed).toBe(true);
    y.dispose(); ref.dispose();

    // A tensor of another device (unpool's own, not ORT's): refused at the call, naming t.
    const other = await initWebGPU();
    expect(other.device).not.toBe(await ort.env.webgpu.device);
    const o = other.upload({ data, shape: [1, 4, 16, 16] });
    expect(() => toOrtTensor(o, ort)).toThrow(/^toOrtTensor: t is a GpuTensor of another GPUDevice than ONNX Runtime's \(ort\.env\.webgpu\.device\)/);
    o.destroy();
    (other.device as unknown as GPUDevice).destroy();
    // ... and the session still runs right.
    const again = (await decoder.run({ unpooled: new ort.Tensor('float32', data, [1, 4, 16, 16]) })).y;
    const ref2 = (await decoder.run({ unpooled: new ort.Tensor('float32', data, [1, 4, 16, 16]) })).y;
    expect(bytes(await again.getData() as Float32Array)).toEqual(bytes(await ref2.getData() as Float32Array));
    again.dispose(); ref2.dispose();
  });

  test('gpu.wrap(ortTensor): dims and type, float16 and int64; a CPU tensor or options refused; buffer form kept', async () => {
    const half = Uint16Array.of(0x3c00, 0xc000, 0x0001, 0x7c00);
    const oh = ort.Tensor.fromGpuBuffer(gpuBuffer(gpu.upload({ data: half, shape: [1, 4], dtype: 'float16' })),
                                        { dataType: 'float16', dims: [1, 4] });
    const wh = gpu.wrap(oh);
    expect([wh.dtype, wh.shape]).toEqual(['float16', [1, 4]]);
    const rh = await wh.read();
    const F16 = (globalThis as { Float16Array?: unknown }).Float16Array as (new (...a: never[]) => object) | undefined;
    expect(rh.data).toBeInstanceOf(F16 ?? Uint16Array);
    expect(bytes(rh.data)).toEqual(bytes(half));

    const idx = BigInt64Array.of(3n, -2n, 2n ** 33n + 5n);
    const oi = ort.Tensor.fromGpuBuffer(gpuBuffer(gpu.upload({ data: idx, shape: [3] })), { dataType: 'int64', dims: [3] });
    const wi = gpu.wrap(oi);
    expect(wi.dtype).toBe('int64');
    expect((await wi.read()).data).toEqual(idx);
    wi.destroy();  // wrapped: the buffer stays ORT's
    expect((await wrapAgain(oi)).data).toEqual(idx);

    const cpu = new ort.Tensor('float32', new Float32Array(4), [4]);
    expect(() => gpu.wrap(cpu)).toThrow(/^gpu\.wrap: the ort\.Tensor is on 'cpu', not 'gpu-buffer'/);
    expect(() => (gpu.wrap as (a: unknown, b: unknown) => unknown)(oi, { shape: [3], dtype: 'int64' }))
      .toThrow(/^gpu\.wrap: an ort\.Tensor carries its dims and type; pass no options/);
    const u32 = ort.Tensor.fromGpuBuffer(oi.gpuBuffer, { dataType: 'uint32', dims: [2] });
    expect(() => gpu.wrap(u32)).toThrow(/^gpu\.wrap: dtype="uint32" must be one of/);

    const plain = gpu.upload({ data: Float32Array.of(1, 2, 3, 4), shape: [4] });
    const w = gpu.wrap(plain.buffer, { shape: [2, 2], dtype: 'float32' });
    expect(Array.from((await w.read()).data as Float32Array)).toEqual([1, 2, 3, 4]);
    plain.destroy();
  });

  test('gpu.convertIndices on ORT\'s MaxPool Indices (flat over NCHW) gives PyTorch\'s per-plane indices (the docs\' block)', async () => {
    const shape = [2, 3, 6, 6];
    const outShape = [2, 3, 3, 3];
    const data = Float32Array.from({ length: 216 }, (_, i) => Math.sin(i * 1.7) * 100);
    const maxPoolSession = await ort.InferenceSession.create(oneNodeModel({
      opType: 'MaxPool',
      inputs: [{ name: 'X', type: FLOAT, shape }],
      outputs: [{ name: 'Y', type: FLOAT, shape: outShape }, { name: 'Indices', type: INT64, shape: outShape }],
      attributes: { kernel_shape: [2, 2], strides: [2, 2] },
    }), { executionProviders: ['wasm'] });
    // ORT's MaxPool with Indices on its CPU (wasm) EP: a WebGPU session of
    // this model fails in 1.30 (OrtRun: "Unsupported OrtValue type").
    const X = new ort.Tensor('float32', data, shape);
    const r = await runBlock(docBlock('const { Y, Indices } = await maxPoolSession.run({ X });'), {},
      { maxPoolSession, X, gpu }, ['Indices', 'flat', 'perPlane', 'y', 'unpooled']);
    const Indices = r.Indices as ort.Tensor;
    expect(Indices.location).toBe('cpu');
    const x = gpu.upload({ data, shape });
    const mine = gpu.maxPool2d(x, { kernelSize: 2, indexType: 'int32' });
    const got = (await (r.perPlane as GpuTensor).read()).data as Int32Array;
    expect(got).toBeInstanceOf(Int32Array);
    expect(got).toEqual((await mine.indices.read()).data);
    // Not the same numbers: ORT's run over all 216 elements.
    expect(Array.from(got)).not.toEqual(Array.from(Indices.data as BigInt64Array, Number));
    // ... and the unpool with them is unpool's own pool -> unpool.
    const want = gpu.maxUnpool2d(mine.output, mine.indices, { kernelSize: 2 });
    expect(bytes((await (r.unpooled as GpuTensor).read()).data)).toEqual(bytes((await want.read()).data));
    for (const t of ['flat', 'perPlane', 'y', 'unpooled']) (r[t] as GpuTensor).destroy();
    x.destroy(); mine.output.destroy(); mine.indices.destroy(); want.destroy();
    await maxPoolSession.release();
  });

  test('ORT\'s WebGPU MaxPool starts windows at -1e5 and is wrong below it; gpu.maxPool2d is exact', async () => {
    const shape = [1, 2, 4, 4];
    const outShape = [1, 2, 2, 2];
    // Every value below -1e5 (and one -inf window): the true maxima are all < -1e5.
    const data = Float32Array.from({ length: 32 }, (_, i) => -2e5 - 1000 * i);
    data.fill(-Infinity, 16 + 0, 16 + 2).fill(-Infinity, 16 + 4, 16 + 6);
    const s = await ort.InferenceSession.create(oneNodeModel({
      opType: 'MaxPool',
      inputs: [{ name: 'X', type: FLOAT, shape }],
      outputs: [{ name: 'Y', type: FLOAT, shape: outShape }],
      attributes: { kernel_shape: [2, 2], strides: [2, 2] },
    }), WEBGPU);
    const x = gpu.upload({ data, shape });
    const X = toOrtTensor(x, ort);
    const { Y } = await s.run({ X });
    expect(Y.location).toBe('gpu-buffer');
    const ortY = await Y.getData() as Float32Array;
    // ORT's WebGPU kernel (its start value -1e5 in the shipped bundle): -1e5 everywhere.
    expect(Array.from(ortY)).toEqual(Array(8).fill(-1e5));

    const mine = gpu.maxPool2d(x, { kernelSize: 2 });
    const want = unpool.maxPool2d({ data, shape }, { kernelSize: 2 });
    const got = await mine.output.read();
    expect(bytes(got.data)).toEqual(bytes(want.output.data));
    expect(Array.from(got.data as Float32Array)).toEqual([-2e5, -2.02e5, -2.08e5, -2.1e5,
      -Infinity, -2.18e5, -2.24e5, -2.26e5]);
    expect((await mine.indices.read()).data).toEqual(want.indices.data);
    Y.dispose(); X.dispose(); mine.output.destroy(); mine.indices.destroy();
    await s.release();
  });
});

function gpuBuffer(t: { buffer: unknown }): GPUBuffer {
  return t.buffer as GPUBuffer;
}

async function wrapAgain(o: ort.Tensor) {
  return gpu.wrap(o).read();
}
