// WebAssembly SIMD twin of argmaxpool_nhwc__scalar (argmaxpool_nhwc.h) for
// f32 values with int32 indices: four channels a vector, the same rule lane
// by lane (gt | ne(v, v), then bitselect), so the bits are the scalar
// kernel's.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_NHWC_WASMSIMD_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_NHWC_WASMSIMD_H_

#ifdef __wasm_simd128__

#include <wasm_simd128.h>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "ukernels/argmaxpool_nhwc.h"

namespace unpool {
namespace ukernels {
namespace wasmsimd {

// Channels [0, cn) (cn <= kNhwcBlock) of one block: whole vectors here, the
// last cn % 4 channels through the scalar block. Inlined into its one caller:
// a call per block and position slowed pools with few channels.
__attribute__((always_inline)) inline void argmaxpool_nhwc_block(const float* __restrict x,
                                                                 const ArgmaxNhwc& p, int64_t cn,
                                                                 float* __restrict y,
                                                                 int32_t* __restrict idx) {
  const int64_t H = p.height, W = p.width, C = p.channels;
  const int64_t vn = cn / 4;
  v128_t best[kNhwcBlock / 4], at_best[kNhwcBlock / 4];
  const v128_t first =
      wasm_i32x4_splat(static_cast<int32_t>((p.start[0] * H + p.start[1]) * W + p.start[2]));
  for (int64_t v = 0; v < vn; ++v) {
    best[v] = wasm_f32x4_splat(-std::numeric_limits<float>::infinity());
    at_best[v] = first;
  }
  for (int64_t d = p.start[0]; d < p.end[0]; d += p.dilation[0]) {
    for (int64_t h = p.start[1]; h < p.end[1]; h += p.dilation[1]) {
      for (int64_t w = p.start[2]; w < p.end[2]; w += p.dilation[2]) {
        const int64_t at = (d * H + h) * W + w;
        const float* xp = x + at * C;
        const v128_t at_v = wasm_i32x4_splat(static_cast<int32_t>(at));
        for (int64_t v = 0; v < vn; ++v) {
          const v128_t xv = wasm_v128_load(xp + 4 * v);
          const v128_t take = wasm_v128_or(wasm_f32x4_gt(xv, best[v]), wasm_f32x4_ne(xv, xv));
          best[v] = wasm_v128_bitselect(xv, best[v], take);
          at_best[v] = wasm_v128_bitselect(at_v, at_best[v], take);
        }
      }
    }
  }
  for (int64_t v = 0; v < vn; ++v) {
    wasm_v128_store(y + 4 * v, best[v]);
    wasm_v128_store(idx + 4 * v, at_best[v]);
  }
  if (cn % 4) {
    argmaxpool_nhwc_block__scalar<float, int32_t>(x + 4 * vn, p, cn % 4, y + 4 * vn, idx + 4 * vn);
  }
}

}  // namespace wasmsimd

// f32 values with int32 indices (the guard), any position.
template <typename T, typename I>
constexpr bool argmaxpool_nhwc__wasmsimd_applies(const ArgmaxNhwc&) {
  return std::is_same<T, float>::value && std::is_same<I, int32_t>::value;
}
template <typename T, typename I>
__attribute__((noinline)) void argmaxpool_nhwc__wasmsimd(const T* x, const ArgmaxNhwc& p, T* y,
                                                         I* idx) {
  if constexpr (std::is_same<T, float>::value && std::is_same<I, int32_t>::value) {
    for (int64_t c0 = 0; c0 < p.channels; c0 += kNhwcBlock) {
      const int64_t cn = p.channels - c0 < kNhwcBlock ? p.channels - c0 : kNhwcBlock;
      wasmsimd::argmaxpool_nhwc_block(x + c0, p, cn, y + c0, idx + c0);
    }
  } else {
    __builtin_trap();  // its guard rejects these types
  }
}

}  // namespace ukernels
}  // namespace unpool

#endif  // __wasm_simd128__
#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_NHWC_WASMSIMD_H_
