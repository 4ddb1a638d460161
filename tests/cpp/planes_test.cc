// Plans run on a PlaneRange: a plan run range of planes by range of planes,
// each range through buffers of its own (as the JS layer streams large
// tensors), gives the bits of one whole-tensor run, touches nothing outside
// its range, and reports index errors at their whole-tensor positions. Also
// check_indices, the check a streaming caller runs first.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "test_util.h"

namespace unpool_test {
namespace {

using unpool::Plan;
using unpool::PlaneRange;
using unpool::PoolParams;
using unpool::Status;
using unpool::UnpoolParams;

unpool::SizeArg scalar(int64_t v) {
  unpool::SizeArg a;
  a.count = 1;
  a.values[0] = v;
  return a;
}

// Values with ties, -0/+0, infinities and NaNs, from a fixed LCG.
Values random_values(DType t, size_t n, uint32_t seed) {
  Values v(t, n);
  uint32_t a = seed;
  for (size_t i = 0; i < n; ++i) {
    a = a * 1664525u + 1013904223u;
    const uint32_t r = a >> 8;
    double x = static_cast<double>(r % 9) - 4;  // many ties
    if (r % 97 == 0) x = std::numeric_limits<double>::quiet_NaN();
    if (r % 89 == 0) x = -std::numeric_limits<double>::infinity();
    if (r % 83 == 0) x = -0.0;
    v.set(i, x);
  }
  return v;
}

int64_t plane_elems(const Shape& s, int dims) {
  int64_t n = 1;
  for (int i = s.rank - dims; i < s.rank; ++i) n *= s.dims[i];
  return n;
}

int64_t planes_of(const Shape& s, int dims) {
  return s.rank == dims + 2 ? s.dims[0] * s.dims[1] : s.dims[0];
}

Values slice(const Values& v, int64_t from, int64_t n) {
  Values out(v.type(), static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    out.set(static_cast<size_t>(i), v.get(static_cast<size_t>(from + i)));
  return out;
}

Indices slice(const Indices& v, int64_t from, int64_t n) {
  Indices out(v.type(), static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    out.set(static_cast<size_t>(i), v.get(static_cast<size_t>(from + i)));
  return out;
}

bool same(DType t, double a, double b) {
  if (t == DType::kFloat32) {
    return Values::same_bits(static_cast<float>(a), static_cast<float>(b));
  }
  return Values::same_bits(a, b);
}

struct Case {
  int dims;
  std::vector<int64_t> shape;
  int64_t kernel, stride, padding;
  DType dtype;
  IndexType itype;
};

class Planes : public ::testing::TestWithParam<Case> {};

// Pool, unpool of its result, pool backward and unpool backward, whole and
// in ranges of 1, 2, 3 and 5 planes.
TEST_P(Planes, RangesGiveTheWholeRunsBits) {
  const Case& c = GetParam();
  PoolParams pp;
  pp.dims = c.dims;
  pp.kernel = scalar(c.kernel);
  pp.stride = scalar(c.stride);
  pp.padding = scalar(c.padding);
  UnpoolParams up;
  up.dims = c.dims;
  up.kernel = pp.kernel;
  up.stride = pp.stride;
  up.padding = pp.padding;
  const Shape in = make_shape(c.shape);
  Shape pooled;
  std::string err;
  ASSERT_EQ(unpool::max_pool_shape(pp, in, &pooled, &err), Status::kOk) << err;
  up.output_size_count = c.dims;
  for (int i = 0; i < c.dims; ++i) up.output_size[i] = c.shape[c.shape.size() - c.dims + i];
  const int64_t planes = planes_of(in, c.dims), n = plane_elems(in, c.dims),
                m = plane_elems(pooled, c.dims);
  const Values x = random_values(c.dtype, count(in), 7);
  Values y(c.dtype, count(pooled)), u(c.dtype, count(in)), gi(c.dtype, count(in)),
      gu(c.dtype, count(pooled));
  Indices idx(c.itype, count(pooled));
  Values xw = x;
  ASSERT_EQ(unpool::max_pool(pp, in, c.dtype, xw.data(), y.data(), c.itype, idx.data(), &err),
            Status::kOk)
      << err;
  ASSERT_EQ(unpool::max_unpool(up, pooled, c.dtype, y.data(), c.itype, idx.data(), u.data(), &err),
            Status::kOk)
      << err;
  ASSERT_EQ(unpool::max_pool_backward(pp, in, pooled, c.dtype, y.data(), c.itype, idx.data(),
                                      gi.data(), &err),
            Status::kOk)
      << err;
  ASSERT_EQ(unpool::max_unpool_backward(c.dims, unpool::Layout::kChannelsFirst, in, pooled, c.dtype,
                                        xw.data(), c.itype, idx.data(), gu.data(), &err),
            Status::kOk)
      << err;
  for (int64_t step : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{5}}) {
    for (int64_t b = 0; b < planes; b += step) {
      const int64_t e = std::min(planes, b + step), k = e - b;
      SCOPED_TRACE("planes [" + std::to_string(b) + ", " + std::to_string(e) + ")");
      const PlaneRange range{b, e};
      Values xr = slice(x, b * n, k * n), yr(c.dtype, static_cast<size_t>(k * m)),
             ur_out(c.dtype, static_cast<size_t>(k * n)), gr(c.dtype, static_cast<size_t>(k * n)),
             gur(c.dtype, static_cast<size_t>(k * m));
      Indices ir(c.itype, static_cast<size_t>(k * m));
      ASSERT_EQ(pool_range(pp, in, c.dtype, c.itype, range, xr.data(), yr.data(), ir.data(), &err),
                Status::kOk)
          << err;
      Values yin = slice(y, b * m, k * m);
      Indices iin = slice(idx, b * m, k * m);
      ASSERT_EQ(unpool_range(up, pooled, c.dtype, c.itype, range, yin.data(), iin.data(),
                             ur_out.data(), &err),
                Status::kOk)
          << err;
      ASSERT_EQ(pool_backward_range(pp, in, pooled, c.dtype, c.itype, range, yin.data(), iin.data(),
                                    gr.data(), &err),
                Status::kOk)
          << err;
      ASSERT_EQ(unpool_backward_range(c.dims, in, pooled, c.dtype, c.itype, range, xr.data(),
                                      iin.data(), gur.data(), &err),
                Status::kOk)
          << err;
      EXPECT_TRUE(yr.guards_intact() && ir.guards_intact() && ur_out.guards_intact() &&
                  gr.guards_intact() && gur.guards_intact());
      for (int64_t i = 0; i < k * m; ++i) {
        const size_t w = static_cast<size_t>(b * m + i), r = static_cast<size_t>(i);
        ASSERT_TRUE(same(c.dtype, yr.get(r), y.get(w))) << "pooled " << w;
        ASSERT_EQ(ir.get(r), idx.get(w)) << "index " << w;
        ASSERT_TRUE(same(c.dtype, gur.get(r), gu.get(w))) << "unpool grad input " << w;
      }
      for (int64_t i = 0; i < k * n; ++i) {
        const size_t w = static_cast<size_t>(b * n + i), r = static_cast<size_t>(i);
        ASSERT_TRUE(same(c.dtype, ur_out.get(r), u.get(w))) << "unpooled " << w;
        ASSERT_TRUE(same(c.dtype, gr.get(r), gi.get(w))) << "grad input " << w;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Ops, Planes,
    ::testing::Values(Case{2, {3, 5, 7, 9}, 2, 2, 0, DType::kFloat32, IndexType::kInt32},
                      Case{2, {2, 4, 9, 8}, 3, 2, 1, DType::kFloat64, IndexType::kInt64},
                      Case{1, {7, 11}, 3, 1, 1, DType::kFloat32, IndexType::kInt64},
                      Case{3, {4, 5, 6, 7}, 2, 2, 0, DType::kFloat32, IndexType::kInt32},
                      Case{3, {1, 6, 5, 4, 5}, 3, 2, 1, DType::kFloat64, IndexType::kInt32}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string name = std::to_string(info.param.dims) + "d";
      for (int64_t d : info.param.shape) name += "_" + std::to_string(d);
      return name + (info.param.dtype == DType::kFloat32 ? "_f32" : "_f64") +
             (info.param.itype == IndexType::kInt32 ? "_i32" : "_i64");
    });

TEST(Planes, BadRangesAreRejectedByName) {
  PoolParams pp;
  pp.dims = 2;
  pp.kernel = scalar(2);
  const Shape in = make_shape({2, 3, 4, 4});
  Plan plan;
  std::string err;
  ASSERT_EQ(unpool::plan_max_pool(pp, in, DType::kFloat32, IndexType::kInt32, &plan, &err),
            Status::kOk)
      << err;
  const struct {
    PlaneRange r;
    const char* message;
  } bad[] = {
      {{-1, 2}, "maxPool2d: planes [-1, 2) is not a range of the 6 (n, c) planes of x"},
      {{0, 7}, "maxPool2d: planes [0, 7) is not a range of the 6 (n, c) planes of x"},
      {{4, 3}, "maxPool2d: planes [4, 3) is not a range of the 6 (n, c) planes of x"},
      {{7, -1}, "maxPool2d: planes [7, -1) is not a range of the 6 (n, c) planes of x"},
      {{0, -2}, "maxPool2d: planes [0, -2) is not a range of the 6 (n, c) planes of x"},
  };
  for (const auto& b : bad) {
    EXPECT_EQ(unpool::run_max_pool(plan, b.r, nullptr, nullptr, nullptr, &err),
              Status::kInvalidArgument);
    EXPECT_EQ(err, b.message);
  }
  // empty: fine, nothing to do
  EXPECT_EQ(unpool::run_max_pool(plan, {6, 6}, nullptr, nullptr, nullptr, &err), Status::kOk)
      << err;
  pp.layout = unpool::Layout::kChannelsLast;
  ASSERT_EQ(unpool::plan_max_pool(pp, make_shape({2, 4, 4, 3}), DType::kFloat32, IndexType::kInt32,
                                  &plan, &err),
            Status::kOk)
      << err;
  EXPECT_EQ(unpool::run_max_pool(plan, {0, 2}, nullptr, nullptr, nullptr, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "maxPool2d: planes [0, 2) needs the channels-first layout");
  // A plan runs only as its own op.
  EXPECT_EQ(unpool::run_max_unpool(plan, {}, nullptr, nullptr, nullptr, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "maxPool2d: a plan of maxPool cannot run as maxUnpool");
  EXPECT_EQ(unpool::check_indices(plan, nullptr, &err), Status::kInvalidArgument);
  EXPECT_EQ(err, "maxPool2d: a plan of maxPool has no indices to check");
}

// Plane 3 of 4 holds a bad index. A range without it runs; a range with it
// names the index's position in the whole tensor; check_indices finds it
// with run_max_unpool's message and writes nothing.
TEST(Planes, IndexErrorsCountFromTheTensorStart) {
  UnpoolParams up;
  up.dims = 2;
  up.kernel = scalar(2);
  const Shape in = make_shape({2, 2, 2, 2});  // 4 planes of 4 indices into 4x4
  Values x(DType::kFloat32, 16, 1.0);
  Indices idx(IndexType::kInt32, 16);
  for (size_t i = 0; i < 16; ++i) idx.set(i, static_cast<int64_t>(i % 4) * 5);
  idx.set(13, 16);
  Values y(DType::kFloat32, 32, -3.0);
  std::string err;
  const char* want =
      "maxUnpool2d: indices[13]=16 is out of range for output plane 4x4 (16 elements)";
  Plan plan;
  ASSERT_EQ(unpool::plan_max_unpool(up, in, DType::kFloat32, IndexType::kInt32, &plan, &err),
            Status::kOk)
      << err;
  EXPECT_EQ(unpool::run_max_unpool(plan, {0, 3}, x.data(), idx.data(), y.data(), &err), Status::kOk)
      << err;
  Values y1(DType::kFloat32, 32, -3.0);
  const int64_t plane2 = 2 * 4;
  EXPECT_EQ(unpool::run_max_unpool(plan, {2, 4}, static_cast<float*>(x.data()) + plane2,
                                   static_cast<int32_t*>(idx.data()) + plane2, y1.data(), &err),
            Status::kInvalidIndex);
  EXPECT_EQ(err, want);
  for (size_t i = 0; i < 32; ++i) ASSERT_EQ(y1.get(i), -3.0);
  EXPECT_EQ(unpool::check_indices(plan, idx.data(), &err), Status::kInvalidIndex);
  EXPECT_EQ(err, want);
  EXPECT_EQ(unpool::max_unpool_check(up, in, IndexType::kInt32, idx.data(), &err),
            Status::kInvalidIndex);
  EXPECT_EQ(err, want);
  idx.set(13, 15);
  EXPECT_EQ(unpool::check_indices(plan, idx.data(), &err), Status::kOk) << err;
  EXPECT_EQ(unpool::max_unpool_check(up, in, IndexType::kInt32, idx.data(), &err), Status::kOk)
      << err;
  // Its other checks are max_unpool's.
  up.output_size_count = 2;
  up.output_size[0] = 9;
  up.output_size[1] = 4;
  EXPECT_EQ(unpool::max_unpool_check(up, in, IndexType::kInt32, idx.data(), &err),
            Status::kOutputSizeOutOfRange);
  EXPECT_EQ(err.rfind("maxUnpool2d: outputSize[0]=9 is outside 3..5", 0), 0u) << err;
}

TEST(Planes, PoolBackwardIndexErrorsCountFromTheTensorStart) {
  PoolParams pp;
  pp.dims = 1;
  const Shape in = make_shape({3, 4}), out = make_shape({3, 2});  // no geometry: plain check
  Values go(DType::kFloat64, 6, 1.0), gi(DType::kFloat64, 8, -1.0);
  Indices idx(IndexType::kInt64, {0, 1, 2, 3, 1, 4});
  std::string err;
  EXPECT_EQ(pool_backward_range(pp, in, out, DType::kFloat64, IndexType::kInt64, {1, 3},
                                static_cast<double*>(go.data()) + 2,
                                static_cast<int64_t*>(idx.data()) + 2, gi.data(), &err),
            Status::kInvalidIndex);
  EXPECT_EQ(err, "maxPool1dBackward: indices[5]=4 is out of range for input plane 4 (4 elements)");
  for (size_t i = 0; i < 8; ++i) ASSERT_EQ(gi.get(i), -1.0);
}

}  // namespace
}  // namespace unpool_test
