// float16 and bfloat16 values through the public API: the 16-bit reference
// (reference-half.ts) checked first, then every op, `out`, resident tensors
// and uploadTensor, the module classes, channels-last, ONNX Runtime style
// tensors and streamed calls, with bits held in a Uint16Array and its dtype
// (every engine) and, where the engine has it (Node.js 24, Chromium), in a
// Float16Array. Results are compared bit for bit (any NaN equals any NaN).
import { beforeAll, describe, expect, it } from 'vitest';
import * as u from '../../dist/index.js';
import { STREAM_BYTES } from '../../dist/streamed.js';
import { wasm } from '../../dist/loader.js';
import { refAdaptivePool } from './reference-adaptive.js';
import {
  bf16ToNumber, decode, encodeAll, f16ToNumber, Half, isNaNBits, numberToBf16, numberToF16,
  refPoolBackwardHalf, refPoolHalf, sameHalfBits, toBits, toNumber,
} from './reference-half.js';
import { refUnpool, refUnpoolBackward, RefPoolGeom, type Floats } from './reference.js';
import { lastShape, toLast } from './layout-helpers.js';
import { rng } from './rng.js';

type Any = (...args: unknown[]) => any;
type Ctor = new (...args: unknown[]) => any;
const api = u as unknown as Record<string, Any & Ctor>;

type F16Ctor = {
  new (n: number): Float32Array; new (buffer: ArrayBufferLike, offset?: number, length?: number): Float32Array;
};
/** The global Float16Array where the engine has it (typed as an array of numbers). */
const F16 = (globalThis as { Float16Array?: F16Ctor }).Float16Array;
const HALVES: readonly Half[] = ['float16', 'bfloat16'];

beforeAll(async () => {
  await u.init();
});

const prod = (a: readonly number[]) => a.reduce((p, v) => p * v, 1);
/** The bits of a Uint16Array or Float16Array (its memory, not converted). */
const bitsOf = (a: ArrayBufferView) => new Uint16Array(a.buffer, a.byteOffset, a.byteLength / 2);

/** Bits with ties, signed zeros, infinities, NaNs (quiet, signalling, with payloads), subnormals. */
function halfBits(rand: () => number, n: number, dtype: Half): Uint16Array {
  const special = dtype === 'float16'
    ? [0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7fff, 0x0001, 0x8001, 0x03ff, 0x7bff, 0xfbff]
    : [0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0x7fff, 0x0001, 0x8001, 0x007f, 0x7f7f, 0xff7f];
  const a = new Uint16Array(n);
  for (let i = 0; i < n; ++i) {
    const r = rand();
    a[i] = r < 0.15 ? special[Math.floor(rand() * special.length)]
      : r < 0.6 ? toBits(dtype, Math.floor(rand() * 7) - 3)
        : Math.floor(rand() * 65536);
  }
  return a;
}

/** Gradients of varied magnitude (finite), so that per-add rounding shows. */
function gradBits(rand: () => number, n: number, dtype: Half): Uint16Array {
  return encodeAll(Array.from({ length: n }, () => (rand() - 0.5) * 2 ** Math.floor(rand() * 16 - 8)), dtype);
}

const geom = (dims: number, k: number, s: number, p: number, d = 1, ceilMode = false): RefPoolGeom => ({
  dims, kernel: Array(dims).fill(k), stride: Array(dims).fill(s), padding: Array(dims).fill(p),
  dilation: Array(dims).fill(d), ceilMode,
});
const options = (g: RefPoolGeom) => ({
  kernelSize: g.kernel, stride: g.stride, padding: g.padding, dilation: g.dilation, ceilMode: g.ceilMode,
});
const asNumbers = (a: ArrayLike<number | bigint>) => Array.from(a, Number);

