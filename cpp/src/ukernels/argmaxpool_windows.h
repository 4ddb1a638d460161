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

// The PyTorch rule, as in argmaxpool_cols__scalar: the running maximum starts
// at -inf with the window's first position; a value replaces it when greater
// or NaN (first maximum, last NaN).
template <typename T, typename I>
void argmaxpool_windows__scalar(const T* x, const ArgmaxWindows& a, T* y, I* idx) {
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
