// Operator layer of max pool backward: validate, check the indices, zero
// and scatter-add plane by plane. (Apart from max_pool.cc so that the module
// can compile the forward kernels for speed and this for size.)
#include <cstring>
#include <type_traits>
#include <vector>

#include "channels_last.h"
#include "dispatch.h"
#include "geometry.h"
#include "plan.h"
#include "ukernels/config.h"
#include "unpool/unpool.h"

namespace unpool {

using internal::Check;
using internal::Geometry;
using internal::Span;
using internal::window;

namespace {

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
      const Span s = window(g, i, o);
      e.dim[i][static_cast<size_t>(o)] = s.start >= s.end;
      e.any |= s.start >= s.end;
    }
  }
  return e;
}

// Finds the first index that is outside the plane and does not belong to an
// empty window (when `empty` is given). Returns -1 when there is none.
template <typename I>
int64_t first_bad_index(const Geometry& g, const I* idx, const EmptyWindows* empty) {
  const int64_t limit = g.in_plane(), n = g.out_plane();
  for (int64_t p = 0; p < g.planes; ++p) {
    const I* pi = idx + p * n;
    if (ukernels::config::check_indices<I>(pi, n, limit)) continue;
    for (int64_t e = 0; e < n; ++e) {
      const int64_t v = static_cast<int64_t>(pi[e]);
      if (v >= 0 && v < limit) continue;
      if (empty) {
        // The output position of element p * n + e.
        const int64_t o = g.layout == Layout::kChannelsLast ? ((p * n + e) / g.channels) % n : e;
        const int64_t ow = o % g.out[2], oh = (o / g.out[2]) % g.out[1],
                      od = o / (g.out[2] * g.out[1]);
        if (empty->dim[0][static_cast<size_t>(od)] | empty->dim[1][static_cast<size_t>(oh)] |
            empty->dim[2][static_cast<size_t>(ow)]) {
          continue;
        }
      }
      return p * n + e;
    }
  }
  return -1;
}

// The index error of the first bad index of `idx` (the planes of `g`), as
// `plan` names it, or ok.
template <typename I>
Check check_planes(const Plan& plan, const Geometry& g, const I* idx, const EmptyWindows* e) {
  const int64_t bad = first_bad_index(g, idx, e);
  if (bad < 0) return {};
  return internal::index_error(plan.name, "indices", g.first_plane * g.out_plane() + bad,
                               static_cast<int64_t>(idx[bad]), g.in, plan.dims, "input");
}

// With `empty` windows present, their offsets may point outside the plane
// (they are skipped) or inside it (they are added, as PyTorch does); every
// other offset was checked by first_bad_index.
template <typename T, typename I>
void scatter_add_planes(const Geometry& g, const T* go, const I* idx, const EmptyWindows* empty,
                        T* gi) {
  const int64_t in_plane = g.in_plane(), out_plane = g.out_plane();
  for (int64_t p = 0; p < g.planes; ++p) {  // plane by plane: see max_unpool
    const T* pgo = go + p * out_plane;
    const I* pidx = idx + p * out_plane;
    T* pgi = gi + p * in_plane;
    std::memset(pgi, 0, static_cast<size_t>(in_plane) * sizeof(T));
    if (empty == nullptr) {
      ukernels::config::scatter_add<T, I>(pgo, pidx, out_plane, pgi);
    } else {
      ukernels::config::scatter_add_in_range<T, I>(pgo, pidx, out_plane, in_plane, pgi);
    }
  }
}

}  // namespace

namespace {

// A plan of a pool backward without pool geometry: `op` named `base`.
Status plan_plain_backward(Op op, const char* base, int32_t dims, Layout layout,
                           const Shape& input_shape, const Shape& grad_output_shape, DType dtype,
                           IndexType index_type, Plan* plan, std::string* error) {
  Plan p = internal::new_plan(op, base, dims, dtype, index_type, "inputShape");
  Check c = internal::plan_plain(p.name, dims, layout, input_shape, grad_output_shape, "inputShape",
                                 "gradOutput", &p.geometry);
  if (c.ok()) c = internal::check_types(p.name, dtype, index_type);
  if (c.ok()) c = internal::check_gradient_dtype(p.name, dtype);
  if (c.ok()) {
    p.output = input_shape;
    *plan = p;
  }
  return internal::report(c, error);
}

}  // namespace

namespace internal {

Check check_pool_backward_indices(const Plan& plan, const void* indices) {
  const Geometry& g = plan.geometry;
  EmptyWindows empty;
  if (plan.pool_geometry) empty = find_empty_windows(g);
  const EmptyWindows* e = empty.any ? &empty : nullptr;
  Check c;
  dispatch_index<float>(plan.index_type, [&](auto, auto i) {
    using I = decltype(i);
    c = check_planes(plan, g, static_cast<const I*>(indices), e);
  });
  return c;
}

}  // namespace internal

