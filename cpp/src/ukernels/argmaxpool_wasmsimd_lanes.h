// The lanes of the WebAssembly SIMD argmax pool kernels: value vectors
// (loads at any stride, the replace mask of the PyTorch rule) and the index
// accumulators that match them, per value and index type.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_LANES_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_LANES_H_

#ifdef __wasm_simd128__

#include <wasm_simd128.h>

#include <cstdint>
#include <type_traits>

namespace unpool {
namespace ukernels {
namespace wasmsimd {

// Value lanes: loads at stride 1, 2 or any, and the replace mask.
template <typename T>
struct Vec;

template <>
struct Vec<float> {
  static constexpr int64_t kLanes = 4;
  static v128_t replaces(v128_t v, v128_t best) {
    return wasm_v128_or(wasm_f32x4_gt(v, best), wasm_f32x4_ne(v, v));
  }
  static v128_t load(const float* p) { return wasm_v128_load(p); }
  // For NaN-free data: the mask and value of `v replaces best` (ties keep
  // best); pmax(a, b) is a < b ? b : a, one maxps.
  static v128_t lt(v128_t a, v128_t b) { return wasm_f32x4_lt(a, b); }
  static v128_t pmax(v128_t a, v128_t b) { return wasm_f32x4_pmax(a, b); }
  static v128_t add(v128_t a, v128_t b) { return wasm_f32x4_add(a, b); }
  static bool all_ordered(v128_t a) { return wasm_i32x4_all_true(wasm_f32x4_eq(a, a)); }
  // Integer lanes of the same width, for the k2s2 kernel's offsets.
  static v128_t isplat(int64_t v) { return wasm_i32x4_splat(static_cast<int32_t>(v)); }
  static v128_t isub(v128_t a, v128_t b) { return wasm_i32x4_sub(a, b); }
  // p[0], p[2], p[4], p[6]; reads p[7] too.
  static v128_t load_s2(const float* p) {
    return wasm_i32x4_shuffle(wasm_v128_load(p), wasm_v128_load(p + 4), 0, 2, 4, 6);
  }
  static v128_t load_strided(const float* p, int64_t s) {
    return wasm_f32x4_make(p[0], p[s], p[2 * s], p[3 * s]);
  }
  // p[0], p[2], p[4], p[6] and p[1], p[3], p[5], p[7].
  static void load_pairs(const float* p, v128_t* even, v128_t* odd) {
    const v128_t a = wasm_v128_load(p), b = wasm_v128_load(p + 4);
    *even = wasm_i32x4_shuffle(a, b, 0, 2, 4, 6);
    *odd = wasm_i32x4_shuffle(a, b, 1, 3, 5, 7);
  }
};

template <>
struct Vec<double> {
  static constexpr int64_t kLanes = 2;
  static v128_t replaces(v128_t v, v128_t best) {
    return wasm_v128_or(wasm_f64x2_gt(v, best), wasm_f64x2_ne(v, v));
  }
  static v128_t load(const double* p) { return wasm_v128_load(p); }
  static v128_t lt(v128_t a, v128_t b) { return wasm_f64x2_lt(a, b); }
  static v128_t pmax(v128_t a, v128_t b) { return wasm_f64x2_pmax(a, b); }
  static v128_t add(v128_t a, v128_t b) { return wasm_f64x2_add(a, b); }
  static bool all_ordered(v128_t a) { return wasm_i64x2_all_true(wasm_f64x2_eq(a, a)); }
  static v128_t isplat(int64_t v) { return wasm_i64x2_splat(v); }
  static v128_t isub(v128_t a, v128_t b) { return wasm_i64x2_sub(a, b); }
  // p[0], p[2]; reads p[3] too.
  static v128_t load_s2(const double* p) {
    return wasm_i64x2_shuffle(wasm_v128_load(p), wasm_v128_load(p + 2), 0, 2);
  }
  static v128_t load_strided(const double* p, int64_t s) { return wasm_f64x2_make(p[0], p[s]); }
  static void load_pairs(const double* p, v128_t* even, v128_t* odd) {
    const v128_t a = wasm_v128_load(p), b = wasm_v128_load(p + 2);
    *even = wasm_i64x2_shuffle(a, b, 0, 2);
    *odd = wasm_i64x2_shuffle(a, b, 1, 3);
  }
};

// Index lanes matching the value lanes. Lane l of a group holds offset
// `base + l * stride`, where base is the offset of lane 0's tap. In interior
// columns every such offset is a valid input offset, so it fits I.
template <typename T, typename I>
struct Idx;

template <>
struct Idx<float, int32_t> {
  v128_t a, off;
  explicit Idx(int64_t s)
      : a(wasm_i32x4_splat(0)),
        off(wasm_i32x4_make(0, static_cast<int32_t>(s), static_cast<int32_t>(2 * s),
                            static_cast<int32_t>(3 * s))) {}
  v128_t at(int64_t base) const {
    return wasm_i32x4_add(wasm_i32x4_splat(static_cast<int32_t>(base)), off);
  }
  void set(int64_t base) { a = at(base); }
  void select(int64_t base, v128_t m) { a = wasm_v128_bitselect(at(base), a, m); }
  void store(int32_t* out) const { wasm_v128_store(out, a); }
};

// f32 masks are widened to two i64x2 halves (sign extension keeps them masks).
template <>
struct Idx<float, int64_t> {
  v128_t lo, hi, off_lo, off_hi;
  explicit Idx(int64_t s)
      : lo(wasm_i64x2_splat(0)),
        hi(lo),
        off_lo(wasm_i64x2_make(0, s)),
        off_hi(wasm_i64x2_make(2 * s, 3 * s)) {}
  void set(int64_t base) {
    const v128_t b = wasm_i64x2_splat(base);
    lo = wasm_i64x2_add(b, off_lo);
    hi = wasm_i64x2_add(b, off_hi);
  }
  void select(int64_t base, v128_t m) {
    const v128_t b = wasm_i64x2_splat(base);
    lo = wasm_v128_bitselect(wasm_i64x2_add(b, off_lo), lo, wasm_i64x2_extend_low_i32x4(m));
    hi = wasm_v128_bitselect(wasm_i64x2_add(b, off_hi), hi, wasm_i64x2_extend_high_i32x4(m));
  }
  void store(int64_t* out) const {
    wasm_v128_store(out, lo);
    wasm_v128_store(out + 2, hi);
  }
};

// f64: i64x2 offsets; int32 outputs take the low halves.
template <typename I>
struct Idx64 {
  v128_t a, off;
  explicit Idx64(int64_t s) : a(wasm_i64x2_splat(0)), off(wasm_i64x2_make(0, s)) {}
  v128_t at(int64_t base) const { return wasm_i64x2_add(wasm_i64x2_splat(base), off); }
  void set(int64_t base) { a = at(base); }
  void select(int64_t base, v128_t m) { a = wasm_v128_bitselect(at(base), a, m); }
  void store(int64_t* out) const { wasm_v128_store(out, a); }
  void store(int32_t* out) const {
    wasm_v128_store64_lane(out, wasm_i32x4_shuffle(a, a, 0, 2, 0, 2), 0);
  }
};
template <>
struct Idx<double, int32_t> : Idx64<int32_t> {
  using Idx64::Idx64;
};
template <>
struct Idx<double, int64_t> : Idx64<int64_t> {
  using Idx64::Idx64;
};

}  // namespace wasmsimd

}  // namespace ukernels
}  // namespace unpool

#endif  // __wasm_simd128__
#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_LANES_H_
