// Property-based tests of float16 and bfloat16 (fast-check): random shapes,
// geometries (overlapping windows, padding, dilation, ceil mode, both
// layouts) and bits, every op through the public API, compared with the
// 16-bit reference (reference-half.ts): the pool compared in float32, the
// unpools copying bits, the pool backward rounding after every add, which
// the overlapping windows and the duplicate indices exercise.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import { refAdaptivePool } from './reference-adaptive.js';
import {
  decode, encodeAll, Half, refPoolBackwardHalf, refPoolHalf, sameHalfBits, toBits,
} from './reference-half.js';
import { type Floats, RefPoolGeom, refPoolShape, refUnpool, refUnpoolBackward } from './reference.js';
import { lastShape, toLast } from './layout-helpers.js';
import { rng } from './rng.js';

type Fn = (...args: unknown[]) => any;
const api = unpool as unknown as Record<string, Fn>;

const NUM_RUNS = Math.ceil(Number((globalThis as { process?: { env: Record<string, string> } })
  .process?.env.UNPOOL_PROPERTY_RUNS ?? 2000) / 4);

beforeAll(async () => {
  await unpool.init();
});

const prod = (a: readonly number[]) => a.reduce((p, v) => p * v, 1);
const bitsOf = (a: ArrayBufferView) => new Uint16Array(a.buffer, a.byteOffset, a.byteLength / 2);
const asNumbers = (a: ArrayLike<number | bigint>) => Array.from(a, Number);

/** Bits with many ties, signed zeros, infinities, NaNs, subnormals and arbitrary patterns. */
function values(rand: () => number, n: number, dtype: Half): Uint16Array {
  const a = new Uint16Array(n);
  const inf = dtype === 'float16' ? 0x7c00 : 0x7f80;
  for (let i = 0; i < n; ++i) {
    const r = rand();
    a[i] = r < 0.04 ? inf | 1 | (rand() < 0.5 ? 0x8000 : 0)  // a NaN, either sign
      : r < 0.07 ? inf : r < 0.1 ? inf | 0x8000 : r < 0.16 ? 0x8000 : r < 0.2 ? 1 + Math.floor(rand() * 8)
        : r < 0.7 ? toBits(dtype, Math.floor(rand() * 7) - 3) : Math.floor(rand() * 65536);
  }
  return a;
}

/**
 * Gradients near 1 and much smaller (as bits of the dtype), so that sums of
 * overlapping windows round differently after every add than once.
 */
function grads(rand: () => number, n: number, dtype: Half): Uint16Array {
  return encodeAll(Array.from({ length: n }, () => (rand() < 0.5 ? 1 + rand() : (rand() - 0.5) *
    2 ** -Math.floor(rand() * 14))), dtype);
}

const poolCase = fc.integer({ min: 1, max: 3 }).chain((dims) => fc.record({
  dims: fc.constant(dims),
  dim: fc.array(fc.record({
    k: fc.integer({ min: 1, max: dims === 3 ? 3 : 4 }),
    s: fc.integer({ min: 1, max: 3 }),
    d: fc.integer({ min: 1, max: 2 }),
    p: fc.integer({ min: 0, max: 2 }),
    extra: fc.integer({ min: 0, max: dims === 3 ? 3 : 5 }),
  }), { minLength: dims, maxLength: dims }),
  ceilMode: fc.boolean(),
  batched: fc.boolean(),
  n: fc.integer({ min: 1, max: 2 }),
  c: fc.integer({ min: 1, max: 3 }),
  dtype: fc.constantFrom<Half>('float16', 'bfloat16'),
  int64: fc.boolean(),
  channelsLast: fc.boolean(),
  seed: fc.integer(),
}));

