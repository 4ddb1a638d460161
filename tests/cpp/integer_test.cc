// Integer values (uint8, int8, int16, int32, int64) through the C++ API
// against the naive reference (tests/cpp/reference.h, on the integer type
// itself): random pools in both layouts with many ties and the types'
// extremes, adaptive pools, unpools and their gather; the uint8 row kernels
// bit for bit against their scalar reference; and the ops that refuse
// integers.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "geometry.h"
#include "pool_rows.h"
#include "reference.h"
#include "test_util.h"
#include "ukernels/ukernels.h"

namespace unpool_test {
namespace {

using unpool::Layout;
using unpool::Status;

template <typename T>
struct TypeOf;
template <>
struct TypeOf<uint8_t> {
  static constexpr DType kType = DType::kUint8;
};
template <>
struct TypeOf<int8_t> {
  static constexpr DType kType = DType::kInt8;
};
template <>
struct TypeOf<int16_t> {
  static constexpr DType kType = DType::kInt16;
};
template <>
struct TypeOf<int32_t> {
  static constexpr DType kType = DType::kInt32;
};
template <>
struct TypeOf<int64_t> {
  static constexpr DType kType = DType::kInt64;
};

// Random values: a small range (many ties), the type's ends, or any value.
template <typename T>
std::vector<T> random_values(std::mt19937_64& rng, size_t n, int mode) {
  using L = std::numeric_limits<T>;
  const T ends[] = {L::lowest(), static_cast<T>(L::lowest() + 1), T(0),
                    static_cast<T>(L::max() - 1), L::max()};
  std::vector<T> v(n);
  for (auto& e : v) {
    const uint64_t r = rng();
    if (mode == 0) e = static_cast<T>(r % 4);
    else if (mode == 1) e = ends[r % 5];
    else if (mode == 2) e = L::lowest();  // every window all-lowest
    else std::memcpy(&e, &r, sizeof(T));
  }
  return v;
}

// (planes, S) channels first <-> (N, S, C) channels last.
template <typename T>
std::vector<T> to_last(const std::vector<T>& v, int64_t n, int64_t c, int64_t s) {
  std::vector<T> r(v.size());
  for (int64_t a = 0; a < n; ++a)
    for (int64_t b = 0; b < c; ++b)
      for (int64_t i = 0; i < s; ++i) r[(a * s + i) * c + b] = v[(a * c + b) * s + i];
  return r;
}

template <typename T>
void check_pools() {
  std::mt19937_64 rng(31);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int iter = 0; iter < 300; ++iter) {
    const int dims = static_cast<int>(pick(1, 3));
    const bool last = iter % 2 == 1;
    RefGeom g;
    const int64_t N = pick(1, 2), C = pick(1, 5);
    g.planes = N * C;
    unpool::PoolParams p;
    p.dims = dims;
    p.layout = last ? Layout::kChannelsLast : Layout::kChannelsFirst;
    p.kernel.count = p.stride.count = p.padding.count = p.dilation.count = dims;
    p.kernel.list = p.stride.list = p.padding.list = p.dilation.list = true;
    p.ceil_mode = pick(0, 1) == 1;
    std::vector<int64_t> shape = {N, C};
    for (int i = 3 - dims; i < 3; ++i) {
      const int j = i - (3 - dims);
      g.in[i] = pick(1, i == 2 ? 40 : 7);
      g.k[i] = pick(1, 3);
      g.s[i] = pick(1, 3);
      g.d[i] = pick(1, 2);
      g.p[i] = pick(0, g.k[i] / 2);
      // k2 s2 rows often, for the uint8 SIMD kernel.
      if (iter % 3 == 0) g.k[i] = g.s[i] = 2, g.d[i] = 1;
      p.kernel.values[j] = g.k[i];
      p.stride.values[j] = g.s[i];
      p.padding.values[j] = g.p[i];
      p.dilation.values[j] = g.d[i];
      g.out[i] = ref_pool_out(g.in[i], g.k[i], g.s[i], g.p[i], g.d[i], p.ceil_mode);
      if (!last) shape.push_back(g.in[i]);
    }
    const int64_t S = g.in[0] * g.in[1] * g.in[2], So = g.out[0] * g.out[1] * g.out[2];
    if (last) {
      shape.pop_back();
      for (int i = 3 - dims; i < 3; ++i) shape.push_back(g.in[i]);
      shape.push_back(C);
    }
    if (So <= 0) continue;
    const std::vector<T> x = random_values<T>(rng, static_cast<size_t>(g.planes * S), iter % 4);
    std::vector<T> want;
    std::vector<int64_t> want_i;
    ref_pool(g, x, &want, &want_i);
    const std::vector<T> xin = last ? to_last(x, N, C, S) : x;
    for (IndexType it : {IndexType::kInt32, IndexType::kInt64}) {
      std::vector<T> y(want.size() + 8, T(7));
      Indices idx(it, want.size());
      std::string error;
      ASSERT_EQ(unpool::max_pool(p, make_shape(shape), TypeOf<T>::kType, xin.data(), y.data(), it,
                                 idx.data(), &error),
                Status::kOk)
          << error;
      const std::vector<T> got = last ? y : y;
      const std::vector<T> want_l = last ? to_last(want, N, C, So) : want;
      std::vector<int64_t> wi = want_i;
      if (last) wi = to_last(want_i, N, C, So);
      for (size_t o = 0; o < want.size(); ++o) {
        ASSERT_EQ(int64_t{got[o]}, int64_t{want_l[o]}) << "iter " << iter << " o " << o;
        ASSERT_EQ(idx.get(o), wi[o]) << "iter " << iter << " o " << o;
      }
      for (size_t o = want.size(); o < y.size(); ++o) ASSERT_EQ(y[o], T(7)) << "write past y";
      ASSERT_TRUE(idx.guards_intact());
      // Unpool of the result (kernel form): copies, the later duplicate wins.
      if (last || it == IndexType::kInt32) continue;
      RefGeom u = g;
      for (int i = 0; i < 3; ++i) std::swap(u.in[i], u.out[i]);
      bool in_plane = true;
      for (auto j : want_i) in_plane = in_plane && j < S;
      if (!in_plane) continue;
      const std::vector<T> up = ref_unpool(u, want, want_i);
      std::vector<T> uy(up.size() + 8, T(5));
      std::vector<int64_t> ushape = {N, C};
      for (int i = 3 - dims; i < 3; ++i) ushape.push_back(g.out[i]);
      unpool::UnpoolParams q;
      q.dims = dims;
      q.kernel = p.kernel;
      q.stride = p.stride;
      q.padding = p.padding;
      q.output_size_count = dims;
      for (int i = 0; i < dims; ++i) q.output_size[i] = g.in[3 - dims + i];
      const Status s = unpool::max_unpool(q, make_shape(ushape), TypeOf<T>::kType, want.data(), it,
                                          want_i.data(), uy.data(), &error);
      if (s != Status::kOk) continue;  // an output size outside the unpool's range
      for (size_t o = 0; o < up.size(); ++o) ASSERT_EQ(int64_t{uy[o]}, int64_t{up[o]}) << o;
      for (size_t o = up.size(); o < uy.size(); ++o) ASSERT_EQ(uy[o], T(5));
      // Its gradient: a gather of integers.
      const std::vector<T> gather = ref_unpool_backward(u, up, want_i);
      std::vector<T> gi(gather.size());
      std::vector<int64_t> xshape = shape;
      ASSERT_EQ(unpool::max_unpool_backward(dims, Layout::kChannelsFirst, make_shape(xshape),
                                            make_shape(ushape), TypeOf<T>::kType, up.data(), it,
                                            want_i.data(), gi.data(), &error),
                Status::kOk)
          << error;
      ASSERT_EQ(gi, gather);
    }
  }
}

TEST(Integer, PoolsAndUnpoolsMatchTheReference) {
  check_pools<uint8_t>();
  check_pools<int8_t>();
  check_pools<int16_t>();
  check_pools<int32_t>();
  check_pools<int64_t>();
}

template <typename T>
void check_adaptive() {
  std::mt19937_64 rng(17);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int iter = 0; iter < 120; ++iter) {
    const int dims = static_cast<int>(pick(1, 3));
    const bool last = iter % 2 == 1;
    const int64_t N = pick(1, 2), C = pick(1, 4);
    int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
    unpool::AdaptivePoolParams p;
    p.dims = dims;
    p.layout = last ? Layout::kChannelsLast : Layout::kChannelsFirst;
    p.output_size.count = dims;
    p.output_size.list = true;
    std::vector<int64_t> shape = {N};
    if (!last) shape.push_back(C);
    for (int i = 3 - dims; i < 3; ++i) {
      in[i] = pick(1, 9);
      out[i] = pick(1, 11);
      p.output_size.values[i - (3 - dims)] = out[i];
      shape.push_back(in[i]);
    }
    if (last) shape.push_back(C);
    const int64_t S = in[0] * in[1] * in[2], So = out[0] * out[1] * out[2];
    const std::vector<T> x = random_values<T>(rng, static_cast<size_t>(N * C * S), iter % 4);
    std::vector<T> want;
    std::vector<int64_t> want_i;
    ref_adaptive_pool(N * C, in, out, x, &want, &want_i);
    const std::vector<T> xin = last ? to_last(x, N, C, S) : x;
    unpool::Plan plan;
    std::string error;
    ASSERT_EQ(unpool::plan_adaptive_max_pool(p, make_shape(shape), TypeOf<T>::kType,
                                             IndexType::kInt64, &plan, &error),
              Status::kOk)
        << error;
    std::vector<T> y(want.size());
    std::vector<int64_t> idx(want.size());
    ASSERT_EQ(unpool::run_adaptive_max_pool(plan, {}, xin.data(), y.data(), idx.data(), &error),
              Status::kOk)
        << error;
    EXPECT_EQ(y, last ? to_last(want, N, C, So) : want) << "iter " << iter;
    EXPECT_EQ(idx, last ? to_last(want_i, N, C, So) : want_i) << "iter " << iter;
  }
}

