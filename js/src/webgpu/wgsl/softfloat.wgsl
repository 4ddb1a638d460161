// softfloat.wgsl: IEEE-754 arithmetic done in integer arithmetic on the bits.
//
// Why: WGSL does not promise IEEE float arithmetic. Implementations may
// assume finite math, flush subnormals (SwiftShader does, in f32 `+` and in
// comparisons), get `pack2x16float` wrong for inf/NaN/overflow, and f32
// division is only accurate to 2.5 ULP. The WebGPU backend must give the
// CPU's (WebAssembly's) bits exactly, so every value operation it needs is
// done here on u32 words, where WGSL arithmetic is exact everywhere.
//
// Semantics of every function: IEEE-754 round to nearest, ties to even;
// subnormal inputs and results kept (never flushed); +-0 and +-inf as IEEE
// says (x + (-x) = +0, -0 + -0 = -0); overflow gives +-inf; any NaN input
// gives a NaN (always the quiet NaN below, sign and payload not kept:
// the backend only needs "is NaN" to propagate).
//
// Types: binary32 values are their bits in a u32. binary64 values are
// vec2<u32>(lo, hi), the little-endian words of the 64 bits (so a
// Float64Array's bytes read as a Uint32Array give lo, hi in that order).
// 16-bit values sit in the low 16 bits of a u32. No f32/f16 WGSL type is
// used, no `enable` is needed: core WebGPU with no optional feature.
//
// This file is a plain snippet of functions (no bindings, no entry points):
// the backend prepends it to the shaders that need it. Every name starts
// with `sf_`. Tested bit for bit against JavaScript's arithmetic by
// tests/webgpu/softfloat-check.mjs (and the harness case
// tests/webgpu/cases/softfloat.mjs).
//
// Internal conventions (as Berkeley SoftFloat's, which this follows):
// a rounding helper takes `e`, the biased exponent minus one, and a
// significand whose leading (implicit) bit sits one below the top bit of the
// word, with round bits below the mantissa field; e < 0 means the result is
// subnormal. Packing is `(e << mantissa_bits) + rounded_significand`, so the
// implicit bit adds the missing one to the exponent, and a rounding carry
// (significand 1.111.. -> 10.000..) moves into the exponent by itself.
//
// WGSL pitfall kept in mind everywhere: a shift by a runtime amount uses only
// the amount's low 5 bits (x << 32u == x), so every shift that can reach 32
// goes through a helper or a guard.

const SF_F32_QNAN: u32 = 0x7fc00000u;
const SF_F32_INF: u32 = 0x7f800000u;
const SF_F64_QNAN: vec2<u32> = vec2<u32>(0u, 0x7ff80000u);
const SF_F64_INF_HI: u32 = 0x7ff00000u;

// ---------------------------------------------------------------------------
// 32-bit helpers

// x >> n with every bit shifted out ORed into bit 0 ("jamming"), so rounding
// still sees that the value was above the truncated one. Any n (n >= 32
// leaves only the sticky bit).
fn sf_shr_jam32(x: u32, n: u32) -> u32 {
  if (n == 0u) {
    return x;
  }
  if (n < 32u) {
    return (x >> n) | select(0u, 1u, (x << (32u - n)) != 0u);
  }
  return select(0u, 1u, x != 0u);
}

// Full 32x32 -> 64-bit product as vec2(lo, hi), from 16-bit halves (WGSL
// has no 64-bit integers; u32 `*` keeps only the low 32 bits).
fn sf_mul32_wide(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let p10 = a1 * b0;
  let p11 = a1 * b1;
  // Middle column: p01 + p10 + carry-in from p00. p01 + (p00 >> 16) fits
  // (< 2^32); adding p10 may wrap, and the wrap is 2^32 at bit 16 of hi.
  let mid0 = p01 + (p00 >> 16u);
  let mid = mid0 + p10;
  let carry = select(0u, 0x10000u, mid < mid0);
  let lo = (mid << 16u) | (p00 & 0xffffu);
  let hi = p11 + (mid >> 16u) + carry;
  return vec2<u32>(lo, hi);
}

// ---------------------------------------------------------------------------
// 64-bit helpers on vec2<u32>(lo, hi)

fn sf_add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let lo = a.x + b.x;
  return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

fn sf_sub64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

fn sf_lt64(a: vec2<u32>, b: vec2<u32>) -> bool {
  return a.y < b.y || (a.y == b.y && a.x < b.x);
}

