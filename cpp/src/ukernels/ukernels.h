// The tables of every microkernel variant in variants.inc, per value and
// index type, each entry with its name and guard. Tests and benchmarks walk
// them; the operator layer does not: it runs what config.h picks.
#ifndef UNPOOL_SRC_UKERNELS_UKERNELS_H_
#define UNPOOL_SRC_UKERNELS_UKERNELS_H_

#include <cstddef>
#include <cstdint>

#include "ukernels/argmaxpool.h"
#include "ukernels/argmaxpool_half.h"
#include "ukernels/argmaxpool_half_wasmsimd.h"
#include "ukernels/argmaxpool_nhwc.h"
#include "ukernels/argmaxpool_nhwc_wasmsimd.h"
#include "ukernels/argmaxpool_u8_wasmsimd.h"
#include "ukernels/argmaxpool_wasmsimd.h"
#include "ukernels/argmaxpool_windows.h"
#include "ukernels/keys.h"
#include "ukernels/keys_wasmsimd.h"
#include "ukernels/scatter.h"
#include "ukernels/scatter_nhwc.h"
#include "ukernels/scatter_wasmsimd.h"
#include "ukernels/widen.h"

namespace unpool {
namespace ukernels {

template <typename T, typename I>
using ArgmaxpoolFn = void (*)(const T* x, const ArgmaxRow& r, T* y, I* idx);
template <typename T, typename I>
using ArgmaxpoolNhwcFn = void (*)(const T* x, const ArgmaxNhwc& p, T* y, I* idx);
template <typename T, typename I>
using ArgmaxpoolWindowsFn = void (*)(const T* x, const ArgmaxWindows& a, const WindowScratch<T>& s,
                                     T* y, I* idx);
template <typename T, typename I>
using ArgmaxpoolWindowsNhwcFn = void (*)(const T* x, const ArgmaxWindows& a, int64_t channels, T* y,
                                         I* idx);
template <typename T, typename I>
using UnpoolFn = void (*)(const T* x, const I* idx, int64_t n, T* y);
template <typename T, typename I>
using UnpoolNhwcFn = void (*)(const T* x, const I* idx, int64_t n, int64_t channels, T* y);
template <typename T, typename I>
using ScatterAddFn = void (*)(const T* go, const I* idx, int64_t n, T* gi);
template <typename T, typename I>
using ScatterAddInRangeFn = void (*)(const T* go, const I* idx, int64_t n, int64_t limit, T* gi);
template <typename T, typename I>
using ScatterAddNhwcFn = void (*)(const T* go, const I* idx, int64_t n, int64_t channels,
                                  int64_t limit, T* gi);
template <typename T, typename I>
using GatherFn = void (*)(const T* go, const I* idx, int64_t n, T* gi);
template <typename T, typename I>
using GatherNhwcFn = void (*)(const T* go, const I* idx, int64_t n, int64_t channels, T* gi);
template <typename I>
using CheckIndicesFn = bool (*)(const I* idx, int64_t n, int64_t limit);
using WidenIndicesFn = void (*)(void* p, int64_t n);
template <typename T, typename K>
using KeysInFn = void (*)(const T* x, K* keys, int64_t n);
template <typename T, typename K>
using KeysOutFn = void (*)(const K* keys, T* y, int64_t n);

// The guard of variants that take every value and index type.
template <typename T, typename I>
constexpr bool any_types() {
  return true;
}

// A variant: its name, its function and the guard that says where it
// applies (Guard takes the kernel's params, or nothing for type-only guards).
template <typename Fn, typename Guard>
struct Variant {
  const char* name;
  Fn fn;
  Guard applies;
};

template <typename T, typename I>
constexpr Variant<ArgmaxpoolFn<T, I>, bool (*)(const ArgmaxRow&)> kArgmaxpoolVariants[] = {
#define UNPOOL_ARGMAXPOOL_UKERNEL(fn, guard) {#fn, &fn<T, I>, &guard<T, I>},
#include "ukernels/variants.inc"
};
// The same op for 16-bit values (H: Float16 or BFloat16).
template <typename H, typename I>
constexpr Variant<ArgmaxpoolFn<H, I>, bool (*)(const ArgmaxRow&)> kArgmaxpoolHalfVariants[] = {
#define UNPOOL_ARGMAXPOOL_HALF_UKERNEL(fn, guard) {#fn, &fn<H, I>, &guard<H, I>},
#include "ukernels/variants.inc"
};
// The same op for uint8 values.
template <typename I>
constexpr Variant<ArgmaxpoolFn<uint8_t, I>, bool (*)(const ArgmaxRow&)> kArgmaxpoolU8Variants[] = {
#define UNPOOL_ARGMAXPOOL_U8_UKERNEL(fn, guard) {#fn, &fn<uint8_t, I>, &guard<uint8_t, I>},
#include "ukernels/variants.inc"
};
template <typename T, typename I>
constexpr Variant<ArgmaxpoolNhwcFn<T, I>, bool (*)(const ArgmaxNhwc&)> kArgmaxpoolNhwcVariants[] = {
#define UNPOOL_ARGMAXPOOL_NHWC_UKERNEL(fn, guard) {#fn, &fn<T, I>, &guard<T, I>},
#include "ukernels/variants.inc"
};
template <typename H, typename I>
constexpr Variant<ArgmaxpoolNhwcFn<H, I>, bool (*)(const ArgmaxNhwc&)>
    kArgmaxpoolNhwcHalfVariants[] = {
#define UNPOOL_ARGMAXPOOL_NHWC_HALF_UKERNEL(fn, guard) {#fn, &fn<H, I>, &guard<H, I>},
#include "ukernels/variants.inc"
};

// Adaptive and fractional windows: guards take the window lists and the
// plane's rows (D x H).
template <typename T, typename I>
constexpr Variant<ArgmaxpoolWindowsFn<T, I>, bool (*)(const ArgmaxWindows&, int64_t)>
    kArgmaxpoolWindowsVariants[] = {
#define UNPOOL_ARGMAXPOOL_WINDOWS_UKERNEL(fn, guard) {#fn, &fn<T, I>, &guard<T, I>},
#include "ukernels/variants.inc"
};

template <typename H, typename I>
constexpr Variant<ArgmaxpoolWindowsFn<H, I>, bool (*)(const ArgmaxWindows&, int64_t)>
    kArgmaxpoolWindowsHalfVariants[] = {
#define UNPOOL_ARGMAXPOOL_WINDOWS_HALF_UKERNEL(fn, guard) {#fn, &fn<H, I>, &guard<H, I>},
#include "ukernels/variants.inc"
};

template <typename T, typename I>
constexpr Variant<ArgmaxpoolWindowsNhwcFn<T, I>, bool (*)()> kArgmaxpoolWindowsNhwcVariants[] = {
#define UNPOOL_ARGMAXPOOL_WINDOWS_NHWC_UKERNEL(fn, guard) {#fn, &fn<T, I>, &guard<T, I>},
#include "ukernels/variants.inc"
};

// The ops whose guards look at the value and index types only.
template <typename T, typename I>
constexpr Variant<UnpoolFn<T, I>, bool (*)()> kUnpoolVariants[] = {
#define UNPOOL_UNPOOL_UKERNEL(fn, guard) {#fn, &fn<T, I>, &guard<T, I>},
#include "ukernels/variants.inc"
};
template <typename T, typename I>
constexpr Variant<UnpoolNhwcFn<T, I>, bool (*)()> kUnpoolNhwcVariants[] = {
#define UNPOOL_UNPOOL_NHWC_UKERNEL(fn, guard) {#fn, &fn<T, I>, &guard<T, I>},
#include "ukernels/variants.inc"
};
template <typename T, typename I>
constexpr Variant<ScatterAddFn<T, I>, bool (*)()> kScatterAddVariants[] = {
#define UNPOOL_SCATTER_ADD_UKERNEL(fn, guard) {#fn, &fn<T, I>, &guard<T, I>},
#include "ukernels/variants.inc"
};
template <typename T, typename I>
constexpr Variant<ScatterAddInRangeFn<T, I>, bool (*)()> kScatterAddInRangeVariants[] = {
#define UNPOOL_SCATTER_ADD_IN_RANGE_UKERNEL(fn, guard) {#fn, &fn<T, I>, &guard<T, I>},
#include "ukernels/variants.inc"
};
template <typename T, typename I>
constexpr Variant<ScatterAddNhwcFn<T, I>, bool (*)()> kScatterAddNhwcVariants[] = {
#define UNPOOL_SCATTER_ADD_NHWC_UKERNEL(fn, guard) {#fn, &fn<T, I>, &guard<T, I>},
#include "ukernels/variants.inc"
};
template <typename T, typename I>
constexpr Variant<GatherFn<T, I>, bool (*)()> kGatherVariants[] = {
#define UNPOOL_GATHER_UKERNEL(fn, guard) {#fn, &fn<T, I>, &guard<T, I>},
#include "ukernels/variants.inc"
};
template <typename T, typename I>
constexpr Variant<GatherNhwcFn<T, I>, bool (*)()> kGatherNhwcVariants[] = {
#define UNPOOL_GATHER_NHWC_UKERNEL(fn, guard) {#fn, &fn<T, I>, &guard<T, I>},
#include "ukernels/variants.inc"
};

template <typename I>
constexpr Variant<CheckIndicesFn<I>, bool (*)()> kCheckIndicesVariants[] = {
#define UNPOOL_CHECK_INDICES_UKERNEL(fn) {#fn, &fn<I>, &any_types<int, I>},
#include "ukernels/variants.inc"
};
constexpr Variant<WidenIndicesFn, bool (*)()> kWidenIndicesVariants[] = {
#define UNPOOL_WIDEN_INDICES_UKERNEL(fn) {#fn, &fn, &any_types<int, int>},
#include "ukernels/variants.inc"
};
// Integer values T to keys K and back: one list line gives both tables.
template <typename T, typename K>
constexpr Variant<KeysInFn<T, K>, bool (*)()> kKeysInVariants[] = {
#define UNPOOL_KEYS_UKERNEL(in, out) {#in, &in<T, K>, &any_types<T, K>},
#include "ukernels/variants.inc"
};
template <typename T, typename K>
constexpr Variant<KeysOutFn<T, K>, bool (*)()> kKeysOutVariants[] = {
#define UNPOOL_KEYS_UKERNEL(in, out) {#out, &out<T, K>, &any_types<T, K>},
#include "ukernels/variants.inc"
};

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_UKERNELS_H_
