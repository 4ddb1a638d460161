// The benchmarks' workloads and inputs, shared by bench.mjs, its probes
// (probes.mjs, ab.mjs), the browser page (browser.html) and the WebGPU
// benchmark: the workloads, pseudo-random inputs as every value type, and
// the window and pooled shape of a workload.

/**
 * Workloads: k = s = 2, no padding, as the native benchmark names them, and
 * ResNet's pool (k = 3, s = 2, padding 1: `window`, the native name's last
 * part; `k`, `s`, `p`).
 */
export const WORKLOADS = [
  { name: '1d 1x64x12544', dims: 1, shape: [1, 64, 12544] },
  { name: '2d 1x64x112x112', dims: 2, shape: [1, 64, 112, 112] },
  { name: '2d 1x64x112x112 k3s2p1', dims: 2, shape: [1, 64, 112, 112], window: 'k3s2p1', k: 3, s: 2, p: 1 },
  { name: '2d 8x64x56x56', dims: 2, shape: [8, 64, 56, 56] },
  { name: '2d 1x3x512x512', dims: 2, shape: [1, 3, 512, 512] },
  { name: '2d 1x8x16x16', dims: 2, shape: [1, 8, 16, 16] },
  { name: '3d 1x16x32x32x32', dims: 3, shape: [1, 16, 32, 32, 32] },
];

/** Pseudo-random float32 values in [-128, 128) of `shape`, the same on every run. */
export function input(shape, seed = 1) {
  let a = seed >>> 0;
  const n = shape.reduce((p, d) => p * d, 1);
  const x = new Float32Array(n);
  for (let i = 0; i < n; ++i) {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    x[i] = (a >>> 8) / 65536 - 128;
  }
  return x;
}

const INTEGER_ARRAYS = { uint8: Uint8Array, int8: Int8Array, int16: Int16Array };

/** `input()`'s values as uint8, int8 or int16 (wrapped to the type: any values serve a timing). */
export function intValues(f32, dtype) {
  const a = new INTEGER_ARRAYS[dtype](f32.length);
  for (let i = 0; i < f32.length; ++i) a[i] = Math.floor(f32[i] * 256);
  return a;
}

/** The value types a benchmark can give a tensor. */
export const DTYPES = ['float32', 'float16', 'bfloat16', ...Object.keys(INTEGER_ARRAYS)];

/** A tensor of `shape` with float32 values `f32` as `dtype` (one of DTYPES). */
export function tensorOf(f32, shape, dtype) {
  if (dtype === 'float32') return { data: f32, shape };
  if (dtype === 'float16' || dtype === 'bfloat16') return { data: halfBits(f32, dtype), shape, dtype };
  if (dtype in INTEGER_ARRAYS) return { data: intValues(f32, dtype), shape };
  throw new Error(`bench: the value type must be one of ${DTYPES.join(', ')}, got ${dtype}`);
}

/**
 * A fresh copy of typed array `a` in memory that is not zeroed first: the
 * copying API's results in Node (streamed.ts's freshArray), filled.
 */
export function freshCopy(a) {
  const b = new a.constructor(Buffer.allocUnsafeSlow(a.byteLength).buffer, 0, a.length);
  b.set(a);
  return b;
}

/**
 * The bits of `input()`'s float32 values as float16 or bfloat16, truncated
 * (any finite pattern serves a timing): bfloat16 is each float32's top
 * half, float16 its exponent rebiased and its mantissa cut to 10 bits
 * (|x| < 2^8: no overflow; infinities and NaN stay what they are).
 */
export function halfBits(f32, dtype) {
  return Uint16Array.from(new Uint32Array(f32.buffer, f32.byteOffset, f32.length), (b) => {
    if (dtype === 'bfloat16') return b >>> 16;
    const sign = (b >>> 16) & 0x8000, e = ((b >>> 23) & 0xff) - 112;
    if (e >= 31) return sign | 0x7c00 | ((b & 0x7fffff) !== 0 && e === 143 ? 0x200 : 0);  // inf, NaN
    return e <= 0 ? sign : sign | (e << 10) | ((b >>> 13) & 0x3ff);
  });
}

/** The window of workload `w`: kernel, stride, padding. */
export const windowOf = (w) => ({ k: w.k ?? 2, s: w.s ?? 2, p: w.p ?? 0 });

/** The pooled shape of workload `w`. */
export function pooledShape(w) {
  const { k, s, p } = windowOf(w);
  return [...w.shape.slice(0, 2), ...w.shape.slice(2).map((d) => Math.floor((d + 2 * p - k) / s) + 1)];
}
