// softfloat-int.wgsl: IEEE-754 arithmetic done in integer arithmetic on the
// bits, part 1 of 4: what every precision shares (constants, 32- and 64-bit
// integer helpers). The others: softfloat-f32.wgsl (binary32),
// softfloat-f64.wgsl (binary64), softfloat-half.wgsl (binary16 and bfloat16
// conversions); a kernel family lists the parts it uses (kernels.ts).
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
// These files are plain snippets of functions (no bindings, no entry points):
// the backend prepends them to the shaders that need them. Every name starts
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
