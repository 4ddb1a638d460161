// Adaptive and fractional max pooling through the public API, against the
// plain JS reference in reference-adaptive.ts (itself first held to the
// conformance vectors): random shapes, sizes, samples, layouts and index
// types, the module classes, `out`, resident tensors and the streamed path,
// all compared bit for bit.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import { loadCases, parseOp, toTyped } from './golden.js';
import { lastShape, toLast } from './layout-helpers.js';
import { Floats, refPoolBackward, refUnpool, refUnpoolBackward, sameBits } from './reference.js';
import { refAdaptivePool, refFractionalPool } from './reference-adaptive.js';
import { rng } from './rng.js';

type Fn = (...args: unknown[]) => any;
type Ctor = new (...args: unknown[]) => any;
const api = unpool as unknown as Record<string, Fn & Ctor>;

const NUM_RUNS = Number((globalThis as { process?: { env: Record<string, string> } })
  .process?.env.UNPOOL_PROPERTY_RUNS ?? 400);

beforeAll(async () => {
  await unpool.init();
});

const prod = (a: readonly number[]) => a.reduce((p, v) => p * v, 1);

/** Values with ties, signed zeros, infinities and NaNs. */
function values(rand: () => number, n: number, f64: boolean): Floats {
  const a = f64 ? new Float64Array(n) : new Float32Array(n);
  for (let i = 0; i < n; ++i) {
    const r = rand();
    a[i] = r < 0.05 ? NaN : r < 0.1 ? -Infinity : r < 0.15 ? -0 : r < 0.7
      ? Math.floor(rand() * 7) - 3 : (rand() - 0.5) * 10 ** Math.floor(rand() * 6 - 2);
  }
  return a;
}

/** Gradients of varied magnitude, so that summation order shows in float bits. */
function grads(rand: () => number, n: number, f64: boolean): Floats {
  const a = f64 ? new Float64Array(n) : new Float32Array(n);
  for (let i = 0; i < n; ++i) a[i] = (rand() - 0.5) * 10 ** Math.floor(rand() * 8 - 4);
  return a;
}

/** Samples in [0, 1), the ends included often: 0 and the largest value below 1. */
function samples(rand: () => number, n: number, f64: boolean): Floats {
  const a = f64 ? new Float64Array(n) : new Float32Array(n);
  const top = f64 ? 1 - 2 ** -53 : 1 - 2 ** -24;
  for (let i = 0; i < n; ++i) {
    const r = rand();
    a[i] = r < 0.1 ? 0 : r < 0.2 ? top : rand();
  }
  return a;
}

const numbers = (a: ArrayLike<number | bigint>) => Array.from(a, Number);

describe('the JS reference', () => {
  it('matches the conformance vectors of adaptive and fractional pools', () => {
    let checked = 0;
    for (const c of loadCases()) {
      const op = parseOp(c.op);
      const x = c.inputs.x;
      if ((op.kind !== 'adaptive' && op.kind !== 'fractional') || c.expected.error ||
          c.category === 'quirk' || (x.dtype !== 'float32' && x.dtype !== 'float64')) continue;
      const data = toTyped(x) as Floats;
      const outSpatial = c.expected.output.shape.slice(-op.dims);
      const ref = op.kind === 'adaptive' ? refAdaptivePool(data, x.shape, outSpatial)
        : refFractionalPool(data, x.shape, [c.params.kernel_size].flat().length === 1
          ? Array(op.dims).fill([c.params.kernel_size].flat()[0]) : c.params.kernel_size as number[],
        outSpatial, toTyped(c.inputs.random_samples) as Floats);
      expect(ref.shape, c.id).toEqual(c.expected.output.shape);
      expect(sameBits(ref.output, toTyped(c.expected.output) as Floats), c.id).toBe('');
      expect(ref.indices, c.id).toEqual(c.expected.indices.data);
      ++checked;
    }
    expect(checked).toBeGreaterThan(5);
  });
});

const adaptiveCase = fc.integer({ min: 1, max: 3 }).chain((dims) => fc.record({
  dims: fc.constant(dims),
  inSize: fc.array(fc.integer({ min: 1, max: dims === 3 ? 5 : 9 }), { minLength: dims, maxLength: dims }),
  outSize: fc.array(fc.integer({ min: 1, max: dims === 3 ? 6 : 11 }), { minLength: dims, maxLength: dims }),
  keep: fc.array(fc.boolean(), { minLength: dims, maxLength: dims }),
  form: fc.constantFrom('scalar', 'list', 'nulls'),
  batched: fc.boolean(),
  n: fc.integer({ min: 0, max: 2 }),
  c: fc.integer({ min: 1, max: 3 }),
  f64: fc.boolean(),
  int64: fc.boolean(),
  last: fc.boolean(),
  useClass: fc.boolean(),
  seed: fc.integer(),
}));

