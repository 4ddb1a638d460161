// Channels-last layouts (NLC, NHWC, NDHWC) for every op and module class:
// each result must equal the channels-first result transposed, bit for bit
// (values and indices; indices stay per-(n, c) spatial offsets).
import { beforeAll, describe, expect, it } from 'vitest';
import * as u from '../../dist/index.js';
import type { FloatArray, IndexArray, Layout, Tensor } from '../../dist/index.js';
import { lastShape, rng, sameBits, toLast } from './layout-helpers.js';

type Dims = 1 | 2 | 3;
const NAMES: Record<Dims, [Layout, Layout]> = {
  1: ['NCL', 'NLC'], 2: ['NCHW', 'NHWC'], 3: ['NCDHW', 'NDHWC'],
};

// The functional API by number of dims, typed loosely for the sweep.
type Any = (...args: unknown[]) => Tensor<FloatArray>;
const op = (name: string, d: Dims) => (u as unknown as Record<string, Any>)[name.replace('N', String(d))];
const pool = (d: Dims, x: unknown, o: object) =>
  op('maxPoolNd', d)(x, o) as unknown as { output: Tensor<FloatArray>; indices: Tensor<IndexArray> };

interface Case {
  d: Dims;
  shape: number[];  // channels-first
  x: FloatArray;
  geom: { kernelSize: number[]; stride: number[]; padding: number[]; dilation: number[]; ceilMode: boolean };
  label: string;
}

/** Random valid pool cases: ties, NaN and -0 included, f32 and f64, batched and not. */
function cases(d: Dims, batched: boolean, seed: number, count: number): Case[] {
  const r = rng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const out: Case[] = [];
  while (out.length < count) {
    const sp = Array.from({ length: d }, () => int(d === 3 ? 2 : 3, d === 3 ? 6 : 11));
    const shape = batched ? [int(1, 2), int(1, 5), ...sp] : [int(1, 5), ...sp];
    const k = sp.map(() => int(1, 3));
    const geom = {
      kernelSize: k, stride: sp.map(() => int(1, 3)), padding: k.map((kk) => int(0, kk >> 1)),
      dilation: sp.map(() => int(1, 2)), ceilMode: r() < 0.5,
    };
    const ok = sp.every((s, i) => s + 2 * geom.padding[i] - geom.dilation[i] * (k[i] - 1) - 1 >= 0);
    if (!ok) continue;
    const n = shape.reduce((a, b) => a * b, 1);
    const x = (out.length % 2 ? new Float64Array(n) : new Float32Array(n)).map(() => {
      const v = r();
      return v < 0.03 ? NaN : v < 0.08 ? -0 : Math.round(v * 9) - 4;
    });
    out.push({ d, shape, x, geom, label: `${d}d ${JSON.stringify(shape)} ${JSON.stringify(geom)}` });
  }
  return out;
}

function expectSame(got: Tensor<FloatArray | IndexArray>, want: { data: ArrayLike<number | bigint>; shape: number[] },
                    what: string): void {
  expect(got.shape, what).toEqual(want.shape);
  expect(sameBits(got.data, want.data), what).toBe('');
  expect(got.data.constructor, what).toBe(want.data.constructor);
}

beforeAll(async () => {
  await u.init();
});

