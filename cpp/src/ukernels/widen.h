// Index widening: n int32 offsets at the start of a buffer become int64
// over the same bytes. On wasm32 the pool kernels write int32 offsets and
// an int64 result is widened after the run (dispatch.h says why).
#ifndef UNPOOL_SRC_UKERNELS_WIDEN_H_
#define UNPOOL_SRC_UKERNELS_WIDEN_H_

#include <cstdint>
#include <cstring>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace unpool {
namespace ukernels {

namespace detail {

// Element i: its int32 at byte 4 i becomes an int64 at byte 8 i. Bytes move
// with memcpy: the two types may not alias one another through pointers.
inline void widen_one(unsigned char* b, int64_t i) {
  int32_t v;
  std::memcpy(&v, b + 4 * i, sizeof(v));
  const int64_t w = v;
  std::memcpy(b + 8 * i, &w, sizeof(w));
}

}  // namespace detail

// From the last element down: element i's 8 bytes only overlap int32
// elements >= i, which are read before they are overwritten.
inline void widen_indices__scalar(void* p, int64_t n) {
  unsigned char* b = static_cast<unsigned char*>(p);
  for (int64_t i = n - 1; i >= 0; --i) detail::widen_one(b, i);
}

#ifdef __wasm_simd128__
// The same 4 elements at a time: block i (elements 4i..4i+3) is loaded
// whole before its 32 bytes at 32i are stored, and those bytes lie above
// every block not yet read (bytes < 16i). The elements past the last whole
// block go first, one by one.
inline void widen_indices__wasmsimd(void* p, int64_t n) {
  unsigned char* b = static_cast<unsigned char*>(p);
  const int64_t blocks = n / 4;
  for (int64_t i = n - 1; i >= 4 * blocks; --i) detail::widen_one(b, i);
  for (int64_t k = blocks - 1; k >= 0; --k) {
    const v128_t v = wasm_v128_load(b + 16 * k);
    wasm_v128_store(b + 32 * k, wasm_i64x2_extend_low_i32x4(v));
    wasm_v128_store(b + 32 * k + 16, wasm_i64x2_extend_high_i32x4(v));
  }
}
#endif

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_WIDEN_H_
