// Large channels-first calls with host data are streamed range of planes by
// range of planes (streamed.ts): results must be the reference's bits
// whatever the split (ranges that do not divide the planes, a plane larger
// than a range's budget), for every way results leave the call (fresh
// arrays, `out`, resident) and inputs arrive (host, resident); a bad index
// fails the call with its whole-tensor position, leaves `out` untouched and
// the heap as it was.
import { beforeAll, describe, expect, it } from 'vitest';
import * as u from '../../dist/index.js';
import type { FloatArray, IndexArray, Tensor } from '../../dist/index.js';
import { STREAM_BYTES } from '../../dist/streamed.js';
import { wasm } from '../../dist/loader.js';
import { refPool, refPoolBackward, refUnpool, refUnpoolBackward, sameBits } from './reference.js';
import { refFractionalPool } from './reference-adaptive.js';
import { rng } from './rng.js';

beforeAll(async () => {
  await u.init();
});

type Dims = 1 | 2 | 3;
type Any = (...args: unknown[]) => unknown;
const fn = (name: string) => (u as unknown as Record<string, Any>)[name];
const pool = (d: Dims, x: unknown, o: object) =>
  fn(`maxPool${d}d`)(x, o) as { output: Tensor<FloatArray>; indices: Tensor<IndexArray> };
const unpool = (d: Dims, x: unknown, i: unknown, o: object) =>
  fn(`maxUnpool${d}d`)(x, i, o) as Tensor<FloatArray>;

interface Case {
  label: string;
  d: Dims;
  shape: number[];
  f64: boolean;
  indexType: 'int32' | 'int64';
  kernel: number;
  stride: number;
  padding: number;
}

// Sizes chosen so that the 512 KB ranges split the planes unevenly (or hold
// less than one plane: the last case).
const CASES: Case[] = [
  { label: '2d 3x50x40x41 k3 s2 p1 f32 int32', d: 2, shape: [3, 50, 40, 41], f64: false, indexType: 'int32', kernel: 3, stride: 2, padding: 1 },
  { label: '2d 2x40x64x63 k2 f64 int64', d: 2, shape: [2, 40, 64, 63], f64: true, indexType: 'int64', kernel: 2, stride: 2, padding: 0 },
  { label: '1d 5x30x3001 k3 s2 f32 int64', d: 1, shape: [5, 30, 3001], f64: false, indexType: 'int64', kernel: 3, stride: 2, padding: 0 },
  { label: '3d unbatched 40x12x20x21 k2 f32 int32', d: 3, shape: [40, 12, 20, 21], f64: false, indexType: 'int32', kernel: 2, stride: 2, padding: 0 },
  { label: '2d 1x3x300x301 k2 f32 int32 (planes over 512 KB)', d: 2, shape: [1, 3, 300, 301], f64: false, indexType: 'int32', kernel: 2, stride: 2, padding: 0 },
];

/** Values with ties, NaNs, -0 and -inf. */
function values(n: number, f64: boolean, seed: number): Float32Array | Float64Array {
  const r = rng(seed);
  const x = f64 ? new Float64Array(n) : new Float32Array(n);
  for (let i = 0; i < n; ++i) {
    const v = r();
    x[i] = v < 0.01 ? NaN : v < 0.02 ? -0 : v < 0.03 ? -Infinity : Math.floor(v * 9) - 4;
  }
  return x;
}

const numel = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

/**
 * A fresh result is a plain typed array of `ctor` that owns its whole
 * ArrayBuffer (transferable on its own; in Node it is not zeroed first, so
 * every element must have been written: the bit comparisons check that).
 */
function ownsItsBuffer(a: ArrayBufferView, ctor: Function): boolean {
  return a.constructor === ctor && a.byteOffset === 0 && a.buffer.byteLength === a.byteLength &&
      a.buffer instanceof ArrayBuffer;
}
const asNumbers = (i: IndexArray) => Array.from(i as ArrayLike<number | bigint>, Number);

/** Counts the calls of module function `name` while `f` runs (the second time). */
function coreCalls(name: string, f: () => void): number {
  f();  // the glue binds an export to the module's function on its first call
  const m = wasm('test') as unknown as Record<string, (...a: number[]) => number>;
  const original = m[name];
  let calls = 0;
  m[name] = (...a: number[]) => {
    calls += 1;
    return original(...a);
  };
  try {
    f();
  } finally {
    m[name] = original;
  }
  return calls;
}

