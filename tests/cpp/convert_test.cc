// Index format conversions, checked against the formats' definitions: the
// converted index must address the argmax value in the tensor laid out the
// way that runtime lays it out (ONNX: whole NC... tensor, row- or
// column-major planes; TensorFlow: NHWC).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "test_util.h"

namespace unpool_test {
namespace {

using unpool::IndexFormat;
using unpool::Layout;
using unpool::PoolParams;
using unpool::Status;

struct Pooled {
  std::vector<int64_t> in_shape, out_shape;  // channels-first
  std::vector<double> x, y;  // x distinct values
  std::vector<int64_t> idx;  // PyTorch indices, NC...
};

Pooled pool_distinct(int dims, std::vector<int64_t> in_shape, unsigned seed) {
  Pooled r;
  r.in_shape = in_shape;
  const Shape in = make_shape(in_shape);
  r.x.resize(count(in));
  std::iota(r.x.begin(), r.x.end(), 1.0);
  std::shuffle(r.x.begin(), r.x.end(), std::mt19937(seed));
  PoolParams p;
  p.dims = dims;
  p.kernel = {1, false, {3}};
  p.stride = {1, false, {2}};
  p.padding = {1, false, {1}};
  Shape out;
  std::string err;
  EXPECT_EQ(unpool::max_pool_shape(p, in, &out, &err), Status::kOk) << err;
  r.out_shape = shape_vec(out);
  Values xv(DType::kFloat64, r.x), y(DType::kFloat64, count(out));
  Indices idx(IndexType::kInt64, count(out));
  EXPECT_EQ(unpool::max_pool(p, in, DType::kFloat64, xv.data(), y.data(), IndexType::kInt64,
                             idx.data(), &err),
            Status::kOk);
  for (size_t i = 0; i < count(out); ++i) {
    r.y.push_back(y.get(i));
    r.idx.push_back(idx.get(i));
  }
  return r;
}

// Channels-first <-> channels-last permutation of a flat tensor.
std::vector<int64_t> to_last_shape(const std::vector<int64_t>& s) {
  std::vector<int64_t> r = {s[0]};
  r.insert(r.end(), s.begin() + 2, s.end());
  r.push_back(s[1]);
  return r;
}
template <typename T>
std::vector<T> to_last(const std::vector<T>& v, const std::vector<int64_t>& s) {
  const int64_t n = s[0], c = s[1];
  const int64_t plane = std::accumulate(s.begin() + 2, s.end(), int64_t{1}, std::multiplies<>());
  std::vector<T> r(v.size());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < c; ++j)
      for (int64_t k = 0; k < plane; ++k) r[(i * plane + k) * c + j] = v[(i * c + j) * plane + k];
  return r;
}

std::vector<int64_t> convert(int dims, Layout layout, const std::vector<int64_t>& in,
                             const std::vector<int64_t>& ishape, IndexFormat from,
                             const std::vector<int64_t>& src, IndexFormat to,
                             Status want = Status::kOk, std::string* err_out = nullptr) {
  Indices s(IndexType::kInt64, src), d(IndexType::kInt32, src.size());
  std::string err;
  const Status st =
      unpool::convert_indices(dims, layout, make_shape(in), make_shape(ishape), from,
                              IndexType::kInt64, s.data(), to, IndexType::kInt32, d.data(), &err);
  EXPECT_EQ(st, want) << err;
  if (err_out) *err_out = err;
  std::vector<int64_t> r;
  for (size_t i = 0; i < src.size(); ++i) r.push_back(d.get(i));
  EXPECT_TRUE(d.guards_intact());
  return r;
}

TEST(Convert, OnnxIndexAddressesTheWholeTensor) {
  for (int dims = 1; dims <= 3; ++dims) {
    std::vector<int64_t> shape = {2, 3, 5, 4, 6};
    shape.resize(static_cast<size_t>(dims) + 2);
    const Pooled p = pool_distinct(dims, shape, 7u + dims);
    const auto onnx = convert(dims, Layout::kChannelsFirst, p.in_shape, p.out_shape,
                              IndexFormat::kPyTorch, p.idx, IndexFormat::kOnnx);
    for (size_t e = 0; e < onnx.size(); ++e) ASSERT_EQ(p.x[onnx[e]], p.y[e]) << dims << "d " << e;
    EXPECT_EQ(convert(dims, Layout::kChannelsFirst, p.in_shape, p.out_shape, IndexFormat::kOnnx,
                      onnx, IndexFormat::kPyTorch),
              p.idx);
  }
}

TEST(Convert, OnnxColumnMajorAddressesColumnMajorPlanes) {
  const Pooled p = pool_distinct(2, {1, 2, 5, 7}, 3u);
  const int64_t H = 5, W = 7;
  std::vector<double> col(p.x.size());  // each plane stored column-major
  for (int64_t pl = 0; pl < 2; ++pl)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t w = 0; w < W; ++w) col[pl * H * W + w * H + h] = p.x[pl * H * W + h * W + w];
  const auto onnx = convert(2, Layout::kChannelsFirst, p.in_shape, p.out_shape,
                            IndexFormat::kPyTorch, p.idx, IndexFormat::kOnnxColumnMajor);
  for (size_t e = 0; e < onnx.size(); ++e) ASSERT_EQ(col[onnx[e]], p.y[e]) << e;
  EXPECT_EQ(convert(2, Layout::kChannelsFirst, p.in_shape, p.out_shape,
                    IndexFormat::kOnnxColumnMajor, onnx, IndexFormat::kPyTorch),
            p.idx);
}

