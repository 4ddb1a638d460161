// Operator layer of max pool forward and backward: validate, iterate planes
// and output rows, call a microkernel.
#include <cstring>
#include <vector>

#include "channels_last.h"
#include "dispatch.h"
#include "geometry.h"
#include "plan.h"
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
        ukernels::argmaxpool_row<T, I>(px, r, py + o, pidx + o);
      }
    }
  }
}

}  // namespace

Status max_pool_shape(const PoolParams& params, const Shape& input,
                      Shape* output, std::string* error) {
  const internal::OpName op("maxPool#d", params.dims);
  Geometry g;
  return internal::report(internal::plan_pool(op.c_str(), params, input, &g, output), error);
}

Status plan_max_pool(const PoolParams& params, const Shape& input, DType dtype,
                     IndexType index_type, Plan* plan, std::string* error) {
  Plan p = internal::new_plan(Op::kMaxPool, "maxPool#d", params.dims, dtype, index_type, "x");
  Check c = internal::plan_pool(p.name, params, input, &p.geometry, &p.output);
  if (c.ok()) c = internal::check_types(p.name, dtype, index_type, pool_index_limit(p.geometry));
  if (c.ok()) *plan = p;
  return internal::report(c, error);
}

Status run_max_pool(const Plan& plan, PlaneRange planes, const void* x, void* y,
                    void* indices, std::string* error) {
  Geometry g;
  const Check c = internal::start_run(plan, Op::kMaxPool, planes, &g);
  if (!c.ok()) return internal::report(c, error);
  internal::dispatch(plan.dtype, plan.index_type, [&](auto t, auto i) {
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

Status max_pool(const PoolParams& params, const Shape& input, DType dtype,
                const void* x, void* y, IndexType index_type, void* indices,
                std::string* error) {
  Plan plan;
  const Status s = plan_max_pool(params, input, dtype, index_type, &plan, error);
  return s != Status::kOk ? s : run_max_pool(plan, PlaneRange{}, x, y, indices, error);
}

}  // namespace unpool