describe('streaming', () => {
  it('runs the core once per range of planes that fits STREAM_BYTES', () => {
    const shape = [3, 50, 40, 41];  // 150 planes of 40x41 -> 20x20 (float32, int32)
    const x = { data: values(numel(shape), false, 1), shape };
    const perPlane = 40 * 41 * 4 + 20 * 20 * 8;
    const step = Math.floor(STREAM_BYTES / perPlane);
    expect(coreCalls('runPlan', () => pool(2, x, { kernelSize: 2 }))).toBe(Math.ceil(150 / step));
    // Resident in and out: nothing to stream, one call.
    const xr = u.uploadTensor(x);
    const r = pool(2, xr, { kernelSize: 2, resident: true }) as unknown as
        { output: u.WasmTensor; indices: u.WasmTensor };
    expect(coreCalls('runPlan', () => {
      const again = pool(2, xr, { kernelSize: 2, resident: true }) as unknown as
          { output: u.WasmTensor; indices: u.WasmTensor };
      again.output.dispose();
      again.indices.dispose();
    })).toBe(1);
    const p = pool(2, x, { kernelSize: 2 });
    const perUnpool = 20 * 20 * 8 + 40 * 41 * 4;
    const o = { kernelSize: 2, outputSize: [40, 41] };
    expect(coreCalls('runPlan', () => unpool(2, p.output, p.indices, o)))
      .toBe(Math.ceil(150 / Math.floor(STREAM_BYTES / perUnpool)));
    [xr, r.output, r.indices].forEach((t) => t.dispose());
  });
});

