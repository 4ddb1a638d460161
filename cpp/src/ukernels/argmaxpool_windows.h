// Argmax over windows given as lists: output (od, oh, ow) of one plane takes
// the box [d0[od], d1[od]) x [h0[oh], h1[oh]) x [w0[ow], w1[ow]) of the
// input plane. Adaptive pooling (windows of two sizes that may overlap) and
// fractional pooling (pseudo-random starts) have no kernel or stride, so the
// operator layer computes the windows and these kernels only scan them.
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WINDOWS_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WINDOWS_H_

#include <cstdint>
#include <limits>
#include <type_traits>

#include "ukernels/half.h"
#include "ukernels/window.h"

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

// The values the window scan compares: 16-bit values as float32 keys
// (half_window_keys), the others as they are.
template <typename T>
using window_value_t = typename std::conditional<is_half_v<T>, float, T>::type;

// Scratch of argmaxpool_windows__cols, sized by the operator layer: in_w
// entries for each array but `order`, which holds w.out. 16-bit values
// (argmaxpool_windows_half__cols) also need `keys`, an input plane's
// elements, and `out`, an output plane's.
template <typename T>
struct WindowScratch {
  using Value = window_value_t<T>;
  Value* best;  // pass 1: each column's maximum over the window's rows
  int32_t* at;  // and its offset in the plane
  Value* run;  // pass 2: the maximum of the windows [w, w + width)
  int32_t* run_at;  // and its offset
  int32_t* order;  // the output columns, by window width
  Value* keys = nullptr;  // 16-bit values: the input plane as float32 keys
  Value* out = nullptr;  // and the float32 kernel's values
};

