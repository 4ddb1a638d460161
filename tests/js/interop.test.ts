// Index formats of other runtimes (convertIndices) against their
// specifications, round trips between every pair of formats, and
// outputSizeRange.
import { beforeAll, describe, expect, it } from 'vitest';
import * as u from '../../dist/index.js';
import type { FloatArray, IndexArray, Layout, Tensor } from '../../dist/index.js';
import {
  encodeSpec, Format, FORMATS, lastShape, rng, runtimeView, sameBits, toLast, unravel,
} from './layout-helpers.js';

type Dims = 1 | 2 | 3;
const LAST: Record<Dims, Layout> = { 1: 'NLC', 2: 'NHWC', 3: 'NDHWC' };
const pool = (d: Dims, x: unknown, o: object) =>
  (u as unknown as Record<string, (x: unknown, o: object) => {
    output: Tensor<FloatArray>; indices: Tensor<IndexArray>;
  }>)[`maxPool${d}d`](x, o);

/** A pooled input of distinct values (a shuffled 1..n), so each value names its position. */
function distinct(d: Dims, seed: number) {
  const r = rng(seed);
  const sp = Array.from({ length: d }, (_, i) => (d === 3 ? 3 : 4) + ((seed + i) % 4));
  const N = 2, C = 3;
  const shape = [N, C, ...sp];
  const n = shape.reduce((a, b) => a * b, 1);
  const x = Float64Array.from({ length: n }, (_, i) => i + 1);
  for (let i = n - 1; i > 0; --i) {
    const j = Math.floor(r() * (i + 1));
    [x[i], x[j]] = [x[j], x[i]];
  }
  // kernel 3, stride 2, padding 1: overlapping windows, some reaching into padding
  const geom = { kernelSize: 3, stride: 2, padding: 1 };
  return { N, C, sp, shape, x, geom };
}

beforeAll(async () => {
  await u.init();
});

describe.each([1, 2, 3] as Dims[])('convertIndices %id', (d) => {
  for (const layout of ['first', 'last'] as const) {
    it(`${layout === 'first' ? 'channels-first' : LAST[d]}: each format addresses the argmax in that runtime's layout`, () => {
      const { N, C, sp, shape, x, geom } = distinct(d, 10 * d + (layout === 'last' ? 1 : 0));
      const lay = layout === 'last' ? LAST[d] : undefined;
      const xin = layout === 'last' ? toLast(x, shape, d) : { data: x, shape };
      const { output, indices } = pool(d, xin, { ...geom, layout: lay });
      const outSp = output.shape.slice(layout === 'last' ? 1 : 2, layout === 'last' ? 1 + d : 2 + d);
      const plane = outSp.reduce((a, b) => a * b, 1);
      // (n, c) of element e of the indices tensor in its layout
      const nc = (e: number) => layout === 'last'
        ? [Math.floor(e / (plane * C)), e % C]
        : [Math.floor(e / (plane * C)), Math.floor(e / plane) % C];
      const inputShape = layout === 'last' ? lastShape(shape, d) : shape;
      for (const to of FORMATS) {
        const conv = u.convertIndices(indices, { from: 'pytorch', to, inputShape, layout: lay });
        expect(conv.shape).toEqual(indices.shape);
        expect(conv.data).toBeInstanceOf(to === 'pytorch' ? Int32Array : BigInt64Array);
        for (let e = 0; e < conv.data.length; ++e) {
          const [n, c] = nc(e);
          const off = Number(indices.data[e]);
          const v = Number(conv.data[e]);
          expect(v, `${to} [${e}]`).toBe(encodeSpec(to, off, n, c, C, sp));
          // the value there, in the tensor laid out as that runtime lays it out, is the max
          expect(runtimeView(to, x, N, C, sp, n, c)[v], `${to} [${e}] addresses the max`).toBe(output.data[e]);
        }
      }
    });
  }

  it('round trips between every pair of formats, both index types each way', () => {
    const { shape, x, geom } = distinct(d, 77 + d);
    const { indices } = pool(d, { data: x, shape }, { ...geom, indexType: 'int64' });
    const by: Record<string, IndexArray> = {};
    for (const f of FORMATS) by[f] = u.convertIndices(indices, { from: 'pytorch', to: f, inputShape: shape }).data;
    for (const from of FORMATS) {
      for (const to of FORMATS) {
        for (const [srcType, dstType] of [['int64', 'int64'], ['int64', 'int32'], ['int32', 'int64'], ['int32', 'int32']] as const) {
          const vals = Array.from(by[from] as ArrayLike<number | bigint>, Number);
          const src = srcType === 'int32' ? Int32Array.from(vals) : BigInt64Array.from(vals, (v) => BigInt(v));
          const there = u.convertIndices({ data: src, shape: indices.shape },
                                         { from, to, inputShape: shape, indexType: dstType });
          expect(there.data).toBeInstanceOf(dstType === 'int32' ? Int32Array : BigInt64Array);
          expect(sameBits(there.data, by[to]), `${from} -> ${to}`).toBe('');
          const back = u.convertIndices(there, { from: to, to: from, inputShape: shape, indexType: srcType });
          expect(sameBits(back.data, src), `${from} -> ${to} -> ${from}`).toBe('');
        }
      }
    }
  });
});

