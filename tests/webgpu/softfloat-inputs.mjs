// The inputs and JavaScript references of the softfloat checks
// (cases/softfloat-*.mjs): special values, random bit patterns per binade,
// and the 16-bit conversions computed without Float16Array.
import { rngU32 as rng } from './rng.mjs';

// ---------------------------------------------------------------------------
// Deterministic random numbers (mulberry32, ../rng.mjs): the same vectors
// in every runtime, so a failure seen on one stack can be replayed on another.

export const f32buf = new Float32Array(1);
export const u32of32 = new Uint32Array(f32buf.buffer);
export const f64buf = new Float64Array(1);
export const u32of64 = new Uint32Array(f64buf.buffer);
export const bits32 = (x) => ((f32buf[0] = x), u32of32[0]);
export const val32 = (u) => ((u32of32[0] = u), f32buf[0]);

export const isNaN32 = (u) => (u & 0x7fffffff) > 0x7f800000;
export const isNaN64 = (lo, hi) => (hi & 0x7fffffff) > 0x7ff00000 || ((hi & 0x7fffffff) === 0x7ff00000 && lo !== 0);

// ---------------------------------------------------------------------------
// Inputs

export const SPECIAL32 = [
  0x00000000, 0x80000000, // +-0
  0x00000001, 0x80000001, // +-min subnormal
  0x00000002, 0x00000003, 0x007fffff, 0x807fffff, // max subnormal
  0x00400000, 0x00400001,
  0x00800000, 0x80800000, 0x00800001, 0x00ffffff, // min normal and up
  0x7f7fffff, 0xff7fffff, 0x7f7ffffe, 0x7f000000, 0x7effffff, // max
  0x7f800000, 0xff800000, // +-inf
  0x7fc00000, 0xffc00000, 0x7f800001, 0x7fbfffff, 0xffffffff, // NaNs
  0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0x40000000, 0x3f000000,
  0x33800000, 0x33800001, 0x34000000, 0x4b800000, 0x4b800001, 0x4f000000, 0xcf000000,
  0x0c800000, 0x1f800000, 0x5f800000, 0x72800000,
];

// Random binary32 bits: mode picks the distribution.
export function make32(r, sign, exp, mant) {
  return ((sign << 31) | (exp << 23) | (mant & 0x7fffff)) >>> 0;
}

// A mantissa with only its top k bits random (k in 0..23): products and
// sums of such values are often exact or exact ties.
export function sparse23(r) {
  const k = r.int(24);
  return k === 0 ? 0 : (r() >>> (32 - k)) << (23 - k);
}

export function mant23(r) {
  return r.int(4) === 0 ? sparse23(r) : r() & 0x7fffff;
}

export function binade32(r) {
  return make32(r, r() & 1, r.int(256), mant23(r));
}

export const clampE32 = (e) => Math.max(0, Math.min(254, e));