TEST(Integer, AdaptivePoolsMatchTheReference) {
  check_adaptive<uint8_t>();
  check_adaptive<int8_t>();
  check_adaptive<int16_t>();
  check_adaptive<int32_t>();
  check_adaptive<int64_t>();
}

// Every uint8 row variant, where its guard holds, gives the bits of the
// first (scalar) one, through the operator layer's row loop.
TEST(Integer, Uint8RowVariantsMatchTheScalarOne) {
  namespace uk = unpool::ukernels;
  std::mt19937_64 rng(5);
  int ran = 0;
  // 16 to 30: 8 to 15 outputs a row (the SIMD kernel's 8-wide groups, overlapping);
  // up to 254: window rows close enough for the indices from the key codes
  // alone; 255 to 13106: farther apart, indices from the taps; 16400: rows past
  // 2^16 elements, where the SIMD kernel computes indices in 32 bits.
  for (int64_t W : {2,  15, 16, 17, 18,  20,  24,  30,  31,  32,  33,    34,
                    35, 47, 64, 65, 112, 253, 254, 255, 256, 300, 13106, 16400}) {
    for (int64_t pad : {0, 1}) {
      for (int mode = 0; mode < 4; ++mode) {
        unpool::PoolParams p;
        p.dims = 2;
        p.kernel = {1, false, {2}};
        p.padding = {1, false, {pad}};
        p.ceil_mode = mode % 2 == 1;
        const int64_t H = 5;
        unpool::Plan plan;
        std::string error;
        ASSERT_EQ(unpool::plan_max_pool(p, make_shape({1, 2, H, W}), DType::kUint8,
                                        IndexType::kInt32, &plan, &error),
                  Status::kOk)
            << error;
        const auto x = random_values<uint8_t>(rng, static_cast<size_t>(2 * H * W), mode);
        const size_t n = static_cast<size_t>(plan.geometry.planes * plan.geometry.out_plane());
        std::vector<uint8_t> y0(n);
        std::vector<int32_t> i0(n);
        const auto& variants = uk::kArgmaxpoolU8Variants<int32_t>;
        unpool::internal::pool_rows<uint8_t, int32_t>(plan.geometry, x.data(), y0.data(), i0.data(),
                                                      variants[0].fn);
        for (const auto& v : variants) {
          std::vector<uint8_t> y(n, 9);
          std::vector<int32_t> idx(n, -1);
          unpool::internal::pool_rows<uint8_t, int32_t>(
              plan.geometry, x.data(), y.data(), idx.data(),
              [&](const uint8_t* px, const uk::ArgmaxRow& r, uint8_t* py, int32_t* pi) {
                if (v.applies(r)) {
                  ++ran;
                  v.fn(px, r, py, pi);
                } else {
                  variants[0].fn(px, r, py, pi);
                }
              });
          ASSERT_EQ(y, y0) << v.name << " W=" << W << " pad " << pad;
          ASSERT_EQ(idx, i0) << v.name << " W=" << W << " pad " << pad;
        }
      }
    }
  }
  EXPECT_GT(ran, 0);
}

