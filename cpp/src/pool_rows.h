// Operator layer of the channels-first pool: the loop over planes and output
// rows that hands runs of output rows to an argmax microkernel. Shared by
// max_pool.cc (which runs what ukernels/config.h picks) and the native
// benchmarks (which run every variant through the same loop).
#ifndef UNPOOL_SRC_POOL_ROWS_H_
#define UNPOOL_SRC_POOL_ROWS_H_

#include <cstdint>
#include <vector>

#include "geometry.h"
#include "ukernels/argmaxpool.h"
#include "ukernels/config.h"
#include "ukernels/window.h"

namespace unpool {
namespace internal {

// Pools every plane of `g`, calling `kernel(px, row, y, idx)` (an
// ArgmaxpoolFn, or anything called like one) once per run of output rows.
template <typename T, typename I, typename Kernel>
void pool_rows(const Geometry& g, const T* x, T* y, I* idx, Kernel kernel) {
  const int64_t H = g.in[1], W = g.in[2];
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  // A window has at most min(k, in) valid positions per dim.
  std::vector<int64_t> rows(static_cast<size_t>((g.kernel[0] < g.in[0] ? g.kernel[0] : g.in[0]) *
                                                (g.kernel[1] < g.in[1] ? g.kernel[1] : g.in[1])));
  ukernels::ArgmaxRow r{};
  r.rows = rows.data();
  r.width = W;
  r.out_width = g.out[2];
  r.kernel = g.kernel[2];
  r.stride = g.stride[2];
  r.pad = g.pad[2];
  r.dilation = g.dilation[2];
  // Output rows whose windows are not clipped along H go to the kernel in
  // one call: from one to the next, every window row moves by stride_h * W.
  int64_t batch_begin, batch_end;
  ukernels::unclipped_range(H, g.out[1], g.kernel[1], g.stride[1], g.pad[1], g.dilation[1], 0,
                            &batch_begin, &batch_end);
  r.step = g.stride[1] * W;
  for (int64_t p = 0; p < g.planes; ++p) {
    const T* px = x + p * in_plane;
    T* py = y + p * out_plane;
    I* pidx = idx + p * out_plane;
    for (int64_t od = 0; od < g.out[0]; ++od) {
      const Span sd = window(g, 0, od);
      for (int64_t oh = 0; oh < g.out[1]; oh += r.count) {
        const Span sh = window(g, 1, oh);
        r.count = oh >= batch_begin && oh < batch_end ? batch_end - oh : 1;
        r.first_row = (sd.start * H + sh.start) * W;
        // The window's valid input rows, in scan order (d, then h).
        r.nrows = 0;
        for (int64_t d = sd.start; d < sd.end; d += g.dilation[0]) {
          for (int64_t h = sh.start; h < sh.end; h += g.dilation[1]) {
            rows[static_cast<size_t>(r.nrows++)] = (d * H + h) * W - r.first_row;
          }
        }
        const int64_t o = (od * g.out[1] + oh) * g.out[2];
        kernel(px, r, py + o, pidx + o);
      }
    }
  }
}

// The channels-first pool through the row kernels that config.h picks.
template <typename T, typename I>
void pool_rows_config(const Geometry& g, const T* x, T* y, I* idx) {
  pool_rows<T, I>(g, x, y, idx, [](const T* px, const ukernels::ArgmaxRow& r, T* py, I* pidx) {
    ukernels::config::argmaxpool_row<T, I>(r)(px, r, py, pidx);
  });
}

}  // namespace internal
}  // namespace unpool

#endif  // UNPOOL_SRC_POOL_ROWS_H_
