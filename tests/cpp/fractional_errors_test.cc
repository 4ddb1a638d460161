// Hostile arguments of fractional max pooling and its backward pass: each
// error with its status and exact message, and nothing written by a run
// that fails.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "window_test_util.h"

namespace unpool_test {
namespace {

using unpool::FractionalPoolParams;
using unpool::Plan;
using unpool::SizeArg;
using unpool::Status;

FractionalPoolParams with_size(int dims, SizeArg kernel, SizeArg size) {
  FractionalPoolParams p;
  p.dims = dims;
  p.kernel = kernel;
  p.output_size = size;
  return p;
}

FractionalPoolParams with_ratio(int dims, SizeArg kernel, std::vector<double> ratio,
                                bool list = true) {
  FractionalPoolParams p;
  p.dims = dims;
  p.kernel = kernel;
  p.ratio_count = static_cast<int32_t>(ratio.size());
  p.ratio_list = list;
  for (size_t i = 0; i < ratio.size() && i < 3; ++i) p.output_ratio[i] = ratio[i];
  return p;
}

struct Outcome {
  Status status;
  std::string message;
  Shape output;
};

// Plans x of `shape` with samples of the shape the input asks for, unless
// `samples` is given.
Outcome plan(const FractionalPoolParams& p, std::vector<int64_t> shape,
             std::vector<int64_t> samples = {}, DType t = DType::kFloat32) {
  if (samples.empty()) {
    const bool batched = static_cast<int>(shape.size()) == p.dims + 2;
    samples = {batched ? shape[0] : 1, shape[batched ? 1 : 0], p.dims};
  }
  Plan plan;
  Outcome o{Status::kOk, "", {}};
  o.status = unpool::plan_fractional_max_pool(p, make_shape(shape), make_shape(samples), t,
                                              IndexType::kInt64, &plan, &o.message);
  o.output = plan.output;
  return o;
}

void expect_error(const Outcome& o, Status s, const std::string& message) {
  EXPECT_EQ(o.status, s) << o.message;
  EXPECT_EQ(o.message, message);
}

void expect_shape(const Outcome& o, std::vector<int64_t> shape) {
  EXPECT_EQ(o.status, Status::kOk) << o.message;
  EXPECT_EQ(shape_vec(o.output), shape);
}

TEST(FractionalErrors, ExactlyOneOfOutputSizeAndRatio) {
  const std::string one = "fractionalMaxPool2d: give exactly one of outputSize and outputRatio";
  FractionalPoolParams both = with_ratio(2, size_scalar(2), {0.5});
  both.output_size = size_scalar(3);
  expect_error(plan(both, {1, 8, 8}), Status::kInvalidArgument, one);
  expect_error(plan(with_size(2, size_scalar(2), SizeArg{}), {1, 8, 8}), Status::kInvalidArgument,
               one);
  // An empty list is given, and then the wrong length.
  expect_error(plan(with_size(3, size_scalar(2), size_list({})), {1, 8, 8, 8}),
               Status::kInvalidArgument, "fractionalMaxPool3d: outputSize is required");
  FractionalPoolParams empty_ratio = with_ratio(2, size_scalar(2), {});
  expect_error(plan(empty_ratio, {1, 8, 8}), Status::kInvalidArgument,
               "fractionalMaxPool2d: outputRatio must have 2 entries, got 0");
  expect_error(plan(with_ratio(2, size_scalar(2), {0.5}), {1, 8, 8}), Status::kInvalidArgument,
               "fractionalMaxPool2d: outputRatio must have 2 entries, got 1");
  expect_error(plan(with_ratio(3, size_scalar(2), {0.5, 0.5}, false), {1, 8, 8, 8}),
               Status::kInvalidArgument,
               "fractionalMaxPool3d: outputRatio must have 3 entries, got 2");
  expect_error(plan(with_size(2, size_scalar(2), size_list({3, 3, 3})), {1, 8, 8}),
               Status::kInvalidArgument,
               "fractionalMaxPool2d: outputSize must have 2 entries, got 3");
  // A scalar applies to every dim.
  expect_shape(plan(with_ratio(2, size_scalar(2), {0.5}, false), {3, 8, 6}), {3, 4, 3});
  expect_shape(plan(with_size(3, size_scalar(1), size_scalar(2)), {2, 1, 4, 5, 6}),
               {2, 1, 2, 2, 2});
}

TEST(FractionalErrors, RatiosOutsideZeroOne) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const struct {
    std::vector<double> ratio;
    const char* message;
  } bad[] = {
      {{0.0, 0.5}, "fractionalMaxPool2d: outputRatio[0]=0 must be in (0, 1)"},
      {{0.5, 1.0}, "fractionalMaxPool2d: outputRatio[1]=1 must be in (0, 1)"},
      {{-0.25, 0.5}, "fractionalMaxPool2d: outputRatio[0]=-0.25 must be in (0, 1)"},
      {{0.5, 1.5}, "fractionalMaxPool2d: outputRatio[1]=1.5 must be in (0, 1)"},
      {{nan, 0.5}, "fractionalMaxPool2d: outputRatio[0]=nan must be in (0, 1)"},
      {{0.5, -std::numeric_limits<double>::infinity()},
       "fractionalMaxPool2d: outputRatio[1]=-inf must be in (0, 1)"},
  };
  for (const auto& b : bad) {
    expect_error(plan(with_ratio(2, size_scalar(1), b.ratio), {1, 8, 8}), Status::kInvalidArgument,
                 b.message);
  }
  expect_error(plan(with_ratio(2, size_scalar(1), {-0.0}, false), {1, 8, 8}),
               Status::kInvalidArgument, "fractionalMaxPool2d: outputRatio=-0 must be in (0, 1)");
  // int(in * ratio) is 0: no output.
  expect_error(plan(with_ratio(2, size_scalar(1), {0.5, 0.5}), {1, 1, 8}), Status::kInvalidShape,
               "fractionalMaxPool2d: outputRatio gives output size 0 in spatial dim 0 (input 1)");
  expect_error(plan(with_ratio(3, size_scalar(1), {0.9, 0.9, 0.1}), {1, 8, 8, 9}),
               Status::kInvalidShape,
               "fractionalMaxPool3d: outputRatio gives output size 0 in spatial dim 2 (input 9)");
  // int(50 * 0.58) is 28 in double arithmetic (50 * 0.58 = 28.999999999999996).
  expect_shape(plan(with_ratio(2, size_scalar(2), {0.58, 0.58}), {1, 50, 50}), {1, 28, 28});
}

TEST(FractionalErrors, Kernels) {
  expect_error(plan(with_size(2, size_scalar(0), size_scalar(2)), {1, 8, 8}),
               Status::kInvalidArgument, "fractionalMaxPool2d: kernelSize=0 must be >= 1");
  expect_error(plan(with_size(2, size_list({2, -1}), size_scalar(2)), {1, 8, 8}),
               Status::kInvalidArgument, "fractionalMaxPool2d: kernelSize[1]=-1 must be >= 1");
  expect_error(plan(with_size(3, SizeArg{}, size_scalar(2)), {1, 8, 8, 8}),
               Status::kInvalidArgument, "fractionalMaxPool3d: kernelSize is required");
  expect_error(plan(with_size(3, size_list({2, 2}), size_scalar(2)), {1, 8, 8, 8}),
               Status::kInvalidArgument,
               "fractionalMaxPool3d: kernelSize must have 3 entries (or 1), got 2");
  expect_error(plan(with_size(2, size_scalar(int64_t{1} << 31), size_scalar(2)), {1, 8, 8}),
               Status::kTooLarge,
               "fractionalMaxPool2d: kernelSize=2147483648 exceeds the limit 2147483647");
  // A one-entry list applies to every dim, as PyTorch's _pair does.
  expect_shape(plan(with_size(2, size_list({3}), size_scalar(2)), {1, 4, 4}), {1, 2, 2});
}

// PyTorch's size rule: out + kernel - 1 <= in in 2d, strictly < in in 3d.
TEST(FractionalErrors, TheTwoSizeRules) {
  expect_shape(plan(with_size(2, size_list({3, 2}), size_list({4, 9})), {1, 6, 10}), {1, 4, 9});
  expect_error(plan(with_size(2, size_list({3, 2}), size_list({4, 10})), {1, 6, 10}),
               Status::kInvalidShape,
               "fractionalMaxPool2d: output size 10 plus kernelSize 2 - 1 in spatial dim 1 must "
               "be at most the input size 10");
  expect_error(plan(with_size(2, size_scalar(1), size_list({7, 1})), {1, 6, 10}),
               Status::kInvalidShape,
               "fractionalMaxPool2d: output size 7 plus kernelSize 1 - 1 in spatial dim 0 must "
               "be at most the input size 6");
  expect_shape(plan(with_size(3, size_scalar(2), size_list({4, 5, 6})), {1, 6, 7, 8}),
               {1, 4, 5, 6});
  expect_error(plan(with_size(3, size_scalar(2), size_list({4, 5, 7})), {1, 6, 7, 8}),
               Status::kInvalidShape,
               "fractionalMaxPool3d: output size 7 plus kernelSize 2 - 1 in spatial dim 2 must "
               "be less than the input size 8");
  // In 3d even kernel 1 needs an output smaller than the input.
  expect_error(plan(with_size(3, size_scalar(1), size_list({3, 3, 3})), {1, 3, 3, 3}),
               Status::kInvalidShape,
               "fractionalMaxPool3d: output size 3 plus kernelSize 1 - 1 in spatial dim 0 must "
               "be less than the input size 3");
  expect_error(plan(with_size(2, size_scalar(9), size_scalar(1)), {1, 8, 8}), Status::kInvalidShape,
               "fractionalMaxPool2d: output size 1 plus kernelSize 9 - 1 in spatial dim 0 must "
               "be at most the input size 8");
}

TEST(FractionalErrors, SampleShapes) {
  const FractionalPoolParams p = with_size(2, size_scalar(2), size_scalar(3));
  expect_error(plan(p, {2, 3, 8, 8}, {2, 3}), Status::kInvalidShape,
               "fractionalMaxPool2d: randomSamples shape [2, 3] does not match the expected "
               "[2, 3, 2]");
  expect_error(plan(p, {2, 3, 8, 8}, {1, 3, 2}), Status::kInvalidShape,
               "fractionalMaxPool2d: randomSamples shape [1, 3, 2] does not match the expected "
               "[2, 3, 2]");
  expect_error(plan(p, {2, 3, 8, 8}, {2, 2, 2}), Status::kInvalidShape,
               "fractionalMaxPool2d: randomSamples shape [2, 2, 2] does not match the expected "
               "[2, 3, 2]");
  expect_error(plan(p, {2, 3, 8, 8}, {2, 3, 3}), Status::kInvalidShape,
               "fractionalMaxPool2d: randomSamples shape [2, 3, 3] does not match the expected "
               "[2, 3, 2]");
  expect_error(plan(p, {3, 8, 8}, {3, 2}), Status::kInvalidShape,
               "fractionalMaxPool2d: randomSamples shape [3, 2] does not match the expected "
               "[1, 3, 2]");
  expect_error(plan(p, {3, 8, 8}, {1, 1, 3, 2}), Status::kInvalidShape,
               "fractionalMaxPool2d: randomSamples shape [1, 1, 3, 2] does not match the "
               "expected [1, 3, 2]");
  expect_shape(plan(p, {3, 8, 8}, {1, 3, 2}), {3, 3, 3});
  expect_shape(plan(p, {0, 3, 8, 8}, {0, 3, 2}), {0, 3, 3, 3});
}

TEST(FractionalErrors, DimsRanksAndTypes) {
  const FractionalPoolParams p1 = with_size(1, size_scalar(2), size_scalar(3));
  expect_error(plan(p1, {1, 8}, {1, 1, 1}), Status::kInvalidArgument,
               "fractionalMaxPool1d: dims=1 must be 2 or 3");
  expect_error(plan(with_size(4, size_scalar(2), size_scalar(3)), {1, 8}, {1, 1, 1}),
               Status::kInvalidArgument, "fractionalMaxPool: dims=4 must be 2 or 3");
  const FractionalPoolParams p = with_size(2, size_scalar(2), size_scalar(3));
  expect_error(plan(p, {8, 8}, {1, 1, 2}), Status::kInvalidShape,
               "fractionalMaxPool2d: x must have rank 3 (C, H, W) or 4 (N, C, H, W), got rank 2 "
               "[8, 8]");
  expect_error(plan(p, {1, 0, 8, 8}, {1, 0, 2}), Status::kInvalidShape,
               "fractionalMaxPool2d: x shape [1, 0, 8, 8] has an empty dimension 1 (only the "
               "batch dimension may be 0)");
  expect_error(plan(p, {1, 8, 0}, {1, 1, 2}), Status::kInvalidShape,
               "fractionalMaxPool2d: x shape [1, 8, 0] has an empty dimension 2 (only the batch "
               "dimension may be 0)");
  expect_error(plan(p, {1, 8, 8}, {}, static_cast<DType>(9)), Status::kInvalidArgument,
               "fractionalMaxPool2d: dtype=9 is not float32, float64, float16, bfloat16, uint8, "
               "int8, int16, int32 or int64");
  // 16-bit values are not taken (yet): the forward and the backward say so.
  for (DType t : {DType::kFloat16, DType::kBFloat16}) {
    const std::string name = unpool::dtype_name(t);
    expect_error(plan(p, {1, 8, 8}, {}, t), Status::kInvalidArgument,
                 "fractionalMaxPool2d: dtype " + name +
                     " is not supported: fractional max pooling takes float32 or float64 values");
    Plan bp;
    std::string message;
    EXPECT_EQ(
        unpool::plan_fractional_max_pool_backward(2, make_shape({1, 8, 8}), make_shape({1, 4, 4}),
                                                  t, IndexType::kInt64, &bp, &message),
        Status::kInvalidArgument);
    EXPECT_EQ(message, "fractionalMaxPool2dBackward: dtype " + name +
                           " is not supported: fractional max pooling takes float32 or float64 "
                           "values");
  }
}

// Samples outside [0, 1] (NaN included) fail the run before it writes.
TEST(FractionalErrors, SampleValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (DType t : {DType::kFloat32, DType::kFloat64}) {
    Plan pl;
    std::string err;
    ASSERT_EQ(unpool::plan_fractional_max_pool(with_size(2, size_scalar(2), size_scalar(3)),
                                               make_shape({2, 2, 6, 6}), make_shape({2, 2, 2}), t,
                                               IndexType::kInt32, &pl, &err),
              Status::kOk)
        << err;
    const bool f32 = t == DType::kFloat32;
    const struct {
      double u;
      std::string shown;
    } bad[] = {{nan, "nan"},
               {-1e-300, f32 ? "-0" : "-1e-300"},
               {-0.5, "-0.5"},
               {std::nextafter(1.0, 2.0), f32 ? "1" : "1.0000000000000002"},
               {1.0000001, f32 ? "1.00000012" : "1.0000001000000001"},
               {std::numeric_limits<double>::infinity(), "inf"}};
    Values good(t, {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.0, 1.0});
    EXPECT_EQ(unpool::check_indices(pl, good.data(), &err), Status::kOk) << err;
    for (const auto& b : bad) {
      std::vector<double> u = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};
      u[5] = b.u;
      Values x(t, seeded_values(144, 1)), uv(t, u), y(t, 36, 8.0);
      Indices idx(IndexType::kInt32, 36);
      const Status s =
          unpool::run_fractional_max_pool(pl, {}, x.data(), uv.data(), y.data(), idx.data(), &err);
      // float32 rounds -1e-300 to -0 and 1 + 2^-52 to 1: both valid there.
      if (f32 && (b.shown == "-0" || b.shown == "1")) {
        EXPECT_EQ(s, Status::kOk) << err;
        continue;
      }
      EXPECT_EQ(s, Status::kInvalidArgument);
      EXPECT_EQ(err, "fractionalMaxPool2d: randomSamples[5]=" + b.shown + " is outside [0, 1]");
      EXPECT_EQ(diff_values(y, std::vector<double>(36, 8.0)), "");
      EXPECT_EQ(diff_indices(idx, std::vector<int64_t>(36, 0x5a5a5a5a)), "");
      // check_indices gives the same before a streamed run.
      err.clear();
      EXPECT_EQ(unpool::check_indices(pl, uv.data(), &err), Status::kInvalidArgument);
      EXPECT_EQ(err, "fractionalMaxPool2d: randomSamples[5]=" + b.shown + " is outside [0, 1]");
    }
    // On a range the position counts from the tensor's start: planes
    // [2, 4) hold samples 4..7.
    Values x(t, seeded_values(72, 1)), uv(t, {0.1, nan, 0.3, 0.4}), y(t, 18, 8.0);
    Indices idx(IndexType::kInt32, 18);
    EXPECT_EQ(unpool::run_fractional_max_pool(pl, {2, 4}, x.data(), uv.data(), y.data(), idx.data(),
                                              &err),
              Status::kInvalidArgument);
    EXPECT_EQ(err, "fractionalMaxPool2d: randomSamples[5]=nan is outside [0, 1]");
    EXPECT_EQ(diff_values(y, std::vector<double>(18, 8.0)), "");
  }
}