describe('the 16-bit reference', () => {
  it('decodes and re-encodes every bit pattern (NaNs stay NaN)', () => {
    for (const dtype of HALVES) {
      for (let b = 0; b < 65536; ++b) {
        const v = toNumber(dtype, b);
        if (isNaNBits(dtype, b)) {
          expect(Number.isNaN(v)).toBe(true);
          expect(isNaNBits(dtype, toBits(dtype, v))).toBe(true);
        } else {
          expect(toBits(dtype, v)).toBe(b);
        }
      }
    }
  });

  it('rounds to nearest even, overflows to infinity and keeps subnormals', () => {
    const f16: [number, number][] = [
      [65504, 0x7bff], [65519.99, 0x7bff], [65520, 0x7c00], [1e9, 0x7c00], [-65520, 0xfc00],
      [2 ** -24, 0x0001], [2 ** -25, 0x0000], [3 * 2 ** -25, 0x0002], [-(2 ** -26), 0x8000],
      [1 + 2 ** -11, 0x3c00], [1 + 3 * 2 ** -11, 0x3c02], [2 ** -14 - 2 ** -25, 0x0400],
      [-0, 0x8000], [0.1, 0x2e66], [1 / 3, 0x3555],
    ];
    for (const [v, b] of f16) expect(numberToF16(v), String(v)).toBe(b);
    const bf16: [number, number][] = [
      [1 + 2 ** -8, 0x3f80], [1 + 3 * 2 ** -8, 0x3f82], [3.3895313892515355e38, 0x7f7f],
      [Math.fround(3.4e38), 0x7f80], [-0, 0x8000], [2 ** -133, 0x0001], [0.1, 0x3dcd],
    ];
    for (const [v, b] of bf16) expect(numberToBf16(v), String(v)).toBe(b);
    expect(f16ToNumber(0x7bff)).toBe(65504);
    expect(bf16ToNumber(0x3f80)).toBe(1);
  });

  it('rounds float32 to bfloat16 as the bits of the float32 do (c10::BFloat16)', () => {
    const rand = rng(7);
    const f = new Float32Array(1);
    const w = new Uint32Array(f.buffer);
    for (let i = 0; i < 20000; ++i) {
      w[0] = Math.floor(rand() * 2 ** 32);
      if (Number.isNaN(f[0])) continue;
      const want = ((w[0] + ((w[0] >>> 16) & 1) + 0x7fff) >>> 16) & 0xffff;
      expect(numberToBf16(f[0])).toBe(want);
    }
  });

  it.skipIf(F16 === undefined)('agrees with the engine\'s Float16Array', () => {
    const all = new Uint16Array(65536).map((_, i) => i);
    const values = new F16!(all.buffer);
    for (let b = 0; b < 65536; ++b) {
      if (!isNaNBits('float16', b)) expect(Object.is(values[b], f16ToNumber(b)), String(b)).toBe(true);
    }
    const rand = rng(8);
    const one = new F16!(1);
    const bits = bitsOf(one);
    for (let i = 0; i < 20000; ++i) {
      const v = Math.fround((rand() - 0.5) * 2 ** Math.floor(rand() * 44 - 28));
      one[0] = v;
      expect(numberToF16(v), String(v)).toBe(bits[0]);
    }
  });

  it('rounds after every add of the pool backward, which differs from one rounding of the sum', () => {
    // Position 1 is the maximum of three overlapping windows: 1 + 2^-11 + 2^-11 (f16) is
    // 1 after each add (ties to even) but 1 + 2^-10 summed first.
    for (const [dtype, ulpHalf] of [['float16', 2 ** -11], ['bfloat16', 2 ** -8]] as const) {
      const go = encodeAll([1, ulpHalf, ulpHalf], dtype);
      const perAdd = refPoolBackwardHalf(go, dtype, [1, 1, 1], [1, 1, 5], [1, 1, 3], 1);
      expect(toNumber(dtype, perAdd[1])).toBe(1);
      expect(toNumber(dtype, toBits(dtype, 1 + 2 * ulpHalf))).toBeGreaterThan(1);
      const x = { data: encodeAll([0, 9, 0, 0, 0], dtype), shape: [1, 1, 5], dtype };
      const r = u.maxPool1d(x, { kernelSize: 3, stride: 1 });
      expect(asNumbers(r.indices.data)).toEqual([1, 1, 2]);
      const g = u.maxPool1dBackward({ data: encodeAll([1, ulpHalf, 0], dtype), shape: [1, 1, 3], dtype },
        r.indices, { kernelSize: 3, stride: 1, inputShape: [1, 1, 5] });
      expect(Array.from(g.data)).toEqual(Array.from(encodeAll([0, 1, 0, 0, 0], dtype)));
    }
  });
});

