// Microkernel dispatch: tables of the variants in variants.inc, per value
// and index type, and the chosen variant of each op. The choice is made at
// compile time: the last variant compiled in (the SIMD one when built with
// -msimd128, else the scalar twin). The operator layer calls the chosen
// variant; tests and benchmarks walk the tables.
#ifndef UNPOOL_SRC_UKERNELS_UKERNELS_H_
#define UNPOOL_SRC_UKERNELS_UKERNELS_H_

#include <cstddef>
#include <cstdint>

#include "ukernels/argmaxpool.h"
#include "ukernels/argmaxpool_wasmsimd.h"
#include "ukernels/scatter.h"
#include "ukernels/scatter_wasmsimd.h"

namespace unpool {
namespace ukernels {

template <typename T, typename I>
using ArgmaxpoolFn = void (*)(const T* x, const ArgmaxRow& r, T* y, I* idx);
template <typename T, typename I>
using UnpoolFn = void (*)(const T* x, const I* idx, int64_t n, T* y);
template <typename T, typename I>
using ScatterAddFn = void (*)(const T* go, const I* idx, int64_t n, T* gi);
template <typename T, typename I>
using GatherFn = void (*)(const T* go, const I* idx, int64_t n, T* gi);
template <typename I>
using CheckIndicesFn = bool (*)(const I* idx, int64_t n, int64_t limit);

template <typename Fn>
struct Variant {
  const char* name;
  Fn fn;
};

template <typename T, typename I>
constexpr Variant<ArgmaxpoolFn<T, I>> kArgmaxpoolVariants[] = {
#define UNPOOL_ARGMAXPOOL_UKERNEL(fn) {#fn, &fn<T, I>},
#include "ukernels/variants.inc"
};
template <typename T, typename I>
constexpr Variant<UnpoolFn<T, I>> kUnpoolVariants[] = {
#define UNPOOL_UNPOOL_UKERNEL(fn) {#fn, &fn<T, I>},
#include "ukernels/variants.inc"
};
template <typename T, typename I>
constexpr Variant<ScatterAddFn<T, I>> kScatterAddVariants[] = {
#define UNPOOL_SCATTER_ADD_UKERNEL(fn) {#fn, &fn<T, I>},
#include "ukernels/variants.inc"
};
template <typename T, typename I>
constexpr Variant<GatherFn<T, I>> kGatherVariants[] = {
#define UNPOOL_GATHER_UKERNEL(fn) {#fn, &fn<T, I>},
#include "ukernels/variants.inc"
};

template <typename I>
constexpr Variant<CheckIndicesFn<I>> kCheckIndicesVariants[] = {
#define UNPOOL_CHECK_INDICES_UKERNEL(fn) {#fn, &fn<I>},
#include "ukernels/variants.inc"
};

template <typename V, size_t N>
constexpr const V& best(const V (&table)[N]) {
  return table[N - 1];
}

// The variants the operator layer runs.
template <typename T, typename I>
constexpr ArgmaxpoolFn<T, I> argmaxpool_row = best(kArgmaxpoolVariants<T, I>).fn;
template <typename T, typename I>
constexpr UnpoolFn<T, I> unpool_scatter = best(kUnpoolVariants<T, I>).fn;
template <typename T, typename I>
constexpr ScatterAddFn<T, I> scatter_add = best(kScatterAddVariants<T, I>).fn;
template <typename T, typename I>
constexpr GatherFn<T, I> gather = best(kGatherVariants<T, I>).fn;
template <typename I>
constexpr CheckIndicesFn<I> check_indices = best(kCheckIndicesVariants<I>).fn;

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_UKERNELS_H_
