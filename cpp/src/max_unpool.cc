// Operator layer of max unpool forward and backward.
#include <cstring>

#include "channels_last.h"
#include "dispatch.h"
#include "geometry.h"
#include "ukernels/config.h"
#include "unpool/unpool.h"

namespace unpool {

using internal::Check;
using internal::Geometry;

namespace {

// Position of the first index (over all planes of `n` entries each) outside
// [0, limit), or -1.
template <typename I>
int64_t first_bad_index(const I* idx, int64_t planes, int64_t n,
                        int64_t limit) {
  for (int64_t p = 0; p < planes; ++p) {
    const I* pi = idx + p * n;
    if (ukernels::config::check_indices<I>(pi, n, limit)) continue;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t v = static_cast<int64_t>(pi[i]);
      if (v < 0 || v >= limit) return p * n + i;
    }
  }
  return -1;
}

// Checks every index of `idx` against the `plane` (D, H, W) it points into.
template <typename I>
Check check_indices(const char* op, const Geometry& g, const I* idx,
                    int64_t per_plane, const int64_t plane[3], int32_t dims) {
  const int64_t bad = first_bad_index(idx, g.planes, per_plane,
                                      plane[0] * plane[1] * plane[2]);
  if (bad < 0) return {};
  return internal::index_error(op, "indices", g.first_plane * per_plane + bad,
                               static_cast<int64_t>(idx[bad]), plane, dims,
                               "output");
}

}  // namespace

Status max_unpool_shape(const UnpoolParams& params, const Shape& input,
                        Shape* output, std::string* error) {
  const internal::OpName op("maxUnpool#d", params.dims);
  Geometry g;
  return internal::report(
      internal::plan_unpool(op.c_str(), params, input, &g, output), error);
}

Status max_unpool_output_range(const UnpoolParams& params, const Shape& input,
                               SizeRange* ranges, std::string* error) {
  const internal::OpName op("maxUnpool#dOutputRange", params.dims);
  return internal::report(
      internal::unpool_ranges(op.c_str(), params, input, ranges), error);
}

Status max_unpool(const UnpoolParams& params, const Shape& input, DType dtype,
                  const void* x, IndexType index_type, const void* indices,
                  void* y, std::string* error) {
  const internal::OpName op("maxUnpool#d", params.dims);
  Geometry g;
  Shape out;
  Check c = internal::plan_unpool(op.c_str(), params, input, &g, &out);
  if (c.ok()) c = internal::check_types(op.c_str(), dtype, index_type);
  if (!c.ok()) return internal::report(c, error);
  internal::dispatch(dtype, index_type, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    const I* idx = static_cast<const I*>(indices);
    const int64_t n = g.in_plane(), m = g.out_plane();
    c = check_indices(op.c_str(), g, idx, n, g.out, params.dims);
    if (!c.ok()) return;
    const T* px = static_cast<const T*>(x);
    T* py = static_cast<T*>(y);
    if (g.layout == Layout::kChannelsLast) {
      internal::unpool_channels_last<T, I>(g, px, idx, py);
      return;
    }
    // Plane by plane, so that the scatter finds its plane in cache right
    // after the zero-fill (one memset of the whole output, then the
    // scatter, reads every line back from memory: ~25% slower when the
    // output exceeds L2).
    for (int64_t p = 0; p < g.planes; ++p) {
      std::memset(py + p * m, 0, static_cast<size_t>(m) * sizeof(T));
      ukernels::config::unpool<T, I>(px + p * n, idx + p * n, n, py + p * m);
    }
  });
  return internal::report(c, error);
}

Status max_unpool_check(const UnpoolParams& params, const Shape& input,
                        IndexType index_type, const void* indices,
                        std::string* error) {
  const internal::OpName op("maxUnpool#d", params.dims);
  Geometry g;
  Shape out;
  Check c = internal::plan_unpool(op.c_str(), params, input, &g, &out);
  if (c.ok()) c = internal::check_types(op.c_str(), DType::kFloat32, index_type);
  if (!c.ok()) return internal::report(c, error);
  internal::dispatch(DType::kFloat32, index_type, [&](auto, auto i) {
    using I = decltype(i);
    c = check_indices(op.c_str(), g, static_cast<const I*>(indices), g.in_plane(),
                      g.out, params.dims);
  });
  return internal::report(c, error);
}

Status max_unpool_backward(int32_t dims, Layout layout,
                           const Shape& grad_output_shape,
                           const Shape& indices_shape, DType dtype,
                           const void* grad_output, IndexType index_type,
                           const void* indices, void* grad_input,
                           std::string* error) {
  const internal::OpName op("maxUnpool#dBackward", dims);
  Geometry g;  // in: the pooled (indices) plane, out: the unpooled plane
  Check c = internal::plan_plain(op.c_str(), dims, layout, indices_shape,
                                 grad_output_shape, "indices", "gradOutput", &g);
  if (c.ok()) c = internal::check_types(op.c_str(), dtype, index_type);
  if (!c.ok()) return internal::report(c, error);
  internal::dispatch(dtype, index_type, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    const I* idx = static_cast<const I*>(indices);
    const int64_t n = g.in_plane(), m = g.out_plane();
    c = check_indices(op.c_str(), g, idx, n, g.out, dims);
    if (!c.ok()) return;
    const T* go = static_cast<const T*>(grad_output);
    T* gi = static_cast<T*>(grad_input);
    if (g.layout == Layout::kChannelsLast) {
      internal::gather_channels_last<T, I>(g, go, idx, gi);
      return;
    }
    for (int64_t p = 0; p < g.planes; ++p) {
      ukernels::config::gather<T, I>()(go + p * m, idx + p * n, n, gi + p * n);
    }
  });
  return internal::report(c, error);
}

}  // namespace unpool
