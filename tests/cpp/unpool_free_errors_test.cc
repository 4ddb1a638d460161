// Hostile arguments of the unpool without kernel, each with its status and
// exact message; a bad index anywhere fails the run before it writes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "window_test_util.h"

namespace unpool_test {
namespace {

using unpool::Layout;
using unpool::Plan;
using unpool::Status;
using unpool::UnpoolParams;

UnpoolParams free_unpool(int dims, std::vector<int64_t> out) {
  UnpoolParams p;
  p.dims = dims;
  p.output_size_count = static_cast<int32_t>(out.size());
  for (size_t i = 0; i < out.size() && i < 5; ++i) p.output_size[i] = out[i];
  return p;
}

std::string shape_error(const UnpoolParams& p, std::vector<int64_t> shape, Status want) {
  Shape out;
  std::string err;
  EXPECT_EQ(unpool::max_unpool_shape(p, make_shape(shape), &out, &err), want) << err;
  return err;
}

TEST(UnpoolFreeErrors, StrideAndPaddingNeedAKernel) {
  const std::string tail =
      " needs kernelSize (an unpool without kernel takes outputSize and no "
      "stride or padding)";
  UnpoolParams p = free_unpool(2, {4, 4});
  p.stride = size_scalar(2);
  EXPECT_EQ(shape_error(p, {1, 2, 2}, Status::kInvalidArgument), "maxUnpool2d: stride" + tail);
  p.stride = size_list({});  // an empty list is still a stride given
  EXPECT_EQ(shape_error(p, {1, 2, 2}, Status::kInvalidArgument), "maxUnpool2d: stride" + tail);
  p = free_unpool(2, {4, 4});
  p.padding = size_scalar(1);
  EXPECT_EQ(shape_error(p, {1, 2, 2}, Status::kInvalidArgument), "maxUnpool2d: padding" + tail);
  p.padding = size_list({0, -1});
  EXPECT_EQ(shape_error(p, {1, 2, 2}, Status::kInvalidArgument), "maxUnpool2d: padding" + tail);
  p.padding = size_scalar(0);
  p.padding.count = -1;
  EXPECT_EQ(shape_error(p, {1, 2, 2}, Status::kInvalidArgument), "maxUnpool2d: padding" + tail);
  // Zero padding is PyTorch's own default here.
  p.padding = size_list({0, 0});
  EXPECT_EQ(shape_error(p, {1, 2, 2}, Status::kOk), "");
  p.padding = size_scalar(0);
  EXPECT_EQ(shape_error(p, {1, 2, 2}, Status::kOk), "");
}

TEST(UnpoolFreeErrors, OutputSizeCounts) {
  EXPECT_EQ(shape_error(free_unpool(2, {1, 1, 4, 4}), {1, 1, 2, 2}, Status::kInvalidArgument),
            "maxUnpool2d: outputSize must have 2 entries (the output's spatial size) when "
            "kernelSize is omitted, got 4");
  EXPECT_EQ(shape_error(free_unpool(2, {1, 4, 4}), {1, 2, 2}, Status::kInvalidArgument),
            "maxUnpool2d: outputSize must have 2 entries (the output's spatial size) when "
            "kernelSize is omitted, got 3");
  EXPECT_EQ(shape_error(free_unpool(1, {}), {1, 2}, Status::kInvalidArgument),
            "maxUnpool1d: outputSize must have 1 entry (the output's spatial size) when "
            "kernelSize is omitted, got 0");
  EXPECT_EQ(shape_error(free_unpool(3, {4, 4, 4, 4, 4}), {1, 2, 2, 2}, Status::kInvalidArgument),
            "maxUnpool3d: outputSize must have 3 entries (the output's spatial size) when "
            "kernelSize is omitted, got 5");
  UnpoolParams none;
  none.dims = 2;
  EXPECT_EQ(shape_error(none, {1, 2, 2}, Status::kInvalidArgument),
            "maxUnpool2d: kernelSize is required (or outputSize alone, for an unpool without "
            "kernel)");
  // An empty kernel list is a kernel given, and empty.
  UnpoolParams empty_kernel = free_unpool(2, {4, 4});
  empty_kernel.kernel = size_list({});
  EXPECT_EQ(shape_error(empty_kernel, {1, 2, 2}, Status::kInvalidArgument),
            "maxUnpool2d: kernelSize is required");
  unpool::SizeRange r[3];
  std::string err;
  EXPECT_EQ(unpool::max_unpool_output_range(free_unpool(2, {4, 4}), make_shape({1, 2, 2}), r, &err),
            Status::kInvalidArgument);
  EXPECT_EQ(err, "maxUnpool2dOutputRange: kernelSize is required");
}

TEST(UnpoolFreeErrors, OutputSizeEntries) {
  EXPECT_EQ(shape_error(free_unpool(2, {4, 0}), {1, 2, 2}, Status::kInvalidArgument),
            "maxUnpool2d: outputSize[1]=0 must be >= 1");
  EXPECT_EQ(shape_error(free_unpool(3, {-4, 4, 4}), {1, 2, 2, 2}, Status::kInvalidArgument),
            "maxUnpool3d: outputSize[0]=-4 must be >= 1");
  EXPECT_EQ(shape_error(free_unpool(1, {int64_t{1} << 31}), {1, 2}, Status::kTooLarge),
            "maxUnpool1d: outputSize[0]=2147483648 exceeds the limit 2147483647");
  EXPECT_EQ(shape_error(free_unpool(1, {INT64_MIN}), {1, 2}, Status::kInvalidArgument),
            "maxUnpool1d: outputSize[0]=-9223372036854775808 must be >= 1");
  const int64_t big = (int64_t{1} << 31) - 1;
  EXPECT_EQ(shape_error(free_unpool(3, {big, big, big}), {1, 2, 2, 2}, Status::kTooLarge),
            "maxUnpool3d: output shape [1, 2147483647, 2147483647, 2147483647] has more elements "
            "than 64-bit offsets can address");
  // The output may be smaller than the input: only the indices must fit.
  Shape out;
  std::string err;
  ASSERT_EQ(unpool::max_unpool_shape(free_unpool(2, {1, 1}), make_shape({0, 3, 5, 5}), &out, &err),
            Status::kOk)
      << err;
  EXPECT_EQ(shape_vec(out), (std::vector<int64_t>{0, 3, 1, 1}));
  ASSERT_EQ(unpool::max_unpool_shape(free_unpool(1, {big}), make_shape({2, 3, 4}), &out, &err),
            Status::kOk)
      << err;
  EXPECT_EQ(shape_vec(out), (std::vector<int64_t>{2, 3, big}));
}

TEST(UnpoolFreeErrors, RanksDimsLayoutsAndEmptyDims) {
  EXPECT_EQ(shape_error(free_unpool(2, {4, 4}), {2, 2}, Status::kInvalidShape),
            "maxUnpool2d: x must have rank 3 (C, H, W) or 4 (N, C, H, W), got rank 2 [2, 2]");
  UnpoolParams cl = free_unpool(1, {4});
  cl.layout = Layout::kChannelsLast;
  EXPECT_EQ(shape_error(cl, {2}, Status::kInvalidShape),
            "maxUnpool1d: x must have rank 2 (L, C) or 3 (N, L, C), got rank 1 [2]");
  cl.layout = static_cast<Layout>(9);
  EXPECT_EQ(shape_error(cl, {2, 2}, Status::kInvalidArgument),
            "maxUnpool1d: layout=9 is not channels-first (0) or channels-last (1)");
  EXPECT_EQ(shape_error(free_unpool(0, {4}), {2, 2}, Status::kInvalidArgument),
            "maxUnpool: dims=0 must be 1, 2 or 3");
  EXPECT_EQ(shape_error(free_unpool(2, {4, 4}), {1, 2, 0, 2}, Status::kInvalidShape),
            "maxUnpool2d: x shape [1, 2, 0, 2] has an empty dimension 2 (only the batch "
            "dimension may be 0)");
  // As for the kernel form, an unbatched C may be 0.
  EXPECT_EQ(shape_error(free_unpool(2, {4, 4}), {0, 2, 2}, Status::kOk), "");
}

// Plane 3 of 4 holds the bad index: whole runs, check_indices and
// max_unpool_check all name it, and nothing is written.
TEST(UnpoolFreeErrors, IndicesOutOfRangeWriteNothing) {
  const Shape in = make_shape({2, 2, 1, 3});  // 4 planes of 3 indices into 2x3
  const UnpoolParams p = free_unpool(2, {2, 3});
  for (int64_t bad : {int64_t{6}, int64_t{-1}, int64_t{1} << 40}) {
    for (IndexType it : {IndexType::kInt32, IndexType::kInt64}) {
      if (it == IndexType::kInt32 && bad > INT32_MAX) continue;
      Values x(DType::kFloat32, 12, 1.0), y(DType::kFloat32, 24, -3.0);
      Indices idx(it, {0, 1, 2, 3, 4, 5, 5, 5, 5, 0, bad, 1});
      std::string err;
      const std::string want = "maxUnpool2d: indices[10]=" + std::to_string(bad) +
                               " is out of range for output plane 2x3 (6 elements)";
      EXPECT_EQ(
          unpool::max_unpool(p, in, DType::kFloat32, x.data(), it, idx.data(), y.data(), &err),
          Status::kInvalidIndex);
      EXPECT_EQ(err, want);
      EXPECT_EQ(diff_values(y, std::vector<double>(24, -3.0)), "");
      EXPECT_EQ(unpool::max_unpool_check(p, in, it, idx.data(), &err), Status::kInvalidIndex);
      EXPECT_EQ(err, want);
      // The backward gather checks the same indices.
      Values go(DType::kFloat32, 24, 1.0), gi(DType::kFloat32, 12, -3.0);
      EXPECT_EQ(
          unpool::max_unpool_backward(2, Layout::kChannelsFirst, make_shape({2, 2, 2, 3}), in,
                                      DType::kFloat32, go.data(), it, idx.data(), gi.data(), &err),
          Status::kInvalidIndex);
      EXPECT_EQ(err, "maxUnpool2dBackward: indices[10]=" + std::to_string(bad) +
                         " is out of range for output plane 2x3 (6 elements)");
      EXPECT_EQ(diff_values(gi, std::vector<double>(12, -3.0)), "");
      // A range without the bad plane runs; one with it fails at its
      // whole-tensor position.
      Plan plan;
      ASSERT_EQ(unpool::plan_max_unpool(p, in, DType::kFloat32, it, &plan, &err), Status::kOk)
          << err;
      EXPECT_EQ(unpool::check_indices(plan, idx.data(), &err), Status::kInvalidIndex);
      EXPECT_EQ(err, want);
      Values yr(DType::kFloat32, 18, -3.0);
      EXPECT_EQ(unpool::run_max_unpool(plan, {0, 3}, x.data(), idx.data(), yr.data(), &err),
                Status::kOk)
          << err;
      Values y3(DType::kFloat32, 6, -3.0);
      const size_t at = it == IndexType::kInt32 ? 4 : 8;  // bytes per index
      EXPECT_EQ(unpool::run_max_unpool(plan, {3, 4}, x.data(),
                                       static_cast<char*>(idx.data()) + 9 * at, y3.data(), &err),
                Status::kInvalidIndex);
      EXPECT_EQ(err, want);
      EXPECT_EQ(diff_values(y3, std::vector<double>(6, -3.0)), "");
    }
  }
}

}  // namespace
}  // namespace unpool_test