TEST(Convert, TensorFlowIndexAddressesNhwc) {
  const Pooled p = pool_distinct(2, {2, 3, 6, 5}, 11u);
  const auto last_in = to_last_shape(p.in_shape), last_out = to_last_shape(p.out_shape);
  const auto x_nhwc = to_last(p.x, p.in_shape);
  const auto y_nhwc = to_last(p.y, p.out_shape);
  const auto idx_nhwc = to_last(p.idx, p.out_shape);
  const int64_t image = 6 * 5 * 3;
  const auto tfb = convert(2, Layout::kChannelsLast, last_in, last_out, IndexFormat::kPyTorch,
                           idx_nhwc, IndexFormat::kTensorFlowWithBatch);
  const auto tf = convert(2, Layout::kChannelsLast, last_in, last_out, IndexFormat::kPyTorch,
                          idx_nhwc, IndexFormat::kTensorFlow);
  const int64_t per_image = static_cast<int64_t>(tf.size()) / 2;
  for (size_t e = 0; e < tf.size(); ++e) {
    ASSERT_EQ(x_nhwc[tfb[e]], y_nhwc[e]) << e;
    ASSERT_EQ(x_nhwc[static_cast<int64_t>(e) / per_image * image + tf[e]], y_nhwc[e]) << e;
  }
  EXPECT_EQ(convert(2, Layout::kChannelsLast, last_in, last_out, IndexFormat::kTensorFlow, tf,
                    IndexFormat::kPyTorch),
            idx_nhwc);
  EXPECT_EQ(convert(2, Layout::kChannelsLast, last_in, last_out, IndexFormat::kTensorFlowWithBatch,
                    tfb, IndexFormat::kOnnx),
            to_last(convert(2, Layout::kChannelsFirst, p.in_shape, p.out_shape,
                            IndexFormat::kPyTorch, p.idx, IndexFormat::kOnnx),
                    p.out_shape));
}

TEST(Convert, RejectsAnIndexOfAnotherPlaneAndWritesNothing) {
  const Pooled p = pool_distinct(2, {1, 2, 4, 4}, 5u);
  auto onnx = convert(2, Layout::kChannelsFirst, p.in_shape, p.out_shape, IndexFormat::kPyTorch,
                      p.idx, IndexFormat::kOnnx);
  onnx[1] = 20;  // element 1 belongs to plane c=0 (offsets 0..15)
  std::string err;
  const auto out = convert(2, Layout::kChannelsFirst, p.in_shape, p.out_shape, IndexFormat::kOnnx,
                           onnx, IndexFormat::kPyTorch, Status::kInvalidIndex, &err);
  EXPECT_EQ(err,
            "convertIndices: indices[1]=20 is not an onnx index into its own plane (n=0, "
            "c=0) of input [1, 2, 4, 4] (16 elements per plane)");
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](int64_t v) { return v == 0x5a5a5a5a; }));
  // PyTorch's index of a window wholly in padding lies outside the plane.
  convert(2, Layout::kChannelsFirst, {1, 1, 2, 2}, {1, 1, 1, 1}, IndexFormat::kPyTorch, {6},
          IndexFormat::kOnnx, Status::kInvalidIndex);
}

TEST(Convert, Int32TargetMustHoldTheLargestIndex) {
  Indices s(IndexType::kInt64, 0), d(IndexType::kInt32, 0);
  std::string err;
  EXPECT_EQ(unpool::convert_indices(2, Layout::kChannelsFirst, make_shape({0, 4096, 1024, 1024}),
                                    make_shape({0, 4096, 512, 512}), IndexFormat::kPyTorch,
                                    IndexType::kInt64, s.data(), IndexFormat::kOnnx,
                                    IndexType::kInt32, d.data(), &err),
            Status::kOk);
  EXPECT_EQ(unpool::convert_indices(2, Layout::kChannelsFirst, make_shape({1, 4096, 1024, 1024}),
                                    make_shape({1, 4096, 512, 512}), IndexFormat::kPyTorch,
                                    IndexType::kInt64, s.data(), IndexFormat::kOnnx,
                                    IndexType::kInt32, d.data(), &err),
            Status::kTooLarge);
}

}  // namespace
}  // namespace unpool_test