describe('16-bit properties against the reference', () => {
  it('pool, its backward (overlapping windows), unpool and unpool backward', () => {
    fc.assert(fc.property(poolCase, (t) => {
      const rand = rng(t.seed);
      const { dims, dtype } = t;
      const kernel = t.dim.map((e) => e.k), stride = t.dim.map((e) => e.s);
      const padding = t.dim.map((e) => Math.min(e.p, Math.floor(e.k / 2)));
      const dilation = t.dim.map((e) => e.d);
      const spatial = t.dim.map((e, i) => Math.max(1, e.d * (e.k - 1) + 1 - 2 * padding[i]) + e.extra);
      const shape = [...(t.batched ? [t.n] : []), t.c, ...spatial];
      const g: RefPoolGeom = { dims, kernel, stride, padding, dilation, ceilMode: t.ceilMode };
      expect(refPoolShape(shape, g)).not.toBeNull();
      const x = values(rand, prod(shape), dtype);
      const ref = refPoolHalf(x, dtype, shape, g);
      const indexType = t.int64 ? 'int64' : 'int32';
      // The pool's geometry (what its backward takes too), and the pool's options.
      const geom = { kernelSize: kernel, stride, padding, dilation, ceilMode: t.ceilMode };
      const opts = { ...geom, indexType };
      // Channels-last: the same op on transposed tensors; results transposed back.
      const layout = t.channelsLast ? { layout: ['NLC', 'NHWC', 'NDHWC'][dims - 1] } : {};
      const lastOf = (bits: Uint16Array, s: number[]) => (t.channelsLast
        ? toLast(bits, s, dims) : { data: bits, shape: s });
      /** Channels-first order of a channels-last tensor of channels-first shape `s`. */
      const unLast = (a: ArrayLike<number | bigint>, s: number[]) => {
        const first = Array.from(a, Number);
        if (!t.channelsLast) return first;
        const from = toLast(Int32Array.from({ length: a.length }, (_, i) => i), s, dims).data;
        from.forEach((f, i) => { first[f] = Number(a[i]); });
        return first;
      };
      const firstOf = (bits: Uint16Array, s: number[]) => Uint16Array.from(unLast(bits, s));
      const xin = lastOf(x, shape);
      const r = api[`maxPool${dims}d`]({ ...xin, dtype }, { ...opts, ...layout });
      expect(r.output.dtype).toBe(dtype);
      expect(r.output.data).toBeInstanceOf(Uint16Array);
      expect(r.output.shape).toEqual(t.channelsLast ? lastShape(ref.shape, dims) : ref.shape);
      expect(sameHalfBits(firstOf(r.output.data, ref.shape), ref.output, dtype), 'pool').toBe('');
      expect(unLast(r.indices.data, ref.shape), 'pool indices').toEqual(ref.indices);

      const go = grads(rand, ref.output.length, dtype);
      const back = api[`maxPool${dims}dBackward`]({ ...lastOf(go, ref.shape), dtype }, r.indices,
        { ...geom, ...layout, inputShape: xin.shape });
      expect(sameHalfBits(firstOf(back.data, shape), refPoolBackwardHalf(go, dtype, ref.indices, shape,
        ref.shape, dims), dtype), 'pool backward').toBe('');

      const want = refUnpool(ref.output as unknown as Floats, ref.indices, ref.shape, spatial, dims);
      if (want === null) return;  // a window wholly in padding: its index lies outside the plane
      const y = api[`maxUnpool${dims}d`](r.output, r.indices, { outputSize: spatial, ...layout });
      expect(sameHalfBits(firstOf(y.data, shape), want, dtype), 'unpool').toBe('');
      const gy = grads(rand, prod(shape), dtype);
      const gx = api[`maxUnpool${dims}dBackward`]({ ...lastOf(gy, shape), dtype }, r.indices, layout);
      expect(sameHalfBits(firstOf(gx.data, ref.shape),
        refUnpoolBackward(gy as unknown as Floats, shape, ref.indices, ref.shape, dims)!, dtype),
      'unpool backward').toBe('');
    }), { numRuns: NUM_RUNS });
  }, 120_000);

  it('pool backward of arbitrary duplicate indices: one rounding per add, in order', () => {
    fc.assert(fc.property(fc.record({
      dims: fc.integer({ min: 1, max: 3 }),
      inSize: fc.integer({ min: 1, max: 4 }),
      outSize: fc.integer({ min: 1, max: 5 }),
      planes: fc.integer({ min: 1, max: 4 }),
      distinct: fc.integer({ min: 1, max: 3 }),
      dtype: fc.constantFrom<Half>('float16', 'bfloat16'),
      seed: fc.integer(),
    }), (t) => {
      const rand = rng(t.seed);
      const { dims, dtype } = t;
      const inputShape = [t.planes, ...Array(dims).fill(t.inSize)];
      const outShape = [t.planes, ...Array(dims).fill(t.outSize)];
      const inPlane = t.inSize ** dims;
      const idx = Array.from({ length: prod(outShape) }, () => Math.floor(rand() * Math.min(t.distinct, inPlane)));
      const go = grads(rand, idx.length, dtype);
      const back = api[`maxPool${dims}dBackward`]({ data: go, shape: outShape, dtype },
        { data: Int32Array.from(idx), shape: outShape }, { inputShape });
      expect(back.dtype).toBe(dtype);
      expect(sameHalfBits(back.data, refPoolBackwardHalf(go, dtype, idx, inputShape, outShape, dims), dtype))
        .toBe('');
    }), { numRuns: NUM_RUNS });
  }, 120_000);

  it('adaptive pool and its backward (repeated windows add up)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 3 }).chain((dims) => fc.record({
      dims: fc.constant(dims),
      inS: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: dims, maxLength: dims }),
      outS: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: dims, maxLength: dims }),
      c: fc.integer({ min: 1, max: 3 }),
      dtype: fc.constantFrom<Half>('float16', 'bfloat16'),
      seed: fc.integer(),
    })), (t) => {
      const rand = rng(t.seed);
      const { dims, dtype } = t;
      const shape = [t.c, ...t.inS];
      const x = values(rand, prod(shape), dtype);
      const ref = refAdaptivePool(decode(x, dtype), shape, t.outS);
      const r = api[`adaptiveMaxPool${dims}d`]({ data: x, shape, dtype }, { outputSize: t.outS });
      expect(sameHalfBits(bitsOf(r.output.data), encodeAll(ref.output, dtype), dtype)).toBe('');
      expect(asNumbers(r.indices.data)).toEqual(ref.indices);
      const go = grads(rand, ref.output.length, dtype);
      const back = api[`adaptiveMaxPool${dims}dBackward`]({ data: go, shape: ref.shape, dtype }, r.indices,
        { inputShape: shape });
      expect(sameHalfBits(back.data, refPoolBackwardHalf(go, dtype, ref.indices, shape, ref.shape, dims), dtype))
        .toBe('');
    }), { numRuns: NUM_RUNS });
  }, 120_000);
});
