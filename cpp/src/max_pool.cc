// Operator layer of max pool forward and backward: validate, iterate planes
// and output rows, call a microkernel.
#include <cstring>
#include <type_traits>
#include <vector>

#include "channels_last.h"
#include "dispatch.h"
#include "geometry.h"
#include "plan.h"
#include "pool_keys.h"
#include "pool_rows.h"
#include "ukernels/config.h"
#include "unpool/unpool.h"

namespace unpool {

using internal::Check;
using internal::Geometry;

namespace {

// Largest offset a pool can emit (exclusive): a clipped window start lies
// below max(in, dilation) in every dim, so an index of a window wholly in
// padding may exceed the plane.
int64_t pool_index_limit(const Geometry& g) {
  int64_t r = 1;
  for (int i = 0; i < 3; ++i) r *= (g.in[i] > g.dilation[i] ? g.in[i] : g.dilation[i]);
  return r;
}

// Pools every plane of `g` with the kernels config.h picks.
template <typename T, typename I>
void pool_any(const Geometry& g, const T* x, T* y, I* idx) {
  if (g.layout == Layout::kChannelsLast) {
    internal::pool_channels_last<T, I>(g, x, y, idx);
  } else {
    internal::pool_rows_config<T, I>(g, x, y, idx);
  }
}

// uint8's rows (byte_rows_apply) as an internal::KeyPool.
template <typename I>
__attribute__((noinline)) Check byte_rows(const Geometry& chunk, const void* x, void* y, void* idx,
                                          const void*) {
  internal::pool_rows_config<uint8_t, I>(chunk, static_cast<const uint8_t*>(x),
                                         static_cast<uint8_t*>(y), static_cast<I*>(idx));
  return {};
}

// pool_any as an internal::KeyPool.
template <typename K, typename I>
Check pool_keys(const Geometry& chunk, const void* x, void* y, void* idx, const void*) {
  pool_any<K, I>(chunk, static_cast<const K*>(x), static_cast<K*>(y), static_cast<I*>(idx));
  return {};
}

}  // namespace

Status max_pool_shape(const PoolParams& params, const Shape& input, Shape* output,
                      std::string* error) {
  const internal::OpName op("maxPool#d", params.dims);
  Geometry g;
  return internal::report(internal::plan_pool(op.c_str(), params, input, &g, output), error);
}

Status plan_max_pool(const PoolParams& params, const Shape& input, DType dtype,
                     IndexType index_type, Plan* plan, std::string* error) {
  Plan p = internal::new_plan(Op::kMaxPool, "maxPool#d", params.dims, dtype, index_type, "x");
  Check c = internal::plan_pool(p.name, params, input, &p.geometry, &p.output);
  if (c.ok()) c = internal::check_types(p.name, dtype, index_type, pool_index_limit(p.geometry));
  if (c.ok() && p.geometry.planes > 0) {
    c = internal::check_pool_index_limit(p.name, pool_index_limit(p.geometry));
  }
  if (c.ok()) *plan = p;
  return internal::report(c, error);
}

Status run_max_pool(const Plan& plan, PlaneRange planes, const void* x, void* y, void* indices,
                    std::string* error) {
  Geometry g;
  const Check c = internal::start_run(plan, Op::kMaxPool, planes, &g);
  if (!c.ok()) return internal::report(c, error);
  Check r;
  const bool widen = internal::dispatch_pool(plan.dtype, plan.index_type, [&](auto t, auto i) {
    using T = decltype(t);
    using I = decltype(i);
    constexpr bool kByte = std::is_same<T, uint8_t>::value || std::is_same<T, int8_t>::value;
    if constexpr (kByte) {
      if (internal::byte_rows_apply(g)) {
        if constexpr (std::is_same<T, uint8_t>::value) {
          internal::pool_rows_config<uint8_t, I>(g, static_cast<const uint8_t*>(x),
                                                 static_cast<uint8_t*>(y),
                                                 static_cast<I*>(indices));
        } else {
          r = internal::pool_on_keys(plan.name, g, x, y, indices, sizeof(I),
                                     internal::kKeyConversion<T, uint8_t>, &byte_rows<I>, nullptr);
        }
        return;
      }
    }
    if constexpr (internal::kPoolsOnKeys<T>) {
      using K = internal::pool_key_t<T>;
      r = internal::pool_on_keys(plan.name, g, x, y, indices, sizeof(I),
                                 internal::kKeyConversion<T, K>, &pool_keys<K, I>, nullptr);
    } else {
      pool_any<T, I>(g, static_cast<const T*>(x), static_cast<T*>(y), static_cast<I*>(indices));
    }
  });
  if (!r.ok()) return internal::report(r, error);
  if (widen) ukernels::config::widen_indices(indices, g.planes * g.out_plane());
  return Status::kOk;
}

Status max_pool(const PoolParams& params, const Shape& input, DType dtype, const void* x, void* y,
                IndexType index_type, void* indices, std::string* error) {
  Plan plan;
  const Status s = plan_max_pool(params, input, dtype, index_type, &plan, error);
  return s != Status::kOk ? s : run_max_pool(plan, PlaneRange{}, x, y, indices, error);
}

}  // namespace unpool
