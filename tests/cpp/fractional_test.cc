// Fractional max pooling against the naive reference (reference.h): 2d and
// 3d, outputSize and outputRatio, kernels 1 to 3, samples 0, just below 1
// and exactly 1, batched and unbatched, both dtypes and index types, plane
// ranges through buffers of their own, and the backward pass. The windows
// are computed in the value type's arithmetic, as PyTorch computes them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "reference.h"
#include "window_test_util.h"

namespace unpool_test {
namespace {

using unpool::FractionalPoolParams;
using unpool::Plan;
using unpool::PlaneRange;
using unpool::Status;

// Spatial sizes, kernel and either the output size or a ratio (D, H, W;
// 2d problems leave D at 1).
struct Config {
  int64_t in[3], kernel[3], out[3];
  double ratio[3];  // used when out[2] == 0
};

const Config k2d[] = {
    {{1, 7, 9}, {1, 2, 3}, {1, 3, 4}, {}},
    {{1, 5, 5}, {1, 1, 1}, {1, 5, 5}, {}},  // out == in, kernel 1
    {{1, 6, 10}, {1, 3, 2}, {1, 4, 9}, {}},  // out + k - 1 == in: the 2d limit
    {{1, 4, 3}, {1, 2, 2}, {1, 1, 1}, {}},  // one window: it starts at in - k
    {{1, 8, 8}, {1, 2, 2}, {1, 0, 0}, {0, 0.5, 0.5}},
    {{1, 9, 7}, {1, 3, 3}, {1, 0, 0}, {0, 0.4, 0.6}},  // int(3.6) = 3, int(4.2) = 4
};
const Config k3d[] = {
    {{5, 6, 7}, {2, 2, 2}, {3, 4, 5}, {}},
    {{4, 4, 4}, {1, 1, 1}, {3, 3, 3}, {}},
    {{6, 5, 8}, {3, 1, 2}, {0, 0, 0}, {0.5, 0.5, 0.5}},
    {{3, 9, 4}, {1, 3, 2}, {1, 6, 2}, {}},  // out + k - 1 == in - 1: the 3d limit
};

// Samples of plane p and dim k: 0, just below 1 and exactly 1 among others.
template <typename T>
T sample(int64_t p, int k) {
  const T table[] = {T(0), std::nextafter(T(1), T(0)), T(1), T(0.5), T(0.7371), T(0.123), T(0.999)};
  return table[(p * 3 + k * 5 + p / 2) % 7];
}

FractionalPoolParams params(int dims, const Config& cf) {
  FractionalPoolParams fp;
  fp.dims = dims;
  std::vector<int64_t> k, o;
  for (int i = 3 - dims; i < 3; ++i) {
    k.push_back(cf.kernel[i]);
    o.push_back(cf.out[i]);
  }
  fp.kernel = size_list(k);
  if (cf.out[2] != 0) {
    fp.output_size = size_list(o);
  } else {
    fp.ratio_count = dims;
    fp.ratio_list = true;
    for (int i = 0; i < dims; ++i) fp.output_ratio[i] = cf.ratio[3 - dims + i];
  }
  return fp;
}

template <typename T>
void check_case(const WindowCase& c, const Config& cf, int which) {
  const int dims = c.dims;
  const int64_t batch = c.batched ? 2 : 1, channels = c.batched ? 2 : 3, planes = batch * channels;
  std::vector<int64_t> shape;
  if (c.batched) shape.push_back(batch);
  shape.push_back(channels);
  int64_t out[3] = {1, 1, 1};
  for (int i = 3 - dims; i < 3; ++i) {
    shape.push_back(cf.in[i]);
    out[i] = cf.out[2] != 0 ? cf.out[i]
                            : static_cast<int64_t>(static_cast<double>(cf.in[i]) * cf.ratio[i]);
  }
  const Shape in = make_shape(shape), samples_shape = make_shape({batch, channels, dims});
  SCOPED_TRACE("config " + std::to_string(which) + ", x " + shape_text(in));
  const int64_t in_plane = cf.in[0] * cf.in[1] * cf.in[2], out_plane = out[0] * out[1] * out[2];
  const std::vector<double> x = seeded_values(static_cast<size_t>(planes * in_plane),
                                              static_cast<uint32_t>(which * 7 + dims));
  std::vector<T> u(static_cast<size_t>(planes * dims));
  for (int64_t p = 0; p < planes; ++p) {
    for (int k = 0; k < dims; ++k) u[static_cast<size_t>(p * dims + k)] = sample<T>(p, k);
  }
  std::vector<T> ry;
  std::vector<int64_t> ridx;
  ref_fractional_pool<T>(dims, planes, cf.in, out, cf.kernel, as_type<T>(x), u, &ry, &ridx);
  const std::vector<double> want_y = as_doubles(ry), samples = as_doubles(u);

  Plan plan;
  std::string err;
  ASSERT_EQ(unpool::plan_fractional_max_pool(params(dims, cf), in, samples_shape, c.dtype, c.itype,
                                             &plan, &err),
            Status::kOk)
      << err;
  std::vector<int64_t> want_shape = shape;
  for (int i = 0; i < dims; ++i) want_shape[want_shape.size() - dims + i] = out[3 - dims + i];
  EXPECT_EQ(shape_vec(plan.output), want_shape);
  // The whole tensor, then ranges of 1, 2 and 4 planes through their own
  // buffers (the samples pointer at the range's first plane too).
  for (int64_t step : {planes, int64_t{1}, int64_t{2}, int64_t{4}}) {
    for (int64_t b = 0; b < planes; b += step) {
      const int64_t e = std::min(planes, b + step), n = e - b;
      Values xv(c.dtype, part(x, b * in_plane, n * in_plane)),
          uv(c.dtype, part(samples, b * dims, n * dims)),
          y(c.dtype, static_cast<size_t>(n * out_plane), -5.0);
      Indices idx(c.itype, static_cast<size_t>(n * out_plane));
      const PlaneRange range = step == planes ? PlaneRange{} : PlaneRange{b, e};
      ASSERT_EQ(unpool::run_fractional_max_pool(plan, range, xv.data(), uv.data(), y.data(),
                                                idx.data(), &err),
                Status::kOk)
          << err;
      ASSERT_EQ(diff_values(y, part(want_y, b * out_plane, n * out_plane)), "")
          << "planes " << b << ".." << e;
      ASSERT_EQ(diff_indices(idx, part(ridx, b * out_plane, n * out_plane)), "")
          << "planes " << b << ".." << e;
    }
  }

  // Backward: a scatter-add in output order, also on ranges.
  std::vector<double> go(static_cast<size_t>(planes * out_plane));
  for (size_t i = 0; i < go.size(); ++i)
    go[i] = 1.0 / static_cast<double>(i % 6 + 3) + static_cast<double>(i % 4);
  RefGeom g;
  g.planes = planes;
  for (int i = 0; i < 3; ++i) {
    g.in[i] = cf.in[i];
    g.out[i] = out[i];
  }
  const std::vector<double> want_gi = as_doubles(ref_pool_backward(g, as_type<T>(go), ridx));
  Plan bp;
  ASSERT_EQ(
      unpool::plan_fractional_max_pool_backward(dims, in, plan.output, c.dtype, c.itype, &bp, &err),
      Status::kOk)
      << err;
  for (int64_t step : {planes, int64_t{3}}) {
    for (int64_t b = 0; b < planes; b += step) {
      const int64_t e = std::min(planes, b + step), n = e - b;
      Values gov(c.dtype, part(go, b * out_plane, n * out_plane)),
          gi(c.dtype, static_cast<size_t>(n * in_plane), 4.0);
      Indices idx(c.itype, part(ridx, b * out_plane, n * out_plane));
      const PlaneRange range = step == planes ? PlaneRange{} : PlaneRange{b, e};
      ASSERT_EQ(unpool::run_max_pool_backward(bp, range, gov.data(), idx.data(), gi.data(), &err),
                Status::kOk)
          << err;
      ASSERT_EQ(diff_values(gi, part(want_gi, b * in_plane, n * in_plane)), "")
          << "grad_input planes " << b << ".." << e;
    }
  }
}

// Every case in one test: each test is a process start in the em++ suite.
TEST(FractionalSweep, MatchesTheReference) {
  for (const WindowCase& c : window_cases(2)) {
    SCOPED_TRACE(std::to_string(c.dims) + "d" + (c.batched ? " batched" : " unbatched") +
                 (c.dtype == DType::kFloat32 ? " float32" : " float64") +
                 (c.itype == IndexType::kInt32 ? " int32" : " int64"));
    const Config* configs = c.dims == 2 ? k2d : k3d;
    const int n = c.dims == 2 ? static_cast<int>(sizeof(k2d) / sizeof(k2d[0]))
                              : static_cast<int>(sizeof(k3d) / sizeof(k3d[0]));
    for (int i = 0; i < n; ++i) {
      if (c.dtype == DType::kFloat32) check_case<float>(c, configs[i], i);
      else check_case<double>(c, configs[i], i);
      if (HasFatalFailure()) return;
    }
  }
}

// Runs a (1, 1, 1, 6) input of 0..5 with kernel (1, 2), outputSize (1, 5)
// and sample `u` for W; returns the indices.
std::vector<int64_t> run_row(DType t, double u) {
  FractionalPoolParams fp;
  fp.dims = 2;
  fp.kernel = size_list({1, 2});
  fp.output_size = size_list({1, 5});
  Plan plan;
  std::string err;
  EXPECT_EQ(unpool::plan_fractional_max_pool(fp, make_shape({1, 1, 1, 6}), make_shape({1, 1, 2}), t,
                                             IndexType::kInt64, &plan, &err),
            Status::kOk)
      << err;
  Values x(t, {0, 1, 2, 3, 4, 5}), uv(t, {u, 0.0}), y(t, 5);
  Indices idx(IndexType::kInt64, 5);
  EXPECT_EQ(
      unpool::run_fractional_max_pool(plan, {}, x.data(), uv.data(), y.data(), idx.data(), &err),
      Status::kOk)
      << err;
  EXPECT_TRUE(y.guards_intact() && idx.guards_intact());
  return read_indices(idx);
}

// alpha = (6 - 2) / (5 - 1) = 1. With u just below 1, float32 rounds i + u
// up to i + 1, so windows 1..3 start one later than in double arithmetic.
TEST(Fractional, WindowsFollowTheValueTypesArithmetic) {
  const double below_one_f = static_cast<double>(std::nextafter(1.0f, 0.0f));
  EXPECT_EQ(run_row(DType::kFloat32, below_one_f), (std::vector<int64_t>{1, 3, 4, 5, 5}));
  EXPECT_EQ(run_row(DType::kFloat64, below_one_f), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  // Double's own value just below 1 rounds i + u up likewise (1 + u is a
  // tie that goes to 2).
  EXPECT_EQ(run_row(DType::kFloat64, std::nextafter(1.0, 0.0)),
            (std::vector<int64_t>{1, 3, 4, 5, 5}));
  // Exactly 1 (PyTorch accepts it): int(i + 1) - int(1) = i, as for 0.
  EXPECT_EQ(run_row(DType::kFloat32, 1.0), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(run_row(DType::kFloat32, 0.0), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  // -0.0 passes the [0, 1] check (-0.0 >= 0) and gives the windows of +0.0,
  // as in PyTorch, which does not check the samples' values.
  EXPECT_EQ(run_row(DType::kFloat32, -0.0), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(run_row(DType::kFloat64, -0.0), (std::vector<int64_t>{1, 2, 3, 4, 5}));
}

// Float32 rounds (i + u) * alpha above in - kernel for inputs of 2^25 and
// more: here the windows of outputs 16777219 and 16777220 would start at
// 33554444 and end one past the input (PyTorch reads past its buffer
// there). Every window must stay inside: with all zeros each index is its
// window's start, at most in - kernel. Needs ~270 MB.
TEST(Fractional, HugeFloat32InputsKeepEveryWindowInside) {
  const int64_t w = 33554445, out = 16777222;
  FractionalPoolParams fp;
  fp.dims = 2;
  fp.kernel = size_list({1, 2});
  fp.output_size = size_list({1, out});
  Plan plan;
  std::string err;
  ASSERT_EQ(unpool::plan_fractional_max_pool(fp, make_shape({1, 1, 1, w}), make_shape({1, 1, 2}),
                                             DType::kFloat32, IndexType::kInt32, &plan, &err),
            Status::kOk)
      << err;
  Values x(DType::kFloat32, static_cast<size_t>(w)), u(DType::kFloat32, {0.0, 0.0}),
      y(DType::kFloat32, static_cast<size_t>(out));
  Indices idx(IndexType::kInt32, static_cast<size_t>(out));
  ASSERT_EQ(
      unpool::run_fractional_max_pool(plan, {}, x.data(), u.data(), y.data(), idx.data(), &err),
      Status::kOk)
      << err;
  EXPECT_TRUE(y.guards_intact() && idx.guards_intact());
  int64_t last = 0;
  for (size_t o = 0; o < static_cast<size_t>(out); ++o) {
    ASSERT_EQ(y.get(o), 0.0) << "output " << o << " read outside the input";
    ASSERT_LE(idx.get(o), w - 2) << "output " << o;
    ASSERT_GE(idx.get(o), last) << "output " << o;
    last = idx.get(o);
  }
  EXPECT_EQ(idx.get(static_cast<size_t>(out - 2)), w - 2);
  EXPECT_EQ(idx.get(static_cast<size_t>(out - 1)), w - 2);
}

}  // namespace
}  // namespace unpool_test
