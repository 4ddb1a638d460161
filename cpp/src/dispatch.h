// Type dispatch of the operator layer: one templated body per op, called
// with the value and index types of a plan.
#ifndef UNPOOL_SRC_DISPATCH_H_
#define UNPOOL_SRC_DISPATCH_H_

#include <cstdint>

#include "ukernels/half.h"
#include "unpool/types.h"

namespace unpool {
namespace internal {

template <typename T, typename F>
void dispatch_index(IndexType index_type, F&& f) {
  switch (index_type) {
#define UNPOOL_CASE(e, code, name, I) \
  case IndexType::e:                  \
    f(T{}, I{});                      \
    return;
    UNPOOL_INDEX_TYPE_LIST(UNPOOL_CASE)
#undef UNPOOL_CASE
  }
}

// Calls f(T{}, I{}) with T and I the C++ types of `dtype` and `index_type`
// (UNPOOL_DTYPE_LIST, UNPOOL_INDEX_TYPE_LIST). The types must have been
// checked (check_types): a plan's always are.
template <typename F>
void dispatch(DType dtype, IndexType index_type, F&& f) {
  switch (dtype) {
#define UNPOOL_CASE(e, code, name, T) \
  case DType::e:                      \
    dispatch_index<T>(index_type, f); \
    return;
    UNPOOL_DTYPE_LIST(UNPOOL_CASE)
#undef UNPOOL_CASE
  }
}

// On 32-bit targets (WebAssembly) no plane has 2^31 elements (they would
// not fit in memory beside the output), so int64 indices are computed as
// int32 and widened in place: the pool kernels are instantiated for int32
// indices only, which halves their code. 64-bit targets run int64 kernels.
constexpr bool kNarrowPoolIndices = sizeof(void*) == 4;

// dispatch for the ops that write indices: with kNarrowPoolIndices, f sees
// int32 indices for both index types. Returns true when the caller must
// widen them (ukernels::config::widen_indices) once the run has succeeded.
template <typename F>
bool dispatch_pool(DType dtype, IndexType index_type, F&& f) {
  if (!kNarrowPoolIndices) {
    dispatch(dtype, index_type, f);
    return false;
  }
  dispatch(dtype, IndexType::kInt32, f);
  return index_type == IndexType::kInt64;
}

// The C++ type that moves a value of T without looking at it: the 16-bit
// types are their bits, so that the ops that only copy values (unpool and
// its backward) run one instantiation for float16, bfloat16 and int16.
template <typename T>
struct Storage {
  using type = T;
};
template <>
struct Storage<ukernels::Float16> {
  using type = uint16_t;
};
template <>
struct Storage<ukernels::BFloat16> {
  using type = uint16_t;
};
// int8 moves as uint8 and int16 as uint16 (a signed type and its unsigned
// twin may alias), so they share the uint8 and 16-bit float copies; int32
// moves as float and int64 as double: the copies are loads and stores,
// which keep every bit pattern (WebAssembly's f32/f64 loads and stores,
// SSE moves), and no value is ever computed with.
template <>
struct Storage<int8_t> {
  using type = uint8_t;
};
template <>
struct Storage<int16_t> {
  using type = uint16_t;
};
template <>
struct Storage<int32_t> {
  using type = float;
};
template <>
struct Storage<int64_t> {
  using type = double;
};

// dispatch for ops that copy values: f(S{}, I{}) with S = Storage<T>.
template <typename F>
void dispatch_storage(DType dtype, IndexType index_type, F&& f) {
  switch (dtype) {
#define UNPOOL_CASE(e, code, name, T)                         \
  case DType::e:                                              \
    dispatch_index<typename Storage<T>::type>(index_type, f); \
    return;
    UNPOOL_DTYPE_LIST(UNPOOL_CASE)
#undef UNPOOL_CASE
  }
}

}  // namespace internal
}  // namespace unpool

#endif  // UNPOOL_SRC_DISPATCH_H_
