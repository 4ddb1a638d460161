// WebAssembly SIMD argmax pool microkernels, vectorised across adjacent output
// columns: one v128 holds the running maxima of 4 (f32) or 2 (f64) outputs,
// index accumulators hold their argmax offsets.
//
//   output group ow .. ow+3 (stride 2), one window row, tap j:
//   row: x x x x x x x x x      lanes read columns w0 + j*d + {0, 2, 4, 6}
//        ^w0
//
// f32 values with int32 indices (the pools' types in WebAssembly) run
// argmax_row_steps (argmaxpool_wasmsimd_steps.h): the row as if it held no
// NaN, with `lt` and `pmax`, and again under the whole rule if it held one.
// Other types run argmax_groups, where every window tap updates both with
// `gt(v, best) | ne(v, v)` + bitselect, the scalar kernel's
// `v > best || v != v` per lane. f32x4.max would be wrong here: it gives no
// index and takes the later of +-0 and the first NaN.
//
// Only the interior columns, whose window row is wholly inside the input row,
// are vectorised; the edges go through argmaxpool_cols__scalar (and the
// tail, but where the last step overlaps the one before). Taps are visited
// in the scalar kernel's order (rows, then columns; the k2s2 kernel regroups
// them without reordering), so every lane takes the same decisions and the
// results are bit-identical.
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
#include "ukernels/argmaxpool_wasmsimd_steps.h"

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

// The interior output columns [begin, end) (end - begin >= 8) of the one
// output row of `r` by argmax_row_steps, f32 values and int32 indices:
// stride 1 plain loads, stride 2 two loads and a shuffle, other strides
// lane by lane. False if a tap was NaN (the outputs are then to be written
// again).
__attribute__((noinline)) inline bool argmax_row_steps_f32(const float* x, const ArgmaxRow& r,
                                                           int64_t begin, int64_t end, float* y,
                                                           int32_t* idx) {
  constexpr uint32_t kInf = 0x7f800000;
  const int64_t s = r.stride;
  if (s == 1) {
    return argmax_row_steps(
        x, r, begin, end, kInf,
        [](const float* q, v128_t* v0, v128_t* v1, v128_t*) {
          *v0 = wasm_v128_load(q);
          *v1 = wasm_v128_load(q + 4);
        },
        y, idx);
  }
  if (s == 2) {
    return argmax_row_steps(
        x, r, begin, end, kInf,
        [](const float* q, v128_t* v0, v128_t* v1, v128_t*) {
          *v0 = Vec<float>::load_s2(q);
          *v1 = Vec<float>::load_s2(q + 8);
        },
        y, idx);
  }
  return argmax_row_steps(
      x, r, begin, end, kInf,
      [s](const float* q, v128_t* v0, v128_t* v1, v128_t*) __attribute__((always_inline)) {
        *v0 = Vec<float>::load_strided(q, s);
        *v1 = Vec<float>::load_strided(q + 4 * s, s);
      },
      y, idx);
}

}  // namespace wasmsimd

// Any geometry: stride 1 plain loads, stride 2 two loads + shuffle, other
// strides lane by lane. Output rows one by one; rows without window rows
// or with fewer interior columns than a vector are all edge columns. f32
// values with int32 indices (the pools' only types here) run
// wasmsimd::argmax_row_steps, 8 outputs a step, and argmax_row_steps_nan
// again on a row with NaN; the others wasmsimd::argmax_groups.
template <typename T, typename I>
void argmaxpool_row__wasmsimd(const T* x, const ArgmaxRow& r, T* y, I* idx) {
  using V = wasmsimd::Vec<T>;
  int64_t begin, end;
  interior_columns(r, r.stride == 2 ? 1 : 0, &begin, &end);
  if constexpr (std::is_same<T, float>::value && std::is_same<I, int32_t>::value) {
    for_each_row(r, y, idx, [x, begin, end](const ArgmaxRow& row, T* yt, I* it) {
      if (row.nrows == 0 || end - begin < 4) {
        argmaxpool_cols__scalar(x, row, 0, row.out_width, yt, it);
        return;
      }
      argmaxpool_cols__scalar(x, row, 0, begin, yt, it);
      // Rows of 4 to 7 interior columns: one or two overlapping steps of 4.
      if (end - begin < 8 || !wasmsimd::argmax_row_steps_f32(x, row, begin, end, yt, it)) {
        wasmsimd::argmax_row_steps_nan(x, row, begin, end, 0x7f800000, yt, it);
      }
      argmaxpool_cols__scalar(x, row, end, row.out_width, yt, it);
    });
  } else {
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
}

}  // namespace ukernels
}  // namespace unpool

#endif  // __wasm_simd128__
#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WASMSIMD_H_