describe('adaptive max pooling against the reference', () => {
  it('forward and backward, every dims, size form, layout and index type', () => {
    fc.assert(fc.property(adaptiveCase, (t) => {
      const rand = rng(t.seed);
      const { dims } = t;
      const shape = [...(t.batched ? [t.n] : []), t.c, ...t.inSize];
      const outSize = t.form === 'scalar' ? t.outSize.map(() => t.outSize[0])
        : t.form === 'nulls' ? t.outSize.map((o, i) => (t.keep[i] ? t.inSize[i] : o)) : t.outSize;
      const given = t.form === 'scalar' ? t.outSize[0]
        : t.form === 'nulls' ? t.outSize.map((o, i) => (t.keep[i] ? null : o)) : t.outSize;
      const data = values(rand, prod(shape), t.f64);
      const ref = refAdaptivePool(data, shape, outSize);
      const indexType = t.int64 ? 'int64' : 'int32';
      const layout = t.last ? ['NLC', 'NHWC', 'NDHWC'][dims - 1] : undefined;
      const x = t.last ? toLast(data, shape, dims) : { data, shape };
      const r = t.useClass
        ? new api[`AdaptiveMaxPool${dims}d`](given, { indexType, layout }).forward(x)
        : api[`adaptiveMaxPool${dims}d`](x, { outputSize: given, indexType, layout });
      const want = t.last ? toLast(ref.output, ref.shape, dims) : { data: ref.output, shape: ref.shape };
      const wantIdx = t.last ? toLast(Float64Array.from(ref.indices), ref.shape, dims).data : ref.indices;
      expect(r.output.shape).toEqual(want.shape);
      expect(r.indices.data).toBeInstanceOf(t.int64 ? BigInt64Array : Int32Array);
      expect(sameBits(r.output.data, want.data), 'output').toBe('');
      expect(sameBits(numbers(r.indices.data), numbers(wantIdx)), 'indices').toBe('');

      const go = grads(rand, prod(ref.shape), t.f64);
      const refGrad = refPoolBackward(go, ref.indices, shape, ref.shape, dims);
      const g = t.last ? toLast(go, ref.shape, dims) : { data: go, shape: ref.shape };
      const inputShape = t.last ? lastShape(shape, dims) : shape;
      const gi = t.useClass
        ? new api[`AdaptiveMaxPool${dims}d`](given, { layout }).backward(g, r.indices, inputShape)
        : api[`adaptiveMaxPool${dims}dBackward`](g, r.indices, { inputShape, layout });
      expect(gi.shape).toEqual(inputShape);
      const wantGrad = t.last ? toLast(refGrad, shape, dims).data : refGrad;
      expect(sameBits(gi.data, wantGrad), 'grad').toBe('');
    }), { numRuns: NUM_RUNS });
  });

  it('streams a large call and gives the reference bits, into out and resident too', () => {
    const shape = [2, 40, 48, 45];
    const data = values(rng(7), prod(shape), false);
    const ref = refAdaptivePool(data, shape, [7, 10]);
    const x = { data, shape };
    const r = unpool.adaptiveMaxPool2d(x, { outputSize: [7, 10] });
    expect(sameBits(r.output.data, ref.output)).toBe('');
    expect(sameBits(r.indices.data, ref.indices)).toBe('');
    const out = { output: new Float32Array(ref.output.length), indices: new Int32Array(ref.indices.length) };
    const o = unpool.adaptiveMaxPool2d(x, { outputSize: [7, 10], out });
    expect(o.output.data).toBe(out.output);
    expect(sameBits(out.indices, ref.indices)).toBe('');
    const res = unpool.adaptiveMaxPool2d(x, { outputSize: [7, 10], resident: true });
    expect(res.output).toBeInstanceOf(unpool.WasmTensor);
    expect(sameBits(res.output.toArray(), ref.output)).toBe('');
    const go = grads(rng(8), ref.output.length, false);
    const gi = unpool.adaptiveMaxPool2dBackward({ data: go, shape: ref.shape }, res.indices,
                                                { inputShape: shape });
    expect(sameBits(gi.data, refPoolBackward(go, ref.indices, shape, ref.shape, 2))).toBe('');
    res.output.dispose();
    res.indices.dispose();
  });
});