Status plan_max_pool_backward(const PoolParams& params, const Shape& input_shape,
                              const Shape& grad_output_shape, DType dtype, IndexType index_type,
                              Plan* plan, std::string* error) {
  if (params.kernel.count == 0) {
    return plan_plain_backward(Op::kMaxPoolBackward, "maxPool#dBackward", params.dims,
                               params.layout, input_shape, grad_output_shape, dtype, index_type,
                               plan, error);
  }
  Plan p = internal::new_plan(Op::kMaxPoolBackward, "maxPool#dBackward", params.dims, dtype,
                              index_type, "inputShape");
  p.pool_geometry = true;
  Shape expected;
  Check c = internal::plan_pool(p.name, params, input_shape, &p.geometry, &expected, "inputShape");
  if (c.ok()) c = internal::check_same_shape(p.name, "gradOutput", grad_output_shape, expected);
  if (c.ok()) c = internal::check_types(p.name, dtype, index_type);
  if (c.ok()) c = internal::check_gradient_dtype(p.name, dtype);
  if (c.ok()) {
    p.output = input_shape;
    *plan = p;
  }
  return internal::report(c, error);
}

Status plan_adaptive_max_pool_backward(int32_t dims, Layout layout, const Shape& input_shape,
                                       const Shape& grad_output_shape, DType dtype,
                                       IndexType index_type, Plan* plan, std::string* error) {
  return plan_plain_backward(Op::kAdaptiveMaxPoolBackward, "adaptiveMaxPool#dBackward", dims,
                             layout, input_shape, grad_output_shape, dtype, index_type, plan,
                             error);
}

Status plan_fractional_max_pool_backward(int32_t dims, const Shape& input_shape,
                                         const Shape& grad_output_shape, DType dtype,
                                         IndexType index_type, Plan* plan, std::string* error) {
  if (dims != 2 && dims != 3) {
    const internal::OpName op("fractionalMaxPool#dBackward", dims);
    return internal::report(
        internal::fail(Status::kInvalidArgument,
                       internal::Message() << op.c_str() << ": dims=" << dims << " must be 2 or 3"),
        error);
  }
  Plan p;
  const Status s = plan_plain_backward(
      Op::kFractionalMaxPoolBackward, "fractionalMaxPool#dBackward", dims, Layout::kChannelsFirst,
      input_shape, grad_output_shape, dtype, index_type, &p, error);
  if (s != Status::kOk) return s;
  const Check c = internal::check_fractional_dtype(p.name, dtype);
  if (c.ok()) *plan = p;
  return internal::report(c, error);
}

Status run_max_pool_backward(const Plan& plan, PlaneRange planes, const void* grad_output,
                             const void* indices, void* grad_input, std::string* error) {
  Geometry g;
  // Every pool's gradient is this scatter-add.
  const Op op = plan.op == Op::kAdaptiveMaxPoolBackward || plan.op == Op::kFractionalMaxPoolBackward
                    ? plan.op
                    : Op::kMaxPoolBackward;
  Check c = internal::start_run(plan, op, planes, &g);
  // (A plan made by hand with integers: the kernels below have none.)
  if (c.ok()) c = internal::check_gradient_dtype(plan.name, plan.dtype);
  if (!c.ok()) return internal::report(c, error);
  EmptyWindows empty;
  if (plan.pool_geometry) empty = find_empty_windows(g);
  const EmptyWindows* e = empty.any ? &empty : nullptr;
  internal::dispatch(plan.dtype, plan.index_type, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    // Integer gradients never get here (check_gradient_dtype): no adding
    // kernels for them.
    if constexpr (!std::is_integral<T>::value) {
      const I* idx = static_cast<const I*>(indices);
      c = check_planes(plan, g, idx, e);
      if (!c.ok()) return;
      if (g.layout == Layout::kChannelsLast) {
        internal::scatter_add_channels_last<T, I>(g, static_cast<const T*>(grad_output), idx,
                                                  e != nullptr, static_cast<T*>(grad_input));
      } else {
        scatter_add_planes<T, I>(g, static_cast<const T*>(grad_output), idx, e,
                                 static_cast<T*>(grad_input));
      }
    }
  });
  return internal::report(c, error);
}

Status max_pool_backward(const PoolParams& params, const Shape& input_shape,
                         const Shape& output_shape, DType dtype, const void* grad_output,
                         IndexType index_type, const void* indices, void* grad_input,
                         std::string* error) {
  Plan plan;
  const Status s =
      plan_max_pool_backward(params, input_shape, output_shape, dtype, index_type, &plan, error);
  return s != Status::kOk
             ? s
             : run_max_pool_backward(plan, PlaneRange{}, grad_output, indices, grad_input, error);
}

}  // namespace unpool
