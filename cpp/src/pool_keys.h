// Operator layer: integer pools on the kernels of another value type.
//
// Each pool kernel instantiated for a value type costs the module bytes,
// and the module has a size budget (docs/performance.md). So int8, int16 and
// int32 pool on exact, order-preserving keys of a type that has kernels
// already, chunk by chunk, and their outputs come back from the keys:
//
//   int8   v ^ 0x80 as uint8   (uint8's kernels: 16 lanes a vector)
//   int16  v as float          (float32's kernels; every int16 is exact)
//   int32  v as double         (float64's kernels; every int32 is exact)
//
// (adaptive pooling: uint8 and int8 as float too, WindowKey).
//
// The integer rule and the float rule pick the same element on such keys:
// both start at the window's first element, take a strictly greater one,
// and no key is NaN. A window wholly in padding gives the key type's start
// (0 for uint8, -inf for float): it maps back to the type's lowest value,
// and its index is the float path's, as the integer rule wants. uint8 and
// int64 have kernels of their own (no wider exact key for int64).
#ifndef UNPOOL_SRC_POOL_KEYS_H_
#define UNPOOL_SRC_POOL_KEYS_H_

#include <cstdint>
#include <limits>
#include <type_traits>

#include "checks.h"
#include "geometry.h"

namespace unpool {
namespace internal {

// The key type an integer value type pools as (itself: its own kernels).
template <typename T>
struct PoolKey {
  using type = T;
};
template <>
struct PoolKey<int8_t> {
  using type = uint8_t;
};
template <>
struct PoolKey<int16_t> {
  using type = float;
};
template <>
struct PoolKey<int32_t> {
  using type = double;
};
template <typename T>
using pool_key_t = typename PoolKey<T>::type;

// Whether T pools through keys of another type.
template <typename T>
constexpr bool kPoolsOnKeys = !std::is_same<T, pool_key_t<T>>::value;

// The key type of adaptive pooling's windows: uint8 and int8 too pool on
// float32 keys there (no window kernels of their own: adaptive pooling has
// no speed target for them, and the module a size budget).
template <typename T>
struct WindowKey {
  using type = pool_key_t<T>;
};
template <>
struct WindowKey<uint8_t> {
  using type = float;
};
template <>
struct WindowKey<int8_t> {
  using type = float;
};
template <typename T>
using window_key_t = typename WindowKey<T>::type;

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

// How a value type becomes keys and back: n elements at a time.
struct KeyConversion {
  void (*in)(const void* x, void* keys, int64_t n);
  void (*out)(const void* keys, void* y, int64_t n);
  int64_t value_bytes, key_bytes;
};

template <typename T, typename K>
void keys_in(const void* x, void* keys, int64_t n) {
  const T* px = static_cast<const T*>(x);
  K* pk = static_cast<K*>(keys);
  for (int64_t i = 0; i < n; ++i) pk[i] = to_key<T, K>(px[i]);
}

template <typename T, typename K>
void keys_out(const void* keys, void* y, int64_t n) {
  const K* pk = static_cast<const K*>(keys);
  T* py = static_cast<T*>(y);
  for (int64_t i = 0; i < n; ++i) py[i] = from_key<T, K>(pk[i]);
}

template <typename T, typename K>
constexpr KeyConversion kKeyConversion = {&keys_in<T, K>, &keys_out<T, K>,
                                          static_cast<int64_t>(sizeof(T)),
                                          static_cast<int64_t>(sizeof(K))};

// The key type's pool of a chunk (keys in, keys and indices out); `ctx` is
// the caller's.
using KeyPool = Check (*)(const Geometry& chunk, const void* keys, void* key_results, void* idx,
                          const void* ctx);

// Pools `g` (every plane; channels first or last) of values `x` into `y`
// and `idx` (of `index_bytes` each) through keys `conv` makes, calling
// `pool` on chunks of whole planes (channels last: of whole batch items).
// Not a template, so that every type and op shares one copy
// (pool_keys.cc).
Check pool_on_keys(const char* op, const Geometry& g, const void* x, void* y, void* idx,
                   int64_t index_bytes, const KeyConversion& conv, KeyPool pool, const void* ctx);

}  // namespace internal
}  // namespace unpool

#endif  // UNPOOL_SRC_POOL_KEYS_H_
