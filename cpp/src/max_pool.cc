// Operator layer of max pool forward and backward: validate, iterate planes
// and output rows, call a microkernel.
#include <cstring>
#include <vector>

#include "channels_last.h"
#include "dispatch.h"
#include "geometry.h"
#include "ukernels/ukernels.h"
#include "unpool/unpool.h"

namespace unpool {

using internal::Check;
using internal::Geometry;
using internal::Span;
using internal::window;

namespace {

// Largest offset a pool can emit (exclusive): a clipped window start lies
// below max(in, dilation) in every dim, so an index of a window wholly in
// padding may exceed the plane.
int64_t pool_index_limit(const Geometry& g) {
  int64_t r = 1;
  for (int i = 0; i < 3; ++i) r *= (g.in[i] > g.dilation[i] ? g.in[i] : g.dilation[i]);
  return r;
}

Span span(const Geometry& g, int dim, int64_t o) {
  return window(o, g.in[dim], g.kernel[dim], g.stride[dim], g.pad[dim],
                g.dilation[dim]);
}

template <typename T, typename I>
void pool_planes(const Geometry& g, const T* x, T* y, I* idx) {
  const int64_t H = g.in[1], W = g.in[2];
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  // A window has at most min(k, in) valid positions per dim.
  std::vector<int64_t> rows(static_cast<size_t>(
      (g.kernel[0] < g.in[0] ? g.kernel[0] : g.in[0]) *
      (g.kernel[1] < g.in[1] ? g.kernel[1] : g.in[1])));
  ukernels::ArgmaxRow r{};
  r.rows = rows.data();
  r.width = W;
  r.out_width = g.out[2];
  r.kernel = g.kernel[2];
  r.stride = g.stride[2];
  r.pad = g.pad[2];
  r.dilation = g.dilation[2];
  for (int64_t p = 0; p < g.planes; ++p) {
    const T* px = x + p * in_plane;
    T* py = y + p * out_plane;
    I* pidx = idx + p * out_plane;
    for (int64_t od = 0; od < g.out[0]; ++od) {
      const Span sd = span(g, 0, od);
      for (int64_t oh = 0; oh < g.out[1]; ++oh) {
        const Span sh = span(g, 1, oh);
        // The window's valid input rows, in scan order (d, then h).
        r.nrows = 0;
        for (int64_t d = sd.start; d < sd.end; d += g.dilation[0]) {
          for (int64_t h = sh.start; h < sh.end; h += g.dilation[1]) {
            rows[static_cast<size_t>(r.nrows++)] = (d * H + h) * W;
          }
        }
        r.first_row = (sd.start * H + sh.start) * W;
        const int64_t o = (od * g.out[1] + oh) * g.out[2];
        ukernels::argmaxpool_row<T, I>(px, r, py + o, pidx + o);
      }
    }
  }
}

// Per output position along each dim: 1 where the window lies wholly in
// padding (PyTorch's backward would write outside the plane there).
struct EmptyWindows {
  std::vector<uint8_t> dim[3];
  bool any = false;
};

EmptyWindows find_empty_windows(const Geometry& g) {
  EmptyWindows e;
  for (int i = 0; i < 3; ++i) {
    e.dim[i].resize(static_cast<size_t>(g.out[i]));
    for (int64_t o = 0; o < g.out[i]; ++o) {
      const Span s = span(g, i, o);
      e.dim[i][static_cast<size_t>(o)] = s.start >= s.end;
      e.any |= s.start >= s.end;
    }
  }
  return e;
}

// Finds the first index that is outside the plane and does not belong to an
// empty window (when `empty` is given). Returns -1 when there is none.
template <typename I>
int64_t first_bad_index(const Geometry& g, const I* idx,
                        const EmptyWindows* empty) {
  const int64_t limit = g.in_plane(), n = g.out_plane();
  for (int64_t p = 0; p < g.planes; ++p) {
    const I* pi = idx + p * n;
    if (ukernels::check_indices<I>(pi, n, limit)) continue;
    for (int64_t e = 0; e < n; ++e) {
      const int64_t v = static_cast<int64_t>(pi[e]);
      if (v >= 0 && v < limit) continue;
      if (empty) {
        // The output position of element p * n + e.
        const int64_t o = g.layout == Layout::kChannelsLast
                              ? ((p * n + e) / g.channels) % n
                              : e;
        const int64_t ow = o % g.out[2], oh = (o / g.out[2]) % g.out[1],
                      od = o / (g.out[2] * g.out[1]);
        if (empty->dim[0][od] | empty->dim[1][oh] | empty->dim[2][ow]) continue;
      }
      return p * n + e;
    }
  }
  return -1;
}

// With `empty` windows present, their offsets may point outside the plane
// (they are skipped) or inside it (they are added, as PyTorch does); every
// other offset was checked by first_bad_index.
template <typename T, typename I>
void scatter_add_planes(const Geometry& g, const T* go, const I* idx,
                        const EmptyWindows* empty, T* gi) {
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  for (int64_t p = 0; p < g.planes; ++p) {  // plane by plane: see max_unpool
    const T* pgo = go + p * out_plane;
    const I* pidx = idx + p * out_plane;
    T* pgi = gi + p * in_plane;
    std::memset(pgi, 0, static_cast<size_t>(in_plane) * sizeof(T));
    if (empty == nullptr) {
      ukernels::scatter_add<T, I>(pgo, pidx, out_plane, pgi);
    } else {
      ukernels::scatter_add_in_range__scalar(pgo, pidx, out_plane, in_plane, pgi);
    }
  }
}

}  // namespace

Status max_pool_shape(const PoolParams& params, const Shape& input,
                      Shape* output, std::string* error) {
  const internal::OpName op("maxPool#d", params.dims);
  Geometry g;
  Check c = internal::plan_pool(op.c_str(), params, input, &g, output);
  return internal::report(c, error);
}

Status max_pool(const PoolParams& params, const Shape& input, DType dtype,
                const void* x, void* y, IndexType index_type, void* indices,
                std::string* error) {
  const internal::OpName op("maxPool#d", params.dims);
  Geometry g;
  Shape out;
  Check c = internal::plan_pool(op.c_str(), params, input, &g, &out);
  if (c.ok()) c = internal::check_types(op.c_str(), dtype, index_type);
  if (c.ok()) {
    c = internal::check_index_type(op.c_str(), index_type, pool_index_limit(g));
  }
  if (!c.ok()) return internal::report(c, error);
  internal::dispatch(dtype, index_type, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    if (g.layout == Layout::kChannelsLast) {
      internal::pool_channels_last<T, I>(g, static_cast<const T*>(x), static_cast<T*>(y),
                                         static_cast<I*>(indices));
    } else {
      pool_planes<T, I>(g, static_cast<const T*>(x), static_cast<T*>(y),
                        static_cast<I*>(indices));
    }
  });
  return Status::kOk;
}

