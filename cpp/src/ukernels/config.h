// What runs: for every op, the variant of variants.inc that the operator
// layer calls, per build and case. This file is the whole answer to "which
// kernel runs for k = 3, s = 1, channels last, f32?"; appending a variant to
// variants.inc changes nothing here until a line below names it. Each
// choice is taken only where the variant's guard holds (ukernel_test checks
// that), in the order written.
//
// 16-bit values (float16, bfloat16) have kernels of their own for the
// rows and channels-last positions (argmaxpool_row and argmaxpool_nhwc
// below): in the SIMD build argmaxpool_row_half__wasmsimd_k2s2 where the
// float32 k2s2 kernel would run, argmaxpool_row_half__wasmsimd for every
// other run of int32 indices (the pools' only index type there), and
// argmaxpool_row_half__scalar in the scalar build.
//
// Integer values: int64 has kernels of their own, the generic scalar ones
// (argmaxpool_row__scalar, ..._nhwc__scalar, ..._windows__scalar and
// ..._windows_nhwc__scalar on the integer rule). uint8 has rows of its own
// for the channels-first 2x2 / stride 2 pool only (pool_keys.h,
// byte_rows_apply): argmaxpool_row_u8__wasmsimd_k2s2 where it applies
// (-msimd128) or argmaxpool_row__scalar_k2s2 (scalar build), and
// argmaxpool_row__scalar for the rows it does not take. Every other pool
// of uint8, int8, int16 and int32 runs on float32 or float64 keys
// (pool_keys.h), so on those types' kernels.
//
//   build          op                 case                         variant
//   -msimd128      argmaxpool_row     k2, s2, d1 along W, >= 1     argmaxpool_row__wasmsimd_k2s2
//                                     window row, a vector of
//                                     interior columns
//                                     any other                    argmaxpool_row__wasmsimd
//                  argmaxpool_nhwc    f32 values, int32 indices    argmaxpool_nhwc__wasmsimd
//                                     any other                    argmaxpool_nhwc__scalar
//                  gather             f32 values, int32 indices    gather__wasmsimd
//   scalar         argmaxpool_row     k2, s2, d1, two window rows  argmaxpool_row__scalar_k2s2
//                                     any other                    argmaxpool_row__scalar_taps
//                  argmaxpool_nhwc    any                          argmaxpool_nhwc__scalar
//                  gather             any                          gather__scalar
//   -msimd128      argmaxpool_windows f32 values, rows and columns  argmaxpool_windows__cols
//                                     of the plane fit int32
//                                     16-bit values, the same, a   argmaxpool_windows_half__cols
//                                     plane of at most 2^22 values
//   both           argmaxpool_windows other 16-bit values          ..._windows_half__scalar_s
//                                     any other (in the scalar     argmaxpool_windows__scalar
//                                     build, f32 too: the column
//                                     scan is slower without SIMD)
//                  ..._windows_nhwc   any (-msimd128: 16-bit       argmaxpool_windows_nhwc__scalar
//                                     values of batch items up to
//                                     2^22 values on float32 keys)
//   -msimd128      widen_indices      any                          widen_indices__wasmsimd
//   scalar         widen_indices      any                          widen_indices__scalar
//   -msimd128      keys_in            any pair of keys.h           keys_in__wasmsimd
//                  keys_out           any pair of keys.h           keys_out__wasmsimd
//   scalar         keys_in            any pair of keys.h           keys_in__scalar
//                  keys_out           any pair of keys.h           keys_out__scalar
//   both           the other ops      any                          their __scalar variant
#ifndef UNPOOL_SRC_UKERNELS_CONFIG_H_
#define UNPOOL_SRC_UKERNELS_CONFIG_H_

#include <cstdint>
#include <type_traits>

#include "ukernels/argmaxpool_half.h"
#include "ukernels/argmaxpool_half_wasmsimd.h"
#include "ukernels/argmaxpool_u8_wasmsimd.h"
#include "ukernels/half.h"
#include "ukernels/ukernels.h"

