// The chain of tests/webgpu/ort*.test.ts: encoder session -> gpu.maxPool2d
// -> gpu.maxUnpool2d -> decoder session, all on one GPUDevice, checked
// against unpool's WebAssembly API and against the same decoder session run
// on the wasm-unpooled tensor. Shared by the default import's JSEP test and
// the onnxruntime-web/webgpu one; `ort` is whichever namespace the file has.
/// <reference types="@webgpu/types" />
import type * as Ort from 'onnxruntime-web';
import { expect } from 'vitest';
import * as unpool from '../../dist/index.js';
import { toOrtTensor } from '../../dist/webgpu/index.js';
import type { WebGPUBackend } from '../../dist/webgpu/index.js';
import encoderUrl from './models/encoder.onnx?url';
import decoderUrl from './models/decoder.onnx?url';

type Typed = { buffer: ArrayBufferLike; byteOffset: number; byteLength: number };
/** The bytes of a typed array: equal bytes are equal bits (NaN, -0 included). */
export const bytes = (a: Typed) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export async function modelBytes(url: string): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

/** Input of the encoder, [1, 1, 16, 16]: a fixed pattern with ties, negatives and zeros. */
export function encoderInput(): Float32Array {
  return Float32Array.from({ length: 256 }, (_, i) => ((i * 13) % 23 - 11) / 8);
}

/**
 * Whether `buffer` can be used on `device`: a copy out of it is validated
 * there (a buffer of another device is a validation error).
 */
export async function usableOn(device: GPUDevice, buffer: GPUBuffer): Promise<boolean> {
  const dst = device.createBuffer({ size: 16, usage: GPUBufferUsage.COPY_DST });
  device.pushErrorScope('validation');
  const e = device.createCommandEncoder();
  e.copyBufferToBuffer(buffer, 0, dst, 0, 16);
  device.queue.submit([e.finish()]);
  const error = await device.popErrorScope();
  dst.destroy();
  return error === null;
}

/** Every mapAsync on the page from now on is counted (ORT's, TF.js's and unpool's). */
export function countMapAsync(): { count: number; restore(): void } {
  const real = GPUBuffer.prototype.mapAsync;
  const calls = {
    count: 0,
    restore: () => { GPUBuffer.prototype.mapAsync = real; },
  };
  GPUBuffer.prototype.mapAsync = function (this: GPUBuffer, ...args: Parameters<GPUBuffer['mapAsync']>) {
    calls.count++;
    return real.apply(this, args);
  };
  return calls;
}

/** The bytes of the two models (tests/webgpu/models). */
export async function models() {
  return { encoderModel: await modelBytes(encoderUrl), decoderModel: await modelBytes(decoderUrl) };
}

/**
 * The decoder's output for the encoder's output pooled and unpooled by
 * unpool's WebAssembly API, each on its session: the reference of a chain.
 */
export async function wasmChain(ort: typeof Ort, s: { encoder: Ort.InferenceSession; decoder: Ort.InferenceSession },
                                image: Float32Array): Promise<Float32Array> {
  const { features } = await s.encoder.run({ x: new ort.Tensor('float32', image, [1, 1, 16, 16]) });
  const host = await features.getData() as Float32Array;
  const p = unpool.maxPool2d({ data: host, shape: features.dims }, { kernelSize: 2 });
  const u = unpool.maxUnpool2d(p.output, p.indices, { kernelSize: 2 });
  const { y } = await s.decoder.run({ unpooled: new ort.Tensor('float32', u.data as Float32Array, u.shape) });
  const out = await y.getData() as Float32Array;
  features.dispose(); y.dispose();
  return out;
}

/** The encoder and decoder sessions (tests/webgpu/models) with `options`. */
export async function sessions(ort: typeof Ort, options: Ort.InferenceSession.SessionOptions) {
  return {
    encoder: await ort.InferenceSession.create(await modelBytes(encoderUrl), options),
    decoder: await ort.InferenceSession.create(await modelBytes(decoderUrl), options),
  };
}