const fractionalCase = fc.integer({ min: 2, max: 3 }).chain((dims) => fc.record({
  dims: fc.constant(dims),
  dim: fc.array(fc.record({
    k: fc.integer({ min: 1, max: 3 }), o: fc.integer({ min: 1, max: 6 }),
    extra: fc.integer({ min: 0, max: 6 }),
  }), { minLength: dims, maxLength: dims }),
  byRatio: fc.boolean(),
  batched: fc.boolean(),
  n: fc.integer({ min: 0, max: 2 }),
  c: fc.integer({ min: 1, max: 3 }),
  f64: fc.boolean(),
  int64: fc.boolean(),
  useClass: fc.boolean(),
  seed: fc.integer(),
}));

describe('fractional max pooling against the reference', () => {
  it('forward and backward, by outputSize and by outputRatio, both sample dtypes', () => {
    fc.assert(fc.property(fractionalCase, (t) => {
      const rand = rng(t.seed);
      const { dims } = t;
      const kernel = t.dim.map((e) => e.k);
      // 2d needs out + k - 1 <= in; 3d (PyTorch's strict check) out + k - 1 < in.
      const inSize = t.dim.map((e) => e.o + e.k - 1 + (dims === 3 ? 1 : 0) + e.extra);
      const ratio = t.dim.map((e, i) => (e.o + 0.5) / (inSize[i] + 1));
      let outSize = t.dim.map((e) => e.o);
      if (t.byRatio) outSize = inSize.map((s, i) => Math.floor(s * ratio[i]));
      fc.pre(outSize.every((o, i) => o >= 1 && (dims === 2 ? o + kernel[i] - 1 <= inSize[i]
        : o + kernel[i] - 1 < inSize[i])));
      const shape = [...(t.batched ? [t.n] : []), t.c, ...inSize];
      const data = values(rand, prod(shape), t.f64);
      const s = samples(rand, (t.batched ? t.n : 1) * t.c * dims, t.f64);
      const randomSamples = { data: s, shape: [t.batched ? t.n : 1, t.c, dims] };
      const ref = refFractionalPool(data, shape, kernel, outSize, s);
      const indexType = t.int64 ? 'int64' : 'int32';
      const size = t.byRatio ? { outputRatio: ratio } : { outputSize: outSize };
      const x = { data, shape };
      const r = t.useClass
        ? new api[`FractionalMaxPool${dims}d`](kernel, { ...size, indexType }).forward(x, randomSamples)
        : api[`fractionalMaxPool${dims}d`](x, { kernelSize: kernel, ...size, randomSamples, indexType });
      expect(r.output.shape).toEqual(ref.shape);
      expect(r.indices.data).toBeInstanceOf(t.int64 ? BigInt64Array : Int32Array);
      expect(sameBits(r.output.data, ref.output), 'output').toBe('');
      expect(sameBits(numbers(r.indices.data), ref.indices), 'indices').toBe('');

      const go = grads(rand, prod(ref.shape), t.f64);
      const gi = api[`fractionalMaxPool${dims}dBackward`]({ data: go, shape: ref.shape }, r.indices,
                                                          { inputShape: shape });
      expect(sameBits(gi.data, refPoolBackward(go, ref.indices, shape, ref.shape, dims))).toBe('');
    }), { numRuns: NUM_RUNS });
  });

  it('draws its own samples when none are given: a valid pool of x (not reproducible)', () => {
    for (const f64 of [false, true]) {
      const shape = [2, 3, 9, 8];
      const data = values(rng(3), prod(shape), f64);
      const r = unpool.fractionalMaxPool2d({ data, shape }, { kernelSize: 2, outputSize: [4, 5] });
      expect(r.output.shape).toEqual([2, 3, 4, 5]);
      expect(r.output.data.constructor).toBe(data.constructor);
      const plane = 72, outPlane = 20;
      for (let i = 0; i < r.output.data.length; ++i) {
        const j = r.indices.data[i];
        expect(j >= 0 && j < plane).toBe(true);
        expect(Object.is(r.output.data[i], data[Math.floor(i / outPlane) * plane + j])).toBe(true);
      }
      const cls = new unpool.FractionalMaxPool2d(2, { outputRatio: 0.5 }).forward({ data, shape });
      expect(cls.output.shape).toEqual([2, 3, 4, 4]);
    }
  });

  it('writes into out and keeps resident results, samples resident too', () => {
    const shape = [1, 2, 7, 6];
    const data = values(rng(11), prod(shape), true);
    const s = samples(rng(12), 4, true);
    const ref = refFractionalPool(data, shape, [2, 2], [3, 3], s);
    const out = { output: new Float64Array(18), indices: new BigInt64Array(18) };
    const opts = { kernelSize: 2, outputSize: 3, indexType: 'int64' } as const;
    const r = unpool.fractionalMaxPool2d({ data, shape },
                                         { ...opts, randomSamples: { data: s, shape: [1, 2, 2] }, out });
    expect(r.output.data).toBe(out.output);
    expect(sameBits(out.output, ref.output)).toBe('');
    expect(sameBits(numbers(out.indices), ref.indices)).toBe('');
    const xs = unpool.uploadTensor({ data, shape });
    const ss = unpool.uploadTensor({ data: s, shape: [1, 2, 2] });
    const res = unpool.fractionalMaxPool2d(xs, { ...opts, randomSamples: ss, resident: true });
    expect(sameBits(res.output.toArray(), ref.output)).toBe('');
    const gi = unpool.fractionalMaxPool2dBackward(res.output, res.indices,
                                                  { inputShape: shape, resident: true });
    expect(sameBits(gi.toArray(), refPoolBackward(ref.output, ref.indices, shape, ref.shape, 2)))
        .toBe('');
    for (const t of [xs, ss, res.output, res.indices, gi]) t.dispose();
  });
});

