// Argmax pool microkernels: a run of output rows (fixed output d, consecutive
// h) per call. They know nothing of shapes or errors; the operator layer
// hands them valid pointers and counts.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_H_

#include <cstdint>
#include <limits>

#include "ukernels/window.h"

namespace unpool {
namespace ukernels {

// `count` output rows of a pool over an input plane, each with the same
// window rows moved by `step`.
//
//   input plane, row-major                   output row t (fixed od, oh0 + t)
//   first_row + t * step + rows[0] -> x x x x x x x   y[t * out_width + 0 ..]
//   first_row + t * step + rows[1] -> x x x x x x x
//
// Output column ow of row t reads columns ow * stride - pad + j * dilation
// (j < kernel) of every window row that lie inside [0, width), and writes
// y[t * out_width + ow] and idx[t * out_width + ow]. The operator layer
// batches output rows whose windows are not clipped along H, where moving to
// the next output row moves every window row by stride_h * W.
struct ArgmaxRow {
  const int64_t* rows;  // the window's valid input rows, scan order, as
                        // offsets from first_row (rows[0] = 0 when nrows > 0)
  int64_t nrows;
  int64_t first_row;  // offset of output row 0's window's first row after
                      // PyTorch's clipping, even when it is not a valid row
                      // (nrows = 0)
  int64_t width;  // W of the input plane
  int64_t out_width;  // number of outputs in each row
  int64_t kernel, stride, pad, dilation;  // along W
  int64_t count;  // number of output rows, >= 1
  int64_t step;  // offset from one output row's window to the next
};

// Runs `one(row, y_t, idx_t)` on each output row of `r` in turn, `row` being
// r's row t alone (count 1, first_row moved by t * step): for kernels that
// take rows one at a time.
template <typename T, typename I, typename One>
inline void for_each_row(const ArgmaxRow& r, T* y, I* idx, One one) {
  ArgmaxRow row = r;
  row.count = 1;
  for (int64_t t = 0; t < r.count; ++t, row.first_row += r.step) {
    one(row, y + t * r.out_width, idx + t * r.out_width);
  }
}

// The PyTorch rule, element by element: a value replaces the running maximum
// when it is greater or NaN, so the first maximum and the last NaN win. The
// running maximum starts at -inf and the index at the window's first
// (clipped) position, which is what a window wholly in padding returns.
// Computes output columns [ow_begin, ow_end) of output row 0 only; the other
// kernels use it for the edge columns, whose windows are clipped. Not
// inlined: its copies inlined into each kernel's edge paths made the module
// larger.
template <typename T, typename I>
__attribute__((noinline)) void argmaxpool_cols__scalar(const T* x, const ArgmaxRow& r,
                                                       int64_t ow_begin, int64_t ow_end, T* y,
                                                       I* idx) {
  for (int64_t ow = ow_begin; ow < ow_end; ++ow) {
    const Window win = clipped_window(ow, r.width, r.kernel, r.stride, r.pad, r.dilation);
    const int64_t w0 = win.start, w1 = win.end;
    // Offsets fit I (the operator layer checks the largest): a select of an
    // int64 beside a float defeats if-conversion in GCC.
    T best = lowest_value<T>();
    I best_i = static_cast<I>(r.first_row + w0);
    for (int64_t k = 0; k < r.nrows; ++k) {
      const int64_t o = r.first_row + r.rows[k];
      const T* row = x + o;
      for (int64_t w = w0; w < w1; w += r.dilation) {
        // Branch-free: the update is data-dependent and mispredicts often.
        const T v = row[w];
        const bool take = v > best || v != v;
        best = take ? v : best;
        best_i = take ? static_cast<I>(o + w) : best_i;
      }
    }
    y[ow] = best;
    idx[ow] = best_i;
  }
}

// The guard of variants that take any row.
template <typename T, typename I>
constexpr bool argmaxpool_any_row(const ArgmaxRow&) {
  return true;
}

template <typename T, typename I>
void argmaxpool_row__scalar(const T* x, const ArgmaxRow& r, T* y, I* idx) {
  for_each_row(r, y, idx, [x](const ArgmaxRow& row, T* yt, I* it) {
    argmaxpool_cols__scalar(x, row, 0, row.out_width, yt, it);
  });
}

// Any geometry: the interior columns tap by tap, in the scalar kernel's tap
// order (rows, then columns), each tap one straight loop over the output
// columns that updates y and idx in place, so compilers if-convert and
// vectorise it. The edges go to argmaxpool_cols__scalar.
template <typename T, typename I>
void argmaxpool_row__scalar_taps(const T* x, const ArgmaxRow& r, T* y, I* idx);

// kernel 2, stride 2, dilation 1 along W with two window rows (the common
// 2d 2x2 pool; the guard below): interior columns read the pairs
// (2 ow - pad, 2 ow - pad + 1) of both rows, four taps fused; the edges go to
// argmaxpool_cols__scalar. Tap (first_row, 2 ow - pad) is the scalar
// kernel's initial position, so taking it unconditionally gives its bits (a
// -inf there keeps -inf and the index).
template <typename T, typename I>
constexpr bool argmaxpool_row__scalar_k2s2_applies(const ArgmaxRow& r) {
  return r.kernel == 2 && r.stride == 2 && r.dilation == 1 && r.nrows == 2;
}
template <typename T, typename I>
void argmaxpool_row__scalar_k2s2(const T* x, const ArgmaxRow& r, T* y, I* idx);

// The output columns of `r` whose window row lies wholly inside the input
// row (unclipped_range along W). Columns outside need clipping: SIMD kernels
// leave them to argmaxpool_cols__scalar.
inline void interior_columns(const ArgmaxRow& r, int64_t overread, int64_t* begin, int64_t* end) {
  unclipped_range(r.width, r.out_width, r.kernel, r.stride, r.pad, r.dilation, overread, begin,
                  end);
}

namespace detail {

// One tap of the PyTorch rule without a branch. Offsets are kept in I: a
// select of an int64 beside a float defeats both if-conversion and
// vectorisation in GCC, and the branch mispredicts on random data.
template <typename T, typename I>
inline void take(T v, I i, T* best, I* best_i) {
  const bool t = v > *best || v != v;
  *best = t ? v : *best;
  *best_i = t ? i : *best_i;
}

}  // namespace detail

template <typename T, typename I>
void argmaxpool_row__scalar_taps(const T* x, const ArgmaxRow& r, T* y, I* idx) {
  int64_t begin, end;
  interior_columns(r, 0, &begin, &end);
  for_each_row(r, y, idx,
               [x, begin, end](const ArgmaxRow& row, T* __restrict yt, I* __restrict it) {
                 if (row.nrows == 0 || begin >= end) {
                   argmaxpool_cols__scalar(x, row, 0, row.out_width, yt, it);
                   return;
                 }
                 argmaxpool_cols__scalar(x, row, 0, begin, yt, it);
                 const int64_t s = row.stride;
                 for (int64_t k = 0; k < row.nrows; ++k) {
                   const int64_t o = row.first_row + row.rows[k];
                   const T* in = x + o;
                   for (int64_t j = 0; j < row.kernel; ++j) {
                     // Tap j of output ow reads column ow * s + shift; every offset here
                     // is a valid input offset, so it fits I.
                     const int64_t shift = j * row.dilation - row.pad;
                     const I base = static_cast<I>(o + shift);
                     if (k == 0 && j == 0) {  // the scalar kernel's initial position
                       for (int64_t ow = begin; ow < end; ++ow) {
                         yt[ow] = in[ow * s + shift];
                         it[ow] = static_cast<I>(base + static_cast<I>(ow * s));
                       }
                       continue;
                     }
                     for (int64_t ow = begin; ow < end; ++ow) {
                       T best = yt[ow];
                       I best_i = it[ow];
                       detail::take(in[ow * s + shift],
                                    static_cast<I>(base + static_cast<I>(ow * s)), &best, &best_i);
                       yt[ow] = best;
                       it[ow] = best_i;
                     }
                   }
                 }
                 argmaxpool_cols__scalar(x, row, end, row.out_width, yt, it);
               });
}

template <typename T, typename I>
void argmaxpool_row__scalar_k2s2(const T* x, const ArgmaxRow& r, T* y, I* idx) {
  int64_t begin, end;
  interior_columns(r, 0, &begin, &end);
  for_each_row(r, y, idx,
               [x, begin, end](const ArgmaxRow& row, T* __restrict yt, I* __restrict it) {
                 argmaxpool_cols__scalar(x, row, 0, begin, yt, it);
                 // A fixed 2x2 window (2d interior rows): four taps fused. Every offset
                 // below is a valid input offset, so it fits I.
                 const int64_t o0 = row.first_row + row.rows[0], o1 = row.first_row + row.rows[1];
                 const T* row0 = x + o0;
                 const T* row1 = x + o1;
                 const I off0 = static_cast<I>(o0 - row.pad);
                 const I off1 = static_cast<I>(o1 - row.pad);
                 for (int64_t ow = begin; ow < end; ++ow) {
                   const int64_t w = 2 * ow - row.pad;
                   const I c = static_cast<I>(2 * ow);
                   T best = row0[w];
                   I best_i = off0 + c;
                   detail::take(row0[w + 1], static_cast<I>(off0 + c + 1), &best, &best_i);
                   detail::take(row1[w], static_cast<I>(off1 + c), &best, &best_i);
                   detail::take(row1[w + 1], static_cast<I>(off1 + c + 1), &best, &best_i);
                   yt[ow] = best;
                   it[ow] = best_i;
                 }
                 argmaxpool_cols__scalar(x, row, end, row.out_width, yt, it);
               });
}

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_H_
