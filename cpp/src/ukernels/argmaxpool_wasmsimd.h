// WebAssembly SIMD argmax pool microkernels, vectorised across adjacent output
// columns: one v128 holds the running maxima of 4 (f32) or 2 (f64) outputs,
// index accumulators hold their argmax offsets, and every window tap updates
// both with `gt(v, best) | ne(v, v)` + bitselect, the scalar kernel's
// `v > best || v != v` per lane. f32x4.max would be wrong here: it gives no
// index and takes the later of +-0 and the first NaN.
//
//   output group ow .. ow+3 (stride 2), one window row, tap j:
//   row: x x x x x x x x x      lanes read columns w0 + j*d + {0, 2, 4, 6}
//        ^w0
//
// Only the interior columns, whose window row is wholly inside the input row,
// are vectorised; the edges (and the tail, but for the k2s2 kernel) go
// through argmaxpool_cols__scalar. Taps are visited in the scalar kernel's
// order (rows, then columns; the k2s2 kernel regroups them without
// reordering), so every lane takes the same decisions and the results are
// bit-identical.
//
// The k2s2 kernel lives in argmaxpool_wasmsimd_k2s2.h, the lanes in
// argmaxpool_wasmsimd_lanes.h.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_H_

#ifdef __wasm_simd128__

#include <wasm_simd128.h>

#include <cstdint>
#include <type_traits>

#include "ukernels/argmaxpool.h"
#include "ukernels/argmaxpool_wasmsimd_k2s2.h"
#include "ukernels/argmaxpool_wasmsimd_lanes.h"

