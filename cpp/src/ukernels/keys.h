// Integer keys: the conversions of the integer pools that run on another
// type's kernels (pool_keys.h says which type pools as which, and why).
// keys_in makes each value of T an exact, order-preserving key of type K;
// keys_out turns a pool's keys back into values of T. The pairs (T, K):
// (uint8, float), (int8, float), (int16, float), (int32, double) as the
// value itself, and (int8, uint8) as v ^ 0x80 both ways.
//
// keys_out takes what a pool of keys writes: keys of values of T, or, for a
// window wholly in padding, the key type's start (-inf for float and double,
// 0 for uint8), which becomes T's lowest value as the integer rule wants.
#ifndef UNPOOL_SRC_UKERNELS_KEYS_H_
#define UNPOOL_SRC_UKERNELS_KEYS_H_

#include <cstdint>
#include <limits>
#include <type_traits>

namespace unpool {
namespace ukernels {

namespace detail {

// int8 as uint8: v ^ 0x80 (the parentheses keep clang-format 14 from
// reading && as a reference).
template <typename T, typename K>
constexpr bool kXorKeys = (std::is_same<T, int8_t>::value && std::is_same<K, uint8_t>::value);

template <typename T, typename K>
inline K to_key(T v) {
  if constexpr (kXorKeys<T, K>) {
    return static_cast<K>(static_cast<uint8_t>(v) ^ 0x80u);
  } else {
    return static_cast<K>(v);
  }
}

template <typename T, typename K>
inline T from_key(K k) {
  if constexpr (kXorKeys<T, K>) {
    return static_cast<T>(static_cast<uint8_t>(k ^ 0x80u));
  } else {
    // -inf: a window wholly in padding.
    return k < static_cast<K>(std::numeric_limits<T>::lowest()) ? std::numeric_limits<T>::lowest()
                                                                : static_cast<T>(k);
  }
}

// Elements i to n - 1, one a step: the scalar variants, and the SIMD ones'
// tails.
template <typename T, typename K>
__attribute__((always_inline)) inline void keys_in_from(const T* x, K* keys, int64_t i, int64_t n) {
  for (; i < n; ++i) keys[i] = to_key<T, K>(x[i]);
}
template <typename T, typename K>
__attribute__((always_inline)) inline void keys_out_from(const K* keys, T* y, int64_t i,
                                                         int64_t n) {
  for (; i < n; ++i) y[i] = from_key<T, K>(keys[i]);
}

}  // namespace detail

// Every variant and its loops are always inlined: each pair's conversion is
// then one function in the caller (pool_keys.cc's, compiled -Oz, which
// would otherwise keep every layer a call of its own and the module
// larger); a table's address of a variant still gets it a body.

// keys[i] = the key of x[i], i < n.
template <typename T, typename K>
__attribute__((always_inline)) inline void keys_in__scalar(const T* x, K* keys, int64_t n) {
  detail::keys_in_from(x, keys, 0, n);
}

// y[i] = the value of keys[i], i < n.
template <typename T, typename K>
__attribute__((always_inline)) inline void keys_out__scalar(const K* keys, T* y, int64_t n) {
  detail::keys_out_from(keys, y, 0, n);
}

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_KEYS_H_
