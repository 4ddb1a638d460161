// The parameter block's doubles as the core's types (see param_block.h).
#include "param_block.h"

#include <cmath>

namespace unpool_bindings {

// Doubles the TS layer let through are integers below 2^53; anything else
// (only reachable by calling the bindings directly) is mapped to a value the
// operator layer rejects instead of a cast with undefined behaviour.
int64_t to_i64(double v) {
  if (!(std::fabs(v) < 9.0e18)) return INT64_MIN;
  return static_cast<int64_t>(v);
}

namespace {

int32_t to_i32(double v) {
  const int64_t i = to_i64(v);
  return i < INT32_MIN || i > INT32_MAX ? INT32_MIN : static_cast<int32_t>(i);
}

unpool::SizeArg read_size(const double* s) {
  unpool::SizeArg out;
  out.count = to_i32(s[0]);
  out.list = s[1] != 0;
  for (int i = 0; i < unpool::kMaxSpatialDims; ++i) out.values[i] = to_i64(s[2 + i]);
  return out;
}

}  // namespace

// An unknown code is passed on as it is: the core rejects it with a message.
unpool::Layout read_layout(const ParamBlock& b) {
  return static_cast<unpool::Layout>(to_i32(b.layout[0]));
}

unpool::Shape read_shape(const double* s) {
  unpool::Shape out;
  out.rank = to_i32(s[0]);
  if (out.rank < 0 || out.rank > unpool::kMaxRank) out.rank = unpool::kMaxRank + 1;
  for (int i = 0; i < unpool::kMaxRank; ++i) out.dims[i] = to_i64(s[1 + i]);
  return out;
}

void write_shape(const unpool::Shape& shape, double* s) {
  s[0] = shape.rank;
  for (int i = 0; i < unpool::kMaxRank; ++i) s[1 + i] = static_cast<double>(shape.dims[i]);
}

unpool::PoolParams read_pool(const ParamBlock& b) {
  unpool::PoolParams p;
  p.dims = to_i32(b.dims[0]);
  p.ceil_mode = b.ceil_mode[0] != 0;
  p.kernel = read_size(b.kernel);
  p.stride = read_size(b.stride);
  p.padding = read_size(b.padding);
  p.dilation = read_size(b.dilation);
  p.layout = read_layout(b);
  return p;
}

unpool::UnpoolParams read_unpool(const ParamBlock& b) {
  unpool::UnpoolParams p;
  p.dims = to_i32(b.dims[0]);
  p.output_size_count = to_i32(b.output_size_count[0]);
  p.kernel = read_size(b.kernel);
  p.stride = read_size(b.stride);
  p.padding = read_size(b.padding);
  for (int i = 0; i < unpool::kMaxRank; ++i) p.output_size[i] = to_i64(b.output_size[i]);
  p.layout = read_layout(b);
  return p;
}

unpool::AdaptivePoolParams read_adaptive(const ParamBlock& b) {
  unpool::AdaptivePoolParams p;
  p.dims = to_i32(b.dims[0]);
  p.output_size = read_size(b.pool_size);
  for (int i = 0; i < unpool::kMaxSpatialDims; ++i) p.keep[i] = b.keep[i] != 0;
  p.layout = read_layout(b);
  return p;
}

// Ratios are not integers: they cross as they are (NaN included; the core
// rejects anything outside (0, 1)).
unpool::FractionalPoolParams read_fractional(const ParamBlock& b) {
  unpool::FractionalPoolParams p;
  p.dims = to_i32(b.dims[0]);
  p.kernel = read_size(b.kernel);
  p.output_size = read_size(b.pool_size);
  p.ratio_count = to_i32(b.ratio[0]);
  p.ratio_list = b.ratio[1] != 0;
  for (int i = 0; i < unpool::kMaxSpatialDims; ++i) p.output_ratio[i] = b.ratio[2 + i];
  return p;
}

void write_geometry(const unpool::Plan& plan, double* s) {
  write_geometry(plan.geometry, s);
  s += kGeometrySlots - 2;
  *s++ = plan.pool_geometry ? 1 : 0;
  *s = plan.regular ? 1 : 0;
}

void write_geometry(const unpool::Geometry& g, double* s) {
  *s++ = static_cast<double>(static_cast<int32_t>(g.layout));
  *s++ = static_cast<double>(g.channels);
  *s++ = static_cast<double>(g.planes);
  for (const int64_t* a : {g.in, g.out, g.kernel, g.stride, g.pad, g.dilation}) {
    for (int i = 0; i < unpool::kMaxSpatialDims; ++i) *s++ = static_cast<double>(a[i]);
  }
  s[0] = 0;
  s[1] = 0;
}

}  // namespace unpool_bindings
