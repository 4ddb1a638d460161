// Named behaviours of the C++ API: the PyTorch documentation example, the
// divergences from PyTorch, error messages and hostile sizes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

#include "checks.h"
#include "test_util.h"

namespace unpool_test {
namespace {

using unpool::PoolParams;
using unpool::SizeArg;
using unpool::SizeRange;
using unpool::Status;
using unpool::UnpoolParams;

SizeArg scalar(int64_t v) {
  SizeArg a;
  a.count = 1;
  a.values[0] = v;
  return a;
}

SizeArg list(std::initializer_list<int64_t> v) {
  SizeArg a;
  a.list = true;
  a.count = static_cast<int32_t>(v.size());
  int i = 0;
  for (int64_t e : v) {
    if (i < 3) a.values[i] = e;
    ++i;
  }
  return a;
}

PoolParams pool(int dims, int64_t k, int64_t s = 0, int64_t p = 0, int64_t d = 1) {
  PoolParams pp;
  pp.dims = dims;
  pp.kernel = scalar(k);
  if (s) pp.stride = scalar(s);
  pp.padding = scalar(p);
  pp.dilation = scalar(d);
  return pp;
}

UnpoolParams unpool_p(int dims, int64_t k, int64_t s = 0, int64_t p = 0,
                      std::initializer_list<int64_t> out = {}, bool out_given = false) {
  UnpoolParams up;
  up.dims = dims;
  up.kernel = scalar(k);
  if (s) up.stride = scalar(s);
  up.padding = scalar(p);
  if (out_given) {
    up.output_size_count = static_cast<int32_t>(out.size());
    int i = 0;
    for (int64_t e : out) up.output_size[i++] = e;
  }
  return up;
}

std::string pool_shape_error(const PoolParams& p, std::vector<int64_t> shape) {
  Shape out;
  std::string err;
  EXPECT_NE(unpool::max_pool_shape(p, make_shape(shape), &out, &err), Status::kOk);
  return err;
}

std::string unpool_shape_error(const UnpoolParams& p, std::vector<int64_t> shape) {
  Shape out;
  std::string err;
  EXPECT_NE(unpool::max_unpool_shape(p, make_shape(shape), &out, &err), Status::kOk);
  return err;
}

// torch.nn.MaxPool2d(2, stride=2, return_indices=True) / MaxUnpool2d(2, stride=2)
// on 1..16 as a 4x4 image: 6, 8, 14, 16 survive.
TEST(Ops, PyTorchDocumentationExample) {
  std::vector<double> x;
  for (int i = 1; i <= 16; ++i) x.push_back(i);
  for (DType dt : {DType::kFloat32, DType::kFloat64}) {
    for (IndexType it : {IndexType::kInt32, IndexType::kInt64}) {
      const PoolParams pp = pool(2, 2, 2);
      const Shape in = make_shape({1, 1, 4, 4});
      Shape out;
      std::string err;
      ASSERT_EQ(unpool::max_pool_shape(pp, in, &out, &err), Status::kOk) << err;
      EXPECT_EQ(shape_vec(out), (std::vector<int64_t>{1, 1, 2, 2}));
      Values xv(dt, x), y(dt, 4);
      Indices idx(it, 4);
      ASSERT_EQ(unpool::max_pool(pp, in, dt, xv.data(), y.data(), it, idx.data(), &err),
                Status::kOk);
      EXPECT_EQ(diff_values(y, {6, 8, 14, 16}), "");
      EXPECT_EQ(diff_indices(idx, {5, 7, 13, 15}), "");
      const UnpoolParams up = unpool_p(2, 2, 2);
      Shape uout;
      ASSERT_EQ(unpool::max_unpool_shape(up, out, &uout, &err), Status::kOk);
      EXPECT_EQ(shape_vec(uout), (std::vector<int64_t>{1, 1, 4, 4}));
      Values u(dt, 16, -1);
      ASSERT_EQ(unpool::max_unpool(up, out, dt, y.data(), it, idx.data(), u.data(), &err),
                Status::kOk);
      EXPECT_EQ(diff_values(u, {0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 14, 0, 16}), "");
    }
  }
}

TEST(Ops, OutputSizeRangeMessageGivesInclusiveRange) {
  // default (3 - 1) * 2 + 3 - 0 = 7: PyTorch accepts 5 < o < 9.
  EXPECT_EQ(unpool_shape_error(unpool_p(2, 3, 2, 0, {7, 9}, true), {1, 1, 3, 3}),
            "maxUnpool2d: outputSize[1]=9 is outside 6..8 for input 3, kernel 3, stride 2, "
            "padding 0");
  EXPECT_EQ(unpool_shape_error(unpool_p(2, 3, 2, 0, {1, 1, 5, 7}, true), {1, 1, 3, 3}),
            "maxUnpool2d: outputSize[2]=5 is outside 6..8 for input 3, kernel 3, stride 2, "
            "padding 0");
  SizeRange r[2];
  std::string err;
  ASSERT_EQ(unpool::max_unpool_output_range(unpool_p(2, 3, 2), make_shape({1, 1, 2, 2}), r, &err),
            Status::kOk);
  EXPECT_EQ(r[0].min, 4);  // pooled 2x2 from 5x5 with kernel 3, stride 2: 4..6
  EXPECT_EQ(r[0].max, 6);
}

TEST(Ops, UnbatchedOutputSizeMayCarryC) {  // PyTorch issue 68337
  const UnpoolParams up = unpool_p(2, 2, 2, 0, {3, 4, 4}, true);
  Shape out;
  std::string err;
  ASSERT_EQ(unpool::max_unpool_shape(up, make_shape({3, 2, 2}), &out, &err), Status::kOk) << err;
  EXPECT_EQ(shape_vec(out), (std::vector<int64_t>{3, 4, 4}));
  // Batched input still needs dims or dims + 2 entries.
  EXPECT_EQ(unpool_shape_error(up, {1, 3, 2, 2}),
            "maxUnpool2d: outputSize must have 2 or 4 entries, got 3");
}

TEST(Ops, UnpoolRejectsWhatPyTorchWronglyAccepts) {
  EXPECT_EQ(unpool_shape_error(unpool_p(2, 0), {1, 1, 2, 2}),
            "maxUnpool2d: kernelSize=0 must be >= 1");
  EXPECT_EQ(unpool_shape_error(unpool_p(1, 2, -1), {1, 1, 2}),
            "maxUnpool1d: stride=-1 must be >= 1");
  EXPECT_EQ(unpool_shape_error(unpool_p(3, 2, 2, -1), {1, 1, 1, 1, 2}),
            "maxUnpool3d: padding=-1 must be >= 0");
  UnpoolParams up = unpool_p(2, 2);
  up.kernel = list({2});  // PyTorch's _pair([2]) fails in unpool
  EXPECT_EQ(unpool_shape_error(up, {1, 1, 2, 2}),
            "maxUnpool2d: kernelSize must have 2 entries, got 1");
}

TEST(Ops, PoolErrorsNameOpParameterAndValue) {
  EXPECT_EQ(pool_shape_error(pool(2, 3, 1, 2), {1, 1, 8, 8}),
            "maxPool2d: padding=2 must be at most half of kernelSize 3");
  EXPECT_EQ(pool_shape_error(pool(1, 2, 1, 0, -1), {1, 2, 6}),
            "maxPool1d: dilation=-1 must be >= 1");
  EXPECT_EQ(pool_shape_error(pool(1, 2, 1), {1, 1}),
            "maxPool1d: output size 0 in spatial dim 0 is too small (input 1, kernelSize 2, "
            "stride 1, padding 0, dilation 1)");
  EXPECT_EQ(pool_shape_error(pool(2, 2), {1, 0, 4, 4}),
            "maxPool2d: x shape [1, 0, 4, 4] has an empty dimension 1 (only the batch "
            "dimension may be 0)");
  EXPECT_EQ(pool_shape_error(pool(2, 2), {4, 4}),
            "maxPool2d: x must have rank 3 (C, H, W) or 4 (N, C, H, W), got rank 2 [4, 4]");
  PoolParams pp = pool(3, 2);
  pp.kernel = list({2, 2});
  EXPECT_EQ(pool_shape_error(pp, {1, 1, 4, 4, 4}),
            "maxPool3d: kernelSize must have 3 entries (or 1), got 2");
}

TEST(Ops, BatchOfZeroGivesEmptyResult) {
  Shape out;
  std::string err;
  ASSERT_EQ(unpool::max_pool_shape(pool(2, 2), make_shape({0, 3, 4, 4}), &out, &err), Status::kOk);
  EXPECT_EQ(shape_vec(out), (std::vector<int64_t>{0, 3, 2, 2}));
  EXPECT_EQ(unpool::max_pool(pool(2, 2), make_shape({0, 3, 4, 4}), DType::kFloat32, nullptr,
                             nullptr, IndexType::kInt64, nullptr, &err),
            Status::kOk);
}

TEST(Ops, UnpoolIndexOutOfRangeWritesNothing) {
  const UnpoolParams up = unpool_p(2, 2, 2);
  const Shape in = make_shape({1, 2, 2, 2});
  Values x(DType::kFloat32, {1, 2, 3, 4, 5, 6, 7, 8});
  Indices idx(IndexType::kInt64, {0, 3, 8, 15, 0, 1, 2, 16});
  Values y(DType::kFloat32, 32, -3.0);
  std::string err;
  EXPECT_EQ(unpool::max_unpool(up, in, DType::kFloat32, x.data(), IndexType::kInt64, idx.data(),
                               y.data(), &err),
            Status::kInvalidIndex);
  EXPECT_EQ(err, "maxUnpool2d: indices[7]=16 is out of range for output plane 4x4 (16 elements)");
  for (size_t i = 0; i < 32; ++i) EXPECT_EQ(y.get(i), -3.0) << "validation must precede writes";
  EXPECT_TRUE(y.guards_intact());
  Indices neg(IndexType::kInt32, {0, -1, 8, 15, 0, 1, 2, 3});
  EXPECT_EQ(unpool::max_unpool(up, in, DType::kFloat32, x.data(), IndexType::kInt32, neg.data(),
                               y.data(), &err),
            Status::kInvalidIndex);
  EXPECT_EQ(err, "maxUnpool2d: indices[1]=-1 is out of range for output plane 4x4 (16 elements)");
}

// The window of output 0 covers input rows -1 and 2 of a 2x2 plane: all
// padding. PyTorch returns -inf with index 6 and its backward writes there.
TEST(Ops, WindowWhollyInPaddingNeverWritesOutOfBounds) {
  const PoolParams pp = pool(2, 2, 1, 1, 3);
  const Shape in = make_shape({2, 1, 2, 2});  // two planes: a write past plane 0 lands in 1
  Shape out;
  std::string err;
  ASSERT_EQ(unpool::max_pool_shape(pp, in, &out, &err), Status::kOk);
  Values x(DType::kFloat64, {1, 2, 3, 4, 5, 6, 7, 8}), y(DType::kFloat64, 2);
  Indices idx(IndexType::kInt64, 2);
  ASSERT_EQ(unpool::max_pool(pp, in, DType::kFloat64, x.data(), y.data(), IndexType::kInt64,
                             idx.data(), &err),
            Status::kOk);
  EXPECT_EQ(diff_indices(idx, {6, 6}), "");
  EXPECT_EQ(y.get(0), -std::numeric_limits<double>::infinity());
  Values go(DType::kFloat64, {10, 20}), gi(DType::kFloat64, 8, -1);
  ASSERT_EQ(unpool::max_pool_backward(pp, in, out, DType::kFloat64, go.data(), IndexType::kInt64,
                                      idx.data(), gi.data(), &err),
            Status::kOk)
      << err;
  EXPECT_EQ(diff_values(gi, {0, 0, 0, 0, 0, 0, 0, 0}), "");
  // Without the geometry the backward cannot tell: index 6 is an error.
  PoolParams plain;
  plain.dims = 2;
  EXPECT_EQ(unpool::max_pool_backward(plain, in, out, DType::kFloat64, go.data(), IndexType::kInt64,
                                      idx.data(), gi.data(), &err),
            Status::kInvalidIndex);
  EXPECT_EQ(err,
            "maxPool2dBackward: indices[0]=6 is out of range for input plane 2x2 (4 elements)");
}

TEST(Ops, BackwardChecksShapes) {
  const PoolParams pp = pool(2, 2);
  Values go(DType::kFloat32, 9), gi(DType::kFloat32, 16);
  Indices idx(IndexType::kInt32, 9);
  std::string err;
  EXPECT_EQ(unpool::max_pool_backward(pp, make_shape({1, 1, 4, 4}), make_shape({1, 1, 3, 3}),
                                      DType::kFloat32, go.data(), IndexType::kInt32, idx.data(),
                                      gi.data(), &err),
            Status::kInvalidShape);
  EXPECT_EQ(err,
            "maxPool2dBackward: gradOutput shape [1, 1, 3, 3] does not match the expected "
            "[1, 1, 2, 2]");
  EXPECT_EQ(unpool::max_unpool_backward(2, unpool::Layout::kChannelsFirst, make_shape({1, 2, 4, 4}),
                                        make_shape({1, 1, 2, 2}), DType::kFloat32, go.data(),
                                        IndexType::kInt32, idx.data(), gi.data(), &err),
            Status::kInvalidShape);
}

TEST(Ops, HostileSizesFailCleanly) {
  std::string err;
  Shape out;
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(unpool::max_pool_shape(pool(2, big), make_shape({1, 1, 4, 4}), &out, &err),
            Status::kTooLarge);
  EXPECT_EQ(unpool::max_pool_shape(pool(2, 2), make_shape({1, 1, -4, 4}), &out, &err),
            Status::kInvalidShape);
  // 2^31-1 per dim is accepted per dim, but the product must stay addressable.
  const int64_t m = (int64_t{1} << 31) - 1;
  EXPECT_EQ(unpool::max_pool_shape(pool(3, 1), make_shape({m, m, m, m, m}), &out, &err),
            Status::kTooLarge);
  EXPECT_EQ(unpool::max_unpool_shape(unpool_p(3, 1, m), make_shape({1, 1, m, m, 2}), &out, &err),
            Status::kTooLarge);
  // int32 indices address a plane of 2^31 elements (offsets up to 2^31 - 1),
  // not one element more.
  const PoolParams pp = pool(2, 1);
  EXPECT_EQ(unpool::max_pool(pp, make_shape({0, 1, 65536, 32768}), DType::kFloat32, nullptr,
                             nullptr, IndexType::kInt32, nullptr, &err),
            Status::kOk)
      << err;
  EXPECT_EQ(unpool::max_pool(pp, make_shape({0, 1, 2, 1073741825}), DType::kFloat32, nullptr,
                             nullptr, IndexType::kInt32, nullptr, &err),
            Status::kTooLarge);
  EXPECT_EQ(err, "maxPool2d: indexType int32 cannot hold offsets up to 2147483649; use int64");
  SizeRange r[2];
  EXPECT_EQ(unpool::max_unpool_output_range(unpool_p(2, 2), make_shape({1, 1, 0, 2}), r, &err),
            Status::kInvalidShape);
  EXPECT_EQ(err,
            "maxUnpool2dOutputRange: inputShape=[1, 1, 0, 2] has an empty dimension 2 (only "
            "the batch dimension may be 0)");
  PoolParams bad_dims = pool(4, 2);
  EXPECT_EQ(unpool::max_pool_shape(bad_dims, make_shape({1, 1, 2, 2}), &out, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "maxPool: dims=4 must be 1, 2 or 3");
}

// Numbers in messages are written without printf (it would be a tenth of
// the WebAssembly module), exactly as printf's %.9g and %.17g write them.
TEST(Messages, NumbersAsPrintfWritesThem) {
  std::mt19937_64 rng(7);
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                1.5,
                                -0.25,
                                0.1,
                                1e-5,
                                1e-4,
                                123456789.0,
                                1234567890123.0,
                                5e-324,
                                2.2250738585072014e-308,
                                1.7976931348623157e308,
                                9.5,
                                0.5,
                                2.5,
                                99999999.5,
                                0.999999999999,
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::quiet_NaN()};
  for (int i = 0; i < 20000; ++i) {
    uint64_t b = rng();
    double v;
    std::memcpy(&v, &b, sizeof(v));
    values.push_back(v);
    values.push_back(static_cast<double>(static_cast<float>(v)));
    values.push_back(static_cast<double>(static_cast<int64_t>(b % 2000001) - 1000000) / 1024.0);
  }
  for (double v : values) {
    for (int p : {9, 17, 1, 3}) {
      char want[64];
      std::snprintf(want, sizeof(want), "%.*g", p, v);
      ASSERT_EQ(unpool::internal::format_g(v, p), std::string(want)) << p;
    }
  }
}

}  // namespace
}  // namespace unpool_test
