// unpool/webgpu between two ONNX Runtime Web WebGPU sessions (issue 30), in
// Chromium on SwiftShader only (vitest.webgpu.config.ts; the Deno and Node
// stacks run tests/webgpu/cases/*.mjs, not this file). The default
// `onnxruntime-web` import: its WebGPU EP is JSEP, which makes its own
// GPUDevice at the first WebGPU session (a device set on env.webgpu.device
// before is ignored, microsoft/onnxruntime#26107), so the session comes
// first and initWebGPU takes ORT's device.
//
// Also (issue 44): this bundle's refusal of another device's tensor and why
// (a session given unpool's device still runs on ORT's, and the raw buffer
// gives a wrong y), flat indices fed to the chain (finite logits all the
// same; gpu.check rejects), and ORT's errors for a MaxPool with Indices on
// WebGPU, which docs/webgpu.md quotes.
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
import { FLOAT, graphModel, INT64, oneNodeModel } from '../js/onnx-model.mjs';
import markdown from '../../docs/webgpu.md?raw';
import { docBlock, runBlock } from './doc-blocks.js';
import { bytes, checkChain, countMapAsync, sessions, usableOn } from './ort-chain.js';

// ORT's .wasm and its glue, served by Vite from node_modules (the
// pre-bundled copy of ORT in .vite/deps has no .wasm beside it).
ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;

const WEBGPU = { executionProviders: ['webgpu'], preferredOutputLocation: 'gpu-buffer' } as const;

