// Integer values (issue 31) through the public API against a plain JS
// reference of PyTorch's integer rule, written here on its own: the max
// starts at the type's lowest value, an element replaces it only if strictly
// greater (the first maximum in scan order wins), padding is never read, and
// a window wholly in padding gives the lowest value at the float path's
// index. Random shapes and geometries in both layouts, values with many ties
// and the types' extremes; every result in the input's class
// (Uint8ClampedArray in, Uint8ClampedArray out), exactly (int64 as BigInt).
import { beforeAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import { rng } from './rng.js';

type Fn = (...args: unknown[]) => any;
const api = unpool as unknown as Record<string, Fn>;

type IntArray = Uint8Array | Uint8ClampedArray | Int8Array | Int16Array | Int32Array | BigInt64Array;
type IntCtor = { new (n: number): IntArray; name: string };

interface IntType {
  dtype: 'uint8' | 'int8' | 'int16' | 'int32' | 'int64';
  cls: IntCtor;
  lo: number | bigint;
  hi: number | bigint;
}

const TYPES: IntType[] = [
  { dtype: 'uint8', cls: Uint8Array, lo: 0, hi: 255 },
  { dtype: 'uint8', cls: Uint8ClampedArray, lo: 0, hi: 255 },
  { dtype: 'int8', cls: Int8Array, lo: -128, hi: 127 },
  { dtype: 'int16', cls: Int16Array, lo: -32768, hi: 32767 },
  { dtype: 'int32', cls: Int32Array, lo: -(2 ** 31), hi: 2 ** 31 - 1 },
  { dtype: 'int64', cls: BigInt64Array, lo: -(2n ** 63n), hi: 2n ** 63n - 1n },
];

const RUNS = 120;
const LAST: Record<number, string> = { 1: 'NLC', 2: 'NHWC', 3: 'NDHWC' };

beforeAll(async () => {
  await unpool.init();
});

/** Values: a small range (ties), the type's ends and their neighbours, all lowest, or any value. */
function values(t: IntType, rand: () => number, n: number, mode: number): IntArray {
  const a = new t.cls(n);
  const big = typeof t.lo === 'bigint';
  const ends = big
    ? [t.lo, (t.lo as bigint) + 1n, 0n, (t.hi as bigint) - 1n, t.hi, 2n ** 53n + 1n, 2n ** 53n]
    : [t.lo, (t.lo as number) + 1, 0, (t.hi as number) - 1, t.hi];
  for (let i = 0; i < n; ++i) {
    let v: number | bigint;
    if (mode === 0) v = Math.floor(rand() * 4);
    else if (mode === 1) v = ends[Math.floor(rand() * ends.length)];
    else if (mode === 2) v = t.lo;
    else if (big) v = BigInt.asIntN(64, BigInt(Math.floor(rand() * 2 ** 32)) << 32n | BigInt(Math.floor(rand() * 2 ** 32)));
    else v = Math.floor(rand() * ((t.hi as number) - (t.lo as number) + 1)) + (t.lo as number);
    (a as unknown as (number | bigint)[])[i] = big && typeof v === 'number' ? BigInt(v) : v;
  }
  return a;
}

const prod = (a: readonly number[]) => a.reduce((p, v) => p * v, 1);

interface Geom {
  dims: number;
  kernel: number[];
  stride: number[];
  padding: number[];
  dilation: number[];
  ceilMode: boolean;
}

function outSize(i: number, k: number, s: number, p: number, d: number, ceil: boolean): number {
  const span = i + 2 * p - d * (k - 1) - 1;
  let o = Math.floor((ceil ? Math.ceil(span / s) : Math.floor(span / s))) + 1;
  if (ceil && (o - 1) * s >= i + p) --o;
  return o;
}

/** The integer rule over channels-first planes of (D, H, W) with missing dims 1. */
function refPool(x: IntArray, shape: number[], g: Geom, lo: number | bigint) {
  const sp = shape.slice(shape.length - g.dims);
  const inS = [...Array(3 - g.dims).fill(1), ...sp];
  const pad3 = (v: number[], f: number) => [...Array(3 - g.dims).fill(f), ...v];
  const k = pad3(g.kernel, 1), s = pad3(g.stride, 1), p = pad3(g.padding, 0), d = pad3(g.dilation, 1);
  const outS = inS.map((n, i) => outSize(n, k[i], s[i], p[i], d[i], g.ceilMode));
  const planes = prod(shape.slice(0, shape.length - g.dims));
  const inPlane = prod(inS), outPlane = prod(outS);
  const output = new (x.constructor as IntCtor)(planes * outPlane);
  const indices: number[] = [];
  for (let pl = 0; pl < planes; ++pl) {
    for (let o = 0; o < outPlane; ++o) {
      const oc = [Math.floor(o / (outS[1] * outS[2])), Math.floor(o / outS[2]) % outS[1], o % outS[2]];
      const start = oc.map((v, i) => v * s[i] - p[i]);
      const first = start.map((st, i) => (st < 0 ? st + Math.ceil(-st / d[i]) * d[i] : st));
      let best: number | bigint = lo;
      let at = (first[0] * inS[1] + first[1]) * inS[2] + first[2];
      for (let a = 0; a < k[0]; ++a) {
        for (let b = 0; b < k[1]; ++b) {
          for (let c = 0; c < k[2]; ++c) {
            const pos = [start[0] + a * d[0], start[1] + b * d[1], start[2] + c * d[2]];
            if (pos.some((q, i) => q < 0 || q >= inS[i])) continue;
            const flat = (pos[0] * inS[1] + pos[1]) * inS[2] + pos[2];
            const v = x[pl * inPlane + flat];
            if (v > best) {
              best = v;
              at = flat;
            }
          }
        }
      }
      (output as unknown as (number | bigint)[])[pl * outPlane + o] = best;
      indices.push(at);
    }
  }
  const outShape = [...shape.slice(0, shape.length - g.dims), ...outS.slice(3 - g.dims)];
  return { output, indices, shape: outShape, inPlane, outPlane };
}

/** (N, C, S...) -> (N, S..., C). */
function toLast<T extends IntArray | number[]>(a: T, n: number, c: number, plane: number): T {
  const out = (Array.isArray(a) ? new Array(a.length) : new (a.constructor as IntCtor)(a.length)) as T;
  for (let i = 0; i < n; ++i) {
    for (let j = 0; j < c; ++j) {
      for (let q = 0; q < plane; ++q) {
        (out as (number | bigint)[])[(i * plane + q) * c + j] = (a as (number | bigint)[])[(i * c + j) * plane + q];
      }
    }
  }
  return out;
}

function diff(got: ArrayLike<number | bigint>, want: ArrayLike<number | bigint>): string {
  if (got.length !== want.length) return `length ${got.length} != ${want.length}`;
  for (let i = 0; i < got.length; ++i) if (got[i] !== want[i]) return `[${i}] ${got[i]} != ${want[i]}`;
  return '';
}

describe('integer values against the JS reference', () => {
  for (const t of TYPES) {
    it(`max pool, unpool and its gradient: ${t.dtype} as ${t.cls.name}, both layouts`, () => {
      const rand = rng(0x31 + t.dtype.length * 7 + t.cls.name.length);
      let unpooled = 0;
      for (let run = 0; run < RUNS; ++run) {
        const dims = 1 + Math.floor(rand() * 3);
        const last = run % 2 === 1;
        const pick = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
        const g: Geom = { dims, kernel: [], stride: [], padding: [], dilation: [], ceilMode: rand() < 0.3 };
        const sp: number[] = [];
        for (let i = 0; i < dims; ++i) {
          const k = run % 3 === 0 ? 2 : pick(1, 3);
          g.kernel.push(k);
          g.stride.push(run % 3 === 0 ? 2 : pick(1, 3));
          g.padding.push(pick(0, Math.floor(k / 2)));
          g.dilation.push(run % 3 === 0 ? 1 : pick(1, 2));
          sp.push(i === dims - 1 ? pick(1, 40) : pick(1, 7));
        }
        const N = pick(1, 2), C = pick(1, 5);
        const shape = [N, C, ...sp];
        if (sp.some((s, i) => outSize(s, g.kernel[i], g.stride[i], g.padding[i], g.dilation[i], g.ceilMode) < 1)) continue;
        const x = values(t, rand, prod(shape), run % 4);
        const ref = refPool(x, shape, g, t.lo);
        const layout = last ? LAST[dims] : undefined;
        const xin = last ? toLast(x, N, C, ref.inPlane) : x;
        const xshape = last ? [N, ...sp, C] : shape;
        const indexType = run % 5 === 0 ? 'int64' : 'int32';
        const opts = {
          kernelSize: g.kernel, stride: g.stride, padding: g.padding, dilation: g.dilation,
          ceilMode: g.ceilMode, layout, indexType,
        };
        const { output, indices } = api[`maxPool${dims}d`]({ data: xin, shape: xshape }, opts);
        const what = `${t.dtype} run ${run} ${JSON.stringify({ shape, ...g, last })}`;
        expect(output.data.constructor, what).toBe(t.cls);
        expect(output.dtype, what).toBe(t.dtype);
        const wantY = last ? toLast(ref.output, N, C, ref.outPlane) : ref.output;
        const wantI = last ? toLast(ref.indices, N, C, ref.outPlane) : ref.indices;
        expect(diff(output.data, wantY), what).toBe('');
        expect(diff(Array.from(indices.data as ArrayLike<number | bigint>, Number), wantI), what).toBe('');
        // The same call again: the same bits.
        const again = api[`maxPool${dims}d`]({ data: xin, shape: xshape }, opts);
        expect(diff(again.output.data, output.data), what).toBe('');
        // Unpool back to x's size (where every index lies in the plane), then its gather.
        if (ref.indices.some((i) => i >= ref.inPlane)) continue;
        let y;
        try {
          y = api[`maxUnpool${dims}d`](output, indices, {
            kernelSize: g.kernel, stride: g.stride, padding: g.padding, outputSize: sp, layout,
          });
        } catch (e) {
          expect(e, what).toBeInstanceOf(RangeError);  // outputSize outside the unpool's range
          continue;
        }
        ++unpooled;
        const want = new t.cls(x.length);
        for (let pl = 0; pl < N * C; ++pl) {
          for (let o = 0; o < ref.outPlane; ++o) {
            (want as unknown as (number | bigint)[])[pl * ref.inPlane + ref.indices[pl * ref.outPlane + o]] =
                ref.output[pl * ref.outPlane + o];
          }
        }
        expect(y.data.constructor, what).toBe(t.cls);
        expect(diff(y.data, last ? toLast(want, N, C, ref.inPlane) : want), `unpool ${what}`).toBe('');
        const gi = api[`maxUnpool${dims}dBackward`](y, indices, { layout });
        expect(gi.data.constructor, what).toBe(t.cls);
        expect(diff(gi.data, output.data), `gather ${what}`).toBe('');
      }
      expect(unpooled).toBeGreaterThan(10);
    });

    it(`adaptive max pool: ${t.dtype} as ${t.cls.name}, both layouts`, () => {
      const rand = rng(0x77 + t.dtype.length * 13 + t.cls.name.length);
      for (let run = 0; run < RUNS; ++run) {
        const dims = 1 + Math.floor(rand() * 3);
        const last = run % 2 === 1;
        const pick = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
        const sp = Array.from({ length: dims }, () => pick(1, 9));
        const os = Array.from({ length: dims }, () => pick(1, 11));
        const N = pick(1, 2), C = pick(1, 4);
        const shape = [N, C, ...sp];
        const x = values(t, rand, prod(shape), run % 4);
        // Reference: PyTorch's adaptive windows [floor(o I / O), ceil((o + 1) I / O)).
        const inPlane = prod(sp), outPlane = prod(os);
        const want = new t.cls(N * C * outPlane);
        const wantI: number[] = [];
        const sp3 = [...Array(3 - dims).fill(1), ...sp], os3 = [...Array(3 - dims).fill(1), ...os];
        for (let pl = 0; pl < N * C; ++pl) {
          for (let o = 0; o < outPlane; ++o) {
            const oc = [Math.floor(o / (os3[1] * os3[2])), Math.floor(o / os3[2]) % os3[1], o % os3[2]];
            const lo = oc.map((v, i) => Math.floor((v * sp3[i]) / os3[i]));
            const hi = oc.map((v, i) => Math.ceil(((v + 1) * sp3[i]) / os3[i]));
            let best: number | bigint = t.lo;
            let at = (lo[0] * sp3[1] + lo[1]) * sp3[2] + lo[2];
            for (let a = lo[0]; a < hi[0]; ++a) {
              for (let b = lo[1]; b < hi[1]; ++b) {
                for (let c = lo[2]; c < hi[2]; ++c) {
                  const flat = (a * sp3[1] + b) * sp3[2] + c;
                  if (x[pl * inPlane + flat] > best) {
                    best = x[pl * inPlane + flat];
                    at = flat;
                  }
                }
              }
            }
            (want as unknown as (number | bigint)[])[pl * outPlane + o] = best;
            wantI.push(at);
          }
        }
        const layout = last ? LAST[dims] : undefined;
        const xin = last ? toLast(x, N, C, inPlane) : x;
        const { output, indices } = api[`adaptiveMaxPool${dims}d`](
            { data: xin, shape: last ? [N, ...sp, C] : shape }, { outputSize: os, layout });
        const what = `${t.dtype} run ${run} ${JSON.stringify({ shape, os, last })}`;
        expect(output.data.constructor, what).toBe(t.cls);
        expect(diff(output.data, last ? toLast(want, N, C, outPlane) : want), what).toBe('');
        expect(diff(Array.from(indices.data as Int32Array), last ? toLast(wantI, N, C, outPlane) : wantI), what)
            .toBe('');
      }
    });
  }

  it('ONNX Runtime tensors say their integer dtype with type; module classes take integers', () => {
    const data = Int8Array.from([-5, 3, -128, 7, 0, -1, 2, 2]);
    const r = unpool.maxPool1d({ data, dims: [1, 2, 4], type: 'int8' }, { kernelSize: 2 });
    expect(r.output.data).toBeInstanceOf(Int8Array);
    expect(Array.from(r.output.data)).toEqual([3, 7, 0, 2]);
    expect(Array.from(r.indices.data)).toEqual([1, 3, 0, 2]);
    const m = new unpool.MaxPool1d(2).forward({ data: BigInt64Array.from([1n, 2n ** 62n, -3n, -3n]), shape: [1, 1, 4] });
    expect(Array.from(m.output.data)).toEqual([2n ** 62n, -3n]);
    expect(Array.from(m.indices.data)).toEqual([1, 2]);
  });

  it('resident uint8 pools equal the copying API, and a large call (streamed) equals the reference', () => {
    const rand = rng(99);
    const t = TYPES[1];  // Uint8ClampedArray
    const shape = [1, 64, 112, 112];
    const x = values(t, rand, prod(shape), 0);
    const g: Geom = { dims: 2, kernel: [2, 2], stride: [2, 2], padding: [0, 0], dilation: [1, 1], ceilMode: false };
    const ref = refPool(x, shape, g, 0);
    const copy = unpool.maxPool2d({ data: x, shape }, { kernelSize: 2 });
    expect(copy.output.data).toBeInstanceOf(Uint8ClampedArray);
    expect(diff(copy.output.data, ref.output)).toBe('');
    expect(diff(Array.from(copy.indices.data), ref.indices)).toBe('');
    const up = unpool.uploadTensor({ data: x, shape });
    const r = unpool.maxPool2d(up, { kernelSize: 2, resident: true });
    expect(r.output.dtype).toBe('uint8');
    const rdata = r.output.read().data;
    expect(rdata).toBeInstanceOf(Uint8ClampedArray);
    expect(diff(rdata, ref.output)).toBe('');
    expect(diff(Array.from(r.indices.read().data as Int32Array), ref.indices)).toBe('');
    // Into `out` (streamed range by range where the engine chooses).
    const out = { output: new Uint8ClampedArray(ref.output.length), indices: new Int32Array(ref.indices.length) };
    const o = unpool.maxPool2d({ data: x, shape }, { kernelSize: 2, out });
    expect(o.output.data).toBe(out.output);
    expect(diff(out.output, ref.output)).toBe('');
    for (const w of [up, r.output, r.indices]) w.dispose();
  });
});