namespace unpool {
namespace ukernels {
namespace wasmsimd {

// Whole groups of interior columns from `begin` while they end by `end`, in
// output row 0 of `r`; returns the first column not done. `load(p)` gives the
// lanes' taps at p.
//
// The scalar kernel starts from -inf and the window's first position, which
// in the interior is tap first_row + w0. Taking that tap unconditionally
// gives the same bits: a -inf there keeps -inf and the index.
template <typename T, typename I, typename Load>
int64_t argmax_groups(const T* x, const ArgmaxRow& r, int64_t begin, int64_t end, Load load, T* y,
                      I* idx) {
  constexpr int64_t L = Vec<T>::kLanes;
  Idx<T, I> acc(r.stride);
  int64_t ow = begin;
  for (; ow + L <= end; ow += L) {
    const int64_t w0 = ow * r.stride - r.pad;
    v128_t best = load(x + r.first_row + w0);
    acc.set(r.first_row + w0);
    for (int64_t k = 0; k < r.nrows; ++k) {
      const int64_t o = r.first_row + r.rows[k];
      const T* row = x + o;
      for (int64_t j = k == 0 ? 1 : 0; j < r.kernel; ++j) {
        const int64_t w = w0 + j * r.dilation;
        const v128_t v = load(row + w);
        const v128_t m = Vec<T>::replaces(v, best);
        best = wasm_v128_bitselect(v, best, m);
        acc.select(o + w, m);
      }
    }
    wasm_v128_store(y + ow, best);
    acc.store(idx + ow);
  }
  return ow;
}

// Stride 1, f32 values, int32 indices: the interior tap by tap (in the
// scalar kernel's order), each tap one pass over the row's groups with y and
// idx updated in place. Every splat is loop-invariant and each group costs
// one add for its indices, where argmax_groups pays a splat, an add and a
// bitselect per tap. Returns the first column not done.
inline int64_t argmax_taps_s1(const float* x, const ArgmaxRow& r, int64_t begin, int64_t end,
                              float* y, int32_t* idx) {
  const int64_t stop = begin + (end - begin) / 4 * 4;
  const v128_t step = wasm_i32x4_splat(4), lanes = wasm_i32x4_make(0, 1, 2, 3);
  for (int64_t k = 0; k < r.nrows; ++k) {
    const int64_t o = r.first_row + r.rows[k];
    const float* row = x + o;
    for (int64_t j = 0; j < r.kernel; ++j) {
      // Output ow reads column ow + shift: a valid offset, so it fits int32.
      const int64_t shift = j * r.dilation - r.pad;
      v128_t vi = wasm_i32x4_add(wasm_i32x4_splat(static_cast<int32_t>(o + shift + begin)), lanes);
      if (k == 0 && j == 0) {  // the scalar kernel's initial position
        for (int64_t ow = begin; ow < stop; ow += 4) {
          wasm_v128_store(y + ow, wasm_v128_load(row + ow + shift));
          wasm_v128_store(idx + ow, vi);
          vi = wasm_i32x4_add(vi, step);
        }
        continue;
      }
      for (int64_t ow = begin; ow < stop; ow += 4) {
        const v128_t v = wasm_v128_load(row + ow + shift), best = wasm_v128_load(y + ow);
        const v128_t m = Vec<float>::replaces(v, best);
        wasm_v128_store(y + ow, wasm_v128_bitselect(v, best, m));
        wasm_v128_store(idx + ow, wasm_v128_bitselect(vi, wasm_v128_load(idx + ow), m));
        vi = wasm_i32x4_add(vi, step);
      }
    }
  }
  return stop;
}

}  // namespace wasmsimd

// Any geometry: stride 1 plain loads, stride 2 two loads + shuffle, other
// strides lane by lane. Output rows one by one; rows without window rows
// or with fewer interior columns than a vector are all edge columns.
template <typename T, typename I>
void argmaxpool_row__wasmsimd(const T* x, const ArgmaxRow& r, T* y, I* idx) {
  using V = wasmsimd::Vec<T>;
  int64_t begin, end;
  interior_columns(r, r.stride == 2 ? 1 : 0, &begin, &end);
  for_each_row(r, y, idx, [x, begin, end](const ArgmaxRow& row, T* yt, I* it) {
    if (row.nrows == 0 || end - begin < V::kLanes) {
      argmaxpool_cols__scalar(x, row, 0, row.out_width, yt, it);
      return;
    }
    argmaxpool_cols__scalar(x, row, 0, begin, yt, it);
    int64_t done;
    if (row.stride == 1) {
      done = wasmsimd::argmax_groups(
          x, row, begin, end, [](const T* p) { return V::load(p); }, yt, it);
    } else if (row.stride == 2) {
      done = wasmsimd::argmax_groups(
          x, row, begin, end, [](const T* p) { return V::load_s2(p); }, yt, it);
    } else {
      const int64_t s = row.stride;
      done = wasmsimd::argmax_groups(
          x, row, begin, end, [s](const T* p) { return V::load_strided(p, s); }, yt, it);
    }
    argmaxpool_cols__scalar(x, row, done, row.out_width, yt, it);
  });
}

// Stride 1 with f32 values and int32 indices (the guard): the interior tap
// by tap (wasmsimd::argmax_taps_s1). Output rows one by one.
template <typename T, typename I>
constexpr bool argmaxpool_row__wasmsimd_s1_applies(const ArgmaxRow& r) {
  return std::is_same<T, float>::value && std::is_same<I, int32_t>::value && r.stride == 1;
}
template <typename T, typename I>
void argmaxpool_row__wasmsimd_s1(const T* x, const ArgmaxRow& r, T* y, I* idx) {
  if constexpr (std::is_same<T, float>::value && std::is_same<I, int32_t>::value) {
    int64_t begin, end;
    interior_columns(r, 0, &begin, &end);
    for_each_row(r, y, idx, [x, begin, end](const ArgmaxRow& row, T* yt, I* it) {
      if (row.nrows == 0 || end - begin < 4) {
        argmaxpool_cols__scalar(x, row, 0, row.out_width, yt, it);
        return;
      }
      argmaxpool_cols__scalar(x, row, 0, begin, yt, it);
      const int64_t done = wasmsimd::argmax_taps_s1(x, row, begin, end, yt, it);
      argmaxpool_cols__scalar(x, row, done, row.out_width, yt, it);
    });
  } else {
    __builtin_trap();  // its guard rejects these types
  }
}

}  // namespace ukernels
}  // namespace unpool

#endif  // __wasm_simd128__
#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_H_
