// Window-list argmax variants (adaptive and fractional pooling): every
// variant gives the scalar reference's bits on window lists that overlap,
// repeat, leave gaps and sit at uneven starts, narrow and wide (both of
// argmaxpool_windows__cols's second passes), with ties, NaNs, -0 and -inf;
// the channels-last variant gives the channels-first bits plane by plane.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ukernel_test_util.h"
#include "ukernels/ukernels.h"

namespace unpool_test {
namespace {

using unpool::ukernels::ArgmaxWindows;
using unpool::ukernels::WindowScratch;

template <typename T>
std::vector<T> data(size_t n, uint32_t seed) {
  std::vector<T> v(n);
  for (auto& e : v) {
    seed = seed * 1664525u + 1013904223u;
    const uint32_t r = seed >> 8;
    e = static_cast<T>(static_cast<int>(r % 7) - 3);  // many ties
    if (r % 53 == 0) e = std::numeric_limits<T>::quiet_NaN();
    if (r % 47 == 0) e = -std::numeric_limits<T>::infinity();
    if (r % 41 == 0) e = static_cast<T>(-0.0);
  }
  return v;
}

bool same(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b); }
bool same(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b); }

template <typename T, typename I>
void check_all(int64_t D, int64_t H, int64_t W, int64_t od, int64_t oh, int64_t ow, int64_t width,
               uint32_t seed, int64_t channels) {
  const WindowLists ld = window_lists(D, od, width, seed ? seed + 1 : 0);
  const WindowLists lh = window_lists(H, oh, width, seed ? seed + 2 : 0);
  const WindowLists lw = window_lists(W, ow, width, seed ? seed + 3 : 0);
  const ArgmaxWindows a{ld.list(), lh.list(), lw.list(), H, W};
  const size_t in = static_cast<size_t>(D * H * W), out = static_cast<size_t>(od * oh * ow);
  std::vector<T> best(static_cast<size_t>(W)), run(static_cast<size_t>(W));
  std::vector<int32_t> at(static_cast<size_t>(W)), run_at(static_cast<size_t>(W)),
      order(static_cast<size_t>(ow));
  const WindowScratch<T> s{best.data(), at.data(), run.data(), run_at.data(), order.data()};
  const std::vector<T> x = data<T>(in * static_cast<size_t>(channels), seed + 7);
  const auto& variants = unpool::ukernels::kArgmaxpoolWindowsVariants<T, I>;
  std::vector<T> y0(out);
  std::vector<I> i0(out);
  variants[0].fn(x.data(), a, s, y0.data(), i0.data());
  for (const auto& v : variants) {
    SCOPED_TRACE(std::string(v.name) + " D=" + std::to_string(D) + " H=" + std::to_string(H) +
                 " W=" + std::to_string(W) + " out " + std::to_string(od) + "x" +
                 std::to_string(oh) + "x" + std::to_string(ow) + " seed " + std::to_string(seed));
    ASSERT_TRUE(v.applies(a, D * H));
    std::vector<T> y(out, T(7));
    std::vector<I> i(out, I(-7));
    v.fn(x.data(), a, s, y.data(), i.data());
    for (size_t k = 0; k < out; ++k) {
      ASSERT_TRUE(same(y[k], y0[k])) << k;
      ASSERT_EQ(i[k], i0[k]) << k;
    }
  }
  // Channels last: `channels` planes interleaved; plane c must give the
  // channels-first bits of plane c.
  std::vector<T> xc(in * static_cast<size_t>(channels));
  for (size_t p = 0; p < in; ++p) {
    for (int64_t c = 0; c < channels; ++c) xc[p * channels + c] = x[c * in + p];
  }
  for (const auto& v : unpool::ukernels::kArgmaxpoolWindowsNhwcVariants<T, I>) {
    SCOPED_TRACE(v.name);
    std::vector<T> y(out * channels);
    std::vector<I> i(out * channels);
    v.fn(xc.data(), a, channels, y.data(), i.data());
    for (int64_t c = 0; c < channels; ++c) {
      variants[0].fn(x.data() + c * in, a, s, y0.data(), i0.data());
      for (size_t k = 0; k < out; ++k) {
        ASSERT_TRUE(same(y[k * channels + c], y0[k])) << c << " " << k;
        ASSERT_EQ(i[k * channels + c], i0[k]) << c << " " << k;
      }
    }
  }
}

TEST(UkernelWindows, EveryVariantGivesTheReferenceBits) {
  for (uint32_t seed : {0u, 11u, 12u}) {
    for (const auto& c : window_kernel_cases()) {
      check_all<float, int32_t>(c[0], c[1], c[2], c[3], c[4], c[5], c[6], seed, 3);
      check_all<double, int64_t>(c[0], c[1], c[2], c[3], c[4], c[5], c[6], seed, 5);
    }
  }
}

}  // namespace
}  // namespace unpool_test