describe.each(CASES)('streamed $label', (c) => {
  const geom = { kernelSize: c.kernel, stride: c.stride, padding: c.padding };
  const refGeom = {
    dims: c.d, kernel: Array(c.d).fill(c.kernel), stride: Array(c.d).fill(c.stride),
    padding: Array(c.d).fill(c.padding), dilation: Array(c.d).fill(1), ceilMode: false,
  };
  const x = { data: values(numel(c.shape), c.f64, c.shape.length * 1000 + c.shape[1]), shape: c.shape };
  const want = refPool(x.data, c.shape, refGeom);
  const outSpatial = c.shape.slice(c.shape.length - c.d);  // the pooled input's size
  const outShape = [...c.shape.slice(0, c.shape.length - c.d), ...outSpatial];
  const wantUnpool = refUnpool(want.output, want.indices, want.shape, outSpatial, c.d)!;
  const options = { ...geom, indexType: c.indexType };
  const unpoolOptions = { ...geom, outputSize: outSpatial };

  it('pools into fresh arrays, out arrays and resident tensors with the reference bits', () => {
    const fresh = pool(c.d, x, options);
    expect(ownsItsBuffer(fresh.output.data, c.f64 ? Float64Array : Float32Array)).toBe(true);
    expect(ownsItsBuffer(fresh.indices.data, c.indexType === 'int64' ? BigInt64Array : Int32Array)).toBe(true);
    expect(fresh.output.shape).toEqual(want.shape);
    expect(sameBits(fresh.output.data, want.output)).toBe('');
    expect(sameBits(asNumbers(fresh.indices.data), want.indices)).toBe('');
    const n = want.output.length;
    const out = {
      output: c.f64 ? new Float64Array(n).fill(7) : new Float32Array(n).fill(7),
      indices: c.indexType === 'int64' ? new BigInt64Array(n) : new Int32Array(n),
    };
    const r = pool(c.d, x, { ...options, out });
    expect(r.output.data).toBe(out.output);
    expect(sameBits(out.output, want.output)).toBe('');
    expect(sameBits(asNumbers(out.indices), want.indices)).toBe('');
    const before = u.memoryUsage().inUseBytes;
    const res = pool(c.d, x, { ...options, resident: true }) as unknown as
        { output: u.WasmTensor<FloatArray>; indices: u.WasmTensor<IndexArray> };
    expect(sameBits(res.output.toArray(), want.output)).toBe('');
    expect(sameBits(asNumbers(res.indices.toArray()), want.indices)).toBe('');
    res.output.dispose();
    res.indices.dispose();
    expect(u.memoryUsage().inUseBytes).toBe(before);
  });

  it('unpools from host and resident inputs into fresh arrays, out and resident tensors', () => {
    const p = pool(c.d, x, options);
    const y = unpool(c.d, p.output, p.indices, unpoolOptions).data;
    expect(ownsItsBuffer(y, c.f64 ? Float64Array : Float32Array)).toBe(true);
    expect(sameBits(y, wantUnpool)).toBe('');
    const out = c.f64 ? new Float64Array(numel(outShape)).fill(7) : new Float32Array(numel(outShape)).fill(7);
    expect(unpool(c.d, p.output, p.indices, { ...unpoolOptions, out }).data).toBe(out);
    expect(sameBits(out, wantUnpool)).toBe('');
    const res = unpool(c.d, p.output, p.indices, { ...unpoolOptions, resident: true }) as unknown as u.WasmTensor<FloatArray>;
    expect(sameBits(res.toArray(), wantUnpool)).toBe('');
    res.dispose();
    const before = u.memoryUsage().inUseBytes;
    const rx = u.uploadTensor(p.output), ri = u.uploadTensor(p.indices);
    expect(sameBits(unpool(c.d, rx, ri, unpoolOptions).data, wantUnpool)).toBe('');
    out.fill(3);
    unpool(c.d, rx, ri, { ...unpoolOptions, out });
    expect(sameBits(out, wantUnpool)).toBe('');
    rx.dispose();
    ri.dispose();
    expect(u.memoryUsage().inUseBytes).toBe(before);
  });

  it('streams both backward passes: the reference bits, fresh, into out and resident', () => {
    const p = pool(c.d, x, options);
    const idx = asNumbers(p.indices.data);
    const back = fn(`maxPool${c.d}dBackward`);
    const wantGrad = refPoolBackward(p.output.data as Float32Array | Float64Array, idx, c.shape, p.output.shape, c.d);
    const gi = back(p.output, p.indices, { inputShape: c.shape }) as Tensor<FloatArray>;
    expect(sameBits(gi.data, wantGrad)).toBe('');
    const out = c.f64 ? new Float64Array(numel(c.shape)).fill(7) : new Float32Array(numel(c.shape)).fill(7);
    back(p.output, p.indices, { inputShape: c.shape, out });
    expect(sameBits(out, wantGrad)).toBe('');
    const res = back(p.output, p.indices, { inputShape: c.shape, resident: true }) as u.WasmTensor<FloatArray>;
    expect(sameBits(res.toArray(), wantGrad)).toBe('');
    res.dispose();
    const ub = fn(`maxUnpool${c.d}dBackward`);
    const wantGather = refUnpoolBackward(x.data, c.shape, idx, p.indices.shape, c.d)!;
    expect(sameBits((ub(x, p.indices) as Tensor<FloatArray>).data, wantGather)).toBe('');
    // Many ranges: the core runs once per range.
    expect(coreCalls('runPlan', () => back(p.output, p.indices, { inputShape: c.shape })))
      .toBeGreaterThan(1);
  });

  it('fails a backward pass on a bad index in the last plane with out untouched', () => {
    const p = pool(c.d, x, options);
    const n = p.indices.data.length;
    const bad = c.indexType === 'int64' ? BigInt64Array.from(p.indices.data as BigInt64Array)
      : Int32Array.from(p.indices.data as Int32Array);
    const limit = numel(outSpatial);
    (bad as unknown as (number | bigint)[])[n - 2] = c.indexType === 'int64' ? BigInt(limit) : limit;
    const indices = { data: bad, shape: p.indices.shape };
    const before = u.memoryUsage().inUseBytes;
    const out = c.f64 ? new Float64Array(numel(c.shape)).fill(7) : new Float32Array(numel(c.shape)).fill(7);
    expect(() => fn(`maxPool${c.d}dBackward`)(p.output, indices, { inputShape: c.shape, out }))
      .toThrow(new RegExp(`^maxPool${c.d}dBackward: indices\\[${n - 2}\\]=${limit} is out of range`));
    expect(out.every((v) => v === 7)).toBe(true);
    const gout = c.f64 ? new Float64Array(n).fill(7) : new Float32Array(n).fill(7);
    expect(() => fn(`maxUnpool${c.d}dBackward`)(x, indices, { out: gout }))
      .toThrow(new RegExp(`^maxUnpool${c.d}dBackward: indices\\[${n - 2}\\]=${limit} is out of range`));
    expect(gout.every((v) => v === 7)).toBe(true);
    expect(u.memoryUsage().inUseBytes).toBe(before);
  });

  it('fails on a bad index in the last plane with its position, out untouched, heap as before', () => {
    const p = pool(c.d, x, options);
    const n = p.indices.data.length;
    const bad = c.indexType === 'int64' ? BigInt64Array.from(p.indices.data as BigInt64Array)
      : Int32Array.from(p.indices.data as Int32Array);
    const at = n - 2;
    const limit = numel(outSpatial);
    (bad as unknown as (number | bigint)[])[at] = c.indexType === 'int64' ? BigInt(limit) : limit;
    const indices = { data: bad, shape: p.indices.shape };
    const message = new RegExp(`^maxUnpool${c.d}d: indices\\[${at}\\]=${limit} is out of range`);
    const before = u.memoryUsage().inUseBytes;
    expect(() => unpool(c.d, p.output, indices, unpoolOptions)).toThrow(message);
    const out = c.f64 ? new Float64Array(numel(outShape)).fill(7) : new Float32Array(numel(outShape)).fill(7);
    expect(() => unpool(c.d, p.output, indices, { ...unpoolOptions, out })).toThrow(message);
    expect(out.every((v) => v === 7)).toBe(true);
    expect(() => unpool(c.d, p.output, indices, { ...unpoolOptions, resident: true })).toThrow(message);
    expect(u.memoryUsage().inUseBytes).toBe(before);
    // The module's parameter block is left ready for any op.
    const small = pool(2, { data: new Float32Array([1, 2, 3, 4]), shape: [1, 1, 2, 2] }, { kernelSize: 2 });
    expect(Array.from(small.indices.data as Int32Array)).toEqual([3]);
    const back = u.maxPool2dBackward(small.output, small.indices, { inputShape: [1, 1, 2, 2] });
    expect(Array.from(back.data)).toEqual([0, 0, 0, 4]);
  });
});