// The PyTorch rule, as in argmaxpool_cols__scalar: the running maximum starts
// at -inf with the window's first position; a value replaces it when greater
// or NaN (first maximum, last NaN).
// (`s` is unused: the scratch of argmaxpool_windows__cols, for one signature.)
template <typename T, typename I>
void argmaxpool_windows__scalar(const T* x, const ArgmaxWindows& a, const WindowScratch<T>& s, T* y,
                                I* idx) {
  (void)s;
  const int64_t H = a.in_h, W = a.in_w;
  for (int64_t od = 0; od < a.d.out; ++od) {
    for (int64_t oh = 0; oh < a.h.out; ++oh) {
      for (int64_t ow = 0; ow < a.w.out; ++ow) {
        const int64_t w0 = a.w.start[ow], w1 = a.w.end[ow];
        T best = lowest_value<T>();
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

// Whether column result (v, at v_at) replaces (b, at b_at), an earlier
// column's, in scan order: greater, or equal from an earlier row; or NaN,
// unless the running one is a NaN from a later row. v's column is past b's,
// so "an earlier row" is v_at < b_at, and "not a later row" v_at > b_at.
// Bitwise, not short-circuit: branches here mispredict.
template <typename T>
inline bool take_scan(T v, int32_t v_at, T b, int32_t b_at) {
  return (v > b) | ((v == b) & (v_at < b_at)) | ((v != v) & ((b == b) | (v_at > b_at)));
}

// The PyTorch rule on one candidate, branch-free (see argmaxpool.h).
template <typename T, typename C>
inline void take_at(T v, C c, T* best, C* at) {
  const bool t = v > *best || v != v;
  *best = t ? v : *best;
  *at = t ? c : *at;
}

// Pass 1 of argmaxpool_windows__cols: the input rows (d, h) of the box
// [d0, d1) x [h0, h1), in scan order, folded column by column into best
// and at (the first maximum, or the last NaN, and its offset), one input
// row at a time (rows inner, columns outer was slower).
template <typename T>
inline void fold_rows(const T* x, int64_t H, int64_t W, int64_t d0, int64_t d1, int64_t h0,
                      int64_t h1, T* __restrict best, int32_t* __restrict at) {
  bool first = true;
  for (int64_t d = d0; d < d1; ++d) {
    for (int64_t h = h0; h < h1; ++h) {
      const int32_t o = static_cast<int32_t>((d * H + h) * W);
      const T* __restrict xr = x + o;
      int32_t w = 0;
      if (first) {
        for (; w < W; ++w) {
          best[w] = xr[w];
          at[w] = o + w;
        }
        first = false;
        continue;
      }
#ifdef __wasm_simd128__
      if constexpr (sizeof(T) == 4) {
        v128_t os = wasm_i32x4_make(o, o + 1, o + 2, o + 3);
        for (; w + 4 <= W; w += 4, os = wasm_i32x4_add(os, wasm_i32x4_splat(4))) {
          const v128_t v = wasm_v128_load(xr + w), b = wasm_v128_load(best + w);
          const v128_t t = wasm_v128_or(wasm_f32x4_gt(v, b), wasm_f32x4_ne(v, v));
          wasm_v128_store(best + w, wasm_v128_bitselect(v, b, t));
          wasm_v128_store(at + w, wasm_v128_bitselect(os, wasm_v128_load(at + w), t));
        }
      }
#endif
      for (; w < W; ++w) take_at(xr[w], o + w, &best[w], &at[w]);
    }
  }
}

// The maxima of the windows [w, w + k + 1) (w < n) of column results
// (best, at), into run and run_at, from those of [w, w + k) in (rb, ra):
// the column results themselves for k = 1, else run and run_at (in place).
// The compiler does not vectorise this loop for wasm (its cost model), so
// f32 has an explicit one.
template <typename T>
inline void extend_runs(const T* __restrict best, const int32_t* __restrict at, int32_t k,
                        int32_t n, const T* rb, const int32_t* ra, T* run, int32_t* run_at) {
  int32_t w = 0;
#ifdef __wasm_simd128__
  if constexpr (sizeof(T) == 4) {
    for (; w + 4 <= n; w += 4) {
      const v128_t v = wasm_v128_load(best + w + k), va = wasm_v128_load(at + w + k);
      const v128_t b = wasm_v128_load(rb + w), ba = wasm_v128_load(ra + w);
      const v128_t nan_rule = wasm_v128_and(
          wasm_f32x4_ne(v, v), wasm_v128_or(wasm_f32x4_eq(b, b), wasm_i32x4_gt(va, ba)));
      const v128_t t =
          wasm_v128_or(wasm_v128_or(wasm_f32x4_gt(v, b),
                                    wasm_v128_and(wasm_f32x4_eq(v, b), wasm_i32x4_lt(va, ba))),
                       nan_rule);
      wasm_v128_store(run + w, wasm_v128_bitselect(v, b, t));
      wasm_v128_store(run_at + w, wasm_v128_bitselect(va, ba, t));
    }
  }
#endif
  for (; w < n; ++w) {
    const T v = best[w + k], b = rb[w];
    const int32_t va = at[w + k], ba = ra[w];
    const bool t = take_scan(v, va, b, ba);
    run[w] = t ? v : b;
    run_at[w] = t ? va : ba;
  }
}

}  // namespace detail

// The same result, columns first, for windows that overlap or sit at uneven
// starts. Per output row (od, oh):
//   1. the window's input rows, in scan order, folded column by column into
//      `best` and `at` (detail::fold_rows): each column's first maximum, or
//      its last NaN, and its offset;
//   2. per output column, those column results over the window's columns in
//      order, keeping scan order across rows (detail::take_scan). Narrow
//      windows (the usual case) extend a running maximum of every
//      [w, w + width) one column at a time (detail::extend_runs), and each
//      output column takes its entry once the width reaches its window's
//      (`order` lists the output columns by width); wide ones are scanned
//      column by column.
// Each input row is read once per output row that covers it; both passes
// are straight loops over the width, SIMD for f32.
//
// Guard: offsets in the plane fit int32, as the scratch holds them.
template <typename T, typename I>
constexpr bool argmaxpool_windows__cols_applies(const ArgmaxWindows& a, int64_t rows) {
  return a.in_w > 0 && rows <= INT32_MAX / a.in_w;
}
template <typename T, typename I>
void argmaxpool_windows__cols(const T* x, const ArgmaxWindows& a, const WindowScratch<T>& s, T* y,
                              I* idx) {
  const int64_t H = a.in_h, W = a.in_w, OW = a.w.out;
  T* __restrict best = s.best;
  int32_t* __restrict at = s.at;
  T* __restrict run = s.run;
  int32_t* __restrict run_at = s.run_at;
  // The output columns by width (a counting sort), and whether extending the
  // running maxima to the widest window costs less than scanning windows.
  int64_t min_width = W, max_width = 1, taps = 0;
  for (int64_t ow = 0; ow < OW; ++ow) {
    const int64_t width = a.w.end[ow] - a.w.start[ow];
    min_width = width < min_width ? width : min_width;
    max_width = width > max_width ? width : max_width;
    taps += width;
  }
  const bool extend = (max_width - 1) * W <= 4 * taps;
  if (extend) {
    int64_t n = 0;
    for (int64_t width = min_width; width <= max_width; ++width) {
      for (int64_t ow = 0; ow < OW; ++ow) {
        if (a.w.end[ow] - a.w.start[ow] == width) s.order[n++] = static_cast<int32_t>(ow);
      }
    }
  }
  for (int64_t od = 0; od < a.d.out; ++od) {
    for (int64_t oh = 0; oh < a.h.out; ++oh, y += OW, idx += OW) {
      detail::fold_rows(x, H, W, a.d.start[od], a.d.end[od], a.h.start[oh], a.h.end[oh], best, at);
      if (!extend) {
        for (int64_t ow = 0; ow < OW; ++ow) {
          const int64_t w0 = a.w.start[ow], w1 = a.w.end[ow];
          int64_t bw = w0;
          for (int64_t w = w0 + 1; w < w1; ++w) {
            if (detail::take_scan(best[w], at[w], best[bw], at[bw])) bw = w;
          }
          y[ow] = best[bw];
          idx[ow] = static_cast<I>(at[bw]);
        }
        continue;
      }
      const T* rb = best;  // width 1: the column results themselves
      const int32_t* ra = at;
      int64_t next = 0;  // in order
      for (int64_t width = 1;; ++width) {
        // rb[w], ra[w]: the window [w, w + width).
        if (width >= min_width) {
          for (; next < OW; ++next) {
            const int64_t ow = s.order[next], w = a.w.start[ow];
            if (width < max_width && a.w.end[ow] - w != width) break;
            y[ow] = rb[w];
            idx[ow] = static_cast<I>(ra[w]);
          }
        }
        if (width == max_width) break;
        detail::extend_runs(best, at, static_cast<int32_t>(width), static_cast<int32_t>(W - width),
                            rb, ra, run, run_at);
        rb = run;
        ra = run_at;
      }
    }
  }
}

// Instantiated once, in argmaxpool_windows_f32.cc.
extern template void argmaxpool_windows__cols<float, int32_t>(const float*, const ArgmaxWindows&,
                                                              const WindowScratch<float>&, float*,
                                                              int32_t*);
extern template void argmaxpool_windows__cols<float, int64_t>(const float*, const ArgmaxWindows&,
                                                              const WindowScratch<float>&, float*,
                                                              int64_t*);

// The float32 keys of n 16-bit values `bits` (bfloat16 or float16 with
// its infinity's bits `inf`): each value's bits as the top half of a float32,
// NaN made a float32 NaN. They compare as the values do under PyTorch's
// float32 rule (sign and magnitude land on float32's, +-0 equal, every NaN
// a NaN), so the float32 window scan picks the same offsets.
void half_window_keys(const uint16_t* bits, int64_t n, uint16_t inf, float* keys);

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
          y[c] = lowest_value<T>();
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
template <typename T, typename I>
constexpr bool any_window_lists(const ArgmaxWindows&, int64_t) {
  return true;
}

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_WINDOWS_H_
