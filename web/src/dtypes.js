// The value type the demo runs in: float32 as it is, or float16 / bfloat16
// as their bits in a Uint16Array with `dtype` (every browser has those; a
// Float16Array is not needed). The page rounds the input to the chosen type
// (round to nearest even, as PyTorch's .half() and .bfloat16() do) and
// shows the rounded values, so a user sees what the 16-bit types keep; the
// library then pools and unpools the bits.
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

function f16Bits(v) {
  f32[0] = v;
  const b = u32[0], sign = (b >>> 16) & 0x8000, a = b & 0x7fffffff;
  if (a > 0x7f800000) return sign | 0x7e00;  // NaN
  if (a >= 0x477ff000) return sign | 0x7c00;  // rounds past 65504: inf
  if (a < 0x38800000) {  // below 2^-14: a multiple of 2^-24
    const m = Math.abs(f32[0]) / 2 ** -24, r = Math.round(m);
    return sign | (r - m === 0.5 && r % 2 === 1 ? r - 1 : r);
  }
  const e = (a >>> 23) - 112, mant = a & 0x7fffff;
  let h = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (h & 1))) h += 1;
  return sign | h;
}

function f16Value(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >>> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0x1f) return m ? NaN : s * Infinity;
  return e === 0 ? s * m * 2 ** -24 : s * (1024 + m) * 2 ** (e - 25);
}

function bf16Bits(v) {
  f32[0] = v;
  const b = u32[0];
  if ((b & 0x7fffffff) > 0x7f800000) return 0x7fc0;
  return ((b + 0x7fff + ((b >>> 16) & 1)) >>> 16) & 0xffff;
}

function bf16Value(h) {
  u32[0] = h << 16;
  return f32[0];
}

export const DTYPES = {
  float32: null,
  float16: { bits: f16Bits, value: f16Value },
  bfloat16: { bits: bf16Bits, value: bf16Value },
};

// Integer values (issue 31): the input rounded to the nearest integer and
// clamped to the type (as a cast of the rounded value would saturate), in
// the type's own array; NaN becomes 0.
const INTS = {
  uint8: { Array: Uint8Array, lo: 0, hi: 255 },
  int8: { Array: Int8Array, lo: -128, hi: 127 },
};
const toInt = (v, t) => (Number.isNaN(v) ? 0 : Math.min(t.hi, Math.max(t.lo, Math.round(v))));

/** The source with its values rounded to `dtype` (float32: as it is). */
export function rounded(src, dtype) {
  const i = INTS[dtype];
  if (i) return { ...src, data: Float32Array.from(src.data, (v) => toInt(v, i)) };
  const t = DTYPES[dtype];
  if (!t) return src;
  return { ...src, data: Float32Array.from(src.data, (v) => t.value(t.bits(v))) };
}

/** A tensor of `src`'s values in `dtype`, for the library. */
export function tensorOf(src, dtype) {
  const shape = [1, src.C, src.H, src.W];
  const i = INTS[dtype];
  if (i) return { data: i.Array.from(src.data, (v) => toInt(v, i)), shape };
  const t = DTYPES[dtype];
  if (!t) return { data: src.data, shape };
  return { data: Uint16Array.from(src.data, t.bits), shape, dtype };
}

/** The values of a result (float32 or integer data, or 16-bit bits), as numbers. */
export function valuesOf(data, dtype) {
  // uint8 and int8 elements read as numbers already: the data as it is (an
  // image's pooled Uint8ClampedArray is drawn straight from it).
  if (INTS[dtype]) return data;
  const t = DTYPES[dtype];
  return t ? Float32Array.from(data, t.value) : data;
}

/**
 * What the library gets for source `src` in pooling mode `mode`:
 * {src, x, dtype, layout}, `src` being what the page shows as the input.
 * - A number grid: its values rounded to `dtype`, channels first.
 * - An image: its RGBA bytes as they are, ImageData.data (a
 *   Uint8ClampedArray), shape [1, H, W, 4], layout 'NHWC': no copy and no
 *   float conversion, and the results are Uint8ClampedArrays again, drawn
 *   straight onto the canvases. The value-type selector is for grids only.
 *   Fractional pooling is the exception: like PyTorch's, it takes float32 or
 *   float64 values, channels first, only (a uint8 or channels-last call is
 *   the library's TypeError / UnpoolError), so in that mode the bytes are
 *   copied to planar float32 [1, 4, H, W] (whole numbers: the same maxima).
 */
export function inputOf(src, dtype, mode) {
  if (src.kind !== 'image') {
    const shown = rounded(src, dtype);
    return { src: shown, x: tensorOf(shown, dtype), dtype, layout: 'NCHW' };
  }
  const { H, W, rgba } = src;
  if (mode !== 'fractional') return { src, x: { data: rgba, shape: [1, H, W, 4] }, dtype: 'uint8', layout: 'NHWC' };
  const n = H * W;
  const planar = new Float32Array(4 * n);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 4; c++) planar[c * n + i] = rgba[i * 4 + c];
  }
  return { src, x: { data: planar, shape: [1, 4, H, W] }, dtype: 'float32', layout: 'NCHW' };
}