/** Bits of a dtype as the container under test holds them. */
type Container = 'Uint16Array' | 'Float16Array';
const CONTAINERS: { dtype: Half; container: Container }[] = [
  { dtype: 'float16', container: 'Uint16Array' },
  { dtype: 'bfloat16', container: 'Uint16Array' },
  ...(F16 ? [{ dtype: 'float16' as Half, container: 'Float16Array' as Container }] : []),
];

describe.each(CONTAINERS)('$dtype values in a $container', ({ dtype, container }) => {
  const Class = container === 'Uint16Array' ? Uint16Array : F16!;
  /** A tensor of these bits as the API takes it. */
  const tensor = (bits: Uint16Array, shape: number[]): { data: u.FloatArray; shape: number[]; dtype?: Half } =>
    (container === 'Uint16Array'
    ? { data: bits, shape, dtype } : { data: new F16!(bits.buffer, bits.byteOffset, bits.length), shape });
  /** A result: of the input's class and dtype; its bits. */
  const bitsOfResult = (t: { data: ArrayBufferView; dtype: string }) => {
    expect(t.data.constructor).toBe(Class);
    expect(t.dtype).toBe(dtype);
    return bitsOf(t.data);
  };

  it('pools, unpools and takes both gradients in 1d, 2d and 3d as the reference', () => {
    const rand = rng(dtype.length * 100 + container.length);
    for (const [dims, shape, g] of [
      [1, [2, 3, 11], geom(1, 3, 2, 1, 2)],
      [1, [3, 9], geom(1, 4, 1, 2, 1, true)],
      [2, [2, 2, 7, 9], geom(2, 3, 1, 1)],
      [2, [3, 8, 6], geom(2, 2, 2, 0, 2, true)],
      [3, [1, 2, 5, 4, 6], geom(3, 2, 1, 1)],
      [3, [2, 3, 5, 5], geom(3, 3, 2, 1, 1, true)],
    ] as [1 | 2 | 3, number[], RefPoolGeom][]) {
      const what = `${dims}d ${shape}`;
      const x = halfBits(rand, prod(shape), dtype);
      const want = refPoolHalf(x, dtype, shape, g);
      const r = api[`maxPool${dims}d`](tensor(x, shape), options(g));
      expect(r.output.shape, what).toEqual(want.shape);
      expect(sameHalfBits(bitsOfResult(r.output), want.output, dtype), what).toBe('');
      expect(asNumbers(r.indices.data), what).toEqual(want.indices);
      expect(r.indices.dtype).toBe('int32');

      const go = gradBits(rand, want.output.length, dtype);
      const back = api[`maxPool${dims}dBackward`](tensor(go, want.shape), r.indices,
        { ...options(g), inputShape: shape });
      const wantBack = refPoolBackwardHalf(go, dtype, want.indices, shape, want.shape, dims);
      expect(sameHalfBits(bitsOfResult(back), wantBack, dtype), `${what} backward`).toBe('');

      // Unpool the pooled values (a result: its dtype travels with it) into the input's size
      // (the kernel-free form: no range check against the kernel).
      const spatial = shape.slice(-dims);
      const y = api[`maxUnpool${dims}d`](r.output, r.indices, { outputSize: spatial });
      const wantY = refUnpool(want.output as unknown as Floats, want.indices, want.shape, spatial, dims);
      if (wantY === null) continue;  // a window wholly in padding: its index is outside the plane
      expect(sameHalfBits(bitsOfResult(y), wantY, dtype), `${what} unpool`).toBe('');
      const gy = gradBits(rand, prod(shape), dtype);
      const gx = api[`maxUnpool${dims}dBackward`](tensor(gy, shape), r.indices);
      const wantGx = refUnpoolBackward(gy as unknown as Floats, shape, want.indices, want.shape, dims)!;
      expect(sameHalfBits(bitsOfResult(gx), wantGx, dtype), `${what} unpool backward`).toBe('');
    }
  });

  it('adaptive pooling and its gradient (repeated windows add up, rounded every time)', () => {
    const rand = rng(31);
    for (const [dims, shape, outSize] of [
      [1, [2, 3, 7], [10]], [2, [1, 2, 5, 7], [3, 9]], [3, [2, 4, 3, 5], [2, 5, 2]],
    ] as [1 | 2 | 3, number[], number[]][]) {
      const x = halfBits(rand, prod(shape), dtype);
      const ref = refAdaptivePool(decode(x, dtype), shape, outSize);
      const r = api[`adaptiveMaxPool${dims}d`](tensor(x, shape), { outputSize: outSize, indexType: 'int64' });
      expect(r.output.shape).toEqual(ref.shape);
      expect(sameHalfBits(bitsOfResult(r.output), encodeAll(ref.output, dtype), dtype)).toBe('');
      expect(asNumbers(r.indices.data)).toEqual(ref.indices);
      const go = gradBits(rand, ref.output.length, dtype);
      const back = api[`adaptiveMaxPool${dims}dBackward`](tensor(go, ref.shape), r.indices, { inputShape: shape });
      expect(sameHalfBits(bitsOfResult(back), refPoolBackwardHalf(go, dtype, ref.indices, shape, ref.shape, dims),
        dtype)).toBe('');
    }
  });

  it('channels-last gives the channels-first results transposed', () => {
    const rand = rng(5);
    const shape = [2, 3, 6, 5];
    const x = halfBits(rand, prod(shape), dtype);
    const g = geom(2, 3, 2, 1);
    const first = u.maxPool2d(tensor(x, shape), options(g));
    const xl = toLast(x as unknown as Int32Array, shape, 2);
    const last = u.maxPool2d(tensor(xl.data as unknown as Uint16Array, xl.shape), { ...options(g), layout: 'NHWC' });
    expect(last.output.shape).toEqual(lastShape(first.output.shape, 2));
    expect(Array.from(bitsOfResult(last.output)))
      .toEqual(Array.from(toLast(bitsOf(first.output.data) as unknown as Int32Array, first.output.shape, 2).data));
    const y = u.maxUnpool2d(last.output, last.indices, { kernelSize: 3, stride: 2, padding: 1, outputSize: [6, 5],
      layout: 'NHWC' });
    const yFirst = u.maxUnpool2d(first.output, first.indices, { kernelSize: 3, stride: 2, padding: 1,
      outputSize: [6, 5] });
    expect(Array.from(bitsOfResult(y)))
      .toEqual(Array.from(toLast(bitsOf(yFirst.data) as unknown as Int32Array, yFirst.shape, 2).data));
  });

  it('writes into out arrays of the input\'s class and returns them', () => {
    const rand = rng(9);
    const shape = [2, 3, 8, 8];
    const x = tensor(halfBits(rand, prod(shape), dtype), shape);
    const fresh = u.maxPool2d(x, { kernelSize: 2 });
    const out = { output: new Class(2 * 3 * 16).fill(7), indices: new Int32Array(2 * 3 * 16) };
    const r = u.maxPool2d(x, { kernelSize: 2, out });
    expect(r.output.data).toBe(out.output);
    expect(r.output.dtype).toBe(dtype);
    expect(Array.from(bitsOf(out.output))).toEqual(Array.from(bitsOf(fresh.output.data)));
    // A subarray of a larger array: only its elements are written.
    const big = new Class(prod(shape) + 2).fill(3);
    const y = u.maxUnpool2d(r.output, r.indices, { kernelSize: 2, out: big.subarray(1, prod(shape) + 1) });
    const yFresh = u.maxUnpool2d(fresh.output, fresh.indices, { kernelSize: 2 });
    expect(Array.from(bitsOf(y.data))).toEqual(Array.from(bitsOf(yFresh.data)));
    expect([big[0], big[prod(shape) + 1]]).toEqual([3, 3]);
  });

  it('keeps results resident, reads them back in the input\'s class, and takes uploaded tensors', () => {
    const before = u.memoryUsage().inUseBytes;
    const rand = rng(11);
    const shape = [2, 3, 6, 7];
    const x = tensor(halfBits(rand, prod(shape), dtype), shape);
    const copy = u.maxPool2d(x, { kernelSize: 3, stride: 2, padding: 1 });
    const xr = u.uploadTensor(x);
    expect(xr.dtype).toBe(dtype);
    expect(xr.byteLength).toBe(prod(shape) * 2);
    expect(Array.from(bitsOf(xr.toArray()))).toEqual(Array.from(bitsOf(x.data)));
    const r = u.maxPool2d(xr, { kernelSize: 3, stride: 2, padding: 1, resident: true });
    expect(r.output.dtype).toBe(dtype);
    const read = r.output.read();
    expect(bitsOfResult(read)).toEqual(bitsOf(copy.output.data));
    const y = u.maxUnpool2d(r.output, r.indices, { kernelSize: 3, stride: 2, padding: 1, outputSize: [6, 7],
      resident: true });
    const yCopy = u.maxUnpool2d(copy.output, copy.indices, { kernelSize: 3, stride: 2, padding: 1,
      outputSize: [6, 7] });
    expect(Array.from(bitsOf(y.toArray()))).toEqual(Array.from(bitsOfResult(yCopy)));
    expect(y.toArray().constructor).toBe(Class);
    for (const t of [xr, r.output, r.indices, y]) t.dispose();
    expect(u.memoryUsage().inUseBytes).toBe(before);
  });

  it('runs the module classes', () => {
    const rand = rng(13);
    const shape = [1, 2, 5, 6];
    const x = tensor(halfBits(rand, prod(shape), dtype), shape);
    const pool = new u.MaxPool2d(3, { stride: 1, padding: 1 });
    const r = pool.forward(x as never);
    const f = u.maxPool2d(x, { kernelSize: 3, stride: 1, padding: 1 });
    expect(Array.from(bitsOfResult(r.output))).toEqual(Array.from(bitsOf(f.output.data)));
    const go = tensor(gradBits(rand, prod(r.output.shape), dtype), r.output.shape);
    expect(Array.from(bitsOfResult(pool.backward(go as never, r.indices, shape)))).toEqual(
      Array.from(bitsOf(u.maxPool2dBackward(go, f.indices, { kernelSize: 3, stride: 1, padding: 1,
        inputShape: shape }).data)));
    const un = new u.MaxUnpool2d(3, { stride: 1, padding: 1 });
    expect(bitsOfResult(un.forward(r.output, r.indices))).toEqual(
      bitsOf(u.maxUnpool2d(f.output, f.indices, { kernelSize: 3, stride: 1, padding: 1 }).data));
    const a = new u.AdaptiveMaxPool2d([2, 4]).forward(x as never);
    expect(bitsOfResult(a.output)).toEqual(bitsOf(u.adaptiveMaxPool2d(x, { outputSize: [2, 4] }).output.data));
  });

  it('takes ONNX Runtime Web tensors { data, dims, type }', () => {
    const rand = rng(17);
    const dims = [1, 2, 4, 4];
    const bits = halfBits(rand, 32, dtype);
    const data = container === 'Uint16Array' ? bits : new F16!(bits.buffer);
    const r = u.maxPool2d({ data, dims, type: dtype } as never, { kernelSize: 2 });
    const want = refPoolHalf(bits, dtype, dims, geom(2, 2, 2, 0));
    expect(sameHalfBits(bitsOfResult(r.output), want.output, dtype)).toBe('');
  });

  it('streams large calls range of planes by range of planes, 2 bytes an element', () => {
    const shape = [2, 40, 64, 66];  // 80 planes of 64x66 halves -> 32x33
    const x = halfBits(rng(19), prod(shape), dtype);
    const g = geom(2, 2, 2, 0);
    const want = refPoolHalf(x, dtype, shape, g);
    const call = () => u.maxPool2d(tensor(x, shape), { kernelSize: 2 });
    let calls = 0;
    call();  // the glue binds an export to the module's function on its first call
    const m = wasm('test') as unknown as Record<string, (...a: number[]) => number>;
    const original = m.runPlan;
    m.runPlan = (...a: number[]) => {
      calls += 1;
      return original(...a);
    };
    let r;
    try {
      r = call();
    } finally {
      m.runPlan = original;
    }
    const perPlane = 64 * 66 * 2 + 32 * 33 * (2 + 4);
    expect(calls).toBe(Math.ceil(80 / Math.floor(STREAM_BYTES / perPlane)));
    expect(sameHalfBits(bitsOfResult(r.output), want.output, dtype)).toBe('');
    expect(asNumbers(r.indices.data)).toEqual(want.indices);
    // Its backward and unpool stream too, into `out`.
    const go = gradBits(rng(20), want.output.length, dtype);
    const out = new Class(prod(shape));
    const back = u.maxPool2dBackward(tensor(go, want.shape), r.indices, { kernelSize: 2, inputShape: shape, out });
    expect(back.data).toBe(out);
    expect(sameHalfBits(bitsOf(out), refPoolBackwardHalf(go, dtype, want.indices, shape, want.shape, 2), dtype))
      .toBe('');
    const y = u.maxUnpool2d(r.output, r.indices, { kernelSize: 2, outputSize: [64, 66] });
    expect(sameHalfBits(bitsOfResult(y), refUnpool(want.output as unknown as Floats, want.indices, want.shape,
      [64, 66], 2)!, dtype)).toBe('');
  });
});

