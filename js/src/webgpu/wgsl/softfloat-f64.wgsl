// softfloat-f64.wgsl: IEEE binary64 in integer arithmetic (the conventions and
// why: softfloat-int.wgsl, which comes first).

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
  if (sf_f64_is_nan(abs_a) || sf_f64_is_nan(abs_b)) { return SF_F64_QNAN; }
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
  if (sf_f64_is_nan(abs_a) || sf_f64_is_nan(abs_b)) { return SF_F64_QNAN; }
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

// `n` (at most 32) quotient bits of restoring division by d, highest first:
// each step takes d off *rem where it fits, then shifts *rem left.
fn sf_div_bits64(rem: ptr<function, vec2<u32>>, d: vec2<u32>, n: u32) -> u32 {
  var q = 0u;
  for (var i = 0u; i < n; i = i + 1u) {
    q = q << 1u;
    if (!sf_lt64(*rem, d)) {
      *rem = sf_sub64(*rem, d);
      q = q | 1u;
    }
    *rem = sf_shl64(*rem, 1u);
  }
  return q;
}

fn sf_f64_div(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let sign = (a.y ^ b.y) >> 31u;
  let abs_a = vec2<u32>(a.x, a.y & 0x7fffffffu);
  let abs_b = vec2<u32>(b.x, b.y & 0x7fffffffu);
  if (sf_f64_is_nan(abs_a) || sf_f64_is_nan(abs_b)) { return SF_F64_QNAN; }
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
  let q_hi = sf_div_bits64(&rem, d, 31u);
  let q_lo = sf_div_bits64(&rem, d, 32u);
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