/**
 * Runs the chain and checks it: pooled values, indices and the unpooled
 * tensor equal unpool's WebAssembly API on the encoder's output (read back
 * once, at the end); the decoder's output equals the same session run on
 * the wasm-unpooled tensor; no mapAsync from the start of the encoder's run()
 * to the end of the decoder's; no copy on the way in; the ORT tensor of the
 * result owns it.
 */
export async function checkChain(ort: typeof Ort, gpu: WebGPUBackend,
                                 s: { encoder: Ort.InferenceSession; decoder: Ort.InferenceSession },
                                 calls: { count: number }): Promise<void> {
  const { encoder, decoder } = s;
  const x = new ort.Tensor('float32', encoderInput(), [1, 1, 16, 16]);

  const device = gpu.device as unknown as GPUDevice;
  const before = calls.count;
  const { features } = await encoder.run({ x });
  device.pushErrorScope('validation');
  const f = gpu.wrap(features);
  const { output, indices } = gpu.maxPool2d(f, { kernelSize: 2 });
  const unpooled = gpu.maxUnpool2d(output, indices, { kernelSize: 2 });
  const u = toOrtTensor(unpooled, ort);
  const { y } = await decoder.run({ unpooled: u });
  // No buffer was mapped from the encoder's run() to the end of the decoder's.
  expect(calls.count - before).toBe(0);
  // The pool and unpool bound ORT's buffer on unpool's device with no error.
  expect(await device.popErrorScope()).toBe(null);

  // No copy: the wrapped tensor is ORT's buffer.
  expect(features.location).toBe('gpu-buffer');
  expect(f.buffer).toBe(features.gpuBuffer);
  expect(f.shape).toEqual([1, 4, 16, 16]);
  expect(f.dtype).toBe('float32');
  expect(u.gpuBuffer).toBe(unpooled.buffer);
  expect(y.location).toBe('gpu-buffer');
  expect(y.dims).toEqual([1, 2, 16, 16]);

  // Read back once, at the end (the counter counts: this read maps).
  const host = await f.read();
  expect(calls.count).toBeGreaterThan(before);
  const want = unpool.maxPool2d({ data: host.data as Float32Array, shape: host.shape }, { kernelSize: 2 });
  const wantUnpooled = unpool.maxUnpool2d(want.output, want.indices, { kernelSize: 2 });
  const got = { output: await output.read(), indices: await indices.read(), unpooled: await unpooled.read() };
  expect(got.output.shape).toEqual([1, 4, 8, 8]);
  expect(bytes(got.output.data)).toEqual(bytes(want.output.data));
  expect(got.indices.dtype).toBe(want.indices.dtype);
  expect(bytes(got.indices.data)).toEqual(bytes(want.indices.data));
  expect(bytes(got.unpooled.data)).toEqual(bytes(wantUnpooled.data));
  // The chain is not trivial: ReLU's zeros tie in windows, and unpooling zeroes 3 of 4.
  const zeros = (got.unpooled.data as Float32Array).filter((v) => v === 0).length;
  expect(zeros).toBeGreaterThanOrEqual(3 * 256);
  expect(bytes(got.unpooled.data)).not.toEqual(bytes(host.data));

  // The decoder's output equals the same WebGPU session on the wasm-unpooled tensor.
  const ref = (await decoder.run({ unpooled: new ort.Tensor('float32', wantUnpooled.data as Float32Array, [1, 4, 16, 16]) })).y;
  const [yData, refData] = [await y.getData(), await ref.getData()] as Float32Array[];
  expect(bytes(yData)).toEqual(bytes(refData));
  // ... and not what the decoder makes of the pool's input (the comparison can fail).
  const other = (await decoder.run({ unpooled: new ort.Tensor('float32', host.data as Float32Array, [1, 4, 16, 16]) })).y;
  expect(bytes(await other.getData() as Float32Array)).not.toEqual(bytes(yData));

  // Ownership passed to the ORT tensor: its dispose() destroys the result.
  expect(unpooled.isDestroyed).toBe(false);
  u.dispose();
  expect(unpooled.isDestroyed).toBe(true);
  y.dispose(); ref.dispose(); other.dispose(); features.dispose();
  output.destroy(); indices.destroy();
}