describe.each([1, 2, 3] as Dims[])('%id channels-last equals channels-first transposed', (d) => {
  const [first, last] = NAMES[d];
  for (const batched of [true, false]) {
    it(`${batched ? 'batched' : 'unbatched'}: pool, unpool, both backward passes, module classes`, () => {
      for (const c of cases(d, batched, 1000 * d + (batched ? 1 : 2), 6)) {
        const xl = toLast(c.x, c.shape, d);
        // pool
        for (const indexType of ['int32', 'int64'] as const) {
          const cf = pool(d, { data: c.x, shape: c.shape }, { ...c.geom, indexType });
          const explicitFirst = pool(d, { data: c.x, shape: c.shape }, { ...c.geom, indexType, layout: first });
          expectSame(explicitFirst.output, cf.output, `${c.label} ${first} explicit`);
          const cl = pool(d, xl, { ...c.geom, indexType, layout: last });
          expectSame(cl.output, toLast(cf.output.data, cf.output.shape, d), `${c.label} pool output`);
          expectSame(cl.indices, toLast(cf.indices.data, cf.indices.shape, d), `${c.label} pool indices`);
        }
        const cf = pool(d, { data: c.x, shape: c.shape }, c.geom);
        const cl = pool(d, xl, { ...c.geom, layout: last });

        // pool backward, with the geometry and (when every index is in its plane) without
        const g = cf.output.data.map((_, i) => (i % 7) - 3 + i / 8) as FloatArray;
        const gl = toLast(g, cf.output.shape, d);
        const bf = op('maxPoolNdBackward', d)({ data: g, shape: cf.output.shape }, cf.indices,
                                               { ...c.geom, inputShape: c.shape });
        const bl = op('maxPoolNdBackward', d)(gl, cl.indices,
                                              { ...c.geom, inputShape: xl.shape, layout: last });
        expectSame(bl, toLast(bf.data, bf.shape, d), `${c.label} pool backward`);

        // unpool of random indices into a random valid outputSize, in each form
        const r = rng(c.x.length);
        const ug = { kernelSize: c.geom.kernelSize, stride: c.geom.stride, padding: c.geom.kernelSize.map(() => 0) };
        const inShape = cf.output.shape;
        const ranges = op('maxUnpoolNdOutputRange', d)(inShape, ug) as unknown as { min: number; max: number }[];
        const rangesL = op('maxUnpoolNdOutputRange', d)(lastShape(inShape, d), { ...ug, layout: last }) as unknown;
        expect(rangesL).toEqual(ranges);
        const sp = ranges.map((q) => q.min + Math.floor(r() * (q.max - q.min + 1)));
        const plane = sp.reduce((a, b) => a * b, 1);
        const idx = Int32Array.from(cf.output.data, () => Math.floor(r() * plane));
        const lead = inShape.slice(0, inShape.length - d);
        const sizeForms: [unknown, unknown][] = [
          [undefined, undefined], [sp, sp], [[...lead, ...sp], lastShape([...lead, ...sp], d)]];
        for (const [osF, osL] of sizeForms) {
          const spIn = inShape.slice(inShape.length - d);
          const dflt = spIn.map((s, i) => (s - 1) * ug.stride[i] + ug.kernelSize[i]);
          if (osF === undefined && sp.some((s, i) => s !== dflt[i])) continue;
          const uf = op('maxUnpoolNd', d)(cf.output, { data: idx, shape: inShape }, { ...ug, outputSize: osF });
          const ul = op('maxUnpoolNd', d)(cl.output, toLast(idx, inShape, d),
                                          { ...ug, outputSize: osL, layout: last });
          expectSame(ul, toLast(uf.data, uf.shape, d), `${c.label} unpool outputSize=${JSON.stringify(osF)}`);
        }
        // unpool backward (a gather), the 2-argument form and with a layout
        const uf = op('maxUnpoolNd', d)(cf.output, { data: idx, shape: inShape }, { ...ug, outputSize: sp });
        const go = uf.data.map((_, i) => i * 0.5 - 3) as FloatArray;
        const ubf = op('maxUnpoolNdBackward', d)({ data: go, shape: uf.shape }, { data: idx, shape: inShape });
        const ubl = op('maxUnpoolNdBackward', d)(toLast(go, uf.shape, d), toLast(idx, inShape, d),
                                                 { layout: last });
        expectSame(ubl, toLast(ubf.data, ubf.shape, d), `${c.label} unpool backward`);
        const ubFirst = op('maxUnpoolNdBackward', d)({ data: go, shape: uf.shape }, { data: idx, shape: inShape },
                                                     { layout: first });
        expectSame(ubFirst, ubf, `${c.label} unpool backward ${first}`);

        // module classes carry the layout into forward and backward
        const Pool = (u as unknown as Record<string, new (k: unknown, o: unknown) => {
          forward(x: unknown): { output: Tensor<FloatArray>; indices: Tensor<IndexArray> };
          backward(g: unknown, i: unknown, s: unknown): Tensor<FloatArray>;
        }>)[`MaxPool${d}d`];
        const Unpool = (u as unknown as Record<string, new (k: unknown, o: unknown) => {
          forward(x: unknown, i: unknown, s?: unknown): Tensor<FloatArray>;
          backward(g: unknown, i: unknown): Tensor<FloatArray>;
        }>)[`MaxUnpool${d}d`];
        const { kernelSize, ...rest } = c.geom;
        const mp = new Pool(kernelSize, { ...rest, layout: last });
        const mr = mp.forward(xl);
        expectSame(mr.output, cl.output, `${c.label} MaxPool${d}d`);
        expectSame(mr.indices, cl.indices, `${c.label} MaxPool${d}d indices`);
        expectSame(mp.backward(gl, cl.indices, xl.shape), bl, `${c.label} MaxPool${d}d backward`);
        const mu = new Unpool(ug.kernelSize, { stride: ug.stride, layout: last });
        const ul = mu.forward(cl.output, toLast(idx, inShape, d), sp);
        expectSame(ul, toLast(uf.data, uf.shape, d), `${c.label} MaxUnpool${d}d`);
        expectSame(mu.backward(toLast(go, uf.shape, d), toLast(idx, inShape, d)), ubl,
                   `${c.label} MaxUnpool${d}d backward`);
      }
    });
  }
});

