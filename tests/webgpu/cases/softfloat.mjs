// The IEEE-754-in-integers WGSL library (js/src/webgpu/wgsl/softfloat.wgsl)
// against JavaScript's own arithmetic, bit for bit, on a real WebGPU device.
//
// Two ways in:
//  - the WebGPU harness imports this file and runs `cases` (one per
//    function) with ctx.device (or ctx.gpu, from which a device is made);
//    vector counts are small there (a few seconds per stack);
//  - tests/webgpu/softfloat-check.mjs (Node with the `webgpu` package, or
//    Deno) calls runSoftfloatChecks() with the full counts (2^22 vectors
//    per binary32 op, 2^20 per binary64 op).
//
// How: one shader module = the library + one small entry point per
// function (u32 words in, u32 words out, one invocation per vector). The
// inputs mix uniform random bits, random values in every binade, every pair
// of special values, operands aligned so results are ties, cancellations,
// results that underflow into subnormals or overflow. The references:
// binary32 ops are Math.fround(a op b) of the decoded doubles (double
// rounding is harmless for + * / of binary32), binary64 ops JavaScript's
// doubles, conversions a reference written here from exact double
// arithmetic (and cross-checked with Float16Array where the engine has it).
// A NaN matches any NaN; everything else, zero signs included, bit for bit.
//
// The WGSL is read by loadSoftfloatWgsl(): fs in Node, Bun and Deno (a
// file: URL), fetch() in a browser page (the file must be served at the
// same relative path: ../../../js/src/webgpu/wgsl/softfloat.wgsl from here).
import { rngU32 as rng } from '../rng.mjs';

const WGSL_URL = new URL('../../../js/src/webgpu/wgsl/softfloat.wgsl', import.meta.url);

export async function loadSoftfloatWgsl() {
  if (WGSL_URL.protocol === 'file:') {
    if (typeof Deno !== 'undefined') return Deno.readTextFile(WGSL_URL);
    // Hidden from bundlers: a browser never takes this branch.
    const fs = await import(/* @vite-ignore */ 'node:' + 'fs/promises');
    return fs.readFile(WGSL_URL, 'utf8');
  }
  const response = await fetch(WGSL_URL);
  if (!response.ok) throw new Error(`softfloat: fetch ${WGSL_URL} -> ${response.status}`);
  return response.text();
}

// ---------------------------------------------------------------------------
// Deterministic random numbers (mulberry32, ../rng.mjs): the same vectors
// in every runtime, so a failure seen on one stack can be replayed on another.

const f32buf = new Float32Array(1);
const u32of32 = new Uint32Array(f32buf.buffer);
const f64buf = new Float64Array(1);
const u32of64 = new Uint32Array(f64buf.buffer);
const bits32 = (x) => ((f32buf[0] = x), u32of32[0]);
const val32 = (u) => ((u32of32[0] = u), f32buf[0]);

const isNaN32 = (u) => (u & 0x7fffffff) > 0x7f800000;
const isNaN64 = (lo, hi) => (hi & 0x7fffffff) > 0x7ff00000 || ((hi & 0x7fffffff) === 0x7ff00000 && lo !== 0);

// ---------------------------------------------------------------------------
// Inputs

