// Property-based tests at the JS boundary (fast-check): random shapes and
// geometries, every op through the public API, compared bit for bit
// (Object.is per element) with the plain JS reference in reference.ts.
// Each property also calls the op twice and expects identical bits.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import {
  Floats, refPool, refPoolBackward, RefPoolGeom, refPoolShape, refUnpool, refUnpoolBackward,
  refUnpoolDefault, refUnpoolRange, sameBits,
} from './reference.js';
import { rng } from './rng.js';

type Fn = (...args: unknown[]) => any;
type Ctor = new (...args: unknown[]) => any;
const api = unpool as unknown as Record<string, Fn & Ctor>;

// Runs per property; the file stays well under 20 s in Node.
const NUM_RUNS = Number((globalThis as { process?: { env: Record<string, string> } })
  .process?.env.UNPOOL_PROPERTY_RUNS ?? 2000);

beforeAll(async () => {
  await unpool.init();
});

/** Values with many ties, signed zeros, infinities and NaNs. */
function values(rand: () => number, n: number, f64: boolean): Floats {
  const a = f64 ? new Float64Array(n) : new Float32Array(n);
  for (let i = 0; i < n; ++i) {
    const r = rand();
    let v: number;
    if (r < 0.05) v = NaN;
    else if (r < 0.08) v = Infinity;
    else if (r < 0.12) v = -Infinity;
    else if (r < 0.18) v = -0;
    else if (r < 0.7) v = Math.floor(rand() * 7) - 3;
    else v = (rand() - 0.5) * 10 ** Math.floor(rand() * 6 - 2);
    a[i] = v;
  }
  return a;
}

/** Gradients of varied magnitude, so that summation order shows in float bits. */
function grads(rand: () => number, n: number, f64: boolean): Floats {
  const a = f64 ? new Float64Array(n) : new Float32Array(n);
  for (let i = 0; i < n; ++i) a[i] = (rand() - 0.5) * 10 ** Math.floor(rand() * 8 - 4);
  return a;
}

const prod = (a: readonly number[]) => a.reduce((p, v) => p * v, 1);
const toIndexArray = (idx: readonly number[], int64: boolean) =>
  int64 ? BigInt64Array.from(idx, (v) => BigInt(v)) : Int32Array.from(idx);

type Form = 'scalar' | 'list' | 'one';
/** A per-dim size as the user may write it: a number, one entry per dim, or (pools) one entry for all. */
function sizeAs(v: number[], form: Form): number | number[] {
  const same = v.every((e) => e === v[0]);
  if (same && form === 'scalar') return v[0];
  if (same && form === 'one') return [v[0]];
  return v;
}