// Fractional pooling streams too: each range's samples are the last dim of
// its planes. A plane larger than a range holds regular windows (kernel 2,
// in = 2 out: the max pool's kernels) and irregular ones (out = 45).
describe('fractional max pooling, streamed', () => {
  const shape = [2, 24, 90, 92];
  const planes = shape[0] * shape[1];
  const x = { data: values(numel(shape), false, 41), shape };
  const draw = rng(42);
  const s = new Float32Array(planes * 2).map(() => draw());
  const samples = { data: s, shape: [shape[0], shape[1], 2] };

  it('splits the planes across ranges', () => {
    expect(numel(shape) * 4).toBeGreaterThan(2 * STREAM_BYTES);
  });

  for (const outputSize of [[45, 46], [31, 40]]) {
    it(`gives the reference's bits, outputSize ${outputSize}, fresh and into out`, () => {
      const ref = refFractionalPool(x.data, shape, [2, 2], outputSize, s);
      const opts = { kernelSize: 2, outputSize, randomSamples: samples, indexType: 'int64' } as const;
      const r = u.fractionalMaxPool2d(x, opts);
      expect(sameBits(r.output.data, ref.output)).toBe('');
      expect(Array.from(r.indices.data as BigInt64Array, Number)).toEqual(Array.from(ref.indices));
      const out = { output: new Float32Array(ref.output.length), indices: new BigInt64Array(ref.output.length) };
      u.fractionalMaxPool2d(x, { ...opts, out });
      expect(sameBits(out.output, ref.output)).toBe('');
      expect(Array.from(out.indices, Number)).toEqual(Array.from(ref.indices));
    });
  }

  it('fails on a bad sample in the last plane with its position, out untouched, heap as before', () => {
    const bad = Float32Array.from(s);
    bad[bad.length - 1] = 1.5;
    const badSamples = { data: bad, shape: samples.shape };
    const n = shape[0] * shape[1] * 45 * 46;
    const out = { output: new Float32Array(n).fill(7), indices: new BigInt64Array(n).fill(7n) };
    const before = u.memoryUsage().inUseBytes;
    const message = new RegExp(`^fractionalMaxPool2d: randomSamples\\[${bad.length - 1}\\]=1.5 is outside \\[0, 1\\]`);
    const opts = { kernelSize: 2, outputSize: [45, 46], randomSamples: badSamples, indexType: 'int64' } as const;
    expect(() => u.fractionalMaxPool2d(x, { ...opts, out }))
      .toThrow(message);
    expect(out.output.every((v) => v === 7)).toBe(true);
    expect(out.indices.every((v) => v === 7n)).toBe(true);
    expect(() => u.fractionalMaxPool2d(x, opts))
      .toThrow(message);
    expect(u.memoryUsage().inUseBytes).toBe(before);
  });
});