const SPECIAL32 = [
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
function make32(r, sign, exp, mant) {
  return ((sign << 31) | (exp << 23) | (mant & 0x7fffff)) >>> 0;
}

// A mantissa with only its top k bits random (k in 0..23): products and
// sums of such values are often exact or exact ties.
function sparse23(r) {
  const k = r.int(24);
  return k === 0 ? 0 : (r() >>> (32 - k)) << (23 - k);
}

function mant23(r) {
  return r.int(4) === 0 ? sparse23(r) : r() & 0x7fffff;
}

function binade32(r) {
  return make32(r, r() & 1, r.int(256), mant23(r));
}

const clampE32 = (e) => Math.max(0, Math.min(254, e));

// Pairs for a binary32 binary op ('add' | 'mul' | 'div').
function pairs32(op, n, seed) {
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

const SPECIAL64 = [
  [0, 0], [0, 0x80000000], [1, 0], [1, 0x80000000], [2, 0], [0xffffffff, 0xfffff],
  [0xffffffff, 0x800fffff], [0, 0x80000], [0, 0x100000], [0, 0x80100000], [1, 0x100000],
  [0xffffffff, 0x7fefffff], [0xffffffff, 0xffefffff], [0xfffffffe, 0x7fefffff], [0, 0x7fe00000],
  [0, 0x7ff00000], [0, 0xfff00000], [0, 0x7ff80000], [0, 0xfff80000], [1, 0x7ff00000],
  [0xffffffff, 0x7fffffff], [0, 0x7ff00001], [0, 0x3ff00000], [0, 0xbff00000], [1, 0x3ff00000],
  [0xffffffff, 0x3fefffff], [0, 0x40000000], [0, 0x3fe00000], [0, 0x3ca00000], [1, 0x3ca00000],
  [0, 0x43300000], [1, 0x43300000], [0, 0x41e00000], [0, 0xc1e00000], [0, 0x00200000], [0, 0x7fd00000],
];

function sparse52(r) {
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

function mant52(r) {
  return r.int(4) === 0 ? sparse52(r) : [r(), r() & 0xfffff];
}

function make64(sign, exp, m) {
  return [m[0] >>> 0, ((sign << 31) | (exp << 20) | (m[1] & 0xfffff)) >>> 0];
}

function binade64(r) {
  return make64(r() & 1, r.int(2048), mant52(r));
}

const clampE64 = (e) => Math.max(0, Math.min(2046, e));

function pairs64(op, n, seed) {
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
function ints(n, seed) {
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
function toIntInputs32(n, seed) {
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

function toIntInputs64(n, seed) {
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
function toF16Inputs(n, seed) {
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

function toBf16Inputs(n, seed) {
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

function seqU16(n) {
  return Uint32Array.from({ length: n }, (_, i) => i);
}

// ---------------------------------------------------------------------------
// References

function half2num(h) {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 31) return m ? NaN : s * Infinity;
  if (e === 0) return s * m * 2 ** -24;
  return s * (1024 + m) * 2 ** (e - 25);
}

// Round-to-nearest-even of a finite double that is an exact binary32,
// to binary16 bits (exact: the quotient x / q is exact in a double).
function num2half(x) {
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

function f32ToBf16Ref(u) {
  if (isNaN32(u)) return NaN;
  const lo = u & 0xffff;
  let hi = u >>> 16;
  if (lo > 0x8000 || (lo === 0x8000 && hi & 1)) hi++;
  return hi;
}

function truncSat(x) {
  if (Number.isNaN(x)) return 0;
  const t = Math.trunc(x);
  if (t >= 2147483647) return 2147483647;
  if (t <= -2147483648) return -2147483648;
  return t | 0;
}

// Each test: name, inWords/outWords per vector, the WGSL statement (i is
// the vector index, src/dst the buffers), inputs(n, seed), and check(input,
// output, count) -> list of mismatches (each a string) and a count.
function binary32(name, fn, op, jsop) {
  return {
    name,
    inWords: 2,
    outWords: 1,
    body: `dst[i] = ${fn}(src[2u * i], src[2u * i + 1u]);`,
    inputs: (n, seed) => pairs32(op, n, seed),
    size: 'big32',
    check(inp, out, n, bad) {
      const fa = new Float32Array(inp.buffer, inp.byteOffset, 2 * n);
      for (let i = 0; i < n; i++) {
        const ref = Math.fround(jsop(fa[2 * i], fa[2 * i + 1]));
        const got = out[i];
        const ok = Number.isNaN(ref) ? isNaN32(got) : got === bits32(ref);
        if (!ok) bad(i, [inp[2 * i], inp[2 * i + 1]], got, Number.isNaN(ref) ? 'NaN' : bits32(ref));
      }
    },
  };
}

function binary64(name, fn, op, jsop) {
  return {
    name,
    inWords: 4,
    outWords: 2,
    body: `let r = ${fn}(vec2<u32>(src[4u * i], src[4u * i + 1u]), vec2<u32>(src[4u * i + 2u], src[4u * i + 3u]));
  dst[2u * i] = r.x;
  dst[2u * i + 1u] = r.y;`,
    inputs: (n, seed) => pairs64(op, n, seed),
    size: 'big64',
    check(inp, out, n, bad) {
      const fa = new Float64Array(inp.buffer, inp.byteOffset, 2 * n);
      for (let i = 0; i < n; i++) {
        const ref = jsop(fa[2 * i], fa[2 * i + 1]);
        const lo = out[2 * i];
        const hi = out[2 * i + 1];
        let ok;
        if (Number.isNaN(ref)) ok = isNaN64(lo, hi);
        else {
          f64buf[0] = ref;
          ok = lo === u32of64[0] && hi === u32of64[1];
        }
        if (!ok) {
          f64buf[0] = ref;
          bad(i, [...inp.subarray(4 * i, 4 * i + 4)], [lo, hi], Number.isNaN(ref) ? 'NaN' : [u32of64[0], u32of64[1]]);
        }
      }
    },
  };
}

// A unary test comparing one u32 of output to ref(input words) (a number
// of bits, or NaN meaning "any NaN of this format").
function unary(name, { inWords = 1, outWords = 1, body, inputs, size, ref, nanOf }) {
  return {
    name,
    inWords,
    outWords,
    body,
    inputs,
    size,
    check(inp, out, n, bad) {
      for (let i = 0; i < n; i++) {
        const w = inp.subarray(inWords * i, inWords * i + inWords);
        const got = out.subarray(outWords * i, outWords * i + outWords);
        const want = ref(w);
        let ok;
        if (Number.isNaN(want)) ok = nanOf(got);
        else if (Array.isArray(want)) ok = want.every((v, j) => v >>> 0 === got[j]);
        else ok = got[0] === want >>> 0;
        if (!ok) bad(i, [...w], [...got], want);
      }
    },
  };
}

const dbl = (w) => {
  u32of64[0] = w[0];
  u32of64[1] = w[1];
  return f64buf[0];
};
const dblBits = (x) => ((f64buf[0] = x), [u32of64[0], u32of64[1]]);

export const TESTS = [
  binary32('f32_add', 'sf_f32_add', 'add', (a, b) => a + b),
  binary32('f32_mul', 'sf_f32_mul', 'mul', (a, b) => a * b),
  binary32('f32_div', 'sf_f32_div', 'div', (a, b) => a / b),
  unary('f32_from_i32', {
    body: 'dst[i] = sf_f32_from_i32(i32(src[i]));',
    inputs: ints,
    size: 'big32',
    ref: (w) => bits32(Math.fround(w[0] | 0)),
  }),
  unary('f32_to_i32_trunc', {
    body: 'dst[i] = u32(sf_f32_to_i32_trunc(src[i]));',
    inputs: toIntInputs32,
    size: 'big32',
    ref: (w) => truncSat(val32(w[0])),
  }),
  binary64('f64_add', 'sf_f64_add', 'add', (a, b) => a + b),
  binary64('f64_mul', 'sf_f64_mul', 'mul', (a, b) => a * b),
  binary64('f64_div', 'sf_f64_div', 'div', (a, b) => a / b),
  unary('f64_from_i32', {
    outWords: 2,
    body: 'let r = sf_f64_from_i32(i32(src[i]));\n  dst[2u * i] = r.x;\n  dst[2u * i + 1u] = r.y;',
    inputs: ints,
    size: 'big64',
    ref: (w) => dblBits(w[0] | 0),
  }),
  unary('f64_to_i32_trunc', {
    inWords: 2,
    body: 'dst[i] = u32(sf_f64_to_i32_trunc(vec2<u32>(src[2u * i], src[2u * i + 1u])));',
    inputs: toIntInputs64,
    size: 'big64',
    ref: (w) => truncSat(dbl(w)),
  }),
  unary('f16_to_f32', {
    body: 'dst[i] = sf_f16_to_f32(src[i]);',
    inputs: () => seqU16(65536),
    size: 'all16',
    ref: (w) => (Number.isNaN(half2num(w[0])) ? NaN : bits32(half2num(w[0]))),
    nanOf: (g) => isNaN32(g[0]),
  }),
  unary('bf16_to_f32', {
    body: 'dst[i] = sf_bf16_to_f32(src[i]);',
    inputs: () => seqU16(65536),
    size: 'all16',
    ref: (w) => (isNaN32(w[0] << 16) ? NaN : (w[0] << 16) >>> 0),
    nanOf: (g) => isNaN32(g[0]),
  }),
  unary('f32_to_f16', {
    body: 'dst[i] = sf_f32_to_f16(src[i]);',
    inputs: toF16Inputs,
    size: 'big32',
    ref: (w) => num2half(val32(w[0])),
    nanOf: (g) => (g[0] & 0x7fff) > 0x7c00 && g[0] <= 0xffff,
  }),
  unary('f32_to_bf16', {
    body: 'dst[i] = sf_f32_to_bf16(src[i]);',
    inputs: toBf16Inputs,
    size: 'big32',
    ref: (w) => f32ToBf16Ref(w[0]),
    nanOf: (g) => (g[0] & 0x7fff) > 0x7f80 && g[0] <= 0xffff,
  }),
];

// The reference for binary16 is this file's; where the engine has
// Float16Array, check that reference against it first (all binary16 values
// and a few million binary32 inputs would be slow: the inputs' own set).
function crossCheckHalfReference(inputs) {
  if (typeof Float16Array === 'undefined') return 'Float16Array not available: own reference only';
  const h = new Float16Array(1);
  const hu = new Uint16Array(h.buffer);
  for (let i = 0; i < 65536; i++) {
    hu[0] = i;
    const a = h[0];
    const b = half2num(i);
    if (!(Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)))) throw new Error(`half2num(${i}) = ${b}, Float16Array says ${a}`);
  }
  for (const u of inputs) {
    const x = val32(u);
    h[0] = x;
    const want = Number.isNaN(x) ? NaN : hu[0];
    const got = num2half(x);
    if (!(Object.is(want, got) || (Number.isNaN(want) && Number.isNaN(got)))) {
      throw new Error(`num2half(0x${u.toString(16)}) = ${got}, Float16Array says ${want}`);
    }
  }
  return 'own reference agrees with Float16Array';
}

// ---------------------------------------------------------------------------
// GPU

export function kernelSource(lib, tests = TESTS) {
  const entries = tests.map((t) => `
@compute @workgroup_size(64)
fn test_${t.name}(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x + gid.y * ${ROW};
  if (i >= count.x) {
    return;
  }
  ${t.body}
}`).join('\n');
  return `${lib}
// ---- test entry points
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<uniform> count: vec4<u32>;
${entries}
`;
}

const WG_PER_ROW = 16384;
const ROW = `${WG_PER_ROW * 64}u`;

async function compile(device, code) {
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  const scopeError = await device.popErrorScope();
  if (errors.length || scopeError) {
    const lines = code.split('\n');
    throw new Error('softfloat: WGSL does not compile:\n' + errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}\n  ${lines[m.lineNum - 1]}`).join('\n') + (scopeError ? '\n' + scopeError.message : ''));
  }
  return module;
}

async function runOnGpu(device, module, test, input, n) {
  const pipeline = await device.createComputePipelineAsync({
    layout: 'auto',
    compute: { module, entryPoint: `test_${test.name}` },
  });
  const mk = (size, usage) => device.createBuffer({ size: Math.max(16, size), usage });
  const S = GPUBufferUsage;
  const src = mk(input.byteLength, S.STORAGE | S.COPY_DST);
  const outBytes = n * test.outWords * 4;
  const dst = mk(outBytes, S.STORAGE | S.COPY_SRC);
  const uni = mk(16, S.UNIFORM | S.COPY_DST);
  const read = mk(outBytes, S.MAP_READ | S.COPY_DST);
  device.queue.writeBuffer(src, 0, input);
  device.queue.writeBuffer(uni, 0, new Uint32Array([n, 0, 0, 0]));
  const bind = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: src } },
      { binding: 1, resource: { buffer: dst } },
      { binding: 2, resource: { buffer: uni } },
    ],
  });
  const groups = Math.ceil(n / 64);
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bind);
  pass.dispatchWorkgroups(Math.min(groups, WG_PER_ROW), Math.ceil(groups / WG_PER_ROW));
  pass.end();
  enc.copyBufferToBuffer(dst, 0, read, 0, outBytes);
  device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(read.getMappedRange().slice(0, outBytes));
  read.unmap();
  for (const b of [src, dst, uni, read]) b.destroy();
  return out;
}

const hex = (v) => (Array.isArray(v) ? v.map(hex).join(':') : typeof v === 'number' && !Number.isNaN(v) ? '0x' + (v >>> 0).toString(16).padStart(8, '0') : String(v));

// Vector counts by size class. 'all16' is always exhaustive (65536).
export const SCALES = {
  full: { big32: 1 << 22, big64: 1 << 20 },
  quick: { big32: 1 << 16, big64: 1 << 14 },
};

// Runs one test: returns { name, n, failures, samples, ms }.
export async function runTest(device, module, test, scale = SCALES.full, seed = 1) {
  const n0 = test.size === 'all16' ? 65536 : scale[test.size];
  const t0 = performance.now();
  const input = test.inputs(n0, seed * 7919 + test.name.length);
  const n = input.length / test.inWords;
  const extra = test.name === 'f32_to_f16' ? crossCheckHalfReference(input) : undefined;
  const t1 = performance.now();
  const out = await runOnGpu(device, module, test, input, n);
  const t2 = performance.now();
  let failures = 0;
  const samples = [];
  test.check(input, out, n, (i, inWords, got, want) => {
    failures++;
    if (samples.length < 8) samples.push(`#${i} in ${hex(inWords)} got ${hex(got)} want ${hex(want)}`);
  });
  const t3 = performance.now();
  return { name: test.name, n, failures, samples, extra, msGen: t1 - t0, msGpu: t2 - t1, msCheck: t3 - t2 };
}

const modules = new WeakMap();
async function moduleFor(device) {
  if (!modules.has(device)) modules.set(device, loadSoftfloatWgsl().then((lib) => compile(device, kernelSource(lib))));
  return modules.get(device);
}

export async function runSoftfloatChecks(device, { scale = SCALES.full, only, log = () => {} } = {}) {
  const module = await moduleFor(device);
  const results = [];
  for (const test of TESTS) {
    if (only && !only.includes(test.name)) continue;
    const r = await runTest(device, module, test, scale);
    log(r);
    results.push(r);
  }
  return results;
}

async function deviceOf(ctx) {
  if (ctx.device) return ctx.device;
  if (!ctx.softfloatDevice) {
    const adapter = await ctx.gpu.requestAdapter();
    if (!adapter) throw new Error('softfloat: no WebGPU adapter');
    ctx.softfloatDevice = await adapter.requestDevice();
  }
  return ctx.softfloatDevice;
}

// The harness's cases: one per function, quick counts.
export const cases = TESTS.map((test) => ({
  name: `softfloat ${test.name}`,
  run: async (ctx) => {
    const device = await deviceOf(ctx);
    const r = await runTest(device, await moduleFor(device), test, SCALES.quick);
    if (r.failures) throw new Error(`${test.name}: ${r.failures} of ${r.n} vectors differ:\n  ${r.samples.join('\n  ')}`);
  },
}));