fn sf_is_zero64(a: vec2<u32>) -> bool {
  return (a.x | a.y) == 0u;
}

fn sf_clz64(a: vec2<u32>) -> u32 {
  if (a.y != 0u) {
    return countLeadingZeros(a.y);
  }
  return 32u + countLeadingZeros(a.x);
}

// a << n for any n (n >= 64 gives 0).
fn sf_shl64(a: vec2<u32>, n: u32) -> vec2<u32> {
  if (n == 0u) {
    return a;
  }
  if (n < 32u) {
    return vec2<u32>(a.x << n, (a.y << n) | (a.x >> (32u - n)));
  }
  if (n < 64u) {
    return vec2<u32>(0u, a.x << (n - 32u));
  }
  return vec2<u32>(0u, 0u);
}

// a >> n for any n (n >= 64 gives 0).
fn sf_shr64(a: vec2<u32>, n: u32) -> vec2<u32> {
  if (n == 0u) {
    return a;
  }
  if (n < 32u) {
    return vec2<u32>((a.x >> n) | (a.y << (32u - n)), a.y >> n);
  }
  if (n < 64u) {
    return vec2<u32>(a.y >> (n - 32u), 0u);
  }
  return vec2<u32>(0u, 0u);
}

// a >> n with the bits shifted out jammed into bit 0 (see sf_shr_jam32).
fn sf_shr_jam64(a: vec2<u32>, n: u32) -> vec2<u32> {
  if (n == 0u) {
    return a;
  }
  if (n >= 64u) {
    return vec2<u32>(select(0u, 1u, !sf_is_zero64(a)), 0u);
  }
  let r = sf_shr64(a, n);
  // The bits lost are exactly those whose shift back does not restore a.
  let lost = !all(sf_shl64(r, n) == a);
  return vec2<u32>(r.x | select(0u, 1u, lost), r.y);
}

// ---------------------------------------------------------------------------
// binary32

// Rounds and packs. `sig` has its leading bit at bit 30 and 7 round bits at
// 6..0; value = sig / 2^30 * 2^(e + 1 - 127), e = biased exponent - 1
// (any i32: below 0 the result is subnormal or zero, above 0xfd inf).
fn sf_f32_round_pack(sign: u32, e_in: i32, sig_in: u32) -> u32 {
  var e = e_in;
  var sig = sig_in;
  if (e > 0xfd) {
    // Above the largest binade even before rounding.
    return (sign << 31u) | SF_F32_INF;
  }
  if (e < 0) {
    // Subnormal: denormalize to the exponent of the smallest binade; the
    // bits shifted out only matter as "anything left?" for rounding.
    sig = sf_shr_jam32(sig, u32(-e));
    e = 0;
  }
  let round_bits = sig & 0x7fu;
  var r = (sig + 0x40u) >> 7u;
  if (round_bits == 0x40u) {
    r = r & ~1u;  // a tie: to even
  }
  // e == 0xfd with a rounding carry gives (0xfd << 23) + (1 << 24), which is
  // exactly the bits of infinity: overflow needs no test of its own.
  return (sign << 31u) | ((u32(e) << 23u) + r);
}

// The significand of a finite magnitude with its implicit bit (bit 23) for
// normals; subnormals have none...
fn sf_f32_sig(abs_bits: u32) -> u32 {
  let m = abs_bits & 0x7fffffu;
  return select(m | 0x800000u, m, (abs_bits >> 23u) == 0u);
}

// ...and are read with exponent 1 (their scale is that of the smallest
// binade), so one alignment rule serves both.
fn sf_f32_exp(abs_bits: u32) -> i32 {
  return max(i32(abs_bits >> 23u), 1);
}

// Normalizes a nonzero subnormal-or-normal magnitude: returns vec2(sig, e)
// with sig's leading bit at bit 23 and e the (possibly < 1) exponent.
fn sf_f32_norm(abs_bits: u32) -> vec2<i32> {
  let e = i32(abs_bits >> 23u);
  if (e != 0) {
    return vec2<i32>(i32((abs_bits & 0x7fffffu) | 0x800000u), e);
  }
  let shift = countLeadingZeros(abs_bits) - 8u;
  return vec2<i32>(i32(abs_bits << shift), 1 - i32(shift));
}