// Pairs for a binary32 binary op ('add' | 'mul' | 'div').
export function pairs32(op, n, seed) {
  const r = rng(seed);
  const out = new Uint32Array(2 * n);
  let k = 0;
  const push = (a, b) => {
    if (k < n) {
      out[2 * k] = a >>> 0;
      out[2 * k + 1] = b >>> 0;
      k++;
    }
  };
  for (const a of SPECIAL32) for (const b of SPECIAL32) push(a, b);
  while (k < n) {
    const c = r.int(10);
    const s = r() & 1;
    if (c === 0) {
      push(r(), r()); // uniform bits
    } else if (c === 1) {
      push(binade32(r), binade32(r)); // every binade
    } else if (c === 2) {
      // Exponents d apart, sparse second mantissa: alignment, ties (d = 24,
      // 25 with mantissa 0 is exactly half an ulp), sticky bits.
      const ea = 1 + r.int(254);
      const d = r.int(4) === 0 ? 23 + r.int(4) : r.int(34);
      push(make32(r, r() & 1, ea, mant23(r)), make32(r, r() & 1, clampE32(ea - d), sparse23(r)));
    } else if (c === 3) {
      // Cancellation: b = -(a + a few ulps), a + (-a) = +0 among them.
      const a = binade32(r);
      const delta = r.int(17) - 8;
      push(a, ((a ^ 0x80000000) + delta) >>> 0);
    } else if (c === 4) {
      // Tiny operands: subnormal inputs and results, exponents 0..3.
      push(make32(r, r() & 1, r.int(4), r()), make32(r, r() & 1, r.int(4), r()));
    } else if (c === 5) {
      // Results at the edges of the range: target exponent around the
      // subnormal range or the overflow threshold.
      const er = r.int(2) ? r.int(40) - 30 : 250 + r.int(8);
      const ea = 1 + r.int(254);
      let eb;
      if (op === 'mul') eb = er - ea + 127;
      else if (op === 'div') eb = ea + 127 - er;
      else eb = r.int(2) ? ea : clampE32(er);
      push(make32(r, s, ea, mant23(r)), make32(r, r() & 1, clampE32(eb), mant23(r)));
    } else if (c === 6) {
      // Sparse mantissas near 1: products with exact ties.
      push(make32(r, s, 120 + r.int(16), sparse23(r)), make32(r, r() & 1, 120 + r.int(16), sparse23(r)));
    } else if (c === 7) {
      // A special against a random value, both orders.
      const sp = SPECIAL32[r.int(SPECIAL32.length)];
      const v = binade32(r);
      if (r() & 1) push(sp, v);
      else push(v, sp);
    } else if (c === 8 && op === 'div') {
      // Quotients near ties: a = fround(b * q) for q with 24..25 bits.
      const b = make32(r, s, 100 + r.int(50), mant23(r));
      const q = make32(r, 0, 120 + r.int(16), (r() & 0x7ffffe) | 1);
      push(bits32(Math.fround(val32(b) * val32(q))), b);
    } else {
      // Same exponent: full carries and exact differences.
      const e = r.int(255);
      push(make32(r, s, e, r()), make32(r, r() & 1, e, r()));
    }
  }
  return out;
}

export const SPECIAL64 = [
  [0, 0], [0, 0x80000000], [1, 0], [1, 0x80000000], [2, 0], [0xffffffff, 0xfffff],
  [0xffffffff, 0x800fffff], [0, 0x80000], [0, 0x100000], [0, 0x80100000], [1, 0x100000],
  [0xffffffff, 0x7fefffff], [0xffffffff, 0xffefffff], [0xfffffffe, 0x7fefffff], [0, 0x7fe00000],
  [0, 0x7ff00000], [0, 0xfff00000], [0, 0x7ff80000], [0, 0xfff80000], [1, 0x7ff00000],
  [0xffffffff, 0x7fffffff], [0, 0x7ff00001], [0, 0x3ff00000], [0, 0xbff00000], [1, 0x3ff00000],
  [0xffffffff, 0x3fefffff], [0, 0x40000000], [0, 0x3fe00000], [0, 0x3ca00000], [1, 0x3ca00000],
  [0, 0x43300000], [1, 0x43300000], [0, 0x41e00000], [0, 0xc1e00000], [0, 0x00200000], [0, 0x7fd00000],
];

export function sparse52(r) {
  // [lo, hi20]: only the top k of 52 bits random.
  const k = r.int(53);
  let hi = 0;
  let lo = 0;
  if (k > 0) {
    const kh = Math.min(k, 20);
    hi = (r() >>> (32 - kh)) << (20 - kh);
    if (k > 20) {
      const kl = k - 20;
      lo = kl === 32 ? r() : (r() >>> (32 - kl)) << (32 - kl);
    }
  }
  return [lo >>> 0, hi];
}

export function mant52(r) {
  return r.int(4) === 0 ? sparse52(r) : [r(), r() & 0xfffff];
}

export function make64(sign, exp, m) {
  return [m[0] >>> 0, ((sign << 31) | (exp << 20) | (m[1] & 0xfffff)) >>> 0];
}

export function binade64(r) {
  return make64(r() & 1, r.int(2048), mant52(r));
}

export const clampE64 = (e) => Math.max(0, Math.min(2046, e));

