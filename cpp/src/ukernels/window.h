// Pool windows along one dim, as PyTorch clips them: the one helper that
// both the microkernels (along W) and the operator layer (along D and H,
// through geometry.h's window()) use, so the clipping rule is written once.
//
//   output o's taps: o * stride - pad + j * dilation, j < kernel
//   clipped:         the taps inside [0, in)
#ifndef UNPOOL_SRC_UKERNELS_WINDOW_H_
#define UNPOOL_SRC_UKERNELS_WINDOW_H_

#include <cstdint>
#include <limits>
#include <type_traits>

namespace unpool {
namespace ukernels {

// The valid taps of one window: start, start + dilation, ... while < end.
// Empty when start >= end. `start` is the first tap moved forward by whole
// dilation steps until it is >= 0, which is also the index PyTorch reports
// for a window wholly in padding.
struct Window {
  int64_t start;
  int64_t end;  // exclusive
};

inline Window clipped_window(int64_t o, int64_t in, int64_t kernel, int64_t stride, int64_t pad,
                             int64_t dilation) {
  int64_t start = o * stride - pad;
  int64_t end = start + (kernel - 1) * dilation + 1;
  if (end > in) end = in;
  if (start < 0) start += ((-start + dilation - 1) / dilation) * dilation;
  return {start, end};
}

// Where a running maximum starts: -inf for the float types (their
// numeric_limits, half.h's for the 16-bit ones), the lowest value for the
// integer types, which PyTorch's integer pools start from too: a window of
// nothing but that value gives it at its first element.
template <typename T>
constexpr T lowest_value() {
  if constexpr (std::is_integral<T>::value) {
    return std::numeric_limits<T>::lowest();
  } else {
    return -std::numeric_limits<T>::infinity();
  }
}

// Along one dim of `in` inputs and `out` outputs: the outputs [*begin, *end)
// whose window lies wholly inside the input, and `overread` more inputs
// after its last tap too (a SIMD load may read them). begin <= end.
//
//   o * stride - pad >= 0
//   o * stride - pad + (kernel - 1) * dilation + overread <= in - 1
inline void unclipped_range(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t pad,
                            int64_t dilation, int64_t overread, int64_t* begin, int64_t* end) {
  const int64_t lo = (pad + stride - 1) / stride;
  const int64_t last = in - 1 + pad - (kernel - 1) * dilation - overread;
  int64_t hi = last < 0 ? 0 : last / stride + 1;
  if (hi > out) hi = out;
  *begin = lo < hi ? lo : hi;
  *end = hi;
}

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_WINDOW_H_