describe('layout errors', () => {
  const x2 = { data: new Float32Array(16), shape: [1, 1, 4, 4] };
  const i2 = { data: new Int32Array(4), shape: [1, 1, 2, 2] };

  it('a layout of another dimensionality is a RangeError naming function, parameter and value', () => {
    expect(() => u.maxPool2d(x2, { kernelSize: 2, layout: 'NLC' }))
      .toThrow(new u.UnpoolError(`maxPool2d: layout="NLC" is a 1d layout; a 2d op takes 'NCHW' or 'NHWC'`, 'invalid_argument'));
    expect(() => u.maxUnpool3d(x2, i2, { kernelSize: 2, layout: 'NHWC' }))
      .toThrow(`maxUnpool3d: layout="NHWC" is a 2d layout; a 3d op takes 'NCDHW' or 'NDHWC'`);
    const g1 = { data: new Float32Array(2), shape: [1, 1, 2] };
    const i1 = { data: new Int32Array(2), shape: [1, 1, 2] };
    expect(() => u.maxPool1dBackward(g1, i1, { inputShape: [1, 1, 4], layout: 'NCDHW' }))
      .toThrow(`maxPool1dBackward: layout="NCDHW" is a 3d layout; a 1d op takes 'NCL' or 'NLC'`);
    expect(() => u.maxUnpool2dBackward(x2, i2, { layout: 'NDHWC' }))
      .toThrow(`maxUnpool2dBackward: layout="NDHWC" is a 3d layout; a 2d op takes 'NCHW' or 'NHWC'`);
    expect(() => u.maxUnpool1dOutputRange([1, 1, 2], { kernelSize: 2, layout: 'NCHW' }))
      .toThrow(`maxUnpool1dOutputRange: layout="NCHW" is a 2d layout; a 1d op takes 'NCL' or 'NLC'`);
    expect(() => new u.MaxPool1d(2, { layout: 'NHWC' }).forward({ data: new Float32Array(4), shape: [1, 1, 4] }))
      .toThrow(`MaxPool1d.forward: layout="NHWC" is a 2d layout; a 1d op takes 'NCL' or 'NLC'`);
    expect(() => new u.MaxUnpool2d(2, { layout: 'NLC' }).forward({ data: new Float32Array(4), shape: [1, 1, 2, 2] }, i2))
      .toThrow(`MaxUnpool2d.forward: layout="NLC" is a 1d layout; a 2d op takes 'NCHW' or 'NHWC'`);
  });

  it('an unknown name is a RangeError, a non-string a TypeError', () => {
    expect(() => u.maxPool2d(x2, { kernelSize: 2, layout: 'nhwc' as Layout }))
      .toThrow(new u.UnpoolError(`maxPool2d: layout="nhwc" is not a layout; a 2d op takes 'NCHW' or 'NHWC'`, 'invalid_argument'));
    expect(() => u.maxPool2d(x2, { kernelSize: 2, layout: 1 as unknown as Layout }))
      .toThrow(new u.UnpoolTypeError(`maxPool2d: layout=1 must be 'NCHW' or 'NHWC'`));
    expect(() => u.maxUnpool2dBackward(x2, i2, null as never)).toThrow(TypeError);
  });

  it('shapes are read in the layout: NHWC channels come last', () => {
    const x = { data: Float32Array.from({ length: 2 * 4 * 4 * 3 }, (_, i) => i), shape: [2, 4, 4, 3] };
    const { output, indices } = u.maxPool2d(x, { kernelSize: 2, layout: 'NHWC' });
    expect(output.shape).toEqual([2, 2, 2, 3]);
    // (n=0, y=0, x=0, c=2): window rows 0..1, cols 0..1; max at (1, 1) -> offset 5, value (1*4+1)*3+2
    expect(indices.data[2]).toBe(5);
    expect(output.data[2]).toBe(17);
    const y = u.maxUnpool2d(output, indices, { kernelSize: 2, layout: 'NHWC', outputSize: [2, 4, 4, 3] });
    expect(y.shape).toEqual([2, 4, 4, 3]);
    expect(y.data[17]).toBe(17);
    expect(y.data[14]).toBe(0);
  });
});