fn sf_f32_add(a: u32, b: u32) -> u32 {
  let abs_a = a & 0x7fffffffu;
  let abs_b = b & 0x7fffffffu;
  if (abs_a > SF_F32_INF || abs_b > SF_F32_INF) {
    return SF_F32_QNAN;
  }
  // x is the operand of larger magnitude: its sign is the result's (but
  // for an exact cancellation), and x - y never goes negative.
  let swap = abs_b > abs_a;
  let x = select(a, b, swap);
  let abs_x = select(abs_a, abs_b, swap);
  let abs_y = select(abs_b, abs_a, swap);
  let subtract = ((a ^ b) >> 31u) != 0u;
  if (abs_x == SF_F32_INF) {
    // inf - inf is invalid; otherwise inf absorbs anything finite.
    if (subtract && abs_y == SF_F32_INF) {
      return SF_F32_QNAN;
    }
    return x;
  }
  let ex = sf_f32_exp(abs_x);
  let ey = sf_f32_exp(abs_y);
  // Implicit bit at bit 29: bit 30 takes an addition's carry, bits 5..0 are
  // guard bits. The smaller operand is aligned with jamming: with this many
  // guard bits the sum/difference still rounds correctly.
  let sx = sf_f32_sig(abs_x) << 6u;
  let sy = sf_shr_jam32(sf_f32_sig(abs_y) << 6u, u32(ex - ey));
  let sig = select(sx + sy, sx - sy, subtract);
  if (sig == 0u) {
    // Exact zero: x + (-x) is +0 under round to nearest; -0 + -0 keeps -0.
    return select(x & 0x80000000u, 0u, subtract);
  }
  // Normalize the leading bit to bit 30 in one step (a carry gives shift 0,
  // a cancellation a larger one; bits shifted in are exact zeros).
  let shift = countLeadingZeros(sig) - 1u;
  return sf_f32_round_pack(x >> 31u, ex - i32(shift), sig << shift);
}

fn sf_f32_mul(a: u32, b: u32) -> u32 {
  let sign = (a ^ b) >> 31u;
  let abs_a = a & 0x7fffffffu;
  let abs_b = b & 0x7fffffffu;
  if (abs_a > SF_F32_INF || abs_b > SF_F32_INF) {
    return SF_F32_QNAN;
  }
  if (abs_a == SF_F32_INF || abs_b == SF_F32_INF) {
    // inf * 0 is invalid; inf * anything else is inf.
    if (abs_a == 0u || abs_b == 0u) {
      return SF_F32_QNAN;
    }
    return (sign << 31u) | SF_F32_INF;
  }
  if (abs_a == 0u || abs_b == 0u) {
    return sign << 31u;
  }
  let na = sf_f32_norm(abs_a);
  let nb = sf_f32_norm(abs_b);
  // Leading bits at 30 and 31: the 64-bit product has its leading bit at
  // 61 or 62, so the high word has it at 29 or 30; the low word only
  // matters as a sticky bit.
  let p = sf_mul32_wide(u32(na.x) << 7u, u32(nb.x) << 8u);
  var sig = p.y | select(0u, 1u, p.x != 0u);
  var e = na.y + nb.y - 0x7f;
  if (sig < 0x40000000u) {
    sig = sig << 1u;
    e = e - 1;
  }
  return sf_f32_round_pack(sign, e, sig);
}

fn sf_f32_div(a: u32, b: u32) -> u32 {
  let sign = (a ^ b) >> 31u;
  let abs_a = a & 0x7fffffffu;
  let abs_b = b & 0x7fffffffu;
  if (abs_a > SF_F32_INF || abs_b > SF_F32_INF) {
    return SF_F32_QNAN;
  }
  if (abs_a == SF_F32_INF) {
    // inf / inf is invalid; inf / finite is inf.
    return select((sign << 31u) | SF_F32_INF, SF_F32_QNAN, abs_b == SF_F32_INF);
  }
  if (abs_b == SF_F32_INF) {
    return sign << 31u;
  }
  if (abs_b == 0u) {
    // 0 / 0 is invalid; finite / 0 is inf.
    return select((sign << 31u) | SF_F32_INF, SF_F32_QNAN, abs_a == 0u);
  }
  if (abs_a == 0u) {
    return sign << 31u;
  }
  let na = sf_f32_norm(abs_a);
  let nb = sf_f32_norm(abs_b);
  var rem = u32(na.x);
  let d = u32(nb.x);
  var e = na.y - nb.y + 0x7e;
  if (rem < d) {
    // Make the quotient's first bit 1 (rem / d in [1, 2)).
    rem = rem << 1u;
    e = e - 1;
  }
  // Restoring division, one quotient bit per step: 31 bits put the leading
  // bit at bit 30 (24 significant + 7 round bits); rem < 2d < 2^25 always.
  var q = 0u;
  for (var i = 0u; i < 31u; i = i + 1u) {
    q = q << 1u;
    if (rem >= d) {
      rem = rem - d;
      q = q | 1u;
    }
    rem = rem << 1u;
  }
  // A nonzero remainder means the exact quotient is a bit above q.
  return sf_f32_round_pack(sign, e, q | select(0u, 1u, rem != 0u));
}