Status max_pool_backward(const PoolParams& params, const Shape& input_shape,
                         const Shape& output_shape, DType dtype,
                         const void* grad_output, IndexType index_type,
                         const void* indices, void* grad_input,
                         std::string* error) {
  const internal::OpName op("maxPool#dBackward", params.dims);
  const bool has_geometry = params.kernel.count > 0;
  Geometry g;
  Check c;
  if (has_geometry) {
    Shape expected;
    c = internal::plan_pool(op.c_str(), params, input_shape, &g, &expected,
                            "inputShape");
    if (c.ok()) c = internal::check_same_shape(op.c_str(), "gradOutput",
                                               output_shape, expected);
  } else {
    c = internal::plan_plain(op.c_str(), params.dims, params.layout, input_shape,
                             output_shape, "inputShape", "gradOutput", &g);
    if (c.ok()) c = internal::select_planes(op.c_str(), params.planes, "inputShape", &g);
  }
  if (c.ok()) c = internal::check_types(op.c_str(), dtype, index_type);
  if (!c.ok()) return internal::report(c, error);
  EmptyWindows empty;
  if (has_geometry) empty = find_empty_windows(g);
  const EmptyWindows* e = empty.any ? &empty : nullptr;
  internal::dispatch(dtype, index_type, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    const I* idx = static_cast<const I*>(indices);
    const int64_t bad = first_bad_index(g, idx, e);
    if (bad >= 0) {
      c = internal::index_error(op.c_str(), "indices",
                                g.first_plane * g.out_plane() + bad,
                                static_cast<int64_t>(idx[bad]), g.in,
                                params.dims, "input");
      return;
    }
    if (g.layout == Layout::kChannelsLast) {
      internal::scatter_add_channels_last<T, I>(g, static_cast<const T*>(grad_output), idx,
                                                e != nullptr, static_cast<T*>(grad_input));
    } else {
      scatter_add_planes<T, I>(g, static_cast<const T*>(grad_output), idx, e,
                               static_cast<T*>(grad_input));
    }
  });
  return internal::report(c, error);
}

}  // namespace unpool