describe('convertIndices: shapes, types and errors', () => {
  const idx2 = (values: number[]) => ({ data: BigInt64Array.from(values, BigInt), dims: [1, 2, 2, 2] });

  it('accepts ONNX Runtime Web style { data, dims } tensors and unbatched input with a layout', () => {
    const onnx = idx2([5, 7, 13, 15, 16 + 5, 16 + 7, 16 + 13, 16 + 15]);
    const t = u.convertIndices(onnx, { from: 'onnx', to: 'pytorch', inputShape: [1, 2, 4, 4] });
    expect(Array.from(t.data as ArrayLike<number>)).toEqual([5, 7, 13, 15, 5, 7, 13, 15]);
    expect(t.shape).toEqual([1, 2, 2, 2]);
    // unbatched (C, H, W): the layout says 2d; without it, rank 3 would mean 1d (N, C, L)
    const ub = u.convertIndices({ data: new Int32Array([1, 2, 3, 4]), shape: [2, 2] },
                                { from: 'pytorch', to: 'tensorflow', inputShape: [2, 8], layout: 'NCL' });
    expect(Array.from(ub.data, Number)).toEqual([2, 4, 7, 9]);
    const d1 = u.convertIndices({ data: new Int32Array([1, 2]), shape: [1, 2, 1] },
                                { from: 'pytorch', to: 'onnx', inputShape: [1, 2, 8] });
    expect(Array.from(d1.data, Number)).toEqual([1, 10]);
    const withDims = u.convertIndices({ data: new Int32Array([1, 2]), shape: [2, 1] },
                                      { from: 'pytorch', to: 'onnx', inputShape: [2, 8], dims: 1 });
    expect(Array.from(withDims.data, Number)).toEqual([1, 10]);
  });

  it('column-major offsets of a 3x2 plane (storage_order=1)', () => {
    // row-major offset (h, w) of H=3, W=2 -> column-major h + 3 * w
    const rowMajor = new Int32Array([0, 1, 2, 3, 4, 5]);
    const t = u.convertIndices({ data: rowMajor, shape: [1, 1, 3, 2] },
                               { from: 'pytorch', to: 'onnx-column-major', inputShape: [1, 1, 3, 2] });
    expect(Array.from(t.data, Number)).toEqual([0, 3, 1, 4, 2, 5]);
    expect(unravel(3, [3, 2])).toEqual([1, 1]);
  });

  it('an index outside its own plane is an UnpoolError with the core\'s message, and nothing is returned', () => {
    const bad = idx2([0, 20, 3, 4, 16, 17, 18, 19]);
    expect(() => u.convertIndices(bad, { from: 'onnx', to: 'pytorch', inputShape: [1, 2, 4, 4] }))
      .toThrow('convertIndices: indices[1]=20 is not an onnx index into its own plane (n=0, c=0) of input ' +
               '[1, 2, 4, 4] (16 elements per plane)');
    try {
      u.convertIndices(idx2([0, 1, 2, 3, 4, 5, 6, 7]), { from: 'onnx', to: 'pytorch', inputShape: [1, 2, 4, 4] });
    } catch (e) {
      expect(e).toBeInstanceOf(u.UnpoolError);
      expect((e as u.UnpoolError).code).toBe('invalid_index');
    }
    // a TensorFlow index of the wrong channel
    expect(() => u.convertIndices({ data: new Int32Array([1, 3]), shape: [1, 1, 1, 2] },
                                  { from: 'tensorflow', to: 'pytorch', inputShape: [1, 2, 2, 2], layout: 'NHWC' }))
      .toThrow(/indices\[0\]=1 is not a tensorflow index into its own plane \(n=0, c=0\)/);
  });

  it('bad options are TypeErrors or RangeErrors naming the parameter', () => {
    const t = { data: new Int32Array(4), shape: [1, 1, 2, 2] };
    const o = { from: 'pytorch', to: 'onnx', inputShape: [1, 1, 4, 4] } as const;
    expect(() => u.convertIndices(t, { ...o, to: 'caffe' as Format }))
      .toThrow(new u.UnpoolError(`convertIndices: to="caffe" is not an index format; expected one of ` +
        `'pytorch', 'onnx', 'onnx-column-major', 'tensorflow', 'tensorflow-with-batch'`, 'invalid_argument'));
    expect(() => u.convertIndices(t, { ...o, from: undefined as unknown as Format })).toThrow(TypeError);
    expect(() => u.convertIndices(t, { ...o, inputShape: undefined as never }))
      .toThrow(new u.UnpoolTypeError('convertIndices: inputShape is required'));
    expect(() => u.convertIndices(t, { ...o, indexType: 'int16' as never })).toThrow(TypeError);
    expect(() => u.convertIndices(t, { ...o, layout: 'NLC' })).toThrow(RangeError);  // 1d layout, rank-4 shapes
    expect(() => u.convertIndices(t, { ...o, layout: 'NHWC', dims: 3 }))
      .toThrow(`convertIndices: dims=3 does not match layout="NHWC"`);
    expect(() => u.convertIndices(t, { ...o, inputShape: [4, 4] }))
      .toThrow(/convertIndices: inputShape=\[4, 4\] has 2 dims/);
    expect(() => u.convertIndices({ data: new Float32Array(4), shape: [1, 1, 2, 2] } as never, o)).toThrow(TypeError);
  });

  it('int32 results too small for the format are too_large', () => {
    // 70000 x 70000 plane: ONNX indices of channel 1 exceed 2^31 - 1
    const t = { data: new Int32Array([0, 0]), shape: [1, 2, 1, 1] };
    let err: unknown;
    try {
      u.convertIndices(t, { from: 'pytorch', to: 'onnx', inputShape: [1, 2, 70000, 70000], indexType: 'int32' });
    } catch (e) { err = e; }
    expect(err).toBeInstanceOf(u.UnpoolError);
    expect((err as u.UnpoolError).code).toBe('too_large');
    const ok = u.convertIndices(t, { from: 'pytorch', to: 'onnx', inputShape: [1, 2, 70000, 70000] });
    expect(ok.data[1]).toBe(4900000000n);
  });
});