fn sf_f32_from_i32(v: i32) -> u32 {
  if (v == 0) {
    return 0u;
  }
  let sign = u32(v) >> 31u;
  // |v| in u32 arithmetic (wrapping), so -2^31 gives 2^31.
  let mag = select(u32(v), ~u32(v) + 1u, sign != 0u);
  if (mag == 0x80000000u) {
    return 0xcf000000u;  // -2^31, exact; its leading bit does not fit bit 30
  }
  let shift = countLeadingZeros(mag) - 1u;
  // value = mag = (mag << shift) / 2^30 * 2^(30 - shift): e = 127 + 30 - shift - 1.
  return sf_f32_round_pack(sign, 0x9c - i32(shift), mag << shift);
}

// Truncates toward zero. Out of range it saturates, as WebAssembly's
// i32.trunc_sat_f32_s (what clang emits for a C++ float -> int cast on
// wasm with nontrapping-fptoint): x >= 2^31 and +inf give 2147483647,
// x <= -2^31 and -inf give -2147483648, NaN gives 0.
fn sf_f32_to_i32_trunc(a: u32) -> i32 {
  let abs_a = a & 0x7fffffffu;
  let neg = (a >> 31u) != 0u;
  if (abs_a > SF_F32_INF) {
    return 0;
  }
  let e = abs_a >> 23u;
  if (e < 127u) {
    return 0;  // |a| < 1, subnormals and zeros included
  }
  if (e >= 127u + 31u) {
    // |a| >= 2^31: -2^31 itself is in range and is also the saturated value.
    return select(2147483647, -2147483647 - 1, neg);
  }
  // value = sig * 2^(e - 150) with sig < 2^24, and e <= 157 here.
  let sig = (abs_a & 0x7fffffu) | 0x800000u;
  var mag: u32;
  if (e >= 150u) {
    mag = sig << (e - 150u);
  } else {
    mag = sig >> (150u - e);
  }
  return select(i32(mag), -i32(mag), neg);
}

// ---------------------------------------------------------------------------
// binary64 on vec2<u32>(lo, hi)

// Rounds and packs. `sig` has its leading bit at bit 62 and 10 round bits at
// 9..0; value = sig / 2^62 * 2^(e + 1 - 1023). Same scheme as
// sf_f32_round_pack.
fn sf_f64_round_pack(sign: u32, e_in: i32, sig_in: vec2<u32>) -> vec2<u32> {
  var e = e_in;
  var sig = sig_in;
  if (e > 0x7fd) {
    return vec2<u32>(0u, (sign << 31u) | SF_F64_INF_HI);
  }
  if (e < 0) {
    sig = sf_shr_jam64(sig, u32(-e));
    e = 0;
  }
  let round_bits = sig.x & 0x3ffu;
  var r = sf_shr64(sf_add64(sig, vec2<u32>(0x200u, 0u)), 10u);
  if (round_bits == 0x200u) {
    r.x = r.x & ~1u;  // a tie: to even
  }
  // (e << 52) + r; a carry at e == 0x7fd lands exactly on infinity.
  let packed = sf_add64(vec2<u32>(0u, u32(e) << 20u), r);
  return vec2<u32>(packed.x, packed.y | (sign << 31u));
}

// The significand with its implicit bit (bit 52) for normals, none for
// subnormals, as a 64-bit value; hi holds the abs bits' hi word.
fn sf_f64_sig(a: vec2<u32>) -> vec2<u32> {
  let hi_m = a.y & 0xfffffu;
  return vec2<u32>(a.x, select(hi_m | 0x100000u, hi_m, (a.y >> 20u) == 0u));
}

fn sf_f64_exp(abs_hi: u32) -> i32 {
  return max(i32(abs_hi >> 20u), 1);
}

