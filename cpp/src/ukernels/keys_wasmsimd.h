// WebAssembly SIMD variants of the integer keys' conversions (keys.h has
// the scalar twins, which also do the elements past the last whole vector):
// - int8 to uint8 keys and back: v ^ 0x80 both ways, 16 values a step.
// - uint8, int8 and int16 to float32 keys: widened and converted, 8 values
//   a step. Back: i32x4.trunc_sat then saturating narrows; a -inf key (a
//   window wholly in padding) truncates to INT32_MIN and saturates to the
//   type's lowest value, as the scalar from_key maps it.
// - int32 to float64 keys and back: the scalar loop (no vector step).
#ifndef UNPOOL_SRC_UKERNELS_KEYS_WASMSIMD_H_
#define UNPOOL_SRC_UKERNELS_KEYS_WASMSIMD_H_

#ifdef __wasm_simd128__

#include <wasm_simd128.h>

#include <cstdint>
#include <type_traits>

#include "ukernels/keys.h"

namespace unpool {
namespace ukernels {

namespace detail {

// int32 lanes v, |v| < 2^22, as float32: the bits of 1.5 * 2^23 + v less
// 1.5 * 2^23, exactly. (clang 14 turns f32x4.convert_i32x4_s of widened
// 8- and 16-bit lanes into a scalar conversion per lane; -Oz would make
// this a call per vector.)
__attribute__((always_inline)) inline v128_t to_float(v128_t v) {
  return wasm_f32x4_sub(wasm_i32x4_add(v, wasm_i32x4_splat(0x4B400000)),
                        wasm_f32x4_splat(12582912.0f));
}

// The whole vectors of n values; each returns how many values it did.
template <typename T, typename K>
inline int64_t vector_keys_in(const void* from, void* to, int64_t n) {
  int64_t i = 0;
  const unsigned char* p = static_cast<const unsigned char*>(from);
  unsigned char* q = static_cast<unsigned char*>(to);
  if constexpr (kXorKeys<T, K>) {
    for (; i + 16 <= n; i += 16) {
      wasm_v128_store(q + i, wasm_v128_xor(wasm_v128_load(p + i), wasm_i8x16_splat(-128)));
    }
  } else if constexpr (std::is_same<K, float>::value && sizeof(T) <= 2) {
    // 8 values a step as 16-bit lanes (uint8's fit the signed ones).
    for (; i + 8 <= n; i += 8) {
      v128_t v;
      if constexpr (std::is_same<T, uint8_t>::value) {
        v = wasm_u16x8_load8x8(p + i);
      } else if constexpr (std::is_same<T, int8_t>::value) {
        v = wasm_i16x8_load8x8(p + i);
      } else {
        v = wasm_v128_load(p + 2 * i);
      }
      wasm_v128_store(q + 4 * i, to_float(wasm_i32x4_extend_low_i16x8(v)));
      wasm_v128_store(q + 4 * i + 16, to_float(wasm_i32x4_extend_high_i16x8(v)));
    }
  }
  return i;
}

template <typename T, typename K>
inline int64_t vector_keys_out(const void* from, void* to, int64_t n) {
  int64_t i = 0;
  if constexpr (kXorKeys<T, K>) {
    i = vector_keys_in<T, K>(from, to, n);  // its own inverse
  } else if constexpr (std::is_same<K, float>::value && sizeof(T) <= 2) {
    const unsigned char* p = static_cast<const unsigned char*>(from);
    unsigned char* q = static_cast<unsigned char*>(to);
    for (; i + 8 <= n; i += 8) {
      const v128_t v =
          wasm_i16x8_narrow_i32x4(wasm_i32x4_trunc_sat_f32x4(wasm_v128_load(p + 4 * i)),
                                  wasm_i32x4_trunc_sat_f32x4(wasm_v128_load(p + 4 * i + 16)));
      if constexpr (std::is_same<T, uint8_t>::value) {
        wasm_v128_store64_lane(q + i, wasm_u8x16_narrow_i16x8(v, v), 0);
      } else if constexpr (std::is_same<T, int8_t>::value) {
        wasm_v128_store64_lane(q + i, wasm_i8x16_narrow_i16x8(v, v), 0);
      } else {
        wasm_v128_store(q + 2 * i, v);
      }
    }
  }
  return i;
}

}  // namespace detail

template <typename T, typename K>
__attribute__((always_inline)) inline void keys_in__wasmsimd(const T* x, K* keys, int64_t n) {
  detail::keys_in_from(x, keys, detail::vector_keys_in<T, K>(x, keys, n), n);
}

template <typename T, typename K>
__attribute__((always_inline)) inline void keys_out__wasmsimd(const K* keys, T* y, int64_t n) {
  detail::keys_out_from(keys, y, detail::vector_keys_out<T, K>(keys, y, n), n);
}

}  // namespace ukernels
}  // namespace unpool

#endif  // __wasm_simd128__

#endif  // UNPOOL_SRC_UKERNELS_KEYS_WASMSIMD_H_