// Fractional pooling and the gradients that add refuse integers, with a
// message that starts with the op and names the dtype.
TEST(Integer, RefusedWhereTheyAdd) {
  const DType types[] = {DType::kUint8, DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64};
  for (DType t : types) {
    SCOPED_TRACE(unpool::dtype_name(t));
    unpool::Plan plan;
    std::string error;
    unpool::PoolParams p;
    p.kernel = {1, false, {2}};
    EXPECT_EQ(unpool::plan_max_pool_backward(p, make_shape({1, 1, 4, 4}), make_shape({1, 1, 2, 2}),
                                             t, IndexType::kInt32, &plan, &error),
              Status::kInvalidArgument);
    EXPECT_EQ(error.rfind("maxPool2dBackward: gradOutput holds ", 0), 0u) << error;
    EXPECT_NE(error.find(unpool::dtype_name(t)), std::string::npos) << error;
    EXPECT_EQ(unpool::plan_adaptive_max_pool_backward(
                  2, Layout::kChannelsFirst, make_shape({1, 1, 4, 4}), make_shape({1, 1, 2, 2}), t,
                  IndexType::kInt32, &plan, &error),
              Status::kInvalidArgument);
    EXPECT_EQ(error.rfind("adaptiveMaxPool2dBackward: ", 0), 0u) << error;
    unpool::FractionalPoolParams f;
    f.kernel = {1, false, {2}};
    f.output_size = {1, false, {2}};
    EXPECT_EQ(unpool::plan_fractional_max_pool(f, make_shape({1, 1, 4, 4}), make_shape({1, 1, 2}),
                                               t, IndexType::kInt32, &plan, &error),
              Status::kInvalidArgument);
    EXPECT_EQ(error.rfind("fractionalMaxPool2d: ", 0), 0u) << error;
    EXPECT_NE(error.find(unpool::dtype_name(t)), std::string::npos) << error;
    EXPECT_NE(unpool::plan_fractional_max_pool_backward(2, make_shape({1, 1, 4, 4}),
                                                        make_shape({1, 1, 2, 2}), t,
                                                        IndexType::kInt32, &plan, &error),
              Status::kOk);
    EXPECT_EQ(error.rfind("fractionalMaxPool2dBackward: ", 0), 0u) << error;
  }
}

}  // namespace
}  // namespace unpool_test
