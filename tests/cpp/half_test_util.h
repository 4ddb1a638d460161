// Helpers of the 16-bit tests (half_*_test.cc): a float32 model of the pool
// rule, and row data full of ties, +-0, +-inf, subnormals and NaNs.
#ifndef UNPOOL_TESTS_CPP_HALF_TEST_UTIL_H_
#define UNPOOL_TESTS_CPP_HALF_TEST_UTIL_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "ukernels/half.h"

namespace unpool_test {

// A float32 model of the pool rule on one window sequence.
template <typename H>
void model(const std::vector<uint16_t>& taps, const std::vector<int64_t>& at, uint16_t* bits,
           int64_t* index) {
  float best = -INFINITY;
  *bits = unpool::ukernels::HalfTraits<H>::kNegInf;
  *index = at[0];
  for (size_t i = 0; i < taps.size(); ++i) {
    const float v = unpool::ukernels::HalfTraits<H>::to_float(taps[i]);
    if (v > best || std::isnan(v)) {
      best = v;
      *bits = taps[i];
      *index = at[i];
    }
  }
}

// Values with ties, +-0, +-inf, subnormals, and NaNs of both signs unless
// `nan` is false (the SIMD kernel's ordered pass).
template <typename H>
std::vector<H> row_data(size_t n, uint32_t seed, bool nan = true) {
  static const uint16_t kF16[] = {0x3c00, 0x3c00, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00,
                                  0xfe01, 0x0001, 0x8001, 0x4000, 0xc000, 0x7bff, 0x3555};
  static const uint16_t kBF16[] = {0x3f80, 0x3f80, 0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0,
                                   0xffc1, 0x0001, 0x8001, 0x4000, 0xc000, 0x7f7f, 0x3eaa};
  std::vector<H> v(n);
  uint32_t a = seed;
  for (auto& e : v) {
    a = a * 1664525u + 1013904223u;
    const uint16_t* t = std::is_same<H, unpool::ukernels::Float16>::value ? kF16 : kBF16;
    do {
      a = a * 1664525u + 1013904223u;
      e.bits = t[(a >> 10) % 14];
    } while (!nan && (e.bits & 0x7fff) > unpool::ukernels::HalfTraits<H>::kInf);
  }
  return v;
}

}  // namespace unpool_test

#endif  // UNPOOL_TESTS_CPP_HALF_TEST_UTIL_H_
