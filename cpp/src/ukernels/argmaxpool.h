// Argmax pool microkernels: one output row (fixed output d, h) at a time.
// They know nothing of shapes or errors; the operator layer hands them valid
// pointers and counts.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_H_

#include <cstdint>
#include <limits>

namespace unpool {
namespace ukernels {

// One output row of a pool over an input plane.
//
//   input plane, row-major          output row (fixed od, oh)
//   rows[0] -> x x x x x x x        y[0] y[1] ... y[out_width - 1]
//   rows[1] -> x x x x x x x
//
// Output column ow reads columns ow * stride - pad + j * dilation
// (j < kernel) of every row in `rows` that lie inside [0, width).
struct ArgmaxRow {
  const int64_t* rows;  // offsets of the window's valid input rows, scan order
  int64_t nrows;
  int64_t first_row;  // offset of the window's first row after PyTorch's
                      // clipping, even when it is not a valid row (nrows = 0);
                      // equals rows[0] when nrows > 0
  int64_t width;      // W of the input plane
  int64_t out_width;  // number of outputs in this row
  int64_t kernel, stride, pad, dilation;  // along W
};

// The PyTorch rule, element by element: a value replaces the running maximum
// when it is greater or NaN, so the first maximum and the last NaN win. The
// running maximum starts at -inf and the index at the window's first
// (clipped) position, which is what a window wholly in padding returns.
// Computes output columns [ow_begin, ow_end) only; the SIMD kernels use it for
// the edges.
template <typename T, typename I>
void argmaxpool_cols__scalar(const T* x, const ArgmaxRow& r, int64_t ow_begin,
                             int64_t ow_end, T* y, I* idx) {
  for (int64_t ow = ow_begin; ow < ow_end; ++ow) {
    int64_t w0 = ow * r.stride - r.pad;
    int64_t w1 = w0 + (r.kernel - 1) * r.dilation + 1;
    if (w1 > r.width) w1 = r.width;
    if (w0 < 0) w0 += ((-w0 + r.dilation - 1) / r.dilation) * r.dilation;
    T best = -std::numeric_limits<T>::infinity();
    int64_t best_i = r.first_row + w0;
    for (int64_t k = 0; k < r.nrows; ++k) {
      const T* row = x + r.rows[k];
      for (int64_t w = w0; w < w1; w += r.dilation) {
        const T v = row[w];
        if (v > best || v != v) {
          best = v;
          best_i = r.rows[k] + w;
        }
      }
    }
    y[ow] = best;
    idx[ow] = static_cast<I>(best_i);
  }
}

template <typename T, typename I>
void argmaxpool_row__scalar(const T* x, const ArgmaxRow& r, T* y, I* idx) {
  argmaxpool_cols__scalar(x, r, 0, r.out_width, y, idx);
}

// The output columns [*begin, *end) whose window row lies wholly inside the
// input row, and `overread` more columns after its last tap too (a SIMD load
// may read them). Columns outside need clipping: SIMD kernels leave them to
// argmaxpool_cols__scalar.
//
//   ow * stride - pad >= 0
//   ow * stride - pad + (kernel - 1) * dilation + overread <= width - 1
inline void interior_columns(const ArgmaxRow& r, int64_t overread,
                             int64_t* begin, int64_t* end) {
  const int64_t lo = (r.pad + r.stride - 1) / r.stride;
  const int64_t last = r.width - 1 + r.pad - (r.kernel - 1) * r.dilation - overread;
  int64_t hi = last < 0 ? 0 : last / r.stride + 1;
  if (hi > r.out_width) hi = r.out_width;
  *begin = lo < hi ? lo : hi;
  *end = hi;
}

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_H_