export function pairs64(op, n, seed) {
  const r = rng(seed);
  const out = new Uint32Array(4 * n);
  let k = 0;
  const push = (a, b) => {
    if (k < n) {
      out.set([a[0], a[1], b[0], b[1]], 4 * k);
      k++;
    }
  };
  for (const a of SPECIAL64) for (const b of SPECIAL64) push(a, b);
  while (k < n) {
    const c = r.int(10);
    const s = r() & 1;
    if (c === 0) {
      push([r(), r()], [r(), r()]);
    } else if (c === 1) {
      push(binade64(r), binade64(r));
    } else if (c === 2) {
      const ea = 1 + r.int(2046);
      const d = r.int(4) === 0 ? 52 + r.int(4) : r.int(66);
      push(make64(r() & 1, ea, mant52(r)), make64(r() & 1, clampE64(ea - d), sparse52(r)));
    } else if (c === 3) {
      const a = binade64(r);
      const delta = r.int(17) - 8;
      // -(a) + delta ulps, with the borrow/carry across the words.
      let lo = a[0] + delta;
      let hi = (a[1] ^ 0x80000000) >>> 0;
      if (lo < 0) hi = (hi - 1) >>> 0;
      if (lo > 0xffffffff) hi = (hi + 1) >>> 0;
      push(a, [lo >>> 0, hi]);
    } else if (c === 4) {
      push(make64(r() & 1, r.int(4), [r(), r()]), make64(r() & 1, r.int(4), [r(), r()]));
    } else if (c === 5) {
      const er = r.int(2) ? r.int(70) - 60 : 2040 + r.int(10);
      const ea = 1 + r.int(2046);
      let eb;
      if (op === 'mul') eb = er - ea + 1023;
      else if (op === 'div') eb = ea + 1023 - er;
      else eb = r.int(2) ? ea : clampE64(er);
      push(make64(s, ea, mant52(r)), make64(r() & 1, clampE64(eb), mant52(r)));
    } else if (c === 6) {
      push(make64(s, 1016 + r.int(16), sparse52(r)), make64(r() & 1, 1016 + r.int(16), sparse52(r)));
    } else if (c === 7) {
      const sp = SPECIAL64[r.int(SPECIAL64.length)];
      const v = binade64(r);
      if (r() & 1) push(sp, v);
      else push(v, sp);
    } else if (c === 8 && op === 'div') {
      f64buf[0] = 0;
      const b = make64(s, 900 + r.int(250), mant52(r));
      u32of64[0] = b[0];
      u32of64[1] = b[1];
      const bv = f64buf[0];
      const q = make64(0, 1016 + r.int(16), [(r() | 1) >>> 0, r() & 0xfffff]);
      u32of64[0] = q[0];
      u32of64[1] = q[1];
      f64buf[0] = bv * f64buf[0];
      push([u32of64[0], u32of64[1]], b);
    } else {
      const e = r.int(2047);
      push(make64(s, e, [r(), r()]), make64(r() & 1, e, [r(), r()]));
    }
  }
  return out;
}

// Integers: uniform bits, every bit length, and values near 2^24 / 2^53
// boundaries where binary32 rounding (and its ties) happens.
export function ints(n, seed) {
  const r = rng(seed);
  const out = new Uint32Array(n);
  const fixed = [0, 1, -1, 2, -2, 0x7fffffff, -0x80000000, -0x7fffffff, 16777216, 16777217, 16777218,
    16777219, -16777217, -16777219, 33554434, 33554438, 0x7fffff80, 0x7fffffc0, 0x7fffff40, -0x7fffffc0];
  let k = 0;
  for (const v of fixed) out[k++] = v >>> 0;
  while (k < n) {
    const c = r.int(3);
    if (c === 0) out[k++] = r();
    else {
      const len = r.int(33);
      let v = len === 0 ? 0 : len === 32 ? r() : r() >>> (32 - len);
      if (c === 2 && len > 24) v = (v >>> (len - 25)) << (len - 25); // a bit just below the ulp: ties
      out[k++] = (r() & 1 ? -v : v) >>> 0;
    }
  }
  return out;
}

// binary32 / binary64 values mostly in and around the i32 range.
export function toIntInputs32(n, seed) {
  const r = rng(seed);
  const out = new Uint32Array(n);
  let k = 0;
  for (const v of SPECIAL32) out[k++] = v;
  for (const v of [0x4effffff, 0xceffffff, 0x4f000001, 0xcf000001, 0x3f7fffff, 0xbf7fffff, 0x3fc00000, 0xbfc00000]) out[k++] = v;
  while (k < n) {
    const c = r.int(3);
    if (c === 0) out[k++] = r();
    else out[k++] = make32(r, r() & 1, 110 + r.int(56), r());
  }
  return out;
}

