// The chunk loop of integer pools on keys (pool_keys.h).
#include "pool_keys.h"

#include <cstdint>
#include <limits>
#include <type_traits>

#include "window_scratch.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace unpool {
namespace internal {

namespace {

template <typename T, typename K>
inline K to_key(T v) {
  if constexpr (std::is_same<K, uint8_t>::value && std::is_same<T, int8_t>::value) {
    return static_cast<K>(static_cast<uint8_t>(v) ^ 0x80u);
  } else {
    return static_cast<K>(v);
  }
}

template <typename T, typename K>
inline T from_key(K k) {
  if constexpr (std::is_same<K, uint8_t>::value && std::is_same<T, int8_t>::value) {
    return static_cast<T>(static_cast<uint8_t>(k ^ 0x80u));
  } else {
    // -inf: a window wholly in padding.
    return k < static_cast<K>(std::numeric_limits<T>::lowest()) ? std::numeric_limits<T>::lowest()
                                                                : static_cast<T>(k);
  }
}

#ifdef __wasm_simd128__

// int32 lanes v, |v| < 2^22, as float32: the bits of 1.5 * 2^23 + v less
// 1.5 * 2^23, exactly. (clang 14 turns f32x4.convert_i32x4_s of widened
// 8- and 16-bit lanes into a scalar conversion per lane; -Oz would make
// this a call per vector.)
__attribute__((always_inline)) inline v128_t to_float(v128_t v) {
  return wasm_f32x4_sub(wasm_i32x4_add(v, wasm_i32x4_splat(0x4B400000)),
                        wasm_f32x4_splat(12582912.0f));
}

// The SIMD build converts whole vectors here (the -Oz loops below do one
// value a step); each returns how many values it did.
// - int8 to uint8 keys and back: v ^ 0x80 both ways.
// - uint8, int8 and int16 to float32 keys: widened and converted. Back:
//   i32x4.trunc_sat then saturating narrows; a -inf key (a window wholly in
//   padding) truncates to INT32_MIN and saturates to the type's lowest
//   value, as from_key maps it.
template <typename T, typename K>
inline int64_t vector_keys_in(const void* from, void* to, int64_t n) {
  int64_t i = 0;
  const unsigned char* p = static_cast<const unsigned char*>(from);
  unsigned char* q = static_cast<unsigned char*>(to);
  if constexpr (std::is_same<K, uint8_t>::value && std::is_same<T, int8_t>::value) {
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
  if constexpr (std::is_same<K, uint8_t>::value) {
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

#else  // the scalar build: the loops below do every value

template <typename T, typename K>
inline int64_t vector_keys_in(const void*, void*, int64_t) {
  return 0;
}
template <typename T, typename K>
inline int64_t vector_keys_out(const void*, void*, int64_t) {
  return 0;
}

#endif  // __wasm_simd128__

}  // namespace

template <typename T, typename K>
void keys_in(const void* x, void* keys, int64_t n) {
  const T* px = static_cast<const T*>(x);
  K* pk = static_cast<K*>(keys);
  for (int64_t i = vector_keys_in<T, K>(x, keys, n); i < n; ++i) pk[i] = to_key<T, K>(px[i]);
}

template <typename T, typename K>
void keys_out(const void* keys, void* y, int64_t n) {
  const K* pk = static_cast<const K*>(keys);
  T* py = static_cast<T*>(y);
  for (int64_t i = vector_keys_out<T, K>(keys, y, n); i < n; ++i) py[i] = from_key<T, K>(pk[i]);
}

#define UNPOOL_KEYS(T, K)                                            \
  template void keys_in<T, K>(const void* x, void* keys, int64_t n); \
  template void keys_out<T, K>(const void* keys, void* y, int64_t n);
UNPOOL_KEYS(uint8_t, float)
UNPOOL_KEYS(int8_t, float)
UNPOOL_KEYS(int8_t, uint8_t)
UNPOOL_KEYS(int16_t, float)
UNPOOL_KEYS(int32_t, double)
#undef UNPOOL_KEYS

Check pool_on_keys(const char* op, const Geometry& g, const void* x, void* y, void* idx,
                   int64_t index_bytes, const KeyConversion& conv, KeyPool pool, const void* ctx) {
  const bool last = g.layout == Layout::kChannelsLast;
  // A unit: one plane, or one batch item of C planes side by side.
  const int64_t per = last ? g.channels : 1;
  const int64_t units = per == 0 ? 0 : g.planes / per;
  const int64_t unit_in = g.in_plane() * per, unit_out = g.out_plane() * per;
  // About 64 KB of keys a chunk (at least one unit): they stay in L2.
  const int64_t chunk_keys = (64 * 1024) / conv.key_bytes;
  int64_t step = unit_in + unit_out > 0 ? chunk_keys / (unit_in + unit_out) : units;
  if (step < 1) step = 1;
  if (step > units) step = units;
  Buffer<unsigned char> kx(step * unit_in * conv.key_bytes), ky(step * unit_out * conv.key_bytes);
  if (!kx.ok() || !ky.ok()) return no_memory(op);
  const unsigned char* px = static_cast<const unsigned char*>(x);
  unsigned char* py = static_cast<unsigned char*>(y);
  unsigned char* pi = static_cast<unsigned char*>(idx);
  for (int64_t u = 0; u < units; u += step) {
    const int64_t n = units - u < step ? units - u : step;
    Geometry chunk = g;
    chunk.planes = n * per;
    conv.in(px + u * unit_in * conv.value_bytes, kx.data(), n * unit_in);
    const Check c = pool(chunk, kx.data(), ky.data(), pi + u * unit_out * index_bytes, ctx);
    if (!c.ok()) return c;
    conv.out(ky.data(), py + u * unit_out * conv.value_bytes, n * unit_out);
  }
  return {};
}

}  // namespace internal
}  // namespace unpool