// Normalized significand (leading bit at bit 52) of a finite nonzero value,
// and its exponent (below 1 for subnormals).
struct sf_f64_norm_t {
  sig: vec2<u32>,
  e: i32,
}

fn sf_f64_norm(abs_a: vec2<u32>) -> sf_f64_norm_t {
  let e = i32(abs_a.y >> 20u);
  if (e != 0) {
    return sf_f64_norm_t(vec2<u32>(abs_a.x, (abs_a.y & 0xfffffu) | 0x100000u), e);
  }
  let shift = sf_clz64(abs_a) - 11u;
  return sf_f64_norm_t(sf_shl64(abs_a, shift), 1 - i32(shift));
}

fn sf_f64_is_nan(abs_a: vec2<u32>) -> bool {
  return abs_a.y > SF_F64_INF_HI || (abs_a.y == SF_F64_INF_HI && abs_a.x != 0u);
}

fn sf_f64_is_inf(abs_a: vec2<u32>) -> bool {
  return abs_a.y == SF_F64_INF_HI && abs_a.x == 0u;
}

fn sf_f64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let abs_a = vec2<u32>(a.x, a.y & 0x7fffffffu);
  let abs_b = vec2<u32>(b.x, b.y & 0x7fffffffu);
  if (sf_f64_is_nan(abs_a) || sf_f64_is_nan(abs_b)) {
    return SF_F64_QNAN;
  }
  // x: the operand of larger magnitude (see sf_f32_add).
  let swap = sf_lt64(abs_a, abs_b);
  let x = select(a, b, swap);
  let abs_x = select(abs_a, abs_b, swap);
  let abs_y = select(abs_b, abs_a, swap);
  let subtract = ((a.y ^ b.y) >> 31u) != 0u;
  if (sf_f64_is_inf(abs_x)) {
    if (subtract && sf_f64_is_inf(abs_y)) {
      return SF_F64_QNAN;
    }
    return x;
  }
  let ex = sf_f64_exp(abs_x.y);
  let ey = sf_f64_exp(abs_y.y);
  // Implicit bit at bit 61: bit 62 takes the carry, 9 guard bits below.
  let sx = sf_shl64(sf_f64_sig(abs_x), 9u);
  let sy = sf_shr_jam64(sf_shl64(sf_f64_sig(abs_y), 9u), u32(ex - ey));
  var sig: vec2<u32>;
  if (subtract) {
    sig = sf_sub64(sx, sy);
  } else {
    sig = sf_add64(sx, sy);
  }
  if (sf_is_zero64(sig)) {
    return vec2<u32>(0u, select(x.y & 0x80000000u, 0u, subtract));
  }
  let shift = sf_clz64(sig) - 1u;
  return sf_f64_round_pack(x.y >> 31u, ex - i32(shift), sf_shl64(sig, shift));
}

fn sf_f64_mul(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let sign = (a.y ^ b.y) >> 31u;
  let abs_a = vec2<u32>(a.x, a.y & 0x7fffffffu);
  let abs_b = vec2<u32>(b.x, b.y & 0x7fffffffu);
  if (sf_f64_is_nan(abs_a) || sf_f64_is_nan(abs_b)) {
    return SF_F64_QNAN;
  }
  let zero_a = sf_is_zero64(abs_a);
  let zero_b = sf_is_zero64(abs_b);
  if (sf_f64_is_inf(abs_a) || sf_f64_is_inf(abs_b)) {
    if (zero_a || zero_b) {
      return SF_F64_QNAN;
    }
    return vec2<u32>(0u, (sign << 31u) | SF_F64_INF_HI);
  }
  if (zero_a || zero_b) {
    return vec2<u32>(0u, sign << 31u);
  }
  let na = sf_f64_norm(abs_a);
  let nb = sf_f64_norm(abs_b);
  // Leading bits at 62 and 63: the 128-bit product is in [2^125, 2^127),
  // so its high 64 bits have their leading bit at 61 or 62 (normalized to
  // 62 below) and the low 64 bits only matter as a sticky bit.
  let u = sf_shl64(na.sig, 10u);
  let v = sf_shl64(nb.sig, 11u);
  // Schoolbook 64x64 -> 128 from four 32x32 -> 64 products, words w0..w3.
  let p00 = sf_mul32_wide(u.x, v.x);
  let p01 = sf_mul32_wide(u.x, v.y);
  let p10 = sf_mul32_wide(u.y, v.x);
  let p11 = sf_mul32_wide(u.y, v.y);
  // Column 1: p00.y + p01.x + p10.x, carries into column 2.
  let c1a = p00.y + p01.x;
  let c1b = c1a + p10.x;
  let carry1 = select(0u, 1u, c1a < p00.y) + select(0u, 1u, c1b < c1a);
  // Columns 2 and 3: (p11) + p01.y + p10.y + carry1, as a 64-bit sum.
  var high = sf_add64(p11, vec2<u32>(p01.y, 0u));
  high = sf_add64(high, vec2<u32>(p10.y, 0u));
  high = sf_add64(high, vec2<u32>(carry1, 0u));
  let sticky = (p00.x | c1b) != 0u;
  var sig = vec2<u32>(high.x | select(0u, 1u, sticky), high.y);
  var e = na.e + nb.e - 0x3ff;
  if (high.y < 0x40000000u) {
    sig = sf_shl64(sig, 1u);
    e = e - 1;
  }
  return sf_f64_round_pack(sign, e, sig);
}

