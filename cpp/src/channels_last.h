// Operator layer of every op on channels-last (N, spatial..., C) tensors:
// the loops over batch items and output positions, which hand every
// position's channels to a microkernel (ukernels/argmaxpool_nhwc.h,
// ukernels/scatter_nhwc.h; ukernels/config.h says which variant runs).
//
//   x[n][d][h][w][c]: offset ((n * D + d) * H + h) * W + w) * C + c
//   index of (n, c):  (d * H + h) * W + w, as in channels first
#ifndef UNPOOL_SRC_CHANNELS_LAST_H_
#define UNPOOL_SRC_CHANNELS_LAST_H_

#include <cstdint>
#include <cstring>

#include "geometry.h"
#include "ukernels/config.h"

namespace unpool {
namespace internal {

// Pools every output position of `g`, calling `kernel(xn, position, y, idx)`
// (an ArgmaxpoolNhwcFn, or anything called like one) once per position.
// Windows are clipped where they are used: tables of them made the module
// larger.
template <typename T, typename I, typename Kernel>
void pool_channels_last(const Geometry& g, const T* x, T* y, I* idx, Kernel kernel) {
  const int64_t C = g.channels, batch = g.planes / (C ? C : 1);
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  ukernels::ArgmaxNhwc p{};
  for (int i = 0; i < 3; ++i) p.dilation[i] = g.dilation[i];
  p.height = g.in[1];
  p.width = g.in[2];
  p.channels = C;
  for (int64_t n = 0; n < batch; ++n) {
    const T* xn = x + n * in_plane * C;
    int64_t o = n * out_plane;
    for (int64_t od = 0; od < g.out[0]; ++od) {
      const Span sd = window(g, 0, od);
      p.start[0] = sd.start;
      p.end[0] = sd.end;
      for (int64_t oh = 0; oh < g.out[1]; ++oh) {
        const Span sh = window(g, 1, oh);
        p.start[1] = sh.start;
        p.end[1] = sh.end;
        for (int64_t ow = 0; ow < g.out[2]; ++ow, ++o) {
          const Span sw = window(g, 2, ow);
          p.start[2] = sw.start;
          p.end[2] = sw.end;
          kernel(xn, p, y + o * C, idx + o * C);
        }
      }
    }
  }
}

template <typename T, typename I>
void pool_channels_last(const Geometry& g, const T* x, T* y, I* idx) {
  pool_channels_last<T, I>(g, x, y, idx,
                           [](const T* xn, const ukernels::ArgmaxNhwc& p, T* yo, I* io) {
                             ukernels::config::argmaxpool_nhwc<T, I>(p)(xn, p, yo, io);
                           });
}

// y[n][idx][c] = x[n][i][c] for i in order per (n, c): the later duplicate
// wins. Offsets were checked by the caller.
template <typename T, typename I>
void unpool_channels_last(const Geometry& g, const T* x, const I* idx, T* y) {
  const int64_t C = g.channels, batch = g.planes / (C ? C : 1);
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  std::memset(y, 0, static_cast<size_t>(g.planes * out_plane) * sizeof(T));
  for (int64_t n = 0; n < batch; ++n) {
    const int64_t at = n * in_plane * C;
    ukernels::config::unpool_nhwc<T, I>(x + at, idx + at, in_plane, C, y + n * out_plane * C);
  }
}

// gi[n][idx][c] += go[n][o][c] in output order per (n, c). Offsets outside
// the plane (windows wholly in padding) are skipped; without
// `in_range_only` the caller has checked that there are none, and the
// kernel's test passes them all.
template <typename T, typename I>
void scatter_add_channels_last(const Geometry& g, const T* go, const I* idx, bool /*in_range_only*/,
                               T* gi) {
  const int64_t C = g.channels, batch = g.planes / (C ? C : 1);
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  std::memset(gi, 0, static_cast<size_t>(g.planes * in_plane) * sizeof(T));
  for (int64_t n = 0; n < batch; ++n) {
    const int64_t at = n * out_plane * C;
    T* gin = gi + n * in_plane * C;
    ukernels::config::scatter_add_nhwc<T, I>(go + at, idx + at, out_plane, C, in_plane, gin);
  }
}

// gi[n][i][c] = go[n][idx[n][i][c]][c]; `g.in` is the indices' (pooled)
// plane and `g.out` the unpooled one.
template <typename T, typename I>
void gather_channels_last(const Geometry& g, const T* go, const I* idx, T* gi) {
  const int64_t C = g.channels, batch = g.planes / (C ? C : 1);
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  for (int64_t n = 0; n < batch; ++n) {
    const int64_t at = n * in_plane * C;
    ukernels::config::gather_nhwc<T, I>(go + n * out_plane * C, idx + at, in_plane, C, gi + at);
  }
}

}  // namespace internal
}  // namespace unpool

#endif  // UNPOOL_SRC_CHANNELS_LAST_H_
