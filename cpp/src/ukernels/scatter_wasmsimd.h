// WebAssembly SIMD variants of the index check, the unpool scatter and the
// gather (scatter.h has the scalar twins). WebAssembly has no scatter or
// gather instruction: these load 4 indices and 4 values per v128 and move the
// lanes one by one (store32_lane / load32_lane), in index order, so the later
// of duplicate indices still wins. float with int32 indices is vectorised;
// the other type pairs run the scalar twin. Scatter-add stays scalar: its
// read-modify-write of duplicates within a group must stay in order.
#ifndef UNPOOL_SRC_UKERNELS_SCATTER_WASMSIMD_H_
#define UNPOOL_SRC_UKERNELS_SCATTER_WASMSIMD_H_

#ifdef __wasm_simd128__

#include <wasm_simd128.h>

#include <cstdint>
#include <type_traits>

#include "ukernels/scatter.h"

namespace unpool {
namespace ukernels {

// For int32 indices one unsigned compare tests 0 <= v < limit (a negative
// index is a huge unsigned one); int64 indices use two signed compares.
template <typename I>
bool check_indices__wasmsimd(const I* idx, int64_t n, int64_t limit) {
  int64_t i = 0;
  v128_t bad = wasm_i32x4_splat(0);
  if constexpr (std::is_same<I, int32_t>::value) {
    // Every int32 >= 0 is below a limit of 2^31 or more.
    const uint32_t lim = limit > INT32_MAX ? uint32_t{0x80000000u} : static_cast<uint32_t>(limit);
    const v128_t vlim = wasm_i32x4_splat(static_cast<int32_t>(lim));
    for (; i + 8 <= n; i += 8) {
      const v128_t a = wasm_v128_load(idx + i), b = wasm_v128_load(idx + i + 4);
      bad = wasm_v128_or(bad, wasm_v128_or(wasm_u32x4_ge(a, vlim), wasm_u32x4_ge(b, vlim)));
    }
  } else {
    const v128_t vlim = wasm_i64x2_splat(limit), zero = wasm_i64x2_splat(0);
    for (; i + 4 <= n; i += 4) {
      const v128_t a = wasm_v128_load(idx + i), b = wasm_v128_load(idx + i + 2);
      bad = wasm_v128_or(bad, wasm_v128_or(wasm_v128_or(wasm_i64x2_lt(a, zero), wasm_i64x2_ge(a, vlim)),
                                           wasm_v128_or(wasm_i64x2_lt(b, zero), wasm_i64x2_ge(b, vlim))));
    }
  }
  return !wasm_v128_any_true(bad) && check_indices__scalar(idx + i, n - i, limit);
}

// y[idx[i]] = x[i] in order.
template <typename T, typename I>
void unpool_scatter__wasmsimd(const T* x, const I* idx, int64_t n, T* y) {
  if constexpr (std::is_same<T, float>::value && std::is_same<I, int32_t>::value) {
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
      const v128_t v = wasm_v128_load(x + i), j = wasm_v128_load(idx + i);
      wasm_v128_store32_lane(y + wasm_i32x4_extract_lane(j, 0), v, 0);
      wasm_v128_store32_lane(y + wasm_i32x4_extract_lane(j, 1), v, 1);
      wasm_v128_store32_lane(y + wasm_i32x4_extract_lane(j, 2), v, 2);
      wasm_v128_store32_lane(y + wasm_i32x4_extract_lane(j, 3), v, 3);
    }
    unpool_scatter__scalar(x + i, idx + i, n - i, y);
  } else {
    unpool_scatter__scalar(x, idx, n, y);
  }
}

// gi[i] = go[idx[i]].
template <typename T, typename I>
void gather__wasmsimd(const T* go, const I* idx, int64_t n, T* gi) {
  if constexpr (std::is_same<T, float>::value && std::is_same<I, int32_t>::value) {
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
      const v128_t j = wasm_v128_load(idx + i);
      v128_t v = wasm_v128_load32_zero(go + wasm_i32x4_extract_lane(j, 0));
      v = wasm_v128_load32_lane(go + wasm_i32x4_extract_lane(j, 1), v, 1);
      v = wasm_v128_load32_lane(go + wasm_i32x4_extract_lane(j, 2), v, 2);
      v = wasm_v128_load32_lane(go + wasm_i32x4_extract_lane(j, 3), v, 3);
      wasm_v128_store(gi + i, v);
    }
    gather__scalar(go, idx + i, n - i, gi + i);
  } else {
    gather__scalar(go, idx, n, gi);
  }
}

}  // namespace ukernels
}  // namespace unpool

#endif  // __wasm_simd128__
#endif  // UNPOOL_SRC_UKERNELS_SCATTER_WASMSIMD_H_