fn sf_f64_div(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let sign = (a.y ^ b.y) >> 31u;
  let abs_a = vec2<u32>(a.x, a.y & 0x7fffffffu);
  let abs_b = vec2<u32>(b.x, b.y & 0x7fffffffu);
  if (sf_f64_is_nan(abs_a) || sf_f64_is_nan(abs_b)) {
    return SF_F64_QNAN;
  }
  let inf = vec2<u32>(0u, (sign << 31u) | SF_F64_INF_HI);
  let zero = vec2<u32>(0u, sign << 31u);
  if (sf_f64_is_inf(abs_a)) {
    return select(inf, SF_F64_QNAN, sf_f64_is_inf(abs_b));
  }
  if (sf_f64_is_inf(abs_b)) {
    return zero;
  }
  if (sf_is_zero64(abs_b)) {
    return select(inf, SF_F64_QNAN, sf_is_zero64(abs_a));
  }
  if (sf_is_zero64(abs_a)) {
    return zero;
  }
  let na = sf_f64_norm(abs_a);
  let nb = sf_f64_norm(abs_b);
  var rem = na.sig;
  let d = nb.sig;
  var e = na.e - nb.e + 0x3fe;
  if (sf_lt64(rem, d)) {
    rem = sf_shl64(rem, 1u);
    e = e - 1;
  }
  // Restoring division: 63 quotient bits put the leading bit at bit 62
  // (53 significant + 10 round bits); rem < 2d < 2^54 always. The quotient
  // is built high word first: bits 62..32 in q_hi, then 31..0 in q_lo.
  var q_hi = 0u;
  for (var i = 0u; i < 31u; i = i + 1u) {
    q_hi = q_hi << 1u;
    if (!sf_lt64(rem, d)) {
      rem = sf_sub64(rem, d);
      q_hi = q_hi | 1u;
    }
    rem = sf_shl64(rem, 1u);
  }
  var q_lo = 0u;
  for (var i = 0u; i < 32u; i = i + 1u) {
    q_lo = q_lo << 1u;
    if (!sf_lt64(rem, d)) {
      rem = sf_sub64(rem, d);
      q_lo = q_lo | 1u;
    }
    rem = sf_shl64(rem, 1u);
  }
  let sticky = select(0u, 1u, !sf_is_zero64(rem));
  return sf_f64_round_pack(sign, e, vec2<u32>(q_lo | sticky, q_hi));
}

// Exact: every i32 is a binary64.
fn sf_f64_from_i32(v: i32) -> vec2<u32> {
  if (v == 0) {
    return vec2<u32>(0u, 0u);
  }
  let sign = u32(v) >> 31u;
  let mag = select(u32(v), ~u32(v) + 1u, sign != 0u);
  // Leading bit at 31 - lz: exponent 1023 + 31 - lz. Drop the leading bit
  // and move the rest to the top of the 52-bit mantissa field.
  let lz = countLeadingZeros(mag);
  let frac = mag ^ (0x80000000u >> lz);
  let m = sf_shl64(vec2<u32>(frac, 0u), 21u + lz);
  return vec2<u32>(m.x, (sign << 31u) | ((1054u - lz) << 20u) | m.y);
}