TEST(FractionalErrors, PlansOfOtherOpsAndTheBackward) {
  Plan fp, ap;
  std::string err;
  ASSERT_EQ(unpool::plan_fractional_max_pool(with_size(2, size_scalar(2), size_scalar(3)),
                                             make_shape({2, 6, 6}), make_shape({1, 2, 2}),
                                             DType::kFloat32, IndexType::kInt32, &fp, &err),
            Status::kOk)
      << err;
  EXPECT_EQ(unpool::run_adaptive_max_pool(fp, {}, nullptr, nullptr, nullptr, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "fractionalMaxPool2d: a plan of fractionalMaxPool cannot run as adaptiveMaxPool");
  EXPECT_EQ(unpool::run_max_pool_backward(fp, {}, nullptr, nullptr, nullptr, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "fractionalMaxPool2d: a plan of fractionalMaxPool cannot run as maxPoolBackward");
  EXPECT_EQ(unpool::run_fractional_max_pool(fp, {1, 3}, nullptr, nullptr, nullptr, nullptr, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "fractionalMaxPool2d: planes [1, 3) is not a range of the 2 (n, c) planes of x");
  unpool::AdaptivePoolParams a;
  a.dims = 2;
  a.output_size = size_scalar(2);
  ASSERT_EQ(unpool::plan_adaptive_max_pool(a, make_shape({2, 6, 6}), DType::kFloat32,
                                           IndexType::kInt32, &ap, &err),
            Status::kOk)
      << err;
  EXPECT_EQ(unpool::run_fractional_max_pool(ap, {}, nullptr, nullptr, nullptr, nullptr, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "adaptiveMaxPool2d: a plan of adaptiveMaxPool cannot run as fractionalMaxPool");

  Plan bp;
  EXPECT_EQ(
      unpool::plan_fractional_max_pool_backward(1, make_shape({2, 6}), make_shape({2, 3}),
                                                DType::kFloat32, IndexType::kInt32, &bp, &err),
      Status::kInvalidArgument);
  EXPECT_EQ(err, "fractionalMaxPool1dBackward: dims=1 must be 2 or 3");
  EXPECT_EQ(unpool::plan_fractional_max_pool_backward(3, make_shape({2, 6, 6, 6}),
                                                      make_shape({3, 3, 3, 3}), DType::kFloat32,
                                                      IndexType::kInt32, &bp, &err),
            Status::kInvalidShape);
  EXPECT_EQ(err,
            "fractionalMaxPool3dBackward: inputShape [2, 6, 6, 6] and gradOutput "
            "[3, 3, 3, 3] must have the same rank and the same N and C");
  ASSERT_EQ(
      unpool::plan_fractional_max_pool_backward(2, make_shape({2, 3, 3}), make_shape({2, 2, 2}),
                                                DType::kFloat64, IndexType::kInt32, &bp, &err),
      Status::kOk)
      << err;
  Values go(DType::kFloat64, 8, 1.0), gi(DType::kFloat64, 18, -4.0);
  Indices idx(IndexType::kInt32, {0, 1, 3, 4, 8, 7, 9, 2});
  EXPECT_EQ(unpool::run_max_pool_backward(bp, {}, go.data(), idx.data(), gi.data(), &err),
            Status::kInvalidIndex);
  EXPECT_EQ(err,
            "fractionalMaxPool2dBackward: indices[6]=9 is out of range for input plane 3x3 "
            "(9 elements)");
  EXPECT_EQ(diff_values(gi, std::vector<double>(18, -4.0)), "");
}

// A plan is plain data: one whose dtype was changed by hand to a type
// fractional pooling does not take is an error when run (fuzz_adaptive found
// that it ran, wrote nothing and reported success), with nothing written.
TEST(FractionalErrors, APlanWhoseDtypeWasChangedByHand) {
  Plan fp;
  std::string err;
  ASSERT_EQ(unpool::plan_fractional_max_pool(with_size(2, size_scalar(2), size_scalar(2)),
                                             make_shape({1, 4, 4}), make_shape({1, 1, 2}),
                                             DType::kFloat32, IndexType::kInt64, &fp, &err),
            Status::kOk)
      << err;
  for (DType t : {DType::kUint8, DType::kInt32, DType::kInt64, DType::kFloat16}) {
    Plan p = fp;
    p.dtype = t;
    std::vector<int64_t> x(16, 1), samples(2, 0), y(4, -3), idx(4, -3);
    EXPECT_EQ(unpool::run_fractional_max_pool(p, {}, x.data(), samples.data(), y.data(), idx.data(),
                                              &err),
              Status::kInvalidArgument);
    EXPECT_EQ(err, std::string("fractionalMaxPool2d: dtype ") + unpool::dtype_name(t) +
                       " is not supported: fractional max pooling takes float32 or float64 values");
    EXPECT_EQ(y, std::vector<int64_t>(4, -3));
    EXPECT_EQ(idx, std::vector<int64_t>(4, -3));
  }
}

}  // namespace
}  // namespace unpool_test