describe('fractional pooling takes float32 and float64 only', () => {
  const x16 = { data: new Uint16Array(16), shape: [1, 1, 4, 4], dtype: 'float16' as Half };
  const want = (fn: string, name: string, dtype: string) => new u.UnpoolTypeError(`${fn}: ${name} holds ${dtype} ` +
    'values; fractional pooling takes float32 or float64 only');
  it('refuses 16-bit values, gradients and random samples', () => {
    for (const dtype of HALVES) {
      const x = { ...x16, dtype };
      expect(() => u.fractionalMaxPool2d(x, { kernelSize: 2, outputSize: 2 }))
        .toThrow(want('fractionalMaxPool2d', 'x', dtype));
      expect(() => u.fractionalMaxPool2dBackward({ data: new Uint16Array(4), shape: [1, 1, 2, 2], dtype },
        { data: new Int32Array(4), shape: [1, 1, 2, 2] }, { inputShape: [1, 1, 4, 4] }))
        .toThrow(want('fractionalMaxPool2dBackward', 'gradOutput', dtype));
      expect(() => u.fractionalMaxPool3d({ data: new Uint16Array(64), shape: [1, 4, 4, 4], dtype },
        { kernelSize: 2, outputSize: 2 })).toThrow(want('fractionalMaxPool3d', 'x', dtype));
      expect(() => u.fractionalMaxPool2d({ data: new Float32Array(16), shape: [1, 1, 4, 4] }, {
        kernelSize: 2, outputSize: 2, randomSamples: { data: new Uint16Array(2), shape: [1, 1, 2], dtype },
      })).toThrow(new u.UnpoolTypeError(`fractionalMaxPool2d: randomSamples must have the dtype of x (float32), got ${dtype}`));
    }
    const xr = u.uploadTensor(x16);
    expect(() => new u.FractionalMaxPool2d(2, { outputSize: 2 }).forward(xr as never))
      .toThrow(want('FractionalMaxPool2d.forward', 'x', 'float16'));
    xr.dispose();
    if (F16) {
      expect(() => u.fractionalMaxPool2d({ data: new F16(16), shape: [1, 1, 4, 4] }, { kernelSize: 2, outputSize: 2 }))
        .toThrow(want('fractionalMaxPool2d', 'x', 'float16'));
    }
  });
});
