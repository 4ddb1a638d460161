// Channels-last (N, spatial..., C) bodies of every op. The channel loop is
// innermost and contiguous, so it vectorises across channels; per (n, c)
// plane the visiting order is the one of the channels-first kernels, which
// keeps PyTorch's tie, NaN, duplicate and summation rules.
//
//   x[n][d][h][w][c]: offset ((n * D + d) * H + h) * W + w) * C + c
//   index of (n, c):  (d * H + h) * W + w, as in channels first
#ifndef UNPOOL_SRC_CHANNELS_LAST_H_
#define UNPOOL_SRC_CHANNELS_LAST_H_

#include <cstdint>
#include <cstring>
#include <limits>

#include "geometry.h"

namespace unpool {
namespace internal {

template <typename T, typename I>
void pool_channels_last(const Geometry& g, const T* x, T* y, I* idx) {
  const int64_t C = g.channels, batch = g.planes / (C ? C : 1);
  const int64_t H = g.in[1], W = g.in[2];
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  for (int64_t n = 0; n < batch; ++n) {
    const T* xn = x + n * in_plane * C;
    for (int64_t o = 0; o < out_plane; ++o) {
      const int64_t od = o / (g.out[1] * g.out[2]), oh = (o / g.out[2]) % g.out[1],
                    ow = o % g.out[2];
      const Span sd = window(od, g.in[0], g.kernel[0], g.stride[0], g.pad[0], g.dilation[0]);
      const Span sh = window(oh, g.in[1], g.kernel[1], g.stride[1], g.pad[1], g.dilation[1]);
      const Span sw = window(ow, g.in[2], g.kernel[2], g.stride[2], g.pad[2], g.dilation[2]);
      T* yo = y + (n * out_plane + o) * C;
      I* io = idx + (n * out_plane + o) * C;
      const I first = static_cast<I>((sd.start * H + sh.start) * W + sw.start);
      for (int64_t c = 0; c < C; ++c) {
        yo[c] = -std::numeric_limits<T>::infinity();
        io[c] = first;
      }
      for (int64_t d = sd.start; d < sd.end; d += g.dilation[0]) {
        for (int64_t h = sh.start; h < sh.end; h += g.dilation[1]) {
          for (int64_t w = sw.start; w < sw.end; w += g.dilation[2]) {
            const int64_t at = (d * H + h) * W + w;
            const T* xp = xn + at * C;
            for (int64_t c = 0; c < C; ++c) {
              const T v = xp[c];
              const bool take = v > yo[c] || v != v;
              yo[c] = take ? v : yo[c];
              io[c] = take ? static_cast<I>(at) : io[c];
            }
          }
        }
      }
    }
  }
}

// y[n][idx][c] = x[n][i][c] for i in order per (n, c): the later duplicate
// wins. Offsets were checked by the caller.
template <typename T, typename I>
void unpool_channels_last(const Geometry& g, const T* x, const I* idx, T* y) {
  const int64_t C = g.channels, batch = g.planes / (C ? C : 1);
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  std::memset(y, 0, static_cast<size_t>(g.planes * out_plane) * sizeof(T));
  for (int64_t n = 0; n < batch; ++n) {
    T* yn = y + n * out_plane * C;
    for (int64_t i = 0; i < in_plane; ++i) {
      const int64_t at = (n * in_plane + i) * C;
      for (int64_t c = 0; c < C; ++c) yn[static_cast<int64_t>(idx[at + c]) * C + c] = x[at + c];
    }
  }
}

// gi[n][idx][c] += go[n][o][c] in output order per (n, c). With
// `in_range_only`, offsets outside the plane (windows wholly in padding)
// are skipped.
template <typename T, typename I>
void scatter_add_channels_last(const Geometry& g, const T* go, const I* idx,
                               bool in_range_only, T* gi) {
  const int64_t C = g.channels, batch = g.planes / (C ? C : 1);
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  std::memset(gi, 0, static_cast<size_t>(g.planes * in_plane) * sizeof(T));
  for (int64_t n = 0; n < batch; ++n) {
    T* gin = gi + n * in_plane * C;
    for (int64_t o = 0; o < out_plane; ++o) {
      const int64_t at = (n * out_plane + o) * C;
      for (int64_t c = 0; c < C; ++c) {
        const int64_t v = static_cast<int64_t>(idx[at + c]);
        if (in_range_only && (v < 0 || v >= in_plane)) continue;
        gin[v * C + c] += go[at + c];
      }
    }
  }
}

// gi[n][i][c] = go[n][idx[n][i][c]][c]; `g.in` is the indices' (pooled)
// plane and `g.out` the unpooled one.
template <typename T, typename I>
void gather_channels_last(const Geometry& g, const T* go, const I* idx, T* gi) {
  const int64_t C = g.channels, batch = g.planes / (C ? C : 1);
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  for (int64_t n = 0; n < batch; ++n) {
    const T* gon = go + n * out_plane * C;
    for (int64_t i = 0; i < in_plane; ++i) {
      const int64_t at = (n * in_plane + i) * C;
      for (int64_t c = 0; c < C; ++c) gi[at + c] = gon[static_cast<int64_t>(idx[at + c]) * C + c];
    }
  }
}

}  // namespace internal
}  // namespace unpool

#endif  // UNPOOL_SRC_CHANNELS_LAST_H_
