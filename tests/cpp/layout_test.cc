// Channels-last layout: every op on a (N, spatial..., C) tensor must give,
// bit for bit, the channels-first result transposed the same way (the
// channels-first path is checked against the reference by the sweep).
#include <gtest/gtest.h>

#include <random>

#include "test_util.h"

namespace unpool_test {
namespace {

using unpool::Layout;
using unpool::PoolParams;
using unpool::SizeArg;
using unpool::Status;
using unpool::UnpoolParams;

// Moves C from position `rank - dims - 1` to the end (or back, with
// `to_last` false) of a flat tensor of channels-first shape `cf`.
std::vector<double> transpose(const std::vector<double>& v, const std::vector<int64_t>& cf,
                              int dims, bool to_last) {
  const size_t lead = cf.size() - static_cast<size_t>(dims) - 1;
  const int64_t n = lead ? cf[0] : 1, c = cf[lead];
  int64_t plane = 1;
  for (size_t i = lead + 1; i < cf.size(); ++i) plane *= cf[i];
  std::vector<double> r(v.size());
  for (int64_t a = 0; a < n; ++a)
    for (int64_t b = 0; b < c; ++b)
      for (int64_t k = 0; k < plane; ++k) {
        const size_t first = static_cast<size_t>((a * c + b) * plane + k);
        const size_t last = static_cast<size_t>((a * plane + k) * c + b);
        if (to_last) r[last] = v[first];
        else r[first] = v[last];
      }
  return r;
}

std::vector<int64_t> last_shape(const std::vector<int64_t>& cf, int dims) {
  std::vector<int64_t> r(cf);
  const size_t c_at = cf.size() - static_cast<size_t>(dims) - 1;
  r.erase(r.begin() + static_cast<long>(c_at));
  r.push_back(cf[c_at]);
  return r;
}

std::vector<double> read(const Values& v) {
  std::vector<double> r;
  for (size_t i = 0; i < v.size(); ++i) r.push_back(v.get(i));
  return r;
}
std::vector<double> read(const Indices& v) {
  std::vector<double> r;
  for (size_t i = 0; i < v.size(); ++i) r.push_back(static_cast<double>(v.get(i)));
  return r;
}

struct Results {  // every op's results for one layout
  std::vector<double> y, idx, gi, u, ugi;
  std::vector<int64_t> out_shape, unpooled_shape;
};

Results run(Layout layout, int dims, const std::vector<int64_t>& shape, const PoolParams& pp0,
            const std::vector<double>& x, const std::vector<double>& go_pool,
            const std::vector<double>& go_unpool, DType dt, IndexType it) {
  Results r;
  PoolParams pp = pp0;
  pp.layout = layout;
  const Shape in = make_shape(shape);
  Shape out;
  std::string err;
  EXPECT_EQ(unpool::max_pool_shape(pp, in, &out, &err), Status::kOk) << err;
  r.out_shape = shape_vec(out);
  Values xv(dt, x), y(dt, count(out)),
      go(dt, std::vector<double>(go_pool.begin(), go_pool.begin() + static_cast<long>(count(out))));
  Indices idx(it, count(out));
  EXPECT_EQ(unpool::max_pool(pp, in, dt, xv.data(), y.data(), it, idx.data(), &err), Status::kOk);
  Values gi(dt, count(in));
  EXPECT_EQ(unpool::max_pool_backward(pp, in, out, dt, go.data(), it, idx.data(), gi.data(), &err),
            Status::kOk)
      << err;
  r.y = read(y);
  r.idx = read(idx);
  r.gi = read(gi);
  UnpoolParams up;
  up.dims = dims;
  up.kernel = pp.kernel;
  up.stride = pp.stride;
  up.padding = pp.padding;
  up.layout = layout;
  Shape uout;
  if (unpool::max_unpool_shape(up, out, &uout, &err) != Status::kOk) return r;
  r.unpooled_shape = shape_vec(uout);
  Values u(dt, count(uout));
  if (unpool::max_unpool(up, out, dt, y.data(), it, idx.data(), u.data(), &err) != Status::kOk) {
    return r;  // an index of a window wholly in padding: both layouts refuse
  }
  r.u = read(u);
  Values ugo(dt, std::vector<double>(go_unpool.begin(),
                                     go_unpool.begin() + static_cast<long>(count(uout))));
  Values ugi(dt, count(out));
  EXPECT_EQ(unpool::max_unpool_backward(dims, layout, uout, out, dt, ugo.data(), it, idx.data(),
                                        ugi.data(), &err),
            Status::kOk)
      << err;
  r.ugi = read(ugi);
  return r;
}

TEST(Layout, ChannelsLastIsTheTransposeOfChannelsFirst) {
  std::mt19937 rng(99);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  static const double kVals[] = {-1, 0, -0.0, 1, 2, 2, NAN, INFINITY, -INFINITY, 0.5};
  int ran = 0;
  for (int iter = 0; iter < 300; ++iter) {
    const int dims = pick(1, 3);
    const DType dt = pick(0, 1) ? DType::kFloat64 : DType::kFloat32;
    const IndexType it = pick(0, 1) ? IndexType::kInt64 : IndexType::kInt32;
    std::vector<int64_t> cf;
    if (pick(0, 3)) cf.push_back(pick(1, 2));
    cf.push_back(pick(1, 5));
    PoolParams pp;
    pp.dims = dims;
    pp.kernel = {dims, true, {}};
    pp.stride = {dims, true, {}};
    pp.padding = {dims, true, {}};
    pp.dilation = {dims, true, {}};
    pp.ceil_mode = pick(0, 1);
    for (int i = 0; i < dims; ++i) {
      cf.push_back(pick(1, dims == 3 ? 5 : 9));
      pp.kernel.values[i] = pick(1, 3);
      pp.stride.values[i] = pick(1, 3);
      pp.padding.values[i] = pick(0, static_cast<int>(pp.kernel.values[i] / 2));
      pp.dilation.values[i] = pick(1, 2);
    }
    Shape probe;
    std::string err;
    if (unpool::max_pool_shape(pp, make_shape(cf), &probe, &err) != Status::kOk) continue;
    SCOPED_TRACE("iteration " + std::to_string(iter));
    std::vector<double> x(count(make_shape(cf))), seed(4096);
    for (auto& v : x) v = kVals[pick(0, 9)];
    for (auto& v : seed) v = pick(-8, 8) * 0.25;
    const Results a = run(Layout::kChannelsFirst, dims, cf, pp, x, seed, seed, dt, it);
    const auto cl = last_shape(cf, dims);
    // The same data and gradients, moved to channels last.
    const std::vector<int64_t> out_cf = a.out_shape;
    // The same gradients as the channels-first run, moved to channels last.
    auto prefix = [&](size_t n) {
      return std::vector<double>(seed.begin(), seed.begin() + static_cast<long>(n));
    };
    const auto go_pool = transpose(prefix(a.y.size()), out_cf, dims, true);
    const auto go_unpool =
        a.u.empty() ? seed : transpose(prefix(a.u.size()), a.unpooled_shape, dims, true);
    const Results b = run(Layout::kChannelsLast, dims, cl, pp, transpose(x, cf, dims, true),
                          go_pool, go_unpool, dt, it);
    ASSERT_EQ(b.out_shape, last_shape(out_cf, dims));
    auto same = [&](const std::vector<double>& cfv, const std::vector<double>& clv,
                    const std::vector<int64_t>& shape, const char* what) {
      const auto t = transpose(clv, shape, dims, false);
      ASSERT_EQ(t.size(), cfv.size()) << what;
      for (size_t i = 0; i < t.size(); ++i) {
        ASSERT_TRUE(exact_equal(dt, t[i], cfv[i])) << what << " element " << i;
      }
    };
    same(a.y, b.y, out_cf, "output");
    same(a.idx, b.idx, out_cf, "indices");
    same(a.gi, b.gi, cf, "pool backward");
    ASSERT_EQ(a.u.empty(), b.u.empty());
    if (!a.u.empty()) {
      same(a.u, b.u, a.unpooled_shape, "unpool");
      same(a.ugi, b.ugi, out_cf, "unpool backward");
    }
    ++ran;
  }
  EXPECT_GT(ran, 100);
}

TEST(Layout, ChannelsLastShapesAndMessages) {
  PoolParams pp;
  pp.dims = 2;
  pp.kernel = {1, false, {2}};
  pp.layout = Layout::kChannelsLast;
  Shape out;
  std::string err;
  ASSERT_EQ(unpool::max_pool_shape(pp, make_shape({2, 8, 6, 3}), &out, &err), Status::kOk);
  EXPECT_EQ(shape_vec(out), (std::vector<int64_t>{2, 4, 3, 3}));
  EXPECT_NE(unpool::max_pool_shape(pp, make_shape({8, 6}), &out, &err), Status::kOk);
  EXPECT_EQ(err, "maxPool2d: x must have rank 3 (H, W, C) or 4 (N, H, W, C), got rank 2 [8, 6]");
  UnpoolParams up;
  up.dims = 2;
  up.kernel = {1, false, {2}};
  up.layout = Layout::kChannelsLast;
  up.output_size_count = 4;  // (N, H, W, C): spatial entries before C
  const int64_t os[4] = {2, 8, 7, 3};
  std::copy(os, os + 4, up.output_size);
  ASSERT_EQ(unpool::max_unpool_shape(up, make_shape({2, 4, 3, 3}), &out, &err), Status::kOk) << err;
  EXPECT_EQ(shape_vec(out), (std::vector<int64_t>{2, 8, 7, 3}));
  up.output_size[2] = 9;
  EXPECT_NE(unpool::max_unpool_shape(up, make_shape({2, 4, 3, 3}), &out, &err), Status::kOk);
  EXPECT_EQ(err,
            "maxUnpool2d: outputSize[2]=9 is outside 5..7 for input 3, kernel 2, stride 2, "
            "padding 0");
}

TEST(Layout, ChannelsLastDuplicateIndicesLaterWins) {
  UnpoolParams up;  // (L=3, C=2) unbatched 1d, all three positions write offset 1
  up.dims = 1;
  up.kernel = {1, false, {2}};
  up.layout = Layout::kChannelsLast;
  Values x(DType::kFloat32, {1, 10, 2, 20, 3, 30}), y(DType::kFloat32, 12, -1);
  Indices idx(IndexType::kInt64, {1, 5, 1, 0, 1, 5});
  std::string err;
  ASSERT_EQ(unpool::max_unpool(up, make_shape({3, 2}), DType::kFloat32, x.data(), IndexType::kInt64,
                               idx.data(), y.data(), &err),
            Status::kOk)
      << err;
  // c=0 writes 1, 2, 3 at offset 1; c=1 writes 10 at 5, 20 at 0, 30 at 5.
  EXPECT_EQ(diff_values(y, {0, 20, 3, 0, 0, 0, 0, 0, 0, 0, 0, 30}), "");
}

}  // namespace
}  // namespace unpool_test