function expectUnpoolError(call: () => unknown, code: string, message: RegExp): void {
  let thrown: unknown;
  try {
    call();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(unpool.UnpoolError);
  expect((thrown as unpool.UnpoolError).code).toBe(code);
  expect((thrown as Error).message).toMatch(message);
}

const perDim = (maxK: number, maxD: number, maxExtra: number) => fc.record({
  k: fc.integer({ min: 1, max: maxK }),
  s: fc.integer({ min: 1, max: 4 }),
  d: fc.integer({ min: 1, max: maxD }),
  p: fc.integer({ min: 0, max: 2 }),
  extra: fc.integer({ min: 0, max: maxExtra }),
});

const poolCase = fc.integer({ min: 1, max: 3 }).chain((dims) => fc.record({
  dims: fc.constant(dims),
  dim: fc.array(dims === 3 ? perDim(3, 2, 3) : perDim(4, 3, 5), { minLength: dims, maxLength: dims }),
  ceilMode: fc.boolean(),
  batched: fc.boolean(),
  n: fc.integer({ min: 0, max: 2 }),
  c: fc.integer({ min: 1, max: 3 }),
  f64: fc.boolean(),
  int64: fc.boolean(),
  omitStride: fc.boolean(),
  form: fc.constantFrom<Form>('scalar', 'list', 'one'),
  useClass: fc.boolean(),
  outputSizeForm: fc.constantFrom('spatial', 'nc', 'c'),
  seed: fc.integer(),
}));

describe('properties against the JS reference', () => {
  it('pool, both backward passes and unpool (default and random valid outputSize)', () => {
    fc.assert(fc.property(poolCase, (t) => {
      const rand = rng(t.seed);
      const { dims } = t;
      const kernel = t.dim.map((e) => e.k);
      const stride = t.omitStride ? kernel : t.dim.map((e) => e.s);
      const padding = t.dim.map((e) => Math.min(e.p, Math.floor(e.k / 2)));
      const dilation = t.dim.map((e) => e.d);
      const spatial = t.dim.map((e, i) =>
        Math.max(1, e.d * (e.k - 1) + 1 - 2 * padding[i]) + e.extra);
      const shape = [...(t.batched ? [t.n] : []), t.c, ...spatial];
      const g: RefPoolGeom = { dims, kernel, stride, padding, dilation, ceilMode: t.ceilMode };
      expect(refPoolShape(shape, g)).not.toBeNull();
      const x = { data: values(rand, prod(shape), t.f64), shape };
      const geometry = {
        kernelSize: sizeAs(kernel, t.form),
        stride: t.omitStride ? undefined : sizeAs(stride, t.form),
        padding: sizeAs(padding, t.form),
        dilation: sizeAs(dilation, t.form),
        ceilMode: t.ceilMode,
      };
      const indexType = t.int64 ? 'int64' : 'int32';
      // The module takes the kernel size as its first argument, the rest as options.
      const { kernelSize, ...moduleGeometry } = geometry;
      const layer = new api[`MaxPool${dims}d`](kernelSize, { ...moduleGeometry, indexType });
      const pool = () => (t.useClass ? layer.forward(x) : api[`maxPool${dims}d`](x, { ...geometry, indexType }));

      // Pool: values and indices.
      const ref = refPool(x.data, shape, g);
      const r = pool();
      expect(r.output.shape).toEqual(ref.shape);
      expect(r.indices.shape).toEqual(ref.shape);
      expect(r.output.data.constructor).toBe(x.data.constructor);
      expect(r.indices.data).toBeInstanceOf(t.int64 ? BigInt64Array : Int32Array);
      expect(sameBits(r.output.data, ref.output), 'pool output').toBe('');
      expect(sameBits(r.indices.data, ref.indices), 'pool indices').toBe('');
      const again = pool();
      expect(sameBits(again.output.data, r.output.data), 'pool is deterministic').toBe('');
      expect(sameBits(again.indices.data, r.indices.data)).toBe('');

      // Pool backward, with the pool's geometry and without it.
      const go = { data: grads(rand, prod(ref.shape), t.f64), shape: ref.shape };
      const refGrad = refPoolBackward(go.data, ref.indices, shape, ref.shape, dims);
      const back = t.useClass
        ? layer.backward(go, r.indices, shape)
        : api[`maxPool${dims}dBackward`](go, r.indices, { ...geometry, inputShape: shape });
      expect(back.shape).toEqual(shape);
      expect(sameBits(back.data, refGrad), 'pool backward').toBe('');
      const plain = () => api[`maxPool${dims}dBackward`](go, r.indices, { inputShape: shape });
      const inPlane = prod(spatial);
      const bad = ref.indices.findIndex((j) => j < 0 || j >= inPlane);
      if (bad < 0) {
        expect(sameBits(plain().data, refGrad), 'pool backward without geometry').toBe('');
      } else {
        expectUnpoolError(plain, 'invalid_index',
          new RegExp(`^maxPool${dims}dBackward: indices\\[${bad}\\]=${ref.indices[bad]} is out of range`));
      }

      // Unpool of the pooled values, with the pool's kernel, stride and padding.
      const ug = { dims, kernel, stride, padding };
      const uopts = {
        kernelSize: sizeAs(kernel, t.form === 'one' ? 'scalar' : t.form),
        stride: t.omitStride ? undefined : sizeAs(stride, t.form === 'one' ? 'scalar' : t.form),
        padding: sizeAs(padding, t.form === 'one' ? 'scalar' : t.form),
      };
      const unpoolModule = () => new api[`MaxUnpool${dims}d`](uopts.kernelSize, { stride: uopts.stride, padding: uopts.padding });
      const dflt = refUnpoolDefault(ref.shape, ug);
      const unpoolWith = (outputSize?: number[]) => (t.useClass
        ? unpoolModule().forward(r.output, r.indices, outputSize)
        : api[`maxUnpool${dims}d`](r.output, r.indices, { ...uopts, outputSize }));
      if (dflt.some((v) => v < 1)) {
        expectUnpoolError(() => unpoolWith(), 'invalid_argument', /default output size/);
        return;
      }
      const ranges = api[`maxUnpool${dims}dOutputRange`](ref.shape, uopts);
      expect(ranges).toEqual(refUnpoolRange(ref.shape, ug));
      const lead = ref.shape.slice(0, ref.shape.length - dims);
      const chosen = ranges.map(({ min, max }: { min: number; max: number }) =>
        min + Math.floor(rand() * (max - min + 1)));
      let outputSize = chosen;
      if (t.outputSizeForm === 'nc') outputSize = [7, 9, ...chosen];  // N and C are ignored
      if (t.outputSizeForm === 'c' && !t.batched) outputSize = [5, ...chosen];
      for (const [spatialOut, given] of [[dflt, undefined], [chosen, outputSize]] as const) {
        const want = refUnpool(r.output.data, ref.indices, ref.shape, spatialOut, dims);
        if (want === null) {
          const j = ref.indices.findIndex((v) => v < 0 || v >= prod(spatialOut));
          expectUnpoolError(() => unpoolWith(given as number[] | undefined), 'invalid_index',
            // A module's error names its method (issue 32).
            new RegExp(`^${t.useClass ? `MaxUnpool${dims}d\\.forward` : `maxUnpool${dims}d`}: indices\\[${j}\\]=${ref.indices[j]} is out of range`));
          continue;
        }
        const y = unpoolWith(given as number[] | undefined);
        expect(y.shape).toEqual([...lead, ...spatialOut]);
        expect(sameBits(y.data, want), 'unpool').toBe('');
        // Unpool backward: a gather from a gradient of the unpooled shape.
        const gy = { data: grads(rand, prod(y.shape), t.f64), shape: y.shape };
        const gx = t.useClass
          ? unpoolModule().backward(gy, r.indices)
          : api[`maxUnpool${dims}dBackward`](gy, r.indices);
        expect(gx.shape).toEqual(ref.shape);
        expect(sameBits(gx.data, refUnpoolBackward(gy.data, y.shape, ref.indices, ref.shape, dims)!),
          'unpool backward').toBe('');
      }
    }), { numRuns: NUM_RUNS });
  }, 120_000);

  const unpoolCase = fc.integer({ min: 1, max: 3 }).chain((dims) => fc.record({
    dims: fc.constant(dims),
    dim: fc.array(fc.record({
      k: fc.integer({ min: 1, max: 4 }),
      s: fc.integer({ min: 1, max: 4 }),
      p: fc.integer({ min: 0, max: 2 }),
      in: fc.integer({ min: 1, max: dims === 3 ? 3 : 5 }),
    }), { minLength: dims, maxLength: dims }),
    batched: fc.boolean(),
    n: fc.integer({ min: 0, max: 2 }),
    c: fc.integer({ min: 0, max: 3 }),
    f64: fc.boolean(),
    int64: fc.boolean(),
    distinct: fc.integer({ min: 1, max: 6 }),  // indices drawn from this many positions: duplicates
    hostile: fc.option(fc.constantFrom(-1, -(2 ** 31), 'plane', 'plane+1', 2 ** 31 - 1, 2 ** 40, -(2 ** 62), 2 ** 62),
      { freq: 4 }),
    seed: fc.integer(),
  }));

  it('unpool of arbitrary (duplicate) indices and its backward; out-of-range indices are named', () => {
    fc.assert(fc.property(unpoolCase, (t) => {
      const rand = rng(t.seed);
      const { dims } = t;
      const kernel = t.dim.map((e) => e.k), stride = t.dim.map((e) => e.s);
      const padding = t.dim.map((e) => Math.min(e.p, Math.floor((e.k - 1) / 2)));
      const spatial = t.dim.map((e) => e.in);
      const shape = [...(t.batched ? [t.n, Math.max(t.c, 1)] : [t.c]), ...spatial];
      const ug = { dims, kernel, stride, padding };
      const outSpatial = refUnpoolDefault(shape, ug);
      const outPlane = prod(outSpatial);
      const n = prod(shape);
      const x = { data: values(rand, n, t.f64), shape };
      const base = Math.floor(rand() * outPlane);
      const idx = Array.from({ length: n }, () => (base + Math.floor(rand() * t.distinct)) % outPlane);
      let badAt = -1;
      if (t.hostile !== null && n > 0) {
        badAt = Math.floor(rand() * n);
        let v = t.hostile === 'plane' ? outPlane : t.hostile === 'plane+1' ? outPlane + 1 : t.hostile as number;
        if (!t.int64 && (v > 2 ** 31 - 1 || v < -(2 ** 31))) v = -1;  // int32 can hold only these
        idx[badAt] = v;
      }
      const indices = {
        data: t.int64 ? BigInt64Array.from(idx, (v) => BigInt(v)) : Int32Array.from(idx), shape,
      };
      const opts = { kernelSize: kernel, stride, padding };
      const call = () => api[`maxUnpool${dims}d`](x, indices, opts);
      const gy = { data: grads(rand, prod(shape.slice(0, -dims)) * outPlane, t.f64),
        shape: [...shape.slice(0, -dims), ...outSpatial] };
      const back = () => api[`maxUnpool${dims}dBackward`](gy, indices);
      const want = refUnpool(x.data, idx, shape, outSpatial, dims);
      if (want === null) {
        const j = idx.findIndex((v) => v < 0 || v >= outPlane);
        // Indices are checked in order: the first bad one is named.
        // (BigInt prints the int64 values exactly: they are powers of two, exact as numbers.)
        // (Tiny planes may fit another format or outputSize too: a hint follows then, tests/js/index-hints.test.ts.)
        const msg = (op: string) => new RegExp(`^${op}: indices\\[${j}\\]=${BigInt(idx[j])} is out of range for output plane ` +
          `${outSpatial.join('x')} \\(${outPlane} elements\\)(; every index .*)?$`);
        expectUnpoolError(call, 'invalid_index', msg(`maxUnpool${dims}d`));
        expectUnpoolError(back, 'invalid_index', msg(`maxUnpool${dims}dBackward`));
        return;
      }
      const y = call();
      expect(y.shape).toEqual(gy.shape);
      expect(sameBits(y.data, want), 'unpool').toBe('');
      expect(sameBits(call().data, y.data), 'unpool is deterministic').toBe('');
      const gx = back();
      expect(gx.shape).toEqual(shape);
      expect(sameBits(gx.data, refUnpoolBackward(gy.data, gy.shape, idx, shape, dims)!), 'unpool backward').toBe('');
      expect(sameBits(back().data, gx.data)).toBe('');
      // Pool backward scatter-adds the same duplicates: exactly the order-dependent float sums.
      const pb = api[`maxPool${dims}dBackward`](x, indices, { inputShape: gy.shape });
      expect(sameBits(pb.data, refPoolBackward(x.data, idx, gy.shape, shape, dims)), 'pool backward').toBe('');
    }), { numRuns: NUM_RUNS });
  }, 120_000);

  it('int32 and int64 indices give the same results', () => {
    fc.assert(fc.property(poolCase, (t) => {
      const rand = rng(t.seed);
      const kernel = t.dim.map((e) => e.k), padding = t.dim.map((e) => Math.min(e.p, Math.floor(e.k / 2)));
      const spatial = t.dim.map((e, i) => Math.max(1, e.d * (e.k - 1) + 1 - 2 * padding[i]) + e.extra);
      const shape = [...(t.batched ? [t.n] : []), t.c, ...spatial];
      const x = { data: values(rand, prod(shape), t.f64), shape };
      const opts = { kernelSize: kernel, padding, dilation: t.dim.map((e) => e.d), ceilMode: t.ceilMode };
      const a = api[`maxPool${t.dims}d`](x, { ...opts, indexType: 'int32' });
      const b = api[`maxPool${t.dims}d`](x, { ...opts, indexType: 'int64' });
      expect(sameBits(a.output.data, b.output.data)).toBe('');
      expect(sameBits(a.indices.data, b.indices.data)).toBe('');
      const go = { data: grads(rand, a.output.data.length, t.f64), shape: a.output.shape };
      const ga = api[`maxPool${t.dims}dBackward`](go, a.indices, { ...opts, inputShape: shape });
      const gb = api[`maxPool${t.dims}dBackward`](go, { data: toIndexArray(Array.from(a.indices.data), true), shape: a.output.shape },
        { ...opts, inputShape: shape });
      expect(sameBits(ga.data, gb.data)).toBe('');
    }), { numRuns: Math.ceil(NUM_RUNS / 3) });
  }, 120_000);
});
