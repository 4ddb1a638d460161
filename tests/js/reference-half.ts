// The 16-bit rules of PyTorch's CPU kernels in plain JavaScript, written
// independently of the package: its own float16 / bfloat16 <-> float32
// conversions (round to nearest even), the pool compared in float32 (the
// f32 reference in reference.ts, fed the decoded values), and the pool
// backward rounding to the dtype after every add, as
// `grad_input[maxindex] += grad_output[index]` does on c10::Half and
// c10::BFloat16. Tensors are Uint16Arrays of bits.
import { refPool, RefPoolGeom } from './reference.js';

export type Half = 'float16' | 'bfloat16';

const prod = (a: readonly number[]) => a.reduce((p, v) => p * v, 1);

/** The value of binary16 bits `b`. */
export function f16ToNumber(b: number): number {
  const sign = b & 0x8000 ? -1 : 1;
  const e = (b >> 10) & 0x1f;
  const m = b & 0x3ff;
  if (e === 0x1f) return m === 0 ? sign * Infinity : NaN;
  if (e === 0) return sign * m * 2 ** -24;  // subnormal (or zero, signed)
  return sign * (1024 + m) * 2 ** (e - 25);
}

/** The value of bfloat16 bits `b`: the top half of a float32. */
export function bf16ToNumber(b: number): number {
  const sign = b & 0x8000 ? -1 : 1;
  const e = (b >> 7) & 0xff;
  const m = b & 0x7f;
  if (e === 0xff) return m === 0 ? sign * Infinity : NaN;
  if (e === 0) return sign * m * 2 ** -133;
  return sign * (128 + m) * 2 ** (e - 134);
}

/** `x` (>= 0) rounded to an integer, ties to even. */
function roundEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
}

/**
 * The bits of `v` rounded to a float with `mant` fraction bits, exponent
 * bias `bias` and `ebits` exponent bits (round to nearest even; overflow to
 * infinity; NaN as the quiet NaN `nan`).
 */
function encode(v: number, mant: number, ebits: number, nan: number): number {
  if (Number.isNaN(v)) return nan;
  const signBit = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  const bias = 2 ** (ebits - 1) - 1;
  const maxE = 2 ** ebits - 1;
  const inf = signBit | (maxE << mant);
  if (a === Infinity) return inf;
  const minNormal = 2 ** (1 - bias);
  if (a < minNormal) {
    // Subnormal: a multiple of 2^(1 - bias - mant); rounding may carry into the smallest normal.
    return signBit | roundEven(a / 2 ** (1 - bias - mant));
  }
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1;          // log2 may round up just below a power of two
  if (2 ** (e + 1) <= a) e += 1;
  let m = roundEven(a / 2 ** (e - mant));  // in [2^mant, 2^(mant+1)]
  if (m === 2 ** (mant + 1)) {
    m = 2 ** mant;
    e += 1;
  }
  if (e + bias >= maxE) return inf;
  return signBit | ((e + bias) << mant) | (m - 2 ** mant);
}

/** Binary16 bits of `v` (round to nearest even). */
export function numberToF16(v: number): number {
  return encode(v, 10, 5, 0x7e00);
}

/** Bfloat16 bits of `v` (round to nearest even). */
export function numberToBf16(v: number): number {
  return encode(v, 7, 8, 0x7fc0);
}

export const toNumber = (dtype: Half, b: number) =>
  (dtype === 'float16' ? f16ToNumber(b) : bf16ToNumber(b));
export const toBits = (dtype: Half, v: number) =>
  (dtype === 'float16' ? numberToF16(v) : numberToBf16(v));

/** The values of a tensor of bits, as float32 (exact: every 16-bit value is a float32). */
export function decode(bits: ArrayLike<number>, dtype: Half): Float32Array {
  return Float32Array.from({ length: bits.length }, (_, i) => toNumber(dtype, bits[i]));
}

/** Bits of float32 values `values`, each rounded to the dtype. */
export function encodeAll(values: ArrayLike<number>, dtype: Half): Uint16Array {
  return Uint16Array.from({ length: values.length }, (_, i) => toBits(dtype, values[i]));
}

/**
 * Max pool of 16-bit values: compared in float32 (ties, -0 = +0 and NaN as
 * refPool has them), the chosen value returned; a window wholly in padding
 * gives -inf.
 */
export function refPoolHalf(x: Uint16Array, dtype: Half, shape: readonly number[], g: RefPoolGeom):
    { output: Uint16Array; indices: number[]; shape: number[] } {
  const r = refPool(decode(x, dtype), shape, g);
  return { output: encodeAll(r.output, dtype), indices: r.indices, shape: r.shape };
}

/**
 * Gradient of the pool in a 16-bit dtype: zeros of the input's shape, then
 * each gradOutput element added at its index in output order, the sum
 * taken in float32 and rounded to the dtype after every add. Indices
 * outside the plane are skipped.
 */
export function refPoolBackwardHalf(gradOutput: Uint16Array, dtype: Half, indices: readonly number[],
                                    inputShape: readonly number[], outputShape: readonly number[],
                                    dims: number): Uint16Array {
  const inPlane = prod(inputShape.slice(-dims)), outPlane = prod(outputShape.slice(-dims));
  const planes = prod(inputShape.slice(0, inputShape.length - dims));
  const gi = new Uint16Array(planes * inPlane);  // +0 bits
  for (let pl = 0; pl < planes; ++pl) {
    for (let o = 0; o < outPlane; ++o) {
      const j = indices[pl * outPlane + o];
      if (j < 0 || j >= inPlane) continue;
      const at = pl * inPlane + j;
      const sum = Math.fround(toNumber(dtype, gi[at]) + toNumber(dtype, gradOutput[pl * outPlane + o]));
      gi[at] = toBits(dtype, sum);
    }
  }
  return gi;
}

/** Whether bits `b` are a NaN of the dtype. */
export const isNaNBits = (dtype: Half, b: number) =>
  (dtype === 'float16' ? (b & 0x7fff) > 0x7c00 : (b & 0x7fff) > 0x7f80);

/** '' when the bits are equal element by element (any NaN equals any NaN), else the first difference. */
export function sameHalfBits(got: ArrayLike<number>, want: ArrayLike<number>, dtype: Half): string {
  if (got.length !== want.length) return `length ${got.length} != ${want.length}`;
  for (let i = 0; i < got.length; ++i) {
    const [g, w] = [got[i], want[i]];
    if (g === w || (isNaNBits(dtype, g) && isNaNBits(dtype, w))) continue;
    const hex = (b: number) => `0x${b.toString(16).padStart(4, '0')} (${toNumber(dtype, b)})`;
    return `[${i}]: got ${hex(g)}, want ${hex(w)}`;
  }
  return '';
}
