// 16-bit values: conversions against exact references, the monotone key,
// and the gradient's rounding after every add. The half kernels against a
// float32 model of PyTorch's rules: half_rows_test.cc (rows, channels last,
// the pool op) and half_windows_test.cc (window keys and lists).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "ukernels/argmaxpool_half.h"

namespace unpool_test {
namespace {

using unpool::ukernels::BFloat16;
using unpool::ukernels::Float16;
using unpool::ukernels::HalfTraits;

// float16 value of `h` computed in double from its fields.
double f16_value(uint16_t h) {
  const int sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  double v;
  if (exp == 0x1f) v = man ? std::numeric_limits<double>::quiet_NaN() : INFINITY;
  else if (exp == 0) v = std::ldexp(man, -24);
  else v = std::ldexp(1024 + man, exp - 25);
  return sign ? -v : v;
}

TEST(Half, Float16ToFloatIsExactForEveryPattern) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const float f = HalfTraits<Float16>::to_float(static_cast<uint16_t>(h));
    const double want = f16_value(static_cast<uint16_t>(h));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(f)) << h;
    } else {
      ASSERT_EQ(static_cast<double>(f), want) << h;
      ASSERT_EQ(std::signbit(f), (h & 0x8000) != 0) << h;
    }
  }
}

TEST(Half, Float16RoundTripsAndRoundsToNearestEven) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint16_t b = static_cast<uint16_t>(h);
    const uint16_t back = HalfTraits<Float16>::from_float(HalfTraits<Float16>::to_float(b));
    if ((b & 0x7fff) > 0x7c00) {
      ASSERT_EQ(back, static_cast<uint16_t>((b & 0x8000) | 0x7e00)) << h;
    } else {
      ASSERT_EQ(back, b) << h;
    }
  }
  // Every float halfway between two neighbours, and just off it: RNE.
  // (65504's upper neighbour is inf: the overflow bound is checked below.)
  for (uint32_t h = 0; h < 0x7bff; ++h) {
    const double lo = f16_value(static_cast<uint16_t>(h)),
                 hi = f16_value(static_cast<uint16_t>(h + 1));
    const float mid = static_cast<float>((lo + hi) / 2);  // exact in float32
    ASSERT_EQ(static_cast<double>(mid), (lo + hi) / 2);
    const uint16_t even = (h & 1) ? static_cast<uint16_t>(h + 1) : static_cast<uint16_t>(h);
    ASSERT_EQ(HalfTraits<Float16>::from_float(mid), even) << h;
    ASSERT_EQ(HalfTraits<Float16>::from_float(-mid), even | 0x8000) << h;
    ASSERT_EQ(HalfTraits<Float16>::from_float(std::nextafter(mid, 0.0f)), h) << h;
    ASSERT_EQ(HalfTraits<Float16>::from_float(std::nextafter(mid, INFINITY)), h + 1) << h;
  }
  EXPECT_EQ(HalfTraits<Float16>::from_float(65504.0f + 16.0f), 0x7c00);  // the tie goes up
  EXPECT_EQ(HalfTraits<Float16>::from_float(65519.996f), 0x7bff);
  EXPECT_EQ(HalfTraits<Float16>::from_float(1e30f), 0x7c00);
  EXPECT_EQ(HalfTraits<Float16>::from_float(-INFINITY), 0xfc00);
}

TEST(Half, BFloat16ConversionsMatchTheirDefinition) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const float f = HalfTraits<BFloat16>::to_float(static_cast<uint16_t>(h));
    uint32_t u;
    std::memcpy(&u, &f, 4);
    ASSERT_EQ(u, h << 16);
    const uint16_t back = HalfTraits<BFloat16>::from_float(f);
    ASSERT_EQ(back, (h & 0x7fff) > 0x7f80 ? 0x7fc0 : h) << h;
  }
  // Halfway between 1 and its successor: to even (1).
  EXPECT_EQ(HalfTraits<BFloat16>::from_float(1.00390625f), 0x3f80);
  EXPECT_EQ(HalfTraits<BFloat16>::from_float(1.01171875f), 0x3f82);  // 1 + 3 * 2^-8: up to even
  EXPECT_EQ(HalfTraits<BFloat16>::from_float(256.5f), 0x4380);  // 256 + 0.5 stays 256
}

TEST(Half, KeysOrderLikeTheValuesWithSignedZerosEqual) {
  std::vector<uint16_t> v;
  for (uint32_t h = 0; h < 65536; h += 7) {
    if ((h & 0x7fff) <= 0x7c00) v.push_back(static_cast<uint16_t>(h));
  }
  v.push_back(0x0000);
  v.push_back(0x8000);
  for (size_t i = 0; i < v.size(); i += 3) {
    for (size_t j = 0; j < v.size(); j += 5) {
      const float a = HalfTraits<Float16>::to_float(v[i]), b = HalfTraits<Float16>::to_float(v[j]);
      ASSERT_EQ(unpool::ukernels::half_key(v[i]) > unpool::ukernels::half_key(v[j]), a > b);
      ASSERT_EQ(unpool::ukernels::half_key(v[i]) == unpool::ukernels::half_key(v[j]), a == b);
    }
  }
}

TEST(Half, ScatterAddRoundsAfterEveryAdd) {
  // bfloat16: 256 + 0.5 + 0.5 stays 256 (each sum rounds back); float16:
  // 65504 + 16 is +inf.
  std::vector<BFloat16> go(4, BFloat16{0x3f00}), gi(1, BFloat16{0x4380});
  const int32_t idx[4] = {0, 0, 0, 0};
  unpool::ukernels::scatter_add_half__scalar<BFloat16, int32_t>(go.data(), idx, 4, gi.data());
  EXPECT_EQ(gi[0].bits, 0x4380);
  std::vector<Float16> go16(1, Float16{0x4c00}), gi16(1, Float16{0x7bff});
  unpool::ukernels::scatter_add_half__scalar<Float16, int32_t>(go16.data(), idx, 1, gi16.data());
  EXPECT_EQ(gi16[0].bits, 0x7c00);
  std::vector<Float16> gr(2, Float16{0x3c00});
  const int64_t idx2[3] = {1, -1, 5};
  std::vector<Float16> g3(3, Float16{0x3c00});
  unpool::ukernels::scatter_add_half_in_range__scalar<Float16, int64_t>(g3.data(), idx2, 3, 2,
                                                                        gr.data());
  EXPECT_EQ(gr[0].bits, 0x3c00);
  EXPECT_EQ(gr[1].bits, 0x4000);
}

}  // namespace
}  // namespace unpool_test