describe('outputSizeRange', () => {
  it('the issue\'s example: a 2x2 map pooled from 5x5 with kernel 3, stride 2 unpools to 4..6 per side', () => {
    expect(u.outputSizeRange([1, 3, 2, 2], { kernelSize: 3, stride: 2 }))
      .toEqual([{ min: 4, max: 6 }, { min: 4, max: 6 }]);
    // 5 is in the range: the shape it was pooled from
    const x = { data: Float32Array.from({ length: 25 }, (_, i) => i), shape: [1, 1, 5, 5] };
    const { output, indices } = u.maxPool2d(x, { kernelSize: 3, stride: 2 });
    // the 5x5 it came from puts each maximum back where it was
    const y = u.maxUnpool2d(output, indices, { kernelSize: 3, stride: 2, outputSize: [5, 5] });
    expect(Array.from(y.data).filter((v) => v !== 0)).toEqual([12, 14, 22, 24]);
    const zeros = { data: new Int32Array(4), shape: [1, 1, 2, 2] };
    for (const s of [4, 5, 6]) {
      expect(u.maxUnpool2d(output, zeros, { kernelSize: 3, stride: 2, outputSize: [s, s] }).shape)
        .toEqual([1, 1, s, s]);
    }
    for (const s of [3, 7]) {
      expect(() => u.maxUnpool2d(output, zeros, { kernelSize: 3, stride: 2, outputSize: [s, s] }))
        .toThrow(/outside 4\.\.6/);
    }
  });

  it('agrees with maxUnpool1d/2d/3dOutputRange; dims from layout, dims, or rank - 2', () => {
    const r = rng(5);
    for (let t = 0; t < 60; ++t) {
      const d = (1 + (t % 3)) as Dims;
      const sp = Array.from({ length: d }, () => 1 + Math.floor(r() * 6));
      const g = {
        kernelSize: sp.map(() => 1 + Math.floor(r() * 4)), stride: sp.map(() => 1 + Math.floor(r() * 3)),
        padding: 0,
      };
      const shape = [2, 3, ...sp];
      const want = (u as unknown as Record<string, (s: number[], o: object) => unknown>)[`maxUnpool${d}dOutputRange`](shape, g);
      expect(u.outputSizeRange(shape, g)).toEqual(want);
      expect(u.outputSizeRange(lastShape(shape, d), { ...g, layout: LAST[d] })).toEqual(want);
      expect(u.outputSizeRange([3, ...sp], { ...g, dims: d })).toEqual(want);
      expect(u.outputSizeRange([...sp, 3], { ...g, layout: LAST[d] })).toEqual(want);
    }
  });

  it('errors name outputSizeRange and the parameter', () => {
    expect(() => u.outputSizeRange([2, 2], { kernelSize: 3 }))
      .toThrow(new u.UnpoolError('outputSizeRange: shape=[2, 2] has 2 dims; a batched (N, C, spatial...) ' +
        'shape has 3 to 5 (for an unbatched one give layout or dims)', 'invalid_shape'));
    // the core's checks name the maxUnpoolNdOutputRange that outputSizeRange calls
    expect(() => u.outputSizeRange([1, 1, 2, 2], { kernelSize: 0 }))
      .toThrow('maxUnpool2dOutputRange: kernelSize=0 must be >= 1');
    expect(() => u.outputSizeRange([1, 1, -2, 2], { kernelSize: 2 })).toThrow(/^outputSizeRange: shape\[2\]=-2 must be >= 0/);
    expect(() => u.outputSizeRange([1, 1, 2, 2], {} as never)).toThrow(new u.UnpoolTypeError('outputSizeRange: kernelSize is required'));
    expect(() => u.outputSizeRange([1, 1, 2, 2], { kernelSize: 2, dims: 4 })).toThrow(RangeError);
    expect(() => u.outputSizeRange('1,1,2,2' as never, { kernelSize: 2 })).toThrow(TypeError);
    expect(() => u.outputSizeRange([1, 1, 2], { kernelSize: 2, layout: 3 as never }))
      .toThrow(new u.UnpoolTypeError(`outputSizeRange: layout=3 must be one of 'NCL', 'NLC', 'NCHW', 'NHWC', 'NCDHW', 'NDHWC'`));
    expect(() => u.outputSizeRange([1, 1, 2], { kernelSize: 2, layout: 'NHCW' as never }))
      .toThrow(new u.UnpoolError(`outputSizeRange: layout="NHCW" is not a layout; a 2d op takes 'NCHW' or 'NHWC'`, 'invalid_argument'));
  });
});
