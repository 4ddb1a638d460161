// softfloat-f32.wgsl: IEEE binary32 in integer arithmetic (the conventions and
// why: softfloat-int.wgsl, which comes first).

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

// Whether either magnitude is a NaN's.
fn sf_f32_either_nan(abs_a: u32, abs_b: u32) -> bool {
  return abs_a > SF_F32_INF || abs_b > SF_F32_INF;
}

fn sf_f32_add(a: u32, b: u32) -> u32 {
  let abs_a = a & 0x7fffffffu;
  let abs_b = b & 0x7fffffffu;
  if (sf_f32_either_nan(abs_a, abs_b)) { return SF_F32_QNAN; }
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
  if (sf_f32_either_nan(abs_a, abs_b)) { return SF_F32_QNAN; }
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
  if (sf_f32_either_nan(abs_a, abs_b)) { return SF_F32_QNAN; }
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
