// Operator layer: integer pools on the kernels of another value type.
//
// Each pool kernel instantiated for a value type costs the module bytes,
// and the module has a size budget (docs/performance.md). So int8, int16 and
// int32 pool on exact, order-preserving keys of a type that has kernels
// already, chunk by chunk, and their outputs come back from the keys:
//
//   uint8, int8, int16  v as float   (float32's kernels; every value is exact)
//   int32               v as double  (float64's kernels; every int32 is exact)
//
// except the 2x2 / stride 2 channels-first pool of bytes, where uint8 has a
// SIMD kernel of its own (8 outputs a vector) and int8 runs it on v ^ 0x80
// (byte_rows_apply).
//
// The integer rule and the float rule pick the same element on such keys:
// both start at the window's first element, take a strictly greater one,
// and no key is NaN. A window wholly in padding gives the key type's start
// (0 for uint8, -inf for float): it maps back to the type's lowest value,
// and its index is the float path's, as the integer rule wants. int64 has
// kernels of its own (no wider type holds it exactly).
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
// uint8 and int8 run uint8's row kernel where it pays (byte_rows_apply).
template <typename T>
struct PoolKey {
  using type = T;
};
template <>
struct PoolKey<uint8_t> {
  using type = float;
};
template <>
struct PoolKey<int8_t> {
  using type = float;
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

// Whether a channels-first pool of bytes runs uint8's own rows (uint8
// itself, int8 on v ^ 0x80 keys): the 2x2 / stride 2 window, whose SIMD
// kernel takes 8 outputs a vector, with at least a vector of outputs a
// row. Every other byte pool runs on float32 keys, whose kernels are SIMD
// for every window (uint8's generic scalar kernels were 10x slower there).
inline bool byte_rows_apply(const Geometry& g) {
  return g.layout == Layout::kChannelsFirst && g.kernel[0] == 1 && g.kernel[1] == 2 &&
         g.kernel[2] == 2 && g.stride[2] == 2 && g.dilation[1] == 1 && g.dilation[2] == 1 &&
         g.out[2] >= 8;
}

// How a value type becomes keys and back: n elements at a time.
struct KeyConversion {
  void (*in)(const void* x, void* keys, int64_t n);
  void (*out)(const void* keys, void* y, int64_t n);
  int64_t value_bytes, key_bytes;
};

// The conversions: the keys_in / keys_out microkernels config.h picks
// (ukernels/keys.h), for (uint8, float), (int8, float), (int8, uint8),
// (int16, float) and (int32, double). pool_keys.cc instantiates them, for
// size: one copy of each, compiled -Oz, where the ops' -O2 made each a
// vectorised kilobyte.
template <typename T, typename K>
void keys_in(const void* x, void* keys, int64_t n);
template <typename T, typename K>
void keys_out(const void* keys, void* y, int64_t n);

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
