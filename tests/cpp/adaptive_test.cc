// Adaptive max pooling against the naive reference (reference.h): 1d, 2d and
// 3d, output smaller, equal and larger than the input, evenly dividing (the
// max pool path, which must give max_pool's bits) or not, batched and
// unbatched, both dtypes and index types, channels last (== channels first
// transposed), plane ranges through buffers of their own, and the backward
// pass. Guards around every buffer catch writes outside it.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "reference.h"
#include "window_test_util.h"

namespace unpool_test {
namespace {

using unpool::AdaptivePoolParams;
using unpool::Layout;
using unpool::Plan;
using unpool::PlaneRange;
using unpool::Status;

std::string case_name(const WindowCase& c) {
  return std::to_string(c.dims) + "d" + (c.batched ? "_batched" : "_unbatched") +
         (c.dtype == DType::kFloat32 ? "_f32" : "_f64") +
         (c.itype == IndexType::kInt32 ? "_i32" : "_i64");
}

// (in, out) per dim: smaller, equal and larger outputs, dividing and not.
const int64_t kPairs[][2] = {{1, 1}, {7, 3}, {8, 4}, {5, 5},  {4, 9}, {12, 5},
                             {6, 1}, {3, 7}, {9, 3}, {10, 4}, {2, 2}, {11, 11}};
constexpr int kNumPairs = sizeof(kPairs) / sizeof(kPairs[0]);

struct Problem {
  Shape in;
  int64_t batch = 1, channels = 2, planes = 2;
  int64_t sp_in[3] = {1, 1, 1}, sp_out[3] = {1, 1, 1};
  std::vector<int64_t> out_size;  // the user's outputSize, one per dim
  bool divisible = true;
};

// Problem `k` of a sweep: dim i takes pair (k + 5 * i) % kNumPairs.
Problem problem(const WindowCase& c, int k) {
  Problem p;
  p.batch = c.batched ? 2 : 1;
  p.channels = c.batched ? 2 : 3;
  p.planes = p.batch * p.channels;
  std::vector<int64_t> shape;
  if (c.batched) shape.push_back(p.batch);
  shape.push_back(p.channels);
  for (int i = 0; i < c.dims; ++i) {
    const int64_t* pr = kPairs[(k + 5 * i) % kNumPairs];
    const int slot = 3 - c.dims + i;
    p.sp_in[slot] = pr[0];
    p.sp_out[slot] = pr[1];
    shape.push_back(pr[0]);
    p.out_size.push_back(pr[1]);
    p.divisible = p.divisible && pr[1] <= pr[0] && pr[0] % pr[1] == 0;
  }
  p.in = make_shape(shape);
  return p;
}

AdaptivePoolParams params(int dims, const std::vector<int64_t>& out, Layout layout) {
  AdaptivePoolParams ap;
  ap.dims = dims;
  ap.output_size = size_list(out);
  ap.layout = layout;
  return ap;
}

struct Result {
  std::vector<double> y;
  std::vector<int64_t> idx;
};

// Plans and runs on `range`, with `x` the data of the range's planes; checks
// the guards.
Result run(const AdaptivePoolParams& ap, const Shape& in, const WindowCase& c,
           const std::vector<double>& x, PlaneRange range, size_t out_n, Shape* out = nullptr) {
  Plan plan;
  std::string err;
  EXPECT_EQ(unpool::plan_adaptive_max_pool(ap, in, c.dtype, c.itype, &plan, &err), Status::kOk)
      << err;
  if (out) *out = plan.output;
  Values xv(c.dtype, x), y(c.dtype, out_n, -5.0);
  Indices idx(c.itype, out_n);
  EXPECT_EQ(unpool::run_adaptive_max_pool(plan, range, xv.data(), y.data(), idx.data(), &err),
            Status::kOk)
      << err;
  EXPECT_TRUE(y.guards_intact() && idx.guards_intact());
  return {read_values(y), read_indices(idx)};
}

template <typename T>
void reference(const Problem& p, const std::vector<double>& x, Result* r) {
  std::vector<T> y;
  ref_adaptive_pool<T>(p.planes, p.sp_in, p.sp_out, as_type<T>(x), &y, &r->idx);
  r->y = as_doubles(y);
}

void expect_same(DType t, const std::vector<double>& got, const std::vector<double>& want,
                 const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_TRUE(exact_equal(t, got[i], want[i]))
        << what << " element " << i << ": got " << got[i] << ", want " << want[i];
  }
}

void forward_case(const WindowCase& c) {
  for (int k = 0; k < kNumPairs; ++k) {
    const Problem p = problem(c, k);
    SCOPED_TRACE("x " + shape_text(p.in) + " outputSize " + shape_text(make_shape(p.out_size)));
    const int64_t in_plane = p.sp_in[0] * p.sp_in[1] * p.sp_in[2];
    const int64_t out_plane = p.sp_out[0] * p.sp_out[1] * p.sp_out[2];
    const size_t n_in = static_cast<size_t>(p.planes * in_plane),
                 n_out = static_cast<size_t>(p.planes * out_plane);
    const std::vector<double> x = seeded_values(n_in, static_cast<uint32_t>(k + 17 * c.dims));
    Result want;
    if (c.dtype == DType::kFloat32) reference<float>(p, x, &want);
    else reference<double>(p, x, &want);

    // Channels first, the whole tensor.
    Shape out;
    const Result got =
        run(params(c.dims, p.out_size, Layout::kChannelsFirst), p.in, c, x, {}, n_out, &out);
    std::vector<int64_t> want_shape = shape_vec(p.in);
    for (int i = 0; i < c.dims; ++i) want_shape[want_shape.size() - c.dims + i] = p.out_size[i];
    EXPECT_EQ(shape_vec(out), want_shape);
    expect_same(c.dtype, got.y, want.y, "output");
    ASSERT_EQ(got.idx, want.idx);

    // Evenly dividing sizes are a max pool with kernel = stride = in / out,
    // in both layouts.
    if (p.divisible) {
      unpool::PoolParams pp;
      pp.dims = c.dims;
      std::vector<int64_t> k_size;
      for (int i = 0; i < c.dims; ++i)
        k_size.push_back(p.sp_in[3 - c.dims + i] / p.sp_out[3 - c.dims + i]);
      pp.kernel = size_list(k_size);
      Values xv(c.dtype, x), y(c.dtype, n_out);
      Indices idx(c.itype, n_out);
      std::string err;
      ASSERT_EQ(unpool::max_pool(pp, p.in, c.dtype, xv.data(), y.data(), c.itype, idx.data(), &err),
                Status::kOk)
          << err;
      expect_same(c.dtype, read_values(y), got.y, "max_pool's output");
      ASSERT_EQ(read_indices(idx), got.idx);
      // And channels last, against adaptive channels last below.
      pp.layout = Layout::kChannelsLast;
      const int64_t b = p.planes / p.channels;
      Values xl(c.dtype, to_channels_last(x, b, p.channels, in_plane)), yl(c.dtype, n_out);
      Indices il(c.itype, n_out);
      ASSERT_EQ(unpool::max_pool(pp, channels_last_shape(p.in, c.dims), c.dtype, xl.data(),
                                 yl.data(), c.itype, il.data(), &err),
                Status::kOk)
          << err;
      const Result cl =
          run(params(c.dims, p.out_size, Layout::kChannelsLast), channels_last_shape(p.in, c.dims),
              c, to_channels_last(x, b, p.channels, in_plane), {}, n_out);
      expect_same(c.dtype, read_values(yl), cl.y, "channels-last max_pool's output");
      ASSERT_EQ(read_indices(il), cl.idx);
    }

    // Channels last: the same results, transposed.
    const int64_t batch = p.planes / p.channels;
    const Result cl =
        run(params(c.dims, p.out_size, Layout::kChannelsLast), channels_last_shape(p.in, c.dims), c,
            to_channels_last(x, batch, p.channels, in_plane), {}, n_out);
    expect_same(c.dtype, to_channels_first(cl.y, batch, p.channels, out_plane), want.y,
                "channels-last output");
    ASSERT_EQ(to_channels_first(cl.idx, batch, p.channels, out_plane), want.idx);

    // Ranges of planes through buffers of their own.
    for (int64_t step : {1, 2, 4}) {
      for (int64_t b = 0; b < p.planes; b += step) {
        const int64_t e = std::min(p.planes, b + step);
        const Result r = run(params(c.dims, p.out_size, Layout::kChannelsFirst), p.in, c,
                             part(x, b * in_plane, (e - b) * in_plane), {b, e},
                             static_cast<size_t>((e - b) * out_plane));
        expect_same(c.dtype, r.y, part(want.y, b * out_plane, (e - b) * out_plane), "range");
        ASSERT_EQ(r.idx, part(want.idx, b * out_plane, (e - b) * out_plane));
      }
    }
  }
}

// The backward pass: a scatter-add of grad_output by the forward's indices,
// in output order, for both layouts and on plane ranges.
void backward_case(const WindowCase& c) {
  for (int k = 0; k < kNumPairs; ++k) {
    const Problem p = problem(c, k);
    SCOPED_TRACE("x " + shape_text(p.in) + " outputSize " + shape_text(make_shape(p.out_size)));
    const int64_t in_plane = p.sp_in[0] * p.sp_in[1] * p.sp_in[2];
    const int64_t out_plane = p.sp_out[0] * p.sp_out[1] * p.sp_out[2];
    const size_t n_in = static_cast<size_t>(p.planes * in_plane),
                 n_out = static_cast<size_t>(p.planes * out_plane);
    const std::vector<double> x = seeded_values(n_in, static_cast<uint32_t>(k + 3));
    Result fwd;
    if (c.dtype == DType::kFloat32) reference<float>(p, x, &fwd);
    else reference<double>(p, x, &fwd);
    // Gradients with fractions, so that the order of the adds shows in float32.
    std::vector<double> go(n_out);
    for (size_t i = 0; i < n_out; ++i)
      go[i] = 1.0 / static_cast<double>(i % 7 + 3) + static_cast<double>(i % 5);
    RefGeom g;
    g.planes = p.planes;
    for (int i = 0; i < 3; ++i) {
      g.in[i] = p.sp_in[i];
      g.out[i] = p.sp_out[i];
    }
    std::vector<double> want;
    if (c.dtype == DType::kFloat32)
      want = as_doubles(ref_pool_backward(g, as_type<float>(go), fwd.idx));
    else want = as_doubles(ref_pool_backward(g, go, fwd.idx));
    Shape out_shape = p.in;
    for (int i = 0; i < c.dims; ++i) out_shape.dims[out_shape.rank - c.dims + i] = p.out_size[i];

    for (Layout layout : {Layout::kChannelsFirst, Layout::kChannelsLast}) {
      const bool cl = layout == Layout::kChannelsLast;
      const int64_t batch = p.planes / p.channels;
      Plan plan;
      std::string err;
      ASSERT_EQ(unpool::plan_adaptive_max_pool_backward(
                    c.dims, layout, cl ? channels_last_shape(p.in, c.dims) : p.in,
                    cl ? channels_last_shape(out_shape, c.dims) : out_shape, c.dtype, c.itype,
                    &plan, &err),
                Status::kOk)
          << err;
      Values gov(c.dtype, cl ? to_channels_last(go, batch, p.channels, out_plane) : go),
          gi(c.dtype, n_in, 7.0);
      Indices idx(c.itype, cl ? to_channels_last(fwd.idx, batch, p.channels, out_plane) : fwd.idx);
      ASSERT_EQ(unpool::run_max_pool_backward(plan, {}, gov.data(), idx.data(), gi.data(), &err),
                Status::kOk)
          << err;
      EXPECT_TRUE(gi.guards_intact());
      const std::vector<double> got = read_values(gi);
      expect_same(c.dtype, cl ? to_channels_first(got, batch, p.channels, in_plane) : got, want,
                  cl ? "channels-last grad_input" : "grad_input");
      if (cl) continue;
      for (int64_t b = 0; b < p.planes; b += 3) {
        const int64_t e = std::min(p.planes, b + 3);
        Values gr(c.dtype, part(go, b * out_plane, (e - b) * out_plane)),
            gir(c.dtype, static_cast<size_t>((e - b) * in_plane), 7.0);
        Indices ir(c.itype, part(fwd.idx, b * out_plane, (e - b) * out_plane));
        ASSERT_EQ(
            unpool::run_max_pool_backward(plan, {b, e}, gr.data(), ir.data(), gir.data(), &err),
            Status::kOk)
            << err;
        EXPECT_TRUE(gir.guards_intact());
        expect_same(c.dtype, read_values(gir), part(want, b * in_plane, (e - b) * in_plane),
                    "grad_input range");
      }
    }
  }
}

// One test per property, every case inside: each test is a process start
// in the em++ suite.
TEST(AdaptiveSweep, MatchesTheReferenceInEveryForm) {
  for (const WindowCase& c : window_cases(1)) {
    SCOPED_TRACE(case_name(c));
    forward_case(c);
    if (HasFatalFailure()) return;
  }
}

TEST(AdaptiveSweep, BackwardScatterAddsByIndex) {
  for (const WindowCase& c : window_cases(1)) {
    SCOPED_TRACE(case_name(c));
    backward_case(c);
    if (HasFatalFailure()) return;
  }
}

// Ties, NaN and -inf in windows that overlap (7 -> 3: [0, 3), [2, 5),
// [4, 7)) and repeat (2 -> 5).
TEST(Adaptive, FirstMaximumLastNanAndMinusInfinityWindows) {
  const double nan = std::numeric_limits<double>::quiet_NaN(),
               inf = std::numeric_limits<double>::infinity();
  const WindowCase c{1, false, DType::kFloat64, IndexType::kInt64};
  const Result r = run(params(1, {3}, Layout::kChannelsFirst), make_shape({3, 7}), c,
                       {2,    5,    5,    1,    5,    0,    0,  // ties: the first 5 of each window
                        nan,  1,    nan,  3,    nan,  9,    nan,  // the last NaN of each window
                        -inf, -inf, -inf, -inf, -inf, -inf, -inf},
                       {}, 9);
  expect_same(DType::kFloat64, r.y, {5, 5, 5, nan, nan, nan, -inf, -inf, -inf}, "output");
  EXPECT_EQ(r.idx, (std::vector<int64_t>{1, 2, 4, 2, 4, 6, 0, 2, 4}));
  const Result up =
      run(params(1, {5}, Layout::kChannelsFirst), make_shape({1, 2}), c, {-0.0, 0.0}, {}, 5);
  // [0, 1), [0, 1), [0, 2), [1, 2), [1, 2): -0 and +0 tie, the first stays.
  expect_same(DType::kFloat64, up.y, {-0.0, -0.0, -0.0, 0.0, 0.0}, "upsampled");
  EXPECT_EQ(up.idx, (std::vector<int64_t>{0, 0, 0, 1, 1}));
}

}  // namespace
}  // namespace unpool_test
