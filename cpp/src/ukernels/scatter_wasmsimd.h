// WebAssembly SIMD variant of the gather (scatter.h has the scalar twin).
// WebAssembly has no gather instruction: this loads 4 indices per v128 and
// the values lane by lane (load32_lane), then stores 4 outputs at once; f32
// values with int32 indices only (its guard).
#ifndef UNPOOL_SRC_UKERNELS_SCATTER_WASMSIMD_H_
#define UNPOOL_SRC_UKERNELS_SCATTER_WASMSIMD_H_

#ifdef __wasm_simd128__

#include <wasm_simd128.h>

#include <cstdint>
#include <type_traits>

#include "ukernels/scatter.h"

namespace unpool {
namespace ukernels {

// gi[i] = go[idx[i]].
template <typename T, typename I>
constexpr bool gather__wasmsimd_applies() {
  return std::is_same<T, float>::value && std::is_same<I, int32_t>::value;
}
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
    __builtin_trap();  // its guard rejects these types
  }
}

}  // namespace ukernels
}  // namespace unpool

#endif  // __wasm_simd128__
#endif  // UNPOOL_SRC_UKERNELS_SCATTER_WASMSIMD_H_