// Truncates toward zero, saturating out of range like sf_f32_to_i32_trunc:
// x >= 2^31 gives 2147483647, x <= -2^31 - 1 (and -inf) gives -2147483648
// (as do values in (-2^31 - 1, -2^31], truncated), NaN gives 0.
fn sf_f64_to_i32_trunc(a: vec2<u32>) -> i32 {
  let abs_hi = a.y & 0x7fffffffu;
  let neg = (a.y >> 31u) != 0u;
  if (sf_f64_is_nan(vec2<u32>(a.x, abs_hi))) {
    return 0;
  }
  let e = abs_hi >> 20u;
  if (e < 1023u) {
    return 0;
  }
  if (e >= 1023u + 31u) {
    // |a| >= 2^31: the in-range results there are -2^31 exactly, which is
    // also the saturated value.
    return select(2147483647, -2147483647 - 1, neg);
  }
  // value = sig * 2^(e - 1075), sig < 2^53, e <= 1053: shift right 22..52.
  let sig = vec2<u32>(a.x, (abs_hi & 0xfffffu) | 0x100000u);
  let mag = sf_shr64(sig, 1075u - e).x;
  return select(i32(mag), -i32(mag), neg);
}

// ---------------------------------------------------------------------------
// 16-bit formats (value in the low 16 bits of a u32)

// binary16 -> binary32, exact (every binary16 is a binary32; subnormal
// halves become normal floats).
fn sf_f16_to_f32(h_in: u32) -> u32 {
  let h = h_in & 0xffffu;
  let sign = (h >> 15u) << 31u;
  let e = (h >> 10u) & 0x1fu;
  let m = h & 0x3ffu;
  if (e == 0x1fu) {
    // inf stays inf; a NaN keeps its (nonzero) payload, so stays NaN.
    return sign | SF_F32_INF | (m << 13u);
  }
  if (e == 0u) {
    if (m == 0u) {
      return sign;
    }
    // m * 2^-24: move the leading bit to bit 10 (the implicit position).
    let shift = countLeadingZeros(m) - 21u;
    return sign | ((113u - shift) << 23u) | (((m << shift) & 0x3ffu) << 13u);
  }
  // Rebias 15 -> 127.
  return sign | ((e + 112u) << 23u) | (m << 13u);
}

// bfloat16 is the top half of a binary32.
fn sf_bf16_to_f32(h: u32) -> u32 {
  return (h & 0xffffu) << 16u;
}

// binary32 -> binary16, round to nearest even; >= 65520 in magnitude
// (the tie above 65504, which is odd) becomes inf; NaN gives a quiet NaN.
fn sf_f32_to_f16(a: u32) -> u32 {
  let sign = (a >> 16u) & 0x8000u;
  let abs_a = a & 0x7fffffffu;
  if (abs_a > SF_F32_INF) {
    return sign | 0x7e00u;
  }
  if (abs_a >= 0x477ff000u) {
    // 65520 (the tie above 65504, whose mantissa is odd) and up, inf
    // included: the rebiasing below would overflow the 16 bits.
    return sign | 0x7c00u;
  }
  if (abs_a >= 0x38800000u) {
    // Normal half (>= 2^-14): rebias 127 -> 15 and round off 13 bits; a
    // carry into the exponent is the right result (at most 0x7bff here).
    let odd = (abs_a >> 13u) & 1u;
    return sign | ((abs_a - (112u << 23u) + 0xfffu + odd) >> 13u);
  }
  let e = abs_a >> 23u;
  if (e < 102u) {
    // Below 2^-25: less than half the smallest subnormal half. (f32
    // subnormals too.)
    return sign;
  }
  // Subnormal half: result = round(sig * 2^(e - 126)), shift in 14..24.
  let sig = (abs_a & 0x7fffffu) | 0x800000u;
  let s = 126u - e;
  var r = sig >> s;
  let rest = sig & ((1u << s) - 1u);
  let half = 1u << (s - 1u);
  if (rest > half || (rest == half && (r & 1u) != 0u)) {
    r = r + 1u;  // may become 0x400, the smallest normal half: right
  }
  return sign | r;
}

// binary32 -> bfloat16, round to nearest even (integer rounding of the low
// half; a carry into the exponent, up to inf, is right); NaN gives a
// quiet NaN.
fn sf_f32_to_bf16(a: u32) -> u32 {
  if ((a & 0x7fffffffu) > SF_F32_INF) {
    return ((a >> 16u) & 0x8000u) | 0x7fc0u;
  }
  return (a + 0x7fffu + ((a >> 16u) & 1u)) >> 16u;
}