/** toOrtTensor's refusal of another device's tensor with this bundle, `name` the tensor as it names it. */
const JSEP_REFUSAL = (name: string) => new RegExp(`^toOrtTensor: ${name.replace(/\./g, '\\.')} is a GpuTensor of another ` +
  "GPUDevice than ONNX Runtime's \\(ort\\.env\\.webgpu\\.device\\): this onnxruntime-web bundle \\(the default import, " +
  'whose WebGPU EP is JSEP\\) runs every session on the one device it made at its first WebGPU session, whatever ' +
  'device the session options name, and would read the buffer as garbage; run unpool on ORT\'s device: ' +
  'initWebGPU\\(\\{ device: await ort\\.env\\.webgpu\\.device \\}\\) after that session, or import ' +
  'onnxruntime-web/webgpu');

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

    // A tensor of another device (unpool's own, not ORT's): refused at the call, naming t,
    // saying why (this bundle keeps its first device) and what works.
    const other = await initWebGPU();
    expect(other.device).not.toBe(await ort.env.webgpu.device);
    const o = other.upload({ data, shape: [1, 4, 16, 16] });
    expect(() => toOrtTensor(o, ort)).toThrow(JSEP_REFUSAL('t'));
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

  test('a session given unpool\'s device still runs on ORT\'s (this bundle keeps its first device): toOrtTensor refuses; the raw buffer gives a wrong y', async () => {
    // docs/webgpu.md's second recipe with this bundle, after a session on ORT's
    // device exists (issue 44): the EP option's device is ignored.
    const mine = await initWebGPU();
    const s2 = await sessions(ort, { executionProviders: [{ name: 'webgpu', device: mine.device as unknown as GPUDevice }],
      preferredOutputLocation: 'gpu-buffer' });
    // Data no other test of this page runs: ORT's buffers are pooled, and a pass that
    // does not run leaves what an earlier run put there (which would be right by chance).
    const data = Float32Array.from({ length: 1024 }, (_, i) => Math.cos(i * 0.37) + 0.125);
    const t = mine.upload({ data, shape: [1, 4, 16, 16] });
    expect(() => toOrtTensor(t, ort)).toThrow(JSEP_REFUSAL('t'));
    expect(t.isDestroyed).toBe(false);
    // Why: the same buffer handed over by hand runs without an error, and y is wrong
    // (only a WebGPU validation error in the console): the pass that reads the buffer
    // does not run, and the rest reads what ORT's pooled buffers held (measured: max
    // abs diff 1.24). A session whose first run reads such a buffer stays wrong for its
    // later runs too (its transposed weights are cached at that run).
    const run = async (unpooled: ort.Tensor) => (await s2.decoder.run({ unpooled })).y.getData() as Promise<Float32Array>;
    const other = data.map((v) => v * 0.5 - 0.25);
    await run(new ort.Tensor('float32', other, [1, 4, 16, 16]));
    const wrong = await run(ort.Tensor.fromGpuBuffer(t.buffer, { dataType: 'float32', dims: [1, 4, 16, 16] }));
    const right = await run(new ort.Tensor('float32', data, [1, 4, 16, 16]));
    let diff = 0;
    for (let i = 0; i < right.length; ++i) diff = Math.max(diff, Math.abs(right[i] - wrong[i]));
    expect(diff).toBeGreaterThan(0.1);
    t.destroy();
    (mine.device as unknown as GPUDevice).destroy();
  });

  test('flat indices fed to gpu.maxUnpool2d: the decoder returns finite numbers all the same; gpu.check after the chain rejects with the index error', async () => {
    const x = new ort.Tensor('float32', Float32Array.from({ length: 256 }, (_, i) => ((i * 7) % 19) - 9), [1, 1, 16, 16]);
    const { features } = await encoder.run({ x });
    const f = gpu.wrap(features);
    const host = await f.read();
    const p = unpool.maxPool2d({ data: host.data as Float32Array, shape: host.shape }, { kernelSize: 2, indexType: 'int64' });
    // ORT's MaxPool Indices count over the whole tensor: not per plane.
    const flat = unpool.convertIndices(p.indices, { from: 'pytorch', to: 'onnx', inputShape: host.shape });
    const { output } = gpu.maxPool2d(f, { kernelSize: 2 });
    const unpooled = gpu.maxUnpool2d(output, gpu.upload(flat), { kernelSize: 2 });
    const { y } = await decoder.run({ unpooled: toOrtTensor(unpooled, ort) });
    const logits = await y.getData() as Float32Array;
    // What happens without a check: finite logits, no error from ORT.
    expect(logits.length).toBe(512);
    expect(logits.every(Number.isFinite)).toBe(true);
    let cpu: unknown;
    try { unpool.maxUnpool2d(p.output, flat, { kernelSize: 2 }); } catch (e) { cpu = e; }
    expect((cpu as Error).message).toMatch(/convertIndices\(indices, \{ from: 'onnx', to: 'pytorch', inputShape: \[1, 4, 16, 16\] \}\)$/);
    let got: unknown;
    try { await gpu.check(unpooled); } catch (e) { got = e; }
    expect(got).toBeInstanceOf(unpool.UnpoolError);
    expect((got as Error).message).toBe((cpu as Error).message);
    y.dispose(); features.dispose(); output.destroy();
  });

  test('ORT\'s own errors for a MaxPool with Indices on WebGPU are the ones docs/webgpu.md quotes', async () => {
    const shape = [1, 1, 4, 4], outShape = [1, 1, 2, 2];
    const io = { inputs: [{ name: 'X', type: FLOAT, shape }],
      outputs: [{ name: 'Y', type: FLOAT, shape: outShape }, { name: 'Indices', type: INT64, shape: outShape }] };
    const model = oneNodeModel({ opType: 'MaxPool', ...io, attributes: { kernel_shape: [2, 2], strides: [2, 2] } });
    const graph = graphModel({
      nodes: [{ op: 'MaxPool', inputs: ['X'], outputs: ['Y', 'I'], attributes: { kernel_shape: [2, 2], strides: [2, 2] } },
        { op: 'MaxUnpool', inputs: ['Y', 'I'], outputs: ['Z'], attributes: { kernel_shape: [2, 2], strides: [2, 2] } }],
      inputs: [{ name: 'X', type: 'float32', shape }], outputs: [{ name: 'Z', type: 'float32', shape }] });
    const X = new ort.Tensor('float32', new Float32Array(16), shape);
    const failure = async (m: Uint8Array, location: 'cpu' | 'gpu-buffer') => {
      const s = await ort.InferenceSession.create(m, { executionProviders: ['webgpu'], preferredOutputLocation: location });
      try {
        await s.run({ X });
      } catch (e) {
        return (e as Error).message;
      } finally {
        await s.release();
      }
      return 'no error';
    };
    const quotes = ['Unsupported OrtValue type.', 'Reading data from non-tensor typed value is not supported.',
      'IsTensor() was false. Trying to get a Tensor, but got: (null)'];
    expect(await failure(model, 'cpu')).toContain(quotes[0]);
    expect(await failure(model, 'gpu-buffer')).toContain(quotes[1]);
    expect(await failure(graph, 'gpu-buffer')).toContain(quotes[2]);
    const text = markdown.replace(/\s+/g, ' ');  // docs/webgpu.md's words across its line breaks
    for (const q of quotes) expect(text, q).toContain(q);
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
