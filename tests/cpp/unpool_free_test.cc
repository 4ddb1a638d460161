// The unpool without kernel (PyTorch's native max_unpool2d(x, indices,
// output_size)): outputSize is the output's spatial size with no range
// check against a kernel. Against the naive reference (duplicates: the
// last write wins), in both layouts and on plane ranges, its backward
// gather, and hostile arguments with their exact messages.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "reference.h"
#include "window_test_util.h"

namespace unpool_test {
namespace {

using unpool::Layout;
using unpool::Plan;
using unpool::Status;
using unpool::UnpoolParams;

UnpoolParams free_unpool(int dims, std::vector<int64_t> out,
                         Layout layout = Layout::kChannelsFirst) {
  UnpoolParams p;
  p.dims = dims;
  p.output_size_count = static_cast<int32_t>(out.size());
  for (size_t i = 0; i < out.size() && i < 5; ++i) p.output_size[i] = out[i];
  p.layout = layout;
  return p;
}

// Indices in [0, plane), many of them repeated.
std::vector<int64_t> seeded_indices(size_t n, int64_t plane, uint32_t seed) {
  std::vector<int64_t> v(n);
  uint32_t a = seed + 99;
  for (auto& e : v) {
    a = a * 1103515245u + 12345u;
    e = static_cast<int64_t>((a >> 9) % static_cast<uint32_t>(plane));
  }
  return v;
}

struct Case {
  int dims;
  bool batched;
  DType dtype;
  IndexType itype;
};

// Pooled sizes and output sizes per dim: smaller than, equal to and far
// above the pooled size (a kernel of 2 would allow 3..5 for a pooled 2).
void check_case(const Case& c) {
  const int64_t pairs[][2] = {{2, 4}, {2, 17}, {3, 1}, {1, 1}, {4, 4}, {3, 7}};
  for (int k = 0; k < 6; ++k) {
    RefGeom g;
    const int64_t batch = c.batched ? 2 : 1, channels = c.batched ? 2 : 3;
    g.planes = batch * channels;
    std::vector<int64_t> shape, out;
    if (c.batched) shape.push_back(batch);
    shape.push_back(channels);
    for (int i = 0; i < c.dims; ++i) {
      const int64_t* pr = pairs[(k + 2 * i) % 6];
      g.in[3 - c.dims + i] = pr[0];
      g.out[3 - c.dims + i] = pr[1];
      shape.push_back(pr[0]);
      out.push_back(pr[1]);
    }
    const Shape in = make_shape(shape);
    SCOPED_TRACE("x " + shape_text(in) + " outputSize " + shape_text(make_shape(out)));
    const int64_t ip = g.in[0] * g.in[1] * g.in[2], op = g.out[0] * g.out[1] * g.out[2];
    const std::vector<double> x = seeded_values(static_cast<size_t>(g.planes * ip), k + 1u);
    const std::vector<int64_t> idx = seeded_indices(x.size(), op, static_cast<uint32_t>(k));
    std::vector<double> want, want_gi;
    const std::vector<double> go = seeded_values(static_cast<size_t>(g.planes * op), k + 50u);
    if (c.dtype == DType::kFloat32) {
      want = as_doubles(ref_unpool(g, as_type<float>(x), idx));
      want_gi = as_doubles(ref_unpool_backward(g, as_type<float>(go), idx));
    } else {
      want = as_doubles(ref_unpool(g, x, idx));
      want_gi = as_doubles(ref_unpool_backward(g, go, idx));
    }
    std::string err;
    for (Layout layout : {Layout::kChannelsFirst, Layout::kChannelsLast}) {
      const bool cl = layout == Layout::kChannelsLast;
      const Shape in_l = cl ? channels_last_shape(in, c.dims) : in;
      Shape out_shape;
      ASSERT_EQ(unpool::max_unpool_shape(free_unpool(c.dims, out, layout), in_l, &out_shape, &err),
                Status::kOk)
          << err;
      Values xv(c.dtype, cl ? to_channels_last(x, batch, channels, ip) : x),
          y(c.dtype, want.size(), 3.0);
      Indices iv(c.itype, cl ? to_channels_last(idx, batch, channels, ip) : idx);
      ASSERT_EQ(unpool::max_unpool(free_unpool(c.dims, out, layout), in_l, c.dtype, xv.data(),
                                   c.itype, iv.data(), y.data(), &err),
                Status::kOk)
          << err;
      EXPECT_TRUE(y.guards_intact());
      const std::vector<double> got = read_values(y);
      ASSERT_EQ(diff_values(Values(c.dtype, cl ? to_channels_first(got, batch, channels, op) : got),
                            want),
                "")
          << (cl ? "channels last" : "channels first");
      std::vector<int64_t> want_shape = shape_vec(in_l);
      const int sp = cl ? static_cast<int>(shape.size()) - c.dims - 1
                        : static_cast<int>(shape.size()) - c.dims;
      for (int i = 0; i < c.dims; ++i)
        want_shape[static_cast<size_t>(sp + i)] = out[static_cast<size_t>(i)];
      EXPECT_EQ(shape_vec(out_shape), want_shape);
      // The backward gather.
      Values gov(c.dtype, cl ? to_channels_last(go, batch, channels, op) : go),
          gi(c.dtype, x.size(), 3.0);
      ASSERT_EQ(unpool::max_unpool_backward(c.dims, layout, out_shape, in_l, c.dtype, gov.data(),
                                            c.itype, iv.data(), gi.data(), &err),
                Status::kOk)
          << err;
      const std::vector<double> ggot = read_values(gi);
      ASSERT_EQ(
          diff_values(Values(c.dtype, cl ? to_channels_first(ggot, batch, channels, ip) : ggot),
                      want_gi),
          "")
          << "backward";
    }
    // Ranges of planes through buffers of their own.
    Plan plan;
    ASSERT_EQ(unpool::plan_max_unpool(free_unpool(c.dims, out), in, c.dtype, c.itype, &plan, &err),
              Status::kOk)
        << err;
    for (int64_t b = 0; b < g.planes; b += 2) {
      const int64_t e = std::min(g.planes, b + 2);
      Values xr(c.dtype, part(x, b * ip, (e - b) * ip)),
          yr(c.dtype, static_cast<size_t>((e - b) * op), 3.0);
      Indices ir(c.itype, part(idx, b * ip, (e - b) * ip));
      ASSERT_EQ(unpool::run_max_unpool(plan, {b, e}, xr.data(), ir.data(), yr.data(), &err),
                Status::kOk)
          << err;
      ASSERT_EQ(diff_values(yr, part(want, b * op, (e - b) * op)), "") << "planes " << b;
    }
  }
}

std::vector<Case> all_cases() {
  std::vector<Case> v;
  for (int dims = 1; dims <= 3; ++dims) {
    for (bool batched : {false, true}) {
      v.push_back(
          {dims, batched, DType::kFloat32, batched ? IndexType::kInt64 : IndexType::kInt32});
      v.push_back(
          {dims, batched, DType::kFloat64, batched ? IndexType::kInt32 : IndexType::kInt64});
    }
  }
  return v;
}

// Every case in one test: each test is a process start in the em++ suite.
TEST(UnpoolFree, MatchesTheReferenceInBothLayoutsAndOnRanges) {
  for (const Case& c : all_cases()) {
    SCOPED_TRACE(std::to_string(c.dims) + "d" + (c.batched ? " batched" : " unbatched") +
                 (c.dtype == DType::kFloat32 ? " float32" : " float64") +
                 (c.itype == IndexType::kInt32 ? " int32" : " int64"));
    check_case(c);
    if (HasFatalFailure()) return;
  }
}

// Pooled by max_pool, unpooled without kernel to the input's size: the bits
// of the kernel form.
TEST(UnpoolFreeOps, EqualsTheKernelFormAtItsDefaultSize) {
  unpool::PoolParams pp;
  pp.dims = 2;
  pp.kernel = size_scalar(2);
  const Shape in = make_shape({2, 2, 5, 6});
  Shape pooled;
  std::string err;
  ASSERT_EQ(unpool::max_pool_shape(pp, in, &pooled, &err), Status::kOk) << err;
  Values x(DType::kFloat32, seeded_values(120, 9)), y(DType::kFloat32, count(pooled));
  Indices idx(IndexType::kInt32, count(pooled));
  ASSERT_EQ(unpool::max_pool(pp, in, DType::kFloat32, x.data(), y.data(), IndexType::kInt32,
                             idx.data(), &err),
            Status::kOk)
      << err;
  UnpoolParams kf;
  kf.dims = 2;
  kf.kernel = size_scalar(2);
  kf.output_size_count = 2;
  kf.output_size[0] = 5;
  kf.output_size[1] = 6;
  Values a(DType::kFloat32, 120, 1.0), b(DType::kFloat32, 120, 2.0);
  ASSERT_EQ(unpool::max_unpool(kf, pooled, DType::kFloat32, y.data(), IndexType::kInt32, idx.data(),
                               a.data(), &err),
            Status::kOk)
      << err;
  ASSERT_EQ(unpool::max_unpool(free_unpool(2, {5, 6}), pooled, DType::kFloat32, y.data(),
                               IndexType::kInt32, idx.data(), b.data(), &err),
            Status::kOk)
      << err;
  EXPECT_EQ(diff_values(b, read_values(a)), "");
  // 17 is far outside the kernel form's 3..5, and fine without a kernel.
  kf.output_size[0] = 17;
  Shape out;
  EXPECT_EQ(unpool::max_unpool_shape(kf, pooled, &out, &err), Status::kOutputSizeOutOfRange);
  EXPECT_EQ(unpool::max_unpool_shape(free_unpool(2, {17, 6}), pooled, &out, &err), Status::kOk)
      << err;
  EXPECT_EQ(shape_vec(out), (std::vector<int64_t>{2, 2, 17, 6}));
}

// Duplicates: the later write wins, in input order.
TEST(UnpoolFreeOps, LastWriteWins) {
  Values x(DType::kFloat64, {1, 2, 3, 4, 5, 6}), y(DType::kFloat64, 6, 9.0);
  Indices idx(IndexType::kInt64, {2, 2, 0, 1, 1, 2});
  std::string err;
  ASSERT_EQ(unpool::max_unpool(free_unpool(1, {3}), make_shape({2, 3}), DType::kFloat64, x.data(),
                               IndexType::kInt64, idx.data(), y.data(), &err),
            Status::kOk)
      << err;
  EXPECT_EQ(diff_values(y, {3, 0, 2, 0, 5, 6}), "");
}

}  // namespace
}  // namespace unpool_test