const unpoolCase = fc.integer({ min: 1, max: 3 }).chain((dims) => fc.record({
  dims: fc.constant(dims),
  inSize: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: dims, maxLength: dims }),
  outSize: fc.array(fc.integer({ min: 1, max: 7 }), { minLength: dims, maxLength: dims }),
  batched: fc.boolean(),
  n: fc.integer({ min: 0, max: 2 }),
  c: fc.integer({ min: 1, max: 3 }),
  f64: fc.boolean(),
  int64: fc.boolean(),
  last: fc.boolean(),
  seed: fc.integer(),
}));

describe('maxUnpool without kernelSize against the reference', () => {
  it('outputSize alone is the spatial size; the backward pass gathers', () => {
    fc.assert(fc.property(unpoolCase, (t) => {
      const rand = rng(t.seed);
      const { dims } = t;
      const shape = [...(t.batched ? [t.n] : []), t.c, ...t.inSize];
      const plane = prod(t.outSize);
      const data = values(rand, prod(shape), t.f64);
      const idx = Array.from({ length: data.length }, () => Math.floor(rand() * plane));
      const outShape = [...shape.slice(0, shape.length - dims), ...t.outSize];
      const want = refUnpool(data, idx, shape, t.outSize, dims)!;
      const indices = t.int64 ? BigInt64Array.from(idx, BigInt) : Int32Array.from(idx);
      const layout = t.last ? ['NLC', 'NHWC', 'NDHWC'][dims - 1] : undefined;
      const x = t.last ? toLast(data, shape, dims) : { data, shape };
      const i = t.last ? toLast(indices, shape, dims) : { data: indices, shape };
      const y = api[`maxUnpool${dims}d`](x, i, { outputSize: t.outSize, layout });
      expect(y.shape).toEqual(t.last ? lastShape(outShape, dims) : outShape);
      expect(sameBits(y.data, t.last ? toLast(want, outShape, dims).data : want)).toBe('');
      const go = grads(rand, prod(outShape), t.f64);
      const g = t.last ? toLast(go, outShape, dims) : { data: go, shape: outShape };
      const gi = api[`maxUnpool${dims}dBackward`](g, i, { layout });
      const wantGrad = refUnpoolBackward(go, outShape, idx, shape, dims)!;
      expect(sameBits(gi.data, t.last ? toLast(wantGrad, shape, dims).data : wantGrad)).toBe('');
    }), { numRuns: NUM_RUNS });
  });

  it('streams a large call, into out too; the module classes still need a kernel', () => {
    const shape = [2, 64, 30, 30];
    const data = values(rng(5), prod(shape), false);
    const r = unpool.maxPool2d({ data, shape }, { kernelSize: 3, stride: 2 });
    const outSize = [31, 32];
    const idx = Array.from(r.indices.data, Number);
    const want = refUnpool(r.output.data, idx, r.output.shape, outSize, 2)!;
    const y = unpool.maxUnpool2d(r.output, r.indices, { outputSize: outSize });
    expect(sameBits(y.data, want)).toBe('');
    const out = new Float32Array(want.length);
    unpool.maxUnpool2d(r.output, r.indices, { outputSize: outSize, out });
    expect(sameBits(out, want)).toBe('');
    expect(() => new unpool.MaxUnpool2d(undefined as never).forward(r.output, r.indices, outSize))
        .toThrow(new unpool.UnpoolTypeError('MaxUnpool2d.forward: kernelSize is required'));
  });
});
