// The 16-bit window kernels (adaptive and fractional pooling): their
// float32 keys over every bit pattern, and every variant over window lists
// against a float32 model of PyTorch's rules, channels first and last.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "half_test_util.h"
#include "ukernel_test_util.h"
#include "ukernels/argmaxpool_half.h"
#include "ukernels/config.h"
#include "ukernels/ukernels.h"

namespace unpool_test {
namespace {

using unpool::ukernels::BFloat16;
using unpool::ukernels::Float16;
using unpool::ukernels::HalfTraits;

// half_window_keys over every bit pattern (and a run that starts unaligned
// and ends in the scalar tail): NaN exactly for the NaNs, and for the others
// the float32 order of the values, +-0 equal.
template <typename H>
void check_window_keys() {
  std::vector<uint16_t> bits(65536);
  for (size_t i = 0; i < bits.size(); ++i) bits[i] = static_cast<uint16_t>(i);
  std::vector<float> keys(bits.size());
  unpool::ukernels::half_window_keys(bits.data(), 65536, HalfTraits<H>::kInf, keys.data());
  std::vector<float> tail(61, 7.0f);
  unpool::ukernels::half_window_keys(bits.data() + 32765, 61, HalfTraits<H>::kInf, tail.data());
  for (size_t i = 0; i < tail.size(); ++i) {
    ASSERT_EQ(std::memcmp(&tail[i], &keys[32765 + i], sizeof(float)), 0) << i;
  }
  std::vector<uint16_t> numbers;
  for (size_t i = 0; i < bits.size(); ++i) {
    const bool nan = std::isnan(HalfTraits<H>::to_float(bits[i]));
    ASSERT_EQ(std::isnan(keys[i]), nan) << std::hex << i;
    if (!nan) numbers.push_back(bits[i]);
  }
  std::stable_sort(numbers.begin(), numbers.end(), [](uint16_t a, uint16_t b) {
    return HalfTraits<H>::to_float(a) < HalfTraits<H>::to_float(b);
  });
  for (size_t i = 1; i < numbers.size(); ++i) {
    const float a = HalfTraits<H>::to_float(numbers[i - 1]),
                b = HalfTraits<H>::to_float(numbers[i]);
    const float ka = keys[numbers[i - 1]], kb = keys[numbers[i]];
    ASSERT_EQ(ka < kb, a < b) << std::hex << numbers[i - 1] << " " << numbers[i];
    ASSERT_EQ(ka == kb, a == b) << std::hex << numbers[i - 1] << " " << numbers[i];
  }
}

TEST(Half, WindowKeysOrderLikeTheValues) {
  check_window_keys<Float16>();
  check_window_keys<BFloat16>();
}

// Window lists over D x H x W planes (overlapping, uneven, repeated, narrow
// and wide, both of the column scan's second passes), every variant against
// the float32 model, with cells around the outputs that no variant may
// write; and the channels-last windows on float32 keys.
template <typename H>
void check_window_kernels() {
  int ran_cols = 0;
  for (uint32_t seed : {0u, 5u, 6u}) {
    for (const auto& c : window_kernel_cases()) {
      for (bool nan : {true, false}) {
        const int64_t D = c[0], Hh = c[1], W = c[2], od = c[3], oh = c[4], ow = c[5];
        const WindowLists ld = window_lists(D, od, c[6], seed ? seed + 1 : 0),
                          lh = window_lists(Hh, oh, c[6], seed ? seed + 2 : 0),
                          lw = window_lists(W, ow, c[6], seed ? seed + 3 : 0);
        const unpool::ukernels::ArgmaxWindows a{ld.list(), lh.list(), lw.list(), Hh, W};
        const size_t in = static_cast<size_t>(D * Hh * W), out = static_cast<size_t>(od * oh * ow);
        // The float32 model's results on plane x.
        auto expect = [&](const std::vector<H>& x, std::vector<uint16_t>* bits,
                          std::vector<int64_t>* offsets) {
          bits->resize(out);
          offsets->resize(out);
          for (int64_t d = 0, o = 0; d < od; ++d) {
            for (int64_t h = 0; h < oh; ++h) {
              for (int64_t w = 0; w < ow; ++w, ++o) {
                std::vector<uint16_t> taps;
                std::vector<int64_t> at;
                for (int64_t i = ld.start[d]; i < ld.end[d]; ++i) {
                  for (int64_t j = lh.start[h]; j < lh.end[h]; ++j) {
                    for (int64_t k = lw.start[w]; k < lw.end[w]; ++k) {
                      at.push_back((i * Hh + j) * W + k);
                      taps.push_back(x[static_cast<size_t>(at.back())].bits);
                    }
                  }
                }
                model<H>(taps, at, &(*bits)[o], &(*offsets)[o]);
              }
            }
          }
        };
        const std::vector<H> x = row_data<H>(in, static_cast<uint32_t>(in * 7 + seed), nan);
        std::vector<uint16_t> want_bits;
        std::vector<int64_t> want_at;
        expect(x, &want_bits, &want_at);
        // Channels last: 3 planes side by side (x and two more), through the
        // float32 channels-last kernel on keys.
        {
          constexpr int64_t C = 3;
          std::vector<std::vector<H>> planes{x};
          std::vector<H> xc(in * C);
          for (int64_t ch = 1; ch < C; ++ch) {
            planes.push_back(row_data<H>(in, static_cast<uint32_t>(in * 7 + seed + ch), nan));
          }
          for (size_t i = 0; i < in; ++i) {
            for (int64_t ch = 0; ch < C; ++ch) xc[i * C + ch] = planes[ch][i];
          }
          std::vector<float> keys(in * C), fout(out * C);
          std::vector<H> y(out * C + 4, H{0x1234});
          std::vector<int32_t> idx(out * C + 4, -7);
          unpool::ukernels::argmaxpool_windows_nhwc_bits_on_keys<int32_t>(
              &xc.data()->bits, a, C, HalfTraits<H>::kInf,
              &unpool::ukernels::argmaxpool_windows_nhwc__scalar<float, int32_t>, keys.data(),
              fout.data(), &y.data()->bits, idx.data());
          for (size_t g = out * C; g < y.size(); ++g) {
            ASSERT_TRUE(y[g].bits == 0x1234 && idx[g] == -7) << "wrote past its outputs";
          }
          for (int64_t ch = 0; ch < C; ++ch) {
            std::vector<uint16_t> bits;
            std::vector<int64_t> at;
            expect(planes[ch], &bits, &at);
            for (size_t o = 0; o < out; ++o) {
              ASSERT_EQ(y[o * C + ch].bits, bits[o]) << "channels last, channel " << ch << " " << o;
              ASSERT_EQ(idx[o * C + ch], at[o]) << "channels last, channel " << ch << " " << o;
            }
          }
        }
        auto every_variant = [&](auto index) {
          using I = decltype(index);
          std::vector<float> best(W), run(W), keys(in), fout(out);
          std::vector<int32_t> at(W), run_at(W), order(ow);
          const unpool::ukernels::WindowScratch<H> s{best.data(),   at.data(),    run.data(),
                                                     run_at.data(), order.data(), keys.data(),
                                                     fout.data()};
          for (const auto& v : unpool::ukernels::kArgmaxpoolWindowsHalfVariants<H, I>) {
            ASSERT_TRUE(v.applies(a, D * Hh)) << v.name;
            if (v.fn == &unpool::ukernels::argmaxpool_windows_half__cols<H, I>) ++ran_cols;
            constexpr size_t kGuard = 4;
            std::vector<H> y(out + 2 * kGuard, H{0x1234});
            std::vector<I> idx(out + 2 * kGuard, I(-7));
            v.fn(x.data(), a, s, y.data() + kGuard, idx.data() + kGuard);
            for (size_t g = 0; g < kGuard; ++g) {
              ASSERT_TRUE(y[g].bits == 0x1234 && y[y.size() - 1 - g].bits == 0x1234 &&
                          idx[g] == I(-7) && idx[idx.size() - 1 - g] == I(-7))
                  << v.name << " wrote outside its outputs";
            }
            for (size_t o = 0; o < out; ++o) {
              ASSERT_EQ(y[kGuard + o].bits, want_bits[o])
                  << v.name << " seed " << seed << " W=" << W << " output " << o;
              ASSERT_EQ(int64_t{idx[kGuard + o]}, want_at[o])
                  << v.name << " seed " << seed << " W=" << W << " output " << o;
            }
          }
        };
        every_variant(int32_t{});
        every_variant(int64_t{});
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
  EXPECT_GT(ran_cols, 0);
  // Planes above 2^22 values would need more key scratch: the scalar kernel.
  // Below, config.h picks the keys in the SIMD build (the scalar build's
  // float32 column scan is slower than its 16-bit scalar kernel).
  const int64_t zero = 0, one = 1;
  const unpool::ukernels::WindowList l{&zero, &one, 1};
  const unpool::ukernels::ArgmaxWindows wide{l, l, l, 1024, 4096};
  EXPECT_TRUE((unpool::ukernels::argmaxpool_windows_half__cols_applies<H, int32_t>(wide, 1024)));
  EXPECT_FALSE((unpool::ukernels::argmaxpool_windows_half__cols_applies<H, int32_t>(wide, 1025)));
  EXPECT_EQ((unpool::ukernels::config::argmaxpool_windows<H, int32_t>(wide, 1025)),
            (&unpool::ukernels::argmaxpool_windows_half__scalar_s<H, int32_t>));
#ifdef __wasm_simd128__
  EXPECT_EQ((unpool::ukernels::config::argmaxpool_windows<H, int32_t>(wide, 1024)),
            (&unpool::ukernels::argmaxpool_windows_half__cols<H, int32_t>));
#else
  EXPECT_EQ((unpool::ukernels::config::argmaxpool_windows<H, int32_t>(wide, 1024)),
            (&unpool::ukernels::argmaxpool_windows_half__scalar_s<H, int32_t>));
#endif
}

TEST(Half, WindowKernelsFollowTheFloat32Rule) {
  check_window_kernels<Float16>();
  check_window_kernels<BFloat16>();
}

}  // namespace
}  // namespace unpool_test
