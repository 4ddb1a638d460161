// unpool/webgpu between two TF.js ops on TF.js's WebGPU backend (issue 30),
// in Chromium on SwiftShader only (vitest.webgpu.config.ts; the Deno and Node
// stacks run tests/webgpu/cases/*.mjs, not this file). One device: TF.js's
// (tf.backend().device), given to initWebGPU. The chain
//   tf.conv2d -> add -> relu -> dataToGPU -> gpu.maxPool2d -> gpu.maxUnpool2d
//   -> toTfTensor -> tf.conv2d
// equals, bit for bit, the same chain on TF.js's CPU backend with unpool's
// WebAssembly API. Inputs and weights are small dyadic fractions, so every
// convolution sum is exact in float32 whatever its order on either backend.
// docs/webgpu.md's "With TF.js" example runs as written, with the same check
// (its '@tensorflow/tfjs' is given tfjs-core's namespace here: the package
// re-exports it, and this project has core and the backends, not the union).
/// <reference types="@webgpu/types" />
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import * as tfWebGPU from '@tensorflow/tfjs-backend-webgpu';
import type { WebGPUBackend as TfWebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import { beforeAll, describe, expect, test } from 'vitest';
import * as unpool from '../../dist/index.js';
import * as webgpu from '../../dist/webgpu/index.js';
import { initWebGPU, toTfTensor } from '../../dist/webgpu/index.js';
import type { GpuTensor, WebGPUBackend } from '../../dist/webgpu/index.js';
import { docBlock, runBlock } from './doc-blocks.js';

type Typed = { buffer: ArrayBufferLike; byteOffset: number; byteLength: number };
const bytes = (a: Typed) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

const X_SHAPE: [number, number, number, number] = [1, 8, 8, 2];     // NHWC
const x = Float32Array.from({ length: 128 }, (_, i) => ((i * 11) % 31 - 15) / 8);
const w1 = Float32Array.from({ length: 3 * 3 * 2 * 4 }, (_, i) => ((i * 7) % 15 - 7) / 16);
const b1 = Float32Array.of(0.25, -0.5, 0, 0.125);
const w2 = Float32Array.from({ length: 3 * 3 * 4 * 3 }, (_, i) => ((i * 5) % 11 - 5) / 16);
const POOL = { kernelSize: 2, layout: 'NHWC', indexType: 'int32' } as const;
const UNPOOL = { kernelSize: 2, layout: 'NHWC' } as const;

/** conv2d (3x3, same) + bias, ReLU: the part before the pool. */
function encode(): tf.Tensor4D {
  return tf.tidy(() => tf.relu(tf.add(
    tf.conv2d(tf.tensor4d(x, X_SHAPE), tf.tensor4d(w1, [3, 3, 2, 4]), 1, 'same'), tf.tensor1d(b1)))) as tf.Tensor4D;
}

/** conv2d (3x3, same): the part after the unpool. */
function decode(t: tf.Tensor4D): tf.Tensor4D {
  return tf.tidy(() => tf.conv2d(t, tf.tensor4d(w2, [3, 3, 4, 3]), 1, 'same'));
}

let cpu: { features: Float32Array; output: Float32Array; indices: Int32Array; unpooled: Float32Array; y: Float32Array };
let gpu: WebGPUBackend;

beforeAll(async () => {
  await unpool.init();
  // The CPU chain: TF.js's CPU backend and unpool's WebAssembly API.
  expect(await tf.setBackend('cpu')).toBe(true);
  const f = encode();
  const features = await f.data() as Float32Array;
  const pooled = unpool.maxPool2d({ data: features, shape: f.shape }, POOL);
  const unpooled = unpool.maxUnpool2d(pooled.output, pooled.indices, UNPOOL);
  const y = decode(tf.tensor4d(unpooled.data as Float32Array, f.shape as [number, number, number, number]));
  cpu = {
    features, output: pooled.output.data as Float32Array, indices: pooled.indices.data as Int32Array,
    unpooled: unpooled.data as Float32Array, y: await y.data() as Float32Array,
  };
  tf.dispose([f, y]);

  // The GPU chain's device: TF.js's.
  expect(await tf.setBackend('webgpu')).toBe(true);
  // No cast: with @webgpu/types loaded, GPUDeviceType is WebGPU's GPUDevice.
  gpu = await initWebGPU({ device: (tf.backend() as TfWebGPUBackend).device });
});

describe('TF.js (WebGPU backend) and unpool/webgpu on one device', () => {
  test('the device is TF.js\'s, and it is SwiftShader', async () => {
    const device = (tf.backend() as TfWebGPUBackend).device;
    expect(device).toBeInstanceOf(GPUDevice);
    expect(gpu.device).toBe(device);
    const adapter = await navigator.gpu.requestAdapter();
    expect((adapter as unknown as { info: { architecture: string } }).info.architecture).toBe('swiftshader');
  });

  test('tf conv -> gpu.maxPool2d/maxUnpool2d (NHWC) -> tf conv equals the CPU chain, with no read-back', async () => {
    const realMapAsync = GPUBuffer.prototype.mapAsync;
    let maps = 0;
    GPUBuffer.prototype.mapAsync = function (this: GPUBuffer, ...a: Parameters<GPUBuffer['mapAsync']>) {
      maps++;
      return realMapAsync.apply(this, a);
    };
    let y: tf.Tensor4D, idx: tf.Tensor;
    const f = encode();
    const data = f.dataToGPU();
    const w = gpu.wrap(data, { shape: f.shape, dtype: 'float32' });
    const { output, indices } = gpu.maxPool2d(w, POOL);
    const unpooled = gpu.maxUnpool2d(output, indices, UNPOOL);
    try {
      const u = toTfTensor(unpooled, tf) as tf.Tensor4D;
      y = decode(u);
      idx = toTfTensor(indices, tf) as tf.Tensor;
      u.dispose();
    } finally {
      GPUBuffer.prototype.mapAsync = realMapAsync;
    }
    expect(maps).toBe(0);
    expect(w.buffer).toBe(data.buffer);   // no copy

    // Ownership stayed ours (TF.js copied the buffer): destroying it leaves y whole.
    unpooled.destroy();
    expect(y.shape).toEqual([1, 8, 8, 3]);
    expect(bytes(await y.data() as Float32Array)).toEqual(bytes(cpu.y));
    expect(idx.dtype).toBe('int32');
    expect(bytes(await idx.data() as Int32Array)).toEqual(bytes(cpu.indices));
    expect(bytes((await output.read()).data)).toEqual(bytes(cpu.output));
    expect(bytes((await w.read()).data)).toEqual(bytes(cpu.features));
    // The comparison can fail: the decoder of the pool's input differs.
    const other = decode(f);
    expect(bytes(await other.data() as Float32Array)).not.toEqual(bytes(cpu.y));

    // The wrapped buffer stays TF.js's: disposing tensorRef is the caller's job.
    w.destroy();
    tf.dispose([f, y, idx, other, data.tensorRef]);
    output.destroy(); indices.destroy();
  });

  test('the docs\' example runs as written, and its y is the CPU chain\'s', async () => {
    const given = {
      x: tf.tensor4d(x, X_SHAPE), w1: tf.tensor4d(w1, [3, 3, 2, 4]), b1: tf.tensor1d(b1),
      w2: tf.tensor4d(w2, [3, 3, 4, 3]),
    };
    const r = await runBlock(docBlock("import * as tf from '@tensorflow/tfjs';"),
      { '@tensorflow/tfjs': tf, '@tensorflow/tfjs-backend-webgpu': tfWebGPU, 'unpool/webgpu': webgpu },
      given, ['gpu', 'y', 'unpooled', 'f']);
    expect(tf.getBackend()).toBe('webgpu');
    expect((r.gpu as WebGPUBackend).device).toBe((tf.backend() as TfWebGPUBackend).device);
    expect((r.unpooled as GpuTensor).isDestroyed).toBe(true);
    const y = r.y as tf.Tensor;
    expect(y.shape).toEqual([1, 8, 8, 3]);
    expect(bytes(await y.data() as Float32Array)).toEqual(bytes(cpu.y));
    tf.dispose([y, ...Object.values(given)]);
  });

  test('toTfTensor: zeroCopy shares the buffer; dtypes TF.js has no GPU buffer for are refused', async () => {
    const t = gpu.upload({ data: Float32Array.of(1, 2, 3, 4), shape: [2, 2] });
    const shared = toTfTensor(t, tf, { zeroCopy: true }) as tf.Tensor;
    const copied = toTfTensor(t, tf) as tf.Tensor;
    gpu.device.queue.writeBuffer(t.buffer as GPUBuffer, 0, Float32Array.of(42));
    expect(Array.from(await shared.data())).toEqual([42, 2, 3, 4]);
    expect(Array.from(await copied.data())).toEqual([1, 2, 3, 4]);
    // The zeroCopy tensor uses t's buffer: t.destroy() refuses until it is disposed.
    expect(() => t.destroy()).toThrow(/^gpu\.destroy: a TF\.js tensor made by toTfTensor\(t, tf, \{ zeroCopy: true \}\) uses this buffer/);
    shared.dispose();
    expect(t.isDestroyed).toBe(false);
    expect(Array.from((await t.read()).data as Float32Array)).toEqual([42, 2, 3, 4]);   // TF.js left it alone
    copied.dispose();
    t.destroy();

    const i64 = gpu.upload({ data: BigInt64Array.of(1n), shape: [1] });
    expect(() => toTfTensor(i64, tf)).toThrow(/^toTfTensor: TF\.js keeps no int64 tensor in a GPU buffer .*indexType: 'int32'/);
    const h = gpu.upload({ data: Uint16Array.of(0x3c00), shape: [1], dtype: 'float16' });
    expect(() => toTfTensor(h, tf)).toThrow(/^toTfTensor: TF\.js keeps no float16 tensor/);
    expect(() => toTfTensor(h, {} as never)).toThrow(/^toTfTensor: tf must be the @tensorflow\/tfjs namespace/);
    i64.destroy(); h.destroy();

    // A GpuTensor of another device is refused before TF.js binds it.
    const other = await initWebGPU();
    const o = other.upload({ data: Float32Array.of(1), shape: [1] });
    expect(() => toTfTensor(o, tf)).toThrow(/^toTfTensor: t is a GpuTensor of another GPUDevice than TF\.js's backend/);
    o.destroy();
    (other.device as unknown as GPUDevice).destroy();
  });
});
