// Channels-last unpool and backward microkernels over one batch item:
// `n` positions of `channels` interleaved channels each. Per channel the
// order is the one of the channels-first kernels (scatter.h), which keeps
// PyTorch's duplicate and summation rules. Offsets are positions in the
// plane the indices point into, trusted as in scatter.h.
//
//   x[i][c] at i * channels + c; its offset idx[i][c] names y[idx][c]
//
// The loops step their pointers by `channels` per position: in the module,
// an index multiplied out per position made small-C unpools slower.
#ifndef UNPOOL_SRC_UKERNELS_SCATTER_NHWC_H_
#define UNPOOL_SRC_UKERNELS_SCATTER_NHWC_H_

#include <cstdint>

namespace unpool {
namespace ukernels {

// y[idx[i][c]][c] = x[i][c] for i in order: the later duplicate wins.
template <typename T, typename I>
void unpool_nhwc__scalar(const T* x, const I* idx, int64_t n, int64_t channels, T* y) {
  const int64_t C = channels;
  for (int64_t i = 0; i < n; ++i, x += C, idx += C) {
    for (int64_t c = 0; c < C; ++c) y[static_cast<int64_t>(idx[c]) * C + c] = x[c];
  }
}

// gi[idx[o][c]][c] += go[o][c] in output order, skipping offsets outside
// [0, limit): those of pool windows that lie wholly in padding, where
// PyTorch writes outside the plane. The operator layer uses it for every
// pool backward: offsets checked to lie in the plane all pass the test, and
// one loop keeps the module smaller than two.
template <typename T, typename I>
void scatter_add_nhwc__scalar(const T* go, const I* idx, int64_t n, int64_t channels, int64_t limit,
                              T* gi) {
  const int64_t C = channels;
  for (int64_t o = 0; o < n; ++o, go += C, idx += C) {
    for (int64_t c = 0; c < C; ++c) {
      const int64_t v = static_cast<int64_t>(idx[c]);
      if (v >= 0 && v < limit) gi[v * C + c] += go[c];
    }
  }
}

// gi[i][c] = go[idx[i][c]][c].
template <typename T, typename I>
void gather_nhwc__scalar(const T* go, const I* idx, int64_t n, int64_t channels, T* gi) {
  const int64_t C = channels;
  for (int64_t i = 0; i < n; ++i, idx += C, gi += C) {
    for (int64_t c = 0; c < C; ++c) gi[c] = go[static_cast<int64_t>(idx[c]) * C + c];
  }
}

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_SCATTER_NHWC_H_
