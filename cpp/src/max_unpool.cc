// Operator layer of max unpool forward and backward.
#include <cstring>

#include "channels_last.h"
#include "dispatch.h"
#include "geometry.h"
#include "plan.h"
#include "ukernels/config.h"
#include "unpool/unpool.h"

namespace unpool {

using internal::Check;
using internal::Geometry;

namespace {

// Position of the first index (over all planes of `n` entries each) outside
// [0, limit), or -1.
template <typename I>
int64_t first_bad_index(const I* idx, int64_t planes, int64_t n, int64_t limit) {
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

// Checks every index of the planes of `g` (the pooled planes, `g.in`)
// against the unpooled plane (`g.out`) it points into.
template <typename I>
Check check_planes(const char* op, const Geometry& g, const I* idx, int32_t dims) {
  const int64_t per_plane = g.in_plane();
  const int64_t bad = first_bad_index(idx, g.planes, per_plane, g.out_plane());
  if (bad < 0) return {};
  return internal::index_error(op, "indices", g.first_plane * per_plane + bad,
                               static_cast<int64_t>(idx[bad]), g.out, dims, "output");
}

}  // namespace

Status max_unpool_shape(const UnpoolParams& params, const Shape& input, Shape* output,
                        std::string* error) {
  const internal::OpName op("maxUnpool#d", params.dims);
  Geometry g;
  return internal::report(internal::plan_unpool(op.c_str(), params, input, &g, output), error);
}

Status max_unpool_output_range(const UnpoolParams& params, const Shape& input, SizeRange* ranges,
                               std::string* error) {
  const internal::OpName op("maxUnpool#dOutputRange", params.dims);
  return internal::report(internal::unpool_ranges(op.c_str(), params, input, ranges), error);
}

Status plan_max_unpool(const UnpoolParams& params, const Shape& input, DType dtype,
                       IndexType index_type, Plan* plan, std::string* error) {
  Plan p = internal::new_plan(Op::kMaxUnpool, "maxUnpool#d", params.dims, dtype, index_type, "x");
  // A kernel: the outputSize has a range (the npm API's index hints try its sizes).
  p.pool_geometry = params.kernel.count != 0 || params.kernel.list;
  Check c = internal::plan_unpool(p.name, params, input, &p.geometry, &p.output);
  if (c.ok()) c = internal::check_types(p.name, dtype, index_type);
  if (c.ok()) *plan = p;
  return internal::report(c, error);
}

Status plan_max_unpool_backward(int32_t dims, Layout layout, const Shape& grad_output_shape,
                                const Shape& indices_shape, DType dtype, IndexType index_type,
                                Plan* plan, std::string* error) {
  Plan p = internal::new_plan(Op::kMaxUnpoolBackward, "maxUnpool#dBackward", dims, dtype,
                              index_type, "indices");
  // in: the pooled (indices) plane, out: the unpooled plane
  Check c = internal::plan_plain(p.name, dims, layout, indices_shape, grad_output_shape, "indices",
                                 "gradOutput", &p.geometry);
  if (c.ok()) c = internal::check_types(p.name, dtype, index_type);
  if (c.ok()) {
    p.output = indices_shape;
    *plan = p;
  }
  return internal::report(c, error);
}

Status check_indices(const Plan& plan, const void* indices, std::string* error) {
  if (plan.op == Op::kMaxPoolBackward) {
    return internal::report(internal::check_pool_backward_indices(plan, indices), error);
  }
  if (plan.op == Op::kFractionalMaxPool) {
    return internal::report(internal::check_fractional_samples(plan, indices), error);
  }
  if (plan.op != Op::kMaxUnpool && plan.op != Op::kMaxUnpoolBackward) {
    return internal::report(
        internal::fail(Status::kInvalidArgument, internal::Message() << plan.name << ": a plan of "
                                                                     << op_name(plan.op)
                                                                     << " has no indices to check"),
        error);
  }
  Check c;
  internal::dispatch_index<float>(plan.index_type, [&](auto, auto i) {
    using I = decltype(i);
    c = check_planes(plan.name, plan.geometry, static_cast<const I*>(indices), plan.dims);
  });
  return internal::report(c, error);
}

Status content_error(const Plan& plan, int64_t position, int64_t value, std::string* error) {
  const Geometry& g = plan.geometry;
  switch (plan.op) {
    case Op::kMaxUnpool:
    case Op::kMaxUnpoolBackward:
      return internal::report(
          internal::index_error(plan.name, "indices", position, value, g.out, plan.dims, "output"),
          error);
    case Op::kMaxPoolBackward:
    case Op::kAdaptiveMaxPoolBackward:
    case Op::kFractionalMaxPoolBackward:
      return internal::report(
          internal::index_error(plan.name, "indices", position, value, g.in, plan.dims, "input"),
          error);
    case Op::kFractionalMaxPool:
      return internal::report(internal::fractional_sample_error(plan, position, value), error);
    default:
      break;
  }
  return internal::report(
      internal::fail(Status::kInvalidArgument, internal::Message() << plan.name << ": a plan of "
                                                                   << op_name(plan.op)
                                                                   << " has no indices to check"),
      error);
}

Status run_max_unpool(const Plan& plan, PlaneRange planes, const void* x, const void* indices,
                      void* y, std::string* error) {
  Geometry g;
  Check c = internal::start_run(plan, Op::kMaxUnpool, planes, &g);
  if (!c.ok()) return internal::report(c, error);
  internal::dispatch_storage(plan.dtype, plan.index_type, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    const I* idx = static_cast<const I*>(indices);
    const int64_t n = g.in_plane(), m = g.out_plane();
    c = check_planes(plan.name, g, idx, plan.dims);
    if (!c.ok()) return;
    const T* px = static_cast<const T*>(x);
    T* py = static_cast<T*>(y);
    if (g.layout == Layout::kChannelsLast) {
      internal::unpool_channels_last<T, I>(g, px, idx, py);
      return;
    }
    // Plane by plane, so that the scatter finds its plane in cache right
    // after the zero-fill (one memset of the whole output, then the
    // scatter, would read every line back from memory once the output
    // exceeds L2).
    for (int64_t p = 0; p < g.planes; ++p) {
      std::memset(py + p * m, 0, static_cast<size_t>(m) * sizeof(T));
      ukernels::config::unpool<T, I>(px + p * n, idx + p * n, n, py + p * m);
    }
  });
  return internal::report(c, error);
}

Status run_max_unpool_backward(const Plan& plan, PlaneRange planes, const void* grad_output,
                               const void* indices, void* grad_input, std::string* error) {
  Geometry g;  // in: the pooled (indices) plane, out: the unpooled plane
  Check c = internal::start_run(plan, Op::kMaxUnpoolBackward, planes, &g);
  if (!c.ok()) return internal::report(c, error);
  internal::dispatch_storage(plan.dtype, plan.index_type, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    const I* idx = static_cast<const I*>(indices);
    const int64_t n = g.in_plane(), m = g.out_plane();
    c = check_planes(plan.name, g, idx, plan.dims);
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

Status max_unpool(const UnpoolParams& params, const Shape& input, DType dtype, const void* x,
                  IndexType index_type, const void* indices, void* y, std::string* error) {
  Plan plan;
  const Status s = plan_max_unpool(params, input, dtype, index_type, &plan, error);
  return s != Status::kOk ? s : run_max_unpool(plan, PlaneRange{}, x, indices, y, error);
}

Status max_unpool_check(const UnpoolParams& params, const Shape& input, IndexType index_type,
                        const void* indices, std::string* error) {
  Plan plan;
  const Status s = plan_max_unpool(params, input, DType::kFloat32, index_type, &plan, error);
  return s != Status::kOk ? s : check_indices(plan, indices, error);
}

Status max_unpool_backward(int32_t dims, Layout layout, const Shape& grad_output_shape,
                           const Shape& indices_shape, DType dtype, const void* grad_output,
                           IndexType index_type, const void* indices, void* grad_input,
                           std::string* error) {
  Plan plan;
  const Status s = plan_max_unpool_backward(dims, layout, grad_output_shape, indices_shape, dtype,
                                            index_type, &plan, error);
  return s != Status::kOk
             ? s
             : run_max_unpool_backward(plan, PlaneRange{}, grad_output, indices, grad_input, error);
}

}  // namespace unpool
