// Argmax over windows given as lists: output (od, oh, ow) of one plane takes
// the box [d0[od], d1[od]) x [h0[oh], h1[oh]) x [w0[ow], w1[ow]) of the
// input plane. Adaptive pooling (windows of two sizes that may overlap) and
// fractional pooling (pseudo-random starts) have no kernel or stride, so the
// operator layer computes the windows and these kernels only scan them.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WINDOWS_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WINDOWS_H_

#include <cstdint>
#include <limits>

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace unpool {
namespace ukernels {

// Windows along each dim: [start[o], end[o]) for o < out, non-empty and
// inside the input (the operator layer makes sure).
struct WindowList {
  const int64_t* start;
  const int64_t* end;
  int64_t out;
};

// One plane: windows along D, H, W over an input plane of D x H rows of W.
struct ArgmaxWindows {
  WindowList d, h, w;
  int64_t in_h, in_w;  // H and W of the input plane
};

// Scratch of argmaxpool_windows__rows, sized by the operator layer: `best`
// and `col` hold in_w entries, `row_best` and `row_col` rows * w.out.
template <typename T>
struct WindowScratch {
  T* best;
  int32_t* col;
  T* row_best;
  int32_t* row_col;
  int64_t rows;  // D * H of the input plane
};

// The PyTorch rule, as in argmaxpool_cols__scalar: the running maximum starts
// at -inf with the window's first position; a value replaces it when greater
// or NaN (first maximum, last NaN).
// (`s` is unused: the scratch of argmaxpool_windows__rows, for one signature.)
template <typename T, typename I>
void argmaxpool_windows__scalar(const T* x, const ArgmaxWindows& a, const WindowScratch<T>& s, T* y,
                                I* idx) {
  (void)s;
  const int64_t H = a.in_h, W = a.in_w;
  for (int64_t od = 0; od < a.d.out; ++od) {
    for (int64_t oh = 0; oh < a.h.out; ++oh) {
      for (int64_t ow = 0; ow < a.w.out; ++ow) {
        const int64_t w0 = a.w.start[ow], w1 = a.w.end[ow];
        T best = -std::numeric_limits<T>::infinity();
        I best_i = static_cast<I>((a.d.start[od] * H + a.h.start[oh]) * W + w0);
        for (int64_t d = a.d.start[od]; d < a.d.end[od]; ++d) {
          for (int64_t h = a.h.start[oh]; h < a.h.end[oh]; ++h) {
            const int64_t row = (d * H + h) * W;
            for (int64_t w = w0; w < w1; ++w) {
              const T v = x[row + w];
              const bool take = v > best || v != v;
              best = take ? v : best;
              best_i = take ? static_cast<I>(row + w) : best_i;
            }
          }
        }
        *y++ = best;
        *idx++ = best_i;
      }
    }
  }
}

namespace detail {

// The PyTorch rule on one candidate, branch-free (see argmaxpool.h).
template <typename T, typename C>
inline void take_at(T v, C c, T* best, C* at) {
  const bool t = v > *best || v != v;
  *best = t ? v : *best;
  *at = t ? c : *at;
}

}  // namespace detail

// The same result in two passes, each a straight loop the compiler
// vectorises, for windows that overlap or sit at uneven starts:
//   1. every input row: the maximum of each output column's window within
//      the row, for all widths at once by extending a sliding maximum one
//      column at a time (first maximum, last NaN of the row);
//   2. every output row: those row maxima over the window's rows, in order.
// Row-major scan order is kept: the first row holding the maximum wins, and
// within it the first column; a NaN's last row, and within it its last NaN.
template <typename T, typename I>
void argmaxpool_windows__rows(const T* x, const ArgmaxWindows& a, const WindowScratch<T>& s, T* y,
                              I* idx) {
  const int64_t W = a.in_w, OW = a.w.out;
  int64_t max_width = 0, min_width = W;
  for (int64_t ow = 0; ow < OW; ++ow) {
    const int64_t width = a.w.end[ow] - a.w.start[ow];
    max_width = width > max_width ? width : max_width;
    min_width = width < min_width ? width : min_width;
  }
  // Pass 1.
  for (int64_t r = 0; r < s.rows; ++r) {
    const T* row = x + r * W;
    T* __restrict best = s.best;
    int32_t* __restrict col = s.col;
    T* rb = s.row_best + r * OW;
    int32_t* rc = s.row_col + r * OW;
    for (int64_t w = 0; w < W; ++w) {
      best[w] = row[w];
      col[w] = static_cast<int32_t>(w);
    }
    for (int64_t width = 1;; ++width) {
      // best[w], col[w]: the window [w, w + width) of the row. Windows of
      // this width take them; the others keep theirs (selects, not
      // branches: the widths of uneven windows alternate unpredictably).
      if (width >= min_width) {
        for (int64_t ow = 0; ow < OW; ++ow) {
          const bool mine = a.w.end[ow] - a.w.start[ow] == width;
          const int64_t at = a.w.start[ow];
          rb[ow] = mine ? best[at] : rb[ow];
          rc[ow] = mine ? col[at] : rc[ow];
        }
      }
      if (width == max_width) break;
      const T* next = row + width;
      for (int64_t w = 0; w + width < W; ++w)
        detail::take_at(next[w], static_cast<int32_t>(w + width), &best[w], &col[w]);
    }
  }
  // Pass 2.
  for (int64_t od = 0; od < a.d.out; ++od) {
    for (int64_t oh = 0; oh < a.h.out; ++oh, y += OW, idx += OW) {
      T* __restrict yo = y;
      I* __restrict io = idx;
      bool first = true;
      for (int64_t d = a.d.start[od]; d < a.d.end[od]; ++d) {
        for (int64_t h = a.h.start[oh]; h < a.h.end[oh]; ++h) {
          const int64_t r = d * a.in_h + h;
          const T* rb = s.row_best + r * OW;
          const int32_t* rc = s.row_col + r * OW;
          const I base = static_cast<I>(r * W);
          if (first) {
            for (int64_t ow = 0; ow < OW; ++ow) {
              yo[ow] = rb[ow];
              io[ow] = static_cast<I>(base + static_cast<I>(rc[ow]));
            }
            first = false;
            continue;
          }
          for (int64_t ow = 0; ow < OW; ++ow) {
            T b = yo[ow];
            I at = io[ow];
            detail::take_at(rb[ow], static_cast<I>(base + static_cast<I>(rc[ow])), &b, &at);
            yo[ow] = b;
            io[ow] = at;
          }
        }
      }
    }
  }
}

// Channels last: the same windows over (spatial..., C) data, `channels`
// planes side by side. y and idx hold every output position's C results; the
// channel loop is innermost and contiguous, so it vectorises.
template <typename T, typename I>
void argmaxpool_windows_nhwc__scalar(const T* x, const ArgmaxWindows& a, int64_t channels, T* y,
                                     I* idx) {
  const int64_t H = a.in_h, W = a.in_w, C = channels;
  for (int64_t od = 0; od < a.d.out; ++od) {
    for (int64_t oh = 0; oh < a.h.out; ++oh) {
      for (int64_t ow = 0; ow < a.w.out; ++ow, y += C, idx += C) {
        const int64_t w0 = a.w.start[ow], w1 = a.w.end[ow];
        const I first = static_cast<I>((a.d.start[od] * H + a.h.start[oh]) * W + w0);
        for (int64_t c = 0; c < C; ++c) {
          y[c] = -std::numeric_limits<T>::infinity();
          idx[c] = first;
        }
        for (int64_t d = a.d.start[od]; d < a.d.end[od]; ++d) {
          for (int64_t h = a.h.start[oh]; h < a.h.end[oh]; ++h) {
            for (int64_t w = w0; w < w1; ++w) {
              const int64_t at = (d * H + h) * W + w;
              const T* xp = x + at * C;
              for (int64_t c = 0; c < C; ++c) {
                const T v = xp[c];
                const bool take = v > y[c] || v != v;
                y[c] = take ? v : y[c];
                idx[c] = take ? static_cast<I>(at) : idx[c];
              }
            }
          }
        }
      }
    }
  }
}

template <typename T, typename I>
constexpr bool any_windows() {
  return true;
}

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WINDOWS_H_