namespace unpool {
namespace ukernels {
namespace config {

// float64 pools run scalar kernels in every build (the k2s2 one where it
// applies, else the plain one): the SIMD and unrolled variants for two-lane
// values made the module larger than it may be (docs/performance.md).
constexpr bool kScalarFloat64 = true;

// One run of output rows of a channels-first pool.
template <typename T, typename I>
inline ArgmaxpoolFn<T, I> argmaxpool_row(const ArgmaxRow& r) {
  if constexpr (std::is_same<T, uint8_t>::value) {
#ifdef __wasm_simd128__
    if (argmaxpool_row_u8__wasmsimd_k2s2_applies<T, I>(r)) {
      return &argmaxpool_row_u8__wasmsimd_k2s2<T, I>;
    }
#else
    if (argmaxpool_row__scalar_k2s2_applies<T, I>(r)) return &argmaxpool_row__scalar_k2s2<T, I>;
#endif
    return &argmaxpool_row__scalar<T, I>;
  } else if constexpr (std::is_integral<T>::value) {  // int64 (the others pool on keys)
    (void)r;
    return &argmaxpool_row__scalar<T, I>;
  } else if constexpr (is_half_v<T>) {
#ifdef __wasm_simd128__
    if (argmaxpool_row_half__wasmsimd_k2s2_applies<T, I>(r)) {
      return &argmaxpool_row_half__wasmsimd_k2s2<T, I>;
    }
    if (argmaxpool_row_half__wasmsimd_applies<T, I>(r)) return &argmaxpool_row_half__wasmsimd<T, I>;
#endif
    return &argmaxpool_row_half__scalar<T, I>;
  } else if constexpr (kScalarFloat64 && std::is_same<T, double>::value) {
    if (argmaxpool_row__scalar_k2s2_applies<T, I>(r)) return &argmaxpool_row__scalar_k2s2<T, I>;
    return &argmaxpool_row__scalar<T, I>;
  } else {
#ifdef __wasm_simd128__
    if (argmaxpool_row__wasmsimd_k2s2_applies<T, I>(r)) {
      return &argmaxpool_row__wasmsimd_k2s2<T, I>;
    }
    return &argmaxpool_row__wasmsimd<T, I>;
#else
    if (argmaxpool_row__scalar_k2s2_applies<T, I>(r)) return &argmaxpool_row__scalar_k2s2<T, I>;
    return &argmaxpool_row__scalar_taps<T, I>;
#endif
  }
}

// One output position of a channels-last pool.
template <typename T, typename I>
inline ArgmaxpoolNhwcFn<T, I> argmaxpool_nhwc(const ArgmaxNhwc& p) {
  if constexpr (is_half_v<T>) {
#ifdef __wasm_simd128__
    if (argmaxpool_nhwc_half__wasmsimd_applies<T, I>(p))
      return &argmaxpool_nhwc_half__wasmsimd<T, I>;
#endif
    (void)p;
    return &argmaxpool_nhwc_half__scalar<T, I>;
  } else {
#ifdef __wasm_simd128__
    if (argmaxpool_nhwc__wasmsimd_applies<T, I>(p)) return &argmaxpool_nhwc__wasmsimd<T, I>;
#endif
    (void)p;
    return &argmaxpool_nhwc__scalar<T, I>;
  }
}

template <typename T, typename I>
inline GatherFn<T, I> gather() {
#ifdef __wasm_simd128__
  if constexpr (sizeof(T) >= 4) {
    if (gather__wasmsimd_applies<T, I>()) return &gather__wasmsimd<T, I>;
  }
#endif
  return &gather__scalar<T, I>;
}

// Adaptive (uneven) and fractional windows of a channels-first plane.
template <typename T, typename I>
inline ArgmaxpoolWindowsFn<T, I> argmaxpool_windows(const ArgmaxWindows& a, int64_t rows) {
  if constexpr (std::is_integral<T>::value) {
    (void)a, (void)rows;
    return &argmaxpool_windows__scalar<T, I>;
  } else if constexpr (is_half_v<T>) {
#ifdef __wasm_simd128__
    if (argmaxpool_windows_half__cols_applies<T, I>(a, rows)) {
      return &argmaxpool_windows_half__cols<T, I>;
    }
#else
    (void)a, (void)rows;
#endif
    return &argmaxpool_windows_half__scalar_s<T, I>;
  } else if constexpr (kScalarFloat64 && std::is_same<T, double>::value) {
    (void)a, (void)rows;
    return &argmaxpool_windows__scalar<T, I>;
  } else {
#ifdef __wasm_simd128__
    if (argmaxpool_windows__cols_applies<T, I>(a, rows)) return &argmaxpool_windows__cols<T, I>;
#else
    (void)a, (void)rows;
#endif
    return &argmaxpool_windows__scalar<T, I>;
  }
}
// Whether `f` is a variant that needs WindowScratch.
template <typename T, typename I>
inline bool needs_window_scratch(ArgmaxpoolWindowsFn<T, I> f) {
  if constexpr (std::is_integral<T>::value) {
    (void)f;
    return false;
  } else if constexpr (is_half_v<T>) {
    return f == &argmaxpool_windows_half__cols<T, I>;
  } else if constexpr (kScalarFloat64 && std::is_same<T, double>::value) {
    (void)f;
    return false;
  } else {
    return f == &argmaxpool_windows__cols<T, I>;
  }
}
// Whether 16-bit channels-last windows over `values` input values (one
// batch item) run the float32 kernel on float32 keys
// (argmaxpool_windows_nhwc_bits_on_keys): in the SIMD build, up to
// kHalfKeysMax values.
inline bool half_windows_nhwc_on_keys(int64_t values) {
#ifdef __wasm_simd128__
  return values <= kHalfKeysMax;
#else
  (void)values;
  return false;
#endif
}
// The same windows over channels-last data.
template <typename T, typename I>
constexpr ArgmaxpoolWindowsNhwcFn<T, I> argmaxpool_windows_nhwc =
    &argmaxpool_windows_nhwc__scalar<T, I>;
template <typename T, typename I>
constexpr UnpoolFn<T, I> unpool = &unpool_scatter__scalar<T, I>;
template <typename T, typename I>
constexpr UnpoolNhwcFn<T, I> unpool_nhwc = &unpool_nhwc__scalar<T, I>;
template <typename T, typename I>
constexpr ScatterAddFn<T, I> scatter_add = &scatter_add__scalar<T, I>;
template <typename T, typename I>
constexpr ScatterAddInRangeFn<T, I> scatter_add_in_range = &scatter_add_in_range__scalar<T, I>;
template <typename T, typename I>
constexpr ScatterAddNhwcFn<T, I> scatter_add_nhwc = &scatter_add_nhwc__scalar<T, I>;
template <typename T, typename I>
constexpr GatherNhwcFn<T, I> gather_nhwc = &gather_nhwc__scalar<T, I>;
template <typename I>
constexpr CheckIndicesFn<I> check_indices = &check_indices__scalar<I>;
#ifdef __wasm_simd128__
constexpr WidenIndicesFn widen_indices = &widen_indices__wasmsimd;
#else
constexpr WidenIndicesFn widen_indices = &widen_indices__scalar;
#endif
// The integer keys' conversions (pool_keys.cc instantiates them once).
#ifdef __wasm_simd128__
template <typename T, typename K>
constexpr KeysInFn<T, K> keys_in = &keys_in__wasmsimd<T, K>;
template <typename T, typename K>
constexpr KeysOutFn<T, K> keys_out = &keys_out__wasmsimd<T, K>;
#else
template <typename T, typename K>
constexpr KeysInFn<T, K> keys_in = &keys_in__scalar<T, K>;
template <typename T, typename K>
constexpr KeysOutFn<T, K> keys_out = &keys_out__scalar<T, K>;
#endif

}  // namespace config
}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_CONFIG_H_
