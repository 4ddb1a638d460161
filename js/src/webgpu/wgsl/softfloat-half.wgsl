// softfloat-half.wgsl: binary16 and bfloat16 conversions to and from binary32 in integer arithmetic (the conventions and
// why: softfloat-int.wgsl, which comes first).

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
