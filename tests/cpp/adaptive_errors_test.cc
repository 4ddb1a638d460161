// Hostile arguments of adaptive max pooling and its backward pass: each
// error with its status and exact message, and nothing written by a run
// that fails.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "window_test_util.h"

namespace unpool_test {
namespace {

using unpool::AdaptivePoolParams;
using unpool::Layout;
using unpool::Plan;
using unpool::SizeArg;
using unpool::Status;

AdaptivePoolParams adaptive(int dims, SizeArg size, Layout layout = Layout::kChannelsFirst) {
  AdaptivePoolParams p;
  p.dims = dims;
  p.output_size = size;
  p.layout = layout;
  return p;
}

struct Outcome {
  Status status;
  std::string message;
  Shape output;
};

Outcome plan(const AdaptivePoolParams& p, std::vector<int64_t> shape, DType t = DType::kFloat32,
             IndexType it = IndexType::kInt64) {
  Plan plan;
  Outcome o{Status::kOk, "", {}};
  o.status = unpool::plan_adaptive_max_pool(p, make_shape(shape), t, it, &plan, &o.message);
  o.output = plan.output;
  return o;
}

void expect_error(const Outcome& o, Status s, const std::string& message) {
  EXPECT_EQ(o.status, s) << o.message;
  EXPECT_EQ(o.message, message);
}

TEST(AdaptiveErrors, OutputSizeOfTheWrongLength) {
  expect_error(plan(adaptive(2, size_list({3})), {1, 4, 4}), Status::kInvalidArgument,
               "adaptiveMaxPool2d: outputSize must have 2 entries, got 1");
  expect_error(plan(adaptive(2, size_list({3, 3, 3})), {1, 4, 4}), Status::kInvalidArgument,
               "adaptiveMaxPool2d: outputSize must have 2 entries, got 3");
  expect_error(plan(adaptive(3, size_list({})), {1, 4, 4, 4}), Status::kInvalidArgument,
               "adaptiveMaxPool3d: outputSize is required");
  expect_error(plan(adaptive(1, SizeArg{}), {1, 4}), Status::kInvalidArgument,
               "adaptiveMaxPool1d: outputSize is required");
  SizeArg two_scalars = size_scalar(2);  // count 2 without `list`: not one per dim of 3
  two_scalars.count = 2;
  expect_error(plan(adaptive(3, two_scalars), {1, 4, 4, 4}), Status::kInvalidArgument,
               "adaptiveMaxPool3d: outputSize must have 3 entries, got 2");
  SizeArg negative_count = size_scalar(2);
  negative_count.count = -1;
  expect_error(plan(adaptive(2, negative_count), {1, 4, 4}), Status::kInvalidArgument,
               "adaptiveMaxPool2d: outputSize must have 2 entries, got -1");
}

// PyTorch returns an empty tensor for an outputSize of 0; unpool rejects it
// like a negative size.
TEST(AdaptiveErrors, OutputSizeZeroNegativeAndHuge) {
  expect_error(plan(adaptive(2, size_scalar(0)), {1, 4, 4}), Status::kInvalidArgument,
               "adaptiveMaxPool2d: outputSize=0 must be >= 1");
  expect_error(plan(adaptive(2, size_list({2, 0})), {1, 4, 4}), Status::kInvalidArgument,
               "adaptiveMaxPool2d: outputSize[1]=0 must be >= 1");
  expect_error(plan(adaptive(1, size_list({-3})), {1, 4}), Status::kInvalidArgument,
               "adaptiveMaxPool1d: outputSize=-3 must be >= 1");
  expect_error(plan(adaptive(3, size_list({2, 2, INT64_MIN})), {1, 4, 4, 4}),
               Status::kInvalidArgument,
               "adaptiveMaxPool3d: outputSize[2]=-9223372036854775808 must be >= 1");
  expect_error(plan(adaptive(2, size_scalar(int64_t{1} << 31)), {1, 4, 4}), Status::kTooLarge,
               "adaptiveMaxPool2d: outputSize=2147483648 exceeds the limit 2147483647");
  expect_error(plan(adaptive(2, size_list({1, INT64_MAX})), {1, 4, 4}), Status::kTooLarge,
               "adaptiveMaxPool2d: outputSize[1]=9223372036854775807 exceeds the limit "
               "2147483647");
  // Every entry at the limit: the output plane is not addressable.
  expect_error(plan(adaptive(3, size_scalar((int64_t{1} << 31) - 1)), {1, 4, 4, 4}),
               Status::kTooLarge,
               "adaptiveMaxPool3d: output shape [1, 2147483647, 2147483647, 2147483647] has more "
               "elements than 64-bit offsets can address");
  // At the limit in one dim it plans (no buffer is needed to plan).
  const Outcome big = plan(adaptive(1, size_scalar((int64_t{1} << 31) - 1)), {2, 3, 4});
  EXPECT_EQ(big.status, Status::kOk) << big.message;
  EXPECT_EQ(shape_vec(big.output), (std::vector<int64_t>{2, 3, 2147483647}));
}

// keep[i] (PyTorch's None) takes the input's size for entry i of a list,
// whatever the entry holds; a scalar outputSize has no entries to keep.
TEST(AdaptiveErrors, KeepFlags) {
  AdaptivePoolParams p = adaptive(2, size_list({3, -7}));
  p.keep[1] = true;
  Outcome o = plan(p, {2, 5, 6});
  EXPECT_EQ(o.status, Status::kOk) << o.message;
  EXPECT_EQ(shape_vec(o.output), (std::vector<int64_t>{2, 3, 6}));
  p = adaptive(3, size_list({0, 0, int64_t{1} << 40}));
  p.keep[0] = p.keep[1] = p.keep[2] = true;
  o = plan(p, {1, 2, 3, 4, 5});
  EXPECT_EQ(o.status, Status::kOk) << o.message;
  EXPECT_EQ(shape_vec(o.output), (std::vector<int64_t>{1, 2, 3, 4, 5}));
  // An entry that is not kept is still checked.
  p = adaptive(2, size_list({0, 4}));
  p.keep[1] = true;
  expect_error(plan(p, {1, 4, 4}), Status::kInvalidArgument,
               "adaptiveMaxPool2d: outputSize[0]=0 must be >= 1");
  // keep with the wrong number of entries is still the wrong number.
  p = adaptive(2, size_list({4}));
  p.keep[0] = true;
  expect_error(plan(p, {1, 4, 4}), Status::kInvalidArgument,
               "adaptiveMaxPool2d: outputSize must have 2 entries, got 1");
  p = adaptive(2, size_scalar(2));
  p.keep[0] = true;
  o = plan(p, {1, 6, 6});
  EXPECT_EQ(o.status, Status::kOk) << o.message;
  EXPECT_EQ(shape_vec(o.output), (std::vector<int64_t>{1, 2, 2}));
  // Keeping every dim is the identity: every element is its own window.
  p = adaptive(2, size_list({0, 0}));
  p.keep[0] = p.keep[1] = true;
  Plan pl;
  std::string err;
  ASSERT_EQ(unpool::plan_adaptive_max_pool(p, make_shape({2, 2, 3}), DType::kFloat32,
                                           IndexType::kInt32, &pl, &err),
            Status::kOk)
      << err;
  Values x(DType::kFloat32, seeded_values(12, 5)), y(DType::kFloat32, 12);
  Indices idx(IndexType::kInt32, 12);
  ASSERT_EQ(unpool::run_adaptive_max_pool(pl, {}, x.data(), y.data(), idx.data(), &err),
            Status::kOk)
      << err;
  EXPECT_EQ(diff_values(y, read_values(x)), "");
  EXPECT_EQ(diff_indices(idx, {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}), "");
}

TEST(AdaptiveErrors, RanksDimsLayoutsAndTypes) {
  expect_error(plan(adaptive(2, size_scalar(2)), {4, 4}), Status::kInvalidShape,
               "adaptiveMaxPool2d: x must have rank 3 (C, H, W) or 4 (N, C, H, W), got rank 2 "
               "[4, 4]");
  expect_error(plan(adaptive(1, size_scalar(2)), {1, 2, 3, 4}), Status::kInvalidShape,
               "adaptiveMaxPool1d: x must have rank 2 (C, L) or 3 (N, C, L), got rank 4 "
               "[1, 2, 3, 4]");
  expect_error(plan(adaptive(3, size_scalar(2), Layout::kChannelsLast), {4, 4, 4}),
               Status::kInvalidShape,
               "adaptiveMaxPool3d: x must have rank 4 (D, H, W, C) or 5 (N, D, H, W, C), got "
               "rank 3 [4, 4, 4]");
  expect_error(plan(adaptive(0, size_scalar(2)), {1, 4}), Status::kInvalidArgument,
               "adaptiveMaxPool: dims=0 must be 1, 2 or 3");
  expect_error(plan(adaptive(4, size_scalar(2)), {1, 4}), Status::kInvalidArgument,
               "adaptiveMaxPool: dims=4 must be 1, 2 or 3");
  expect_error(plan(adaptive(2, size_scalar(2), static_cast<Layout>(2)), {1, 4, 4}),
               Status::kInvalidArgument,
               "adaptiveMaxPool2d: layout=2 is not channels-first (0) or channels-last (1)");
  expect_error(plan(adaptive(2, size_scalar(2)), {1, 4, 4}, static_cast<DType>(9)),
               Status::kInvalidArgument,
               "adaptiveMaxPool2d: dtype=9 is not float32, float64, float16, bfloat16, uint8, "
               "int8, int16, int32 or int64");
  expect_error(
      plan(adaptive(2, size_scalar(2)), {1, 4, 4}, DType::kFloat64, static_cast<IndexType>(-1)),
      Status::kInvalidArgument, "adaptiveMaxPool2d: indexType=-1 is not int32 or int64");
  // A plane of 2^32 + 65536 elements needs int64 indices.
  expect_error(
      plan(adaptive(2, size_scalar(2)), {1, 65536, 65537}, DType::kFloat32, IndexType::kInt32),
      Status::kTooLarge,
      "adaptiveMaxPool2d: indexType int32 cannot hold offsets up to 4295032831; use "
      "int64");
}

TEST(AdaptiveErrors, EmptyAndHugeDims) {
  expect_error(plan(adaptive(2, size_scalar(2)), {1, 0, 4, 4}), Status::kInvalidShape,
               "adaptiveMaxPool2d: x shape [1, 0, 4, 4] has an empty dimension 1 (only the "
               "batch dimension may be 0)");
  expect_error(plan(adaptive(2, size_scalar(2)), {0, 4, 4}), Status::kInvalidShape,
               "adaptiveMaxPool2d: x shape [0, 4, 4] has an empty dimension 0 (only the batch "
               "dimension may be 0)");
  expect_error(plan(adaptive(1, size_scalar(2)), {2, 3, 0}), Status::kInvalidShape,
               "adaptiveMaxPool1d: x shape [2, 3, 0] has an empty dimension 2 (only the batch "
               "dimension may be 0)");
  expect_error(plan(adaptive(1, size_scalar(2)), {2, -3, 4}), Status::kInvalidShape,
               "adaptiveMaxPool1d: x shape [2, -3, 4] has dimension 1 = -3 outside "
               "0..2147483647");
  expect_error(plan(adaptive(1, size_scalar(2)), {2, 3, int64_t{1} << 31}), Status::kTooLarge,
               "adaptiveMaxPool1d: x shape [2, 3, 2147483648] has dimension 2 = 2147483648 "
               "outside 0..2147483647");
  // An empty batch plans and runs without touching anything.
  Plan p;
  std::string err;
  ASSERT_EQ(unpool::plan_adaptive_max_pool(adaptive(2, size_list({3, 2})), make_shape({0, 2, 5, 5}),
                                           DType::kFloat32, IndexType::kInt32, &p, &err),
            Status::kOk)
      << err;
  EXPECT_EQ(shape_vec(p.output), (std::vector<int64_t>{0, 2, 3, 2}));
  Values y(DType::kFloat32, 0);
  Indices idx(IndexType::kInt32, 0);
  EXPECT_EQ(unpool::run_adaptive_max_pool(p, {}, nullptr, y.data(), idx.data(), &err), Status::kOk)
      << err;
  EXPECT_TRUE(y.guards_intact() && idx.guards_intact());
}

// A plan runs only as its own op, and only on ranges of its planes.
TEST(AdaptiveErrors, PlansOfOtherOpsAndBadRanges) {
  Plan ap, mp, bp;
  std::string err;
  ASSERT_EQ(unpool::plan_adaptive_max_pool(adaptive(2, size_scalar(3)), make_shape({2, 3, 5, 5}),
                                           DType::kFloat32, IndexType::kInt32, &ap, &err),
            Status::kOk)
      << err;
  unpool::PoolParams pp;
  pp.dims = 2;
  pp.kernel = size_scalar(2);
  ASSERT_EQ(unpool::plan_max_pool(pp, make_shape({2, 3, 4, 4}), DType::kFloat32, IndexType::kInt32,
                                  &mp, &err),
            Status::kOk)
      << err;
  ASSERT_EQ(unpool::plan_adaptive_max_pool_backward(
                2, Layout::kChannelsFirst, make_shape({2, 3, 5, 5}), make_shape({2, 3, 3, 3}),
                DType::kFloat32, IndexType::kInt32, &bp, &err),
            Status::kOk)
      << err;
  EXPECT_EQ(unpool::run_adaptive_max_pool(mp, {}, nullptr, nullptr, nullptr, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "maxPool2d: a plan of maxPool cannot run as adaptiveMaxPool");
  EXPECT_EQ(unpool::run_max_pool(ap, {}, nullptr, nullptr, nullptr, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "adaptiveMaxPool2d: a plan of adaptiveMaxPool cannot run as maxPool");
  EXPECT_EQ(unpool::run_fractional_max_pool(ap, {}, nullptr, nullptr, nullptr, nullptr, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "adaptiveMaxPool2d: a plan of adaptiveMaxPool cannot run as fractionalMaxPool");
  EXPECT_EQ(unpool::run_adaptive_max_pool(bp, {}, nullptr, nullptr, nullptr, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(
      err,
      "adaptiveMaxPool2dBackward: a plan of adaptiveMaxPoolBackward cannot run as adaptiveMaxPool");
  EXPECT_EQ(unpool::check_indices(ap, nullptr, &err), Status::kInvalidArgument);
  EXPECT_EQ(err, "adaptiveMaxPool2d: a plan of adaptiveMaxPool has no indices to check");
  EXPECT_EQ(unpool::run_adaptive_max_pool(ap, {5, 7}, nullptr, nullptr, nullptr, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "adaptiveMaxPool2d: planes [5, 7) is not a range of the 6 (n, c) planes of x");
  EXPECT_EQ(unpool::run_adaptive_max_pool(ap, {-1, 2}, nullptr, nullptr, nullptr, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "adaptiveMaxPool2d: planes [-1, 2) is not a range of the 6 (n, c) planes of x");
  // Channels last: only every plane at once, on both paths (3 divides 6).
  for (int64_t out : {3, 4}) {
    ASSERT_EQ(unpool::plan_adaptive_max_pool(adaptive(2, size_scalar(out), Layout::kChannelsLast),
                                             make_shape({2, 6, 6, 3}), DType::kFloat32,
                                             IndexType::kInt32, &ap, &err),
              Status::kOk)
        << err;
    EXPECT_EQ(unpool::run_adaptive_max_pool(ap, {0, 3}, nullptr, nullptr, nullptr, &err),
              Status::kInvalidArgument);
    EXPECT_EQ(err, "adaptiveMaxPool2d: planes [0, 3) needs the channels-first layout");
  }
}

// The backward pass checks every index against the input plane before it
// writes anything.
TEST(AdaptiveErrors, BackwardIndexOutsideThePlaneWritesNothing) {
  Plan p;
  std::string err;
  ASSERT_EQ(unpool::plan_adaptive_max_pool_backward(2, Layout::kChannelsFirst,
                                                    make_shape({2, 4, 4}), make_shape({2, 2, 3}),
                                                    DType::kFloat64, IndexType::kInt64, &p, &err),
            Status::kOk)
      << err;
  Values go(DType::kFloat64, 12, 1.0);
  for (int64_t bad : {int64_t{16}, int64_t{-1}, INT64_MAX}) {
    Indices idx(IndexType::kInt64, {0, 1, 2, 3, 4, 5, 15, 14, 13, 12, 11, bad});
    Values gi(DType::kFloat64, 32, -2.0);
    EXPECT_EQ(unpool::run_max_pool_backward(p, {}, go.data(), idx.data(), gi.data(), &err),
              Status::kInvalidIndex);
    EXPECT_EQ(err, "adaptiveMaxPool2dBackward: indices[11]=" + std::to_string(bad) +
                       " is out of range for input plane 4x4 (16 elements)");
    EXPECT_EQ(diff_values(gi, std::vector<double>(32, -2.0)), "");
  }
  // Channels last: the same check, the position counted in that layout.
  ASSERT_EQ(unpool::plan_adaptive_max_pool_backward(1, Layout::kChannelsLast, make_shape({5, 2}),
                                                    make_shape({2, 2}), DType::kFloat32,
                                                    IndexType::kInt32, &p, &err),
            Status::kOk)
      << err;
  Values go32(DType::kFloat32, 4, 1.0), gi32(DType::kFloat32, 10, -2.0);
  Indices idx32(IndexType::kInt32, {0, 1, 5, 4});
  EXPECT_EQ(unpool::run_max_pool_backward(p, {}, go32.data(), idx32.data(), gi32.data(), &err),
            Status::kInvalidIndex);
  EXPECT_EQ(err,
            "adaptiveMaxPool1dBackward: indices[2]=5 is out of range for input plane 5 "
            "(5 elements)");
  EXPECT_EQ(diff_values(gi32, std::vector<double>(10, -2.0)), "");
}

TEST(AdaptiveErrors, BackwardShapes) {
  Plan p;
  std::string err;
  EXPECT_EQ(unpool::plan_adaptive_max_pool_backward(
                2, Layout::kChannelsFirst, make_shape({1, 2, 4, 4}), make_shape({1, 3, 2, 2}),
                DType::kFloat32, IndexType::kInt32, &p, &err),
            Status::kInvalidShape);
  EXPECT_EQ(err,
            "adaptiveMaxPool2dBackward: inputShape [1, 2, 4, 4] and gradOutput [1, 3, 2, 2] "
            "must have the same rank and the same N and C");
  EXPECT_EQ(unpool::plan_adaptive_max_pool_backward(2, Layout::kChannelsFirst,
                                                    make_shape({2, 4, 4}), make_shape({1, 2, 2, 2}),
                                                    DType::kFloat32, IndexType::kInt32, &p, &err),
            Status::kInvalidShape);
  EXPECT_EQ(err,
            "adaptiveMaxPool2dBackward: inputShape [2, 4, 4] and gradOutput [1, 2, 2, 2] "
            "must have the same rank and the same N and C");
  EXPECT_EQ(unpool::plan_adaptive_max_pool_backward(4, Layout::kChannelsFirst,
                                                    make_shape({2, 4, 4}), make_shape({2, 2, 2}),
                                                    DType::kFloat32, IndexType::kInt32, &p, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "adaptiveMaxPoolBackward: dims=4 must be 1, 2 or 3");
  EXPECT_EQ(unpool::plan_adaptive_max_pool_backward(1, Layout::kChannelsFirst, make_shape({2, 0}),
                                                    make_shape({2, 2}), DType::kFloat32,
                                                    IndexType::kInt32, &p, &err),
            Status::kInvalidShape);
  EXPECT_EQ(err,
            "adaptiveMaxPool1dBackward: inputShape=[2, 0] has an empty dimension 1 (only "
            "the batch dimension may be 0)");
}

}  // namespace
}  // namespace unpool_test
