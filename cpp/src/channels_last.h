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
#include <vector>

#include "geometry.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace unpool {
namespace internal {

// The clipped window of every output position along one dim.
inline std::vector<Span> windows(const Geometry& g, int dim) {
  std::vector<Span> r(static_cast<size_t>(g.out[dim]));
  for (int64_t o = 0; o < g.out[dim]; ++o) {
    r[static_cast<size_t>(o)] = window(g, dim, o);
  }
  return r;
}

// One output position, channels [0, cn) of a block starting at x, y, idx
// (`cn` <= kBlock): the running maxima stay in local arrays, which the
// compiler keeps in registers or vectorises.
template <typename T, typename I, int64_t kBlock>
inline void pool_position(const T* __restrict x, const Geometry& g, const Span& sd,
                          const Span& sh, const Span& sw, int64_t cn, T* __restrict y,
                          I* __restrict idx) {
  const int64_t H = g.in[1], W = g.in[2], C = g.channels;
  T best[kBlock];
  I at_best[kBlock];
  const I first = static_cast<I>((sd.start * H + sh.start) * W + sw.start);
  for (int64_t c = 0; c < cn; ++c) {
    best[c] = -std::numeric_limits<T>::infinity();
    at_best[c] = first;
  }
  for (int64_t d = sd.start; d < sd.end; d += g.dilation[0]) {
    for (int64_t h = sh.start; h < sh.end; h += g.dilation[1]) {
      for (int64_t w = sw.start; w < sw.end; w += g.dilation[2]) {
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

#ifdef __wasm_simd128__
// float values with int32 indices, four channels a vector: the same rule
// lane by lane (gt | ne(v, v), then bitselect), bit-identical to the
// template above; layout_test checks it against channels first.
template <>
inline void pool_position<float, int32_t, 16>(const float* __restrict x, const Geometry& g,
                                              const Span& sd, const Span& sh, const Span& sw,
                                              int64_t cn, float* __restrict y,
                                              int32_t* __restrict idx) {
  const int64_t H = g.in[1], W = g.in[2], C = g.channels;
  const int64_t vn = cn / 4;  // whole vectors; the tail goes through the scalar body
  v128_t best[4], at_best[4];
  const v128_t first = wasm_i32x4_splat(static_cast<int32_t>((sd.start * H + sh.start) * W + sw.start));
  for (int64_t v = 0; v < vn; ++v) {
    best[v] = wasm_f32x4_splat(-std::numeric_limits<float>::infinity());
    at_best[v] = first;
  }
  for (int64_t d = sd.start; d < sd.end; d += g.dilation[0]) {
    for (int64_t h = sh.start; h < sh.end; h += g.dilation[1]) {
      for (int64_t w = sw.start; w < sw.end; w += g.dilation[2]) {
        const int64_t at = (d * H + h) * W + w;
        const float* xp = x + at * C;
        const v128_t at_v = wasm_i32x4_splat(static_cast<int32_t>(at));
        for (int64_t v = 0; v < vn; ++v) {
          const v128_t xv = wasm_v128_load(xp + 4 * v);
          const v128_t take = wasm_v128_or(wasm_f32x4_gt(xv, best[v]), wasm_f32x4_ne(xv, xv));
          best[v] = wasm_v128_bitselect(xv, best[v], take);
          at_best[v] = wasm_v128_bitselect(at_v, at_best[v], take);
        }
      }
    }
  }
  for (int64_t v = 0; v < vn; ++v) {
    wasm_v128_store(y + 4 * v, best[v]);
    wasm_v128_store(idx + 4 * v, at_best[v]);
  }
  if (cn % 4) {
    pool_position<float, int32_t, 4>(x + 4 * vn, g, sd, sh, sw, cn % 4, y + 4 * vn, idx + 4 * vn);
  }
}
#endif

template <typename T, typename I>
void pool_channels_last(const Geometry& g, const T* x, T* y, I* idx) {
  constexpr int64_t kBlock = 16;
  const int64_t C = g.channels, batch = g.planes / (C ? C : 1);
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  const std::vector<Span> wd = windows(g, 0), wh = windows(g, 1), ww = windows(g, 2);
  for (int64_t n = 0; n < batch; ++n) {
    const T* xn = x + n * in_plane * C;
    int64_t o = n * out_plane;
    for (int64_t od = 0; od < g.out[0]; ++od) {
      for (int64_t oh = 0; oh < g.out[1]; ++oh) {
        for (int64_t ow = 0; ow < g.out[2]; ++ow, ++o) {
          for (int64_t c0 = 0; c0 < C; c0 += kBlock) {
            const int64_t cn = C - c0 < kBlock ? C - c0 : kBlock;
            pool_position<T, I, kBlock>(xn + c0, g, wd[static_cast<size_t>(od)],
                                        wh[static_cast<size_t>(oh)], ww[static_cast<size_t>(ow)],
                                        cn, y + o * C + c0, idx + o * C + c0);
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
