// Shared by every kernel family (prepended to each, after the prelude that
// js/src/webgpu/kernels.ts generates: the Params struct at @group(0)
// @binding(0), constants, overrides and the family's bindings).
//
// Values travel as raw bits in array<u32> words and never pass through float
// arithmetic: WGSL lets a compiler assume no NaN or infinity, flush
// subnormals in compares, and ignore the sign of zero, and the software
// stacks this project tests on do each of those. Selection is done on
// integer keys of the bits instead, which every stack computes exactly.
//
// A value is a vec2<u32>: float32 and 16-bit values in .x (16-bit ones in the
// low half), float64 as (lo, hi) words, as a typed array's buffer holds them.

// DTYPE (the value dtype: F32, F64, F16, BF16, U8, I8, I16, I32, I64) and
// INDEX64 (indices are int64 (lo, hi) word pairs, else int32 words) are
// override constants, WG and NONE constants, all declared in the prelude
// js/src/webgpu/kernels.ts generates from its table.

// Bits of one element: 8, 16, 32, or 64 (float64, int64: two words).
fn elem_bits() -> u32 {
  switch DTYPE {
    case F64, I64: { return 64u; }
    case F16, BF16, I16: { return 16u; }
    case U8, I8: { return 8u; }
    default: { return 32u; }
  }
}

// Elements that share a word (1 for 32- and 64-bit ones).
fn per_word() -> u32 {
  return max(1u, 32u / elem_bits());
}

// The work item of an invocation: dispatches wider than the per-dimension
// workgroup limit are folded into (x, y).
fn item_of(wid: vec3<u32>, lid: vec3<u32>) -> u32 {
  return (wid.y * P.groups_x + wid.x) * WG + lid.x;
}

fn is_nan(v: vec2<u32>) -> bool {
  switch DTYPE {
    case U8, I8, I16, I32, I64: { return false; }
    case F64: {
      let hi = v.y & 0x7fffffffu;
      return hi > 0x7ff00000u || (hi == 0x7ff00000u && v.x != 0u);
    }
    case F16: { return (v.x & 0x7fffu) > 0x7c00u; }
    case BF16: { return (v.x & 0x7fffu) > 0x7f80u; }
    default: { return (v.x & 0x7fffffffu) > 0x7f800000u; }
  }
}

// An unsigned key whose order is the values' order, with -0 == +0 (for
// values that are not NaN). Sign-magnitude bits: a non-negative value (or
// either zero) maps to its magnitude with the top bit set, a negative one
// to its magnitude inverted. float64 keys are (lo, hi) pairs.
fn key32(bits: u32) -> u32 {
  let mag = bits & 0x7fffffffu;
  if ((bits >> 31u) == 0u || mag == 0u) { return mag | 0x80000000u; }
  return ~mag & 0x7fffffffu;
}

fn key(v: vec2<u32>) -> vec2<u32> {
  switch DTYPE {
    case F64: {
      let mh = v.y & 0x7fffffffu;
      if ((v.y >> 31u) == 0u || (mh | v.x) == 0u) { return vec2<u32>(v.x, mh | 0x80000000u); }
      return vec2<u32>(~v.x, ~mh & 0x7fffffffu);
    }
    // 16-bit values as the top half of a word: the same sign-magnitude order.
    case F16, BF16: { return vec2<u32>(0u, key32(v.x << 16u)); }
    // Integers: two's complement with the sign bit flipped is unsigned order.
    case U8: { return vec2<u32>(0u, v.x); }
    case I8: { return vec2<u32>(0u, v.x ^ 0x80u); }
    case I16: { return vec2<u32>(0u, v.x ^ 0x8000u); }
    case I32: { return vec2<u32>(0u, v.x ^ 0x80000000u); }
    case I64: { return vec2<u32>(v.x, v.y ^ 0x80000000u); }
    default: { return vec2<u32>(0u, key32(v.x)); }
  }
}

// a > b for values that are not NaN.
fn greater(a: vec2<u32>, b: vec2<u32>) -> bool {
  let ka = key(a);
  let kb = key(b);
  return ka.y > kb.y || (ka.y == kb.y && ka.x > kb.x);
}

// Where a running maximum starts: -inf, or an integer type's lowest value.
fn neg_inf() -> vec2<u32> {
  switch DTYPE {
    case U8: { return vec2<u32>(0u, 0u); }
    case I8: { return vec2<u32>(0x80u, 0u); }
    case I16: { return vec2<u32>(0x8000u, 0u); }
    case I32: { return vec2<u32>(0x80000000u, 0u); }
    case I64: { return vec2<u32>(0u, 0x80000000u); }
    case F64: { return vec2<u32>(0u, 0xfff00000u); }
    case F16: { return vec2<u32>(0xfc00u, 0u); }
    case BF16: { return vec2<u32>(0xff80u, 0u); }
    default: { return vec2<u32>(0xff800000u, 0u); }
  }
}

// The geometry of one spatial dim (0 D, 1 H, 2 W) from the uniform block.
struct Dim {
  n_in: u32,
  n_out: u32,
  k: u32,
  s: u32,
  p: u32,
  d: u32,
}

fn dim_of(dim: u32) -> Dim {
  switch dim {
    case 0u: { return Dim(P.in_d, P.out_d, P.k_d, P.s_d, P.p_d, P.d_d); }
    case 1u: { return Dim(P.in_h, P.out_h, P.k_h, P.s_h, P.p_h, P.d_h); }
    default: { return Dim(P.in_w, P.out_w, P.k_w, P.s_w, P.p_w, P.d_w); }
  }
}

// Where a plane's fractional window starts along `dim` begin: per plane,
// out_d + out_h + out_w entries, D's then H's then W's.
fn starts_at(plane: u32, dim: u32) -> u32 {
  var at = plane * (P.out_d + P.out_h + P.out_w);
  if (dim >= 1u) { at = at + P.out_d; }
  if (dim == 2u) { at = at + P.out_h; }
  return at;
}

// Element i of a value tensor whose words are `w` (a function of the
// family's binding: WGSL passes no storage pointers), as a vec2<u32>.
// Families call it through their own x_value().
fn lane(word: u32, i: u32) -> u32 {
  let bits = elem_bits();
  if (bits >= 32u) { return word; }
  let per = 32u / bits;
  return (word >> ((i % per) * bits)) & ((1u << bits) - 1u);
}

// The word index of element i (its first word for 64-bit elements).
fn word_of(i: u32) -> u32 {
  let bits = elem_bits();
  if (bits == 64u) { return 2u * i; }
  return i / (32u / bits);
}