export function toIntInputs64(n, seed) {
  const r = rng(seed);
  const out = new Uint32Array(2 * n);
  let k = 0;
  const push = (a) => {
    out[2 * k] = a[0];
    out[2 * k + 1] = a[1];
    k++;
  };
  for (const v of SPECIAL64) push(v);
  for (const v of [[0xffe00000, 0x41dfffff], [0, 0xc1e00000], [0x00100000, 0xc1e00000], [0x00200000, 0xc1e00000],
    [0, 0x41e00000], [0xffffffff, 0x3fefffff], [0, 0x3ff80000], [0, 0xbff80000]]) push(v);
  while (k < n) {
    const c = r.int(3);
    if (c === 0) push([r(), r()]);
    else push(make64(r() & 1, 1000 + r.int(60), [r(), r()]));
  }
  return out;
}

// binary32 values for the 16-bit conversions: the value of every binary16
// (or bfloat16), the midpoints between neighbours and one binary32 ulp
// either side of them, uniform bits and the binary16 range's binades.
export function toF16Inputs(n, seed) {
  const r = rng(seed);
  const list = [...SPECIAL32, 0x477fe000, 0x477fefff, 0x477ff000, 0x477ff001, 0x47800000, 0x33000000, 0x33000001, 0x32ffffff, 0x337fffff, 0x387fc000, 0x387fe000];
  for (let h = 0; h < 0x7c00; h++) {
    const a = bits32(half2num(h));
    const b = bits32(half2num(h + 1));
    const mid = bits32((val32(a) + val32(b)) / 2); // exact in binary32
    list.push(a, mid, mid - 1, mid + 1, (a | 0x80000000) >>> 0, (mid | 0x80000000) >>> 0);
  }
  const out = new Uint32Array(Math.max(n, list.length));
  out.set(list.map((v) => v >>> 0));
  for (let k = list.length; k < out.length; k++) {
    out[k] = r.int(2) ? r() : make32(r, r() & 1, 95 + r.int(50), r());
  }
  return out;
}

export function toBf16Inputs(n, seed) {
  const r = rng(seed);
  const out = new Uint32Array(n);
  let k = 0;
  for (const v of SPECIAL32) out[k++] = v;
  for (const v of [0x7f7f8000, 0x7f7f7fff, 0x7f7fffff, 0x7f7e8000, 0x00008000, 0x00018000, 0x80008000, 0x00007fff]) out[k++] = v;
  while (k < n) {
    const c = r.int(3);
    if (c === 0) out[k++] = r();
    else {
      // Ties and a unit either side of them.
      const hi = r() & 0xffff0000;
      out[k++] = (hi | (0x8000 + r.int(3) - 1)) >>> 0;
    }
  }
  return out;
}

export function seqU16(n) {
  return Uint32Array.from({ length: n }, (_, i) => i);
}

// ---------------------------------------------------------------------------
// References

export function half2num(h) {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 31) return m ? NaN : s * Infinity;
  if (e === 0) return s * m * 2 ** -24;
  return s * (1024 + m) * 2 ** (e - 25);
}

// Round-to-nearest-even of a finite double that is an exact binary32,
// to binary16 bits (exact: the quotient x / q is exact in a double).
export function num2half(x) {
  if (Number.isNaN(x)) return NaN;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  const e = Math.max(Math.floor(Math.log2(a)), -14);
  // log2 can be off by one near powers of two: fix e so 2^e <= a < 2^(e+1).
  let ee = e;
  if (ee > -14 && 2 ** ee > a) ee--;
  if (2 ** (ee + 1) <= a) ee++;
  const q = 2 ** (Math.max(ee, -14) - 10);
  const t = a / q;
  let n = Math.floor(t);
  const frac = t - n;
  if (frac > 0.5 || (frac === 0.5 && n % 2 === 1)) n++;
  const v = n * q;
  if (v > 65504) return sign | 0x7c00;
  // Encode v exactly.
  if (v < 2 ** -14) return sign | (v / 2 ** -24);
  let be = Math.floor(Math.log2(v));
  if (2 ** be > v) be--;
  if (2 ** (be + 1) <= v) be++;
  return sign | ((be + 15) << 10) | (v / 2 ** (be - 10) - 1024);
}

export function f32ToBf16Ref(u) {
  if (isNaN32(u)) return NaN;
  const lo = u & 0xffff;
  let hi = u >>> 16;
  if (lo > 0x8000 || (lo === 0x8000 && hi & 1)) hi++;
  return hi;
}

export function truncSat(x) {
  if (Number.isNaN(x)) return 0;
  const t = Math.trunc(x);
  if (t >= 2147483647) return 2147483647;
  if (t <= -2147483648) return -2147483648;
  return t | 0;
}
