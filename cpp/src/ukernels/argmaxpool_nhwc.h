// Channels-last argmax pool microkernel: one output position, every channel.
// The channel loop is innermost and contiguous, so it vectorises across
// channels; per channel the taps are visited in the channels-first kernels'
// order (d, then h, then w), which keeps PyTorch's tie and NaN rules.
//
//   x[d][h][w][c]: offset ((d * height + h) * width + w) * channels + c
//   index of a tap: (d * height + h) * width + w, as in channels first
#ifndef UNPOOL_SRC_UKERNELS_ARGMAXPOOL_NHWC_H_
#define UNPOOL_SRC_UKERNELS_ARGMAXPOOL_NHWC_H_

#include <cstdint>
#include <limits>

#include "ukernels/window.h"

namespace unpool {
namespace ukernels {

// The window of one output position: along D, H, W the valid taps
// start, start + dilation, ... below end (the operator layer clips them).
// Every valid tap and the window's first position fit I.
struct ArgmaxNhwc {
  int64_t start[3], end[3], dilation[3];  // D, H, W
  int64_t height, width;  // H, W of the input plane
  int64_t channels;  // C: from one position to the next
};

// The guard of variants that take any position.
template <typename T, typename I>
constexpr bool argmaxpool_nhwc_any(const ArgmaxNhwc&) {
  return true;
}

// The channels are done in blocks of kBlock: the running maxima of a block
// stay in local arrays, which the compiler keeps in registers.
constexpr int64_t kNhwcBlock = 16;

// Channels [0, cn) (cn <= kNhwcBlock) of the position's block at x, y, idx.
template <typename T, typename I>
inline void argmaxpool_nhwc_block__scalar(const T* __restrict x, const ArgmaxNhwc& p, int64_t cn,
                                          T* __restrict y, I* __restrict idx) {
  const int64_t H = p.height, W = p.width, C = p.channels;
  T best[kNhwcBlock];
  I at_best[kNhwcBlock];
  const I first = static_cast<I>((p.start[0] * H + p.start[1]) * W + p.start[2]);
  for (int64_t c = 0; c < cn; ++c) {
    best[c] = lowest_value<T>();
    at_best[c] = first;
  }
  for (int64_t d = p.start[0]; d < p.end[0]; d += p.dilation[0]) {
    for (int64_t h = p.start[1]; h < p.end[1]; h += p.dilation[1]) {
      for (int64_t w = p.start[2]; w < p.end[2]; w += p.dilation[2]) {
        const int64_t at = (d * H + h) * W + w;
        const T* xp = x + at * C;
        for (int64_t c = 0; c < cn; ++c) {
          const T v = xp[c];
          const bool take = v > best[c] || v != v;
          best[c] = take ? v : best[c];
          at_best[c] = take ? static_cast<I>(at) : at_best[c];
        }
      }
    }
  }
  for (int64_t c = 0; c < cn; ++c) {
    y[c] = best[c];
    idx[c] = at_best[c];
  }
}

// y[c], idx[c] for every channel c of one output position; x is the input
// plane's first position. Not inlined: inlined into the operator layer's
// position loop, its copies made the module larger.
template <typename T, typename I>
__attribute__((noinline)) void argmaxpool_nhwc__scalar(const T* x, const ArgmaxNhwc& p, T* y,
                                                       I* idx) {
  for (int64_t c0 = 0; c0 < p.channels; c0 += kNhwcBlock) {
    const int64_t cn = p.channels - c0 < kNhwcBlock ? p.channels - c0 : kNhwcBlock;
    argmaxpool_nhwc_block__scalar<T, I>(x + c0, p, cn, y + c0, idx + c0);
  }
}

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_ARGMAXPOOL_NHWC_H_
