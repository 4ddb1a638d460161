// The float32 instantiations of argmaxpool_windows__cols, the one window
// kernel that runs hot, and the float32 keys that 16-bit values run it on,
// in a file of their own: the WebAssembly build compiles it for speed while
// the adaptive and fractional ops, whose other code runs once a call or on
// rare types, are compiled for size (CMakeLists.txt).
#include "ukernels/argmaxpool_windows.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace unpool {
namespace ukernels {

template void argmaxpool_windows__cols<float, int32_t>(const float*, const ArgmaxWindows&,
                                                       const WindowScratch<float>&, float*,
                                                       int32_t*);
template void argmaxpool_windows__cols<float, int64_t>(const float*, const ArgmaxWindows&,
                                                       const WindowScratch<float>&, float*,
                                                       int64_t*);

void half_window_keys(const uint16_t* bits, int64_t n, uint16_t inf, float* keys) {
  const uint32_t inf_key = static_cast<uint32_t>(inf) << 16;
  int64_t i = 0;
#ifdef __wasm_simd128__
  // Each value into the top half of an int32 lane by interleaving with
  // zeros; the largest magnitude kept on the side, and the NaN keys made
  // float32 NaN in a second pass only if there was one (planes with NaN
  // are rare; the fix costs four instructions a vector).
  const v128_t zero = wasm_i32x4_splat(0), mag16 = wasm_i16x8_splat(0x7fff);
  v128_t seen = zero;
  for (; i + 8 <= n; i += 8) {
    const v128_t v = wasm_v128_load(bits + i);
    seen = wasm_u16x8_max(seen, wasm_v128_and(v, mag16));
    wasm_v128_store(keys + i, wasm_i16x8_shuffle(zero, v, 0, 8, 1, 9, 2, 10, 3, 11));
    wasm_v128_store(keys + i + 4, wasm_i16x8_shuffle(zero, v, 4, 12, 5, 13, 6, 14, 7, 15));
  }
  if (wasm_v128_any_true(wasm_u16x8_gt(seen, wasm_i16x8_splat(static_cast<int16_t>(inf))))) {
    const v128_t mag = wasm_i32x4_splat(0x7fffffff),
                 limit = wasm_i32x4_splat(static_cast<int32_t>(inf_key)),
                 nan = wasm_i32x4_splat(0x7fc00000);
    for (int64_t j = 0; j + 4 <= i; j += 4) {
      const v128_t k = wasm_v128_load(keys + j);
      wasm_v128_store(
          keys + j,
          wasm_v128_or(k, wasm_v128_and(wasm_i32x4_gt(wasm_v128_and(k, mag), limit), nan)));
    }
  }
#endif
  for (; i < n; ++i) {
    const uint32_t k = static_cast<uint32_t>(bits[i]) << 16;
    keys[i] = f32_from_bits((k & 0x7fffffffu) > inf_key ? k | 0x7fc00000u : k);
  }
}

}  // namespace ukernels
}  // namespace unpool
