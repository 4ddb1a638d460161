// Random sweep of every op x dims x dtype x index type against the naive
// reference, with widths around the SIMD tiles (w < 4, 4, w % 4 != 0, large)
// and data full of ties, NaN, +-inf and +-0.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "reference.h"
#include "test_util.h"

namespace unpool_test {
namespace {

using unpool::PoolParams;
using unpool::SizeArg;
using unpool::Status;
using unpool::UnpoolParams;

struct Config {
  int dims;
  DType dtype;
  IndexType itype;
  bool batched;
  int64_t n, c;
  RefGeom g;  // in, k, s, p, d filled; out from the reference
  bool ceil;
  std::string describe() const {
    std::ostringstream m;
    m << dims << "d " << (dtype == DType::kFloat32 ? "f32" : "f64") << " "
      << (itype == IndexType::kInt32 ? "i32" : "i64") << (batched ? " N=" : " unbatched")
      << (batched ? std::to_string(n) : "") << " C=" << c << " in=";
    for (int i = 3 - dims; i < 3; ++i) m << g.in[i] << (i < 2 ? "x" : "");
    m << " k=" << g.k[2] << "/" << g.k[1] << "/" << g.k[0] << " s=" << g.s[2] << "/" << g.s[1]
      << "/" << g.s[0] << " p=" << g.p[2] << "/" << g.p[1] << "/" << g.p[0] << " d=" << g.d[2]
      << "/" << g.d[1] << "/" << g.d[0] << " ceil=" << ceil;
    return m.str();
  }
};

SizeArg per_dim(const int64_t v[3], int dims) {
  SizeArg a;
  a.count = dims;
  a.list = true;
  for (int i = 0; i < dims; ++i) a.values[i] = v[3 - dims + i];
  return a;
}

Shape shape_of(const Config& cf, const int64_t sp[3]) {
  std::vector<int64_t> s;
  if (cf.batched) s.push_back(cf.n);
  s.push_back(cf.c);
  for (int i = 3 - cf.dims; i < 3; ++i) s.push_back(sp[i]);
  return make_shape(s);
}

Config random_config(std::mt19937& rng, int dims) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  static const int64_t kWidths[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 67};
  Config cf{};
  cf.dims = dims;
  cf.dtype = pick(0, 1) ? DType::kFloat64 : DType::kFloat32;
  cf.itype = pick(0, 1) ? IndexType::kInt64 : IndexType::kInt32;
  cf.batched = pick(0, 3) != 0;
  cf.n = cf.batched ? pick(0, 2) : 1;
  cf.c = pick(1, 3);
  cf.ceil = pick(0, 1);
  for (int i = 3 - dims; i < 3; ++i) {
    cf.g.in[i] = i == 2 ? kWidths[pick(0, 15)] : pick(1, dims == 3 ? 6 : 9);
    cf.g.k[i] = pick(1, 4);
    cf.g.s[i] = pick(1, 3);
    cf.g.d[i] = pick(0, 3) == 0 ? pick(2, 3) : 1;
    cf.g.p[i] = pick(0, cf.g.k[i] / 2);
  }
  cf.g.planes = cf.n * cf.c;
  return cf;
}

template <typename T>
std::vector<T> random_data(std::mt19937& rng, size_t n) {
  static const double kVals[] = {-2,   -1,  -0.0,     0.0,       1, 2, 3, 0.5,
                                 -0.5, NAN, INFINITY, -INFINITY, 2, 3, 1};
  std::uniform_int_distribution<int> pick(0, 14), rare(0, 19);
  std::vector<T> v(n);
  for (auto& e : v) {
    const double r = kVals[pick(rng)];
    // NaN and infinities in about 1 of 20 elements, so windows without them exist.
    e = static_cast<T>((std::isnan(r) || std::isinf(r)) && rare(rng) != 0 ? 1.5 : r);
  }
  return v;
}

template <typename T>
Values to_values(DType t, const std::vector<T>& v) {
  return Values(t, std::vector<double>(v.begin(), v.end()));
}

template <typename T>
void run_config(const Config& cf0, std::mt19937& rng) {
  Config cf = cf0;
  RefGeom& g = cf.g;
  SCOPED_TRACE(cf.describe());
  bool valid = true;
  for (int i = 3 - cf.dims; i < 3; ++i) {
    g.out[i] = ref_pool_out(g.in[i], g.k[i], g.s[i], g.p[i], g.d[i], cf.ceil);
    valid = valid && g.out[i] >= 1;
  }
  PoolParams pp;
  pp.dims = cf.dims;
  pp.kernel = per_dim(g.k, cf.dims);
  pp.stride = per_dim(g.s, cf.dims);
  pp.padding = per_dim(g.p, cf.dims);
  pp.dilation = per_dim(g.d, cf.dims);
  pp.ceil_mode = cf.ceil;
  const Shape in = shape_of(cf, g.in);
  Shape out;
  std::string err;
  const Status s = unpool::max_pool_shape(pp, in, &out, &err);
  ASSERT_EQ(s == Status::kOk, valid) << err;
  if (!valid) return;
  ASSERT_EQ(shape_vec(out), shape_vec(shape_of(cf, g.out)));

  // Pool forward.
  const std::vector<T> x = random_data<T>(rng, count(in));
  std::vector<T> ry;
  std::vector<int64_t> ridx;
  ref_pool(g, x, &ry, &ridx);
  Values xv = to_values(cf.dtype, x), y(cf.dtype, count(out));
  Indices idx(cf.itype, count(out));
  ASSERT_EQ(unpool::max_pool(pp, in, cf.dtype, xv.data(), y.data(), cf.itype, idx.data(), &err),
            Status::kOk)
      << err;
  ASSERT_EQ(diff_values(y, std::vector<double>(ry.begin(), ry.end())), "");
  ASSERT_EQ(diff_indices(idx, ridx), "");

  // Pool backward, with geometry (windows in padding skipped).
  const std::vector<T> go = random_data<T>(rng, count(out));
  Values gov = to_values(cf.dtype, go), gi(cf.dtype, count(in), 99.0);
  ASSERT_EQ(unpool::max_pool_backward(pp, in, out, cf.dtype, gov.data(), cf.itype, idx.data(),
                                      gi.data(), &err),
            Status::kOk)
      << err;
  const std::vector<T> rgi = ref_pool_backward(g, go, ridx);
  ASSERT_EQ(diff_values(gi, std::vector<double>(rgi.begin(), rgi.end())), "");

  // Unpool of the pooled result to the original size when that is valid.
  RefGeom ug = g;  // unpool: in = pooled size, out = unpooled size
  UnpoolParams up;
  up.dims = cf.dims;
  up.kernel = per_dim(g.k, cf.dims);
  up.stride = per_dim(g.s, cf.dims);
  up.padding = per_dim(g.p, cf.dims);
  up.output_size_count = cf.dims;
  bool in_range = true;
  for (int i = 3 - cf.dims; i < 3; ++i) {
    ug.in[i] = g.out[i];
    ug.out[i] = g.in[i];
    const int64_t dflt = (g.out[i] - 1) * g.s[i] + g.k[i] - 2 * g.p[i];
    in_range = in_range && g.in[i] > dflt - g.s[i] && g.in[i] < dflt + g.s[i];
    up.output_size[i - (3 - cf.dims)] = g.in[i];
  }
  const int64_t plane = g.in[0] * g.in[1] * g.in[2];
  bool indices_ok = true;
  for (int64_t v : ridx) indices_ok = indices_ok && v >= 0 && v < plane;
  Shape uout;
  const Status us = unpool::max_unpool_shape(up, out, &uout, &err);
  ASSERT_EQ(us == Status::kOk, in_range) << err;
  if (!in_range) return;
  Values uy(cf.dtype, count(uout), 42.0);
  const Status run =
      unpool::max_unpool(up, out, cf.dtype, y.data(), cf.itype, idx.data(), uy.data(), &err);
  ASSERT_EQ(run == Status::kOk, indices_ok) << err;
  if (!indices_ok) {
    EXPECT_EQ(run, Status::kInvalidIndex);
    return;
  }
  const std::vector<T> ruy = ref_unpool(ug, ry, ridx);
  ASSERT_EQ(diff_values(uy, std::vector<double>(ruy.begin(), ruy.end())), "");

  // Unpool of arbitrary indices, many of them duplicates with different
  // values: the later input element must win.
  std::vector<int64_t> arb(ridx.size());
  std::uniform_int_distribution<int64_t> any(0, (plane + 1) / 2 - 1);
  for (auto& v : arb) v = any(rng);
  const std::vector<T> ax = random_data<T>(rng, arb.size());
  Indices aidx(cf.itype, arb);
  Values axv = to_values(cf.dtype, ax), ay(cf.dtype, count(uout), 42.0);
  ASSERT_EQ(
      unpool::max_unpool(up, out, cf.dtype, axv.data(), cf.itype, aidx.data(), ay.data(), &err),
      Status::kOk)
      << err;
  const std::vector<T> ray = ref_unpool(ug, ax, arb);
  ASSERT_EQ(diff_values(ay, std::vector<double>(ray.begin(), ray.end())), "");

  // Unpool backward (gather).
  const std::vector<T> ugo = random_data<T>(rng, count(uout));
  Values ugov = to_values(cf.dtype, ugo), ugi(cf.dtype, count(out), 42.0);
  ASSERT_EQ(
      unpool::max_unpool_backward(cf.dims, unpool::Layout::kChannelsFirst, uout, out, cf.dtype,
                                  ugov.data(), cf.itype, idx.data(), ugi.data(), &err),
      Status::kOk)
      << err;
  const std::vector<T> rugi = ref_unpool_backward(ug, ugo, ridx);
  ASSERT_EQ(diff_values(ugi, std::vector<double>(rugi.begin(), rugi.end())), "");
}

class Sweep : public ::testing::TestWithParam<int> {};

TEST_P(Sweep, AllOpsMatchReference) {
  const int dims = GetParam();
  std::mt19937 rng(1234u + static_cast<unsigned>(dims));
  for (int iter = 0; iter < 400; ++iter) {
    const Config cf = random_config(rng, dims);
    if (cf.dtype == DType::kFloat32) run_config<float>(cf, rng);
    else run_config<double>(cf, rng);
    if (HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Dims, Sweep, ::testing::Values(1, 2, 3));

}  // namespace
}  // namespace unpool_test
