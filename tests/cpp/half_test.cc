// 16-bit values: conversions against exact references, the monotone key, and
// the half kernels against a float32 model of PyTorch's rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "pool_rows.h"
#include "ukernel_test_util.h"
#include "ukernels/argmaxpool_half.h"
#include "ukernels/argmaxpool_half_wasmsimd.h"
#include "ukernels/config.h"
#include "ukernels/ukernels.h"
#include "unpool/unpool.h"

namespace unpool_test {
namespace {

using unpool::ukernels::ArgmaxRow;
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

// A float32 model of the pool rule on one window sequence.
template <typename H>
void model(const std::vector<uint16_t>& taps, const std::vector<int64_t>& at, uint16_t* bits,
           int64_t* index) {
  float best = -INFINITY;
  *bits = HalfTraits<H>::kNegInf;
  *index = at[0];
  for (size_t i = 0; i < taps.size(); ++i) {
    const float v = HalfTraits<H>::to_float(taps[i]);
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
    const uint16_t* t = std::is_same<H, Float16>::value ? kF16 : kBF16;
    do {
      a = a * 1664525u + 1013904223u;
      e.bits = t[(a >> 10) % 14];
    } while (!nan && (e.bits & 0x7fff) > HalfTraits<H>::kInf);
  }
  return v;
}

template <typename H>
void check_row_kernels() {
  // Runs of `count` output rows over a 2d plane W wide, 5 count rows high,
  // pooled 1d along W (kernel, stride, padding, dilation: k2s2 with padding
  // 0 and 1, k3s1, k3s2, k2s1, dilated, k3s3, k4s4, k5s3, dilated s3), over
  // 1 to 4 window rows (rows 0, 1, 3 and 4 of each 5: uneven gaps, as a 3d
  // window's rows have), on data with and without NaN.
  for (int64_t W : {1, 2, 3, 7, 16, 17, 18, 33, 40, 70}) {
    for (int64_t nrows : {1, 2, 3, 4}) {
      for (int64_t count : {1, 3}) {
        for (bool nan : {true, false}) {
          for (auto geo : {std::array<int64_t, 4>{2, 2, 0, 1},
                           {2, 2, 1, 1},
                           {3, 1, 1, 1},
                           {3, 2, 1, 1},
                           {2, 1, 0, 1},
                           {3, 2, 1, 2},
                           {2, 1, 1, 3},
                           {3, 3, 0, 1},
                           {4, 4, 1, 1},
                           {5, 3, 2, 1},
                           {2, 3, 1, 2}}) {
            const int64_t k = geo[0], s = geo[1], pad = geo[2], dil = geo[3];
            const int64_t out = (W + 2 * pad - dil * (k - 1) - 1) / s + 1;
            if (out < 1) continue;
            const std::vector<H> x = row_data<H>(static_cast<size_t>(5 * W * count),
                                                 static_cast<uint32_t>(W * 31 + nrows), nan);
            const int64_t rows[4] = {0, W, 3 * W, 4 * W};
            ArgmaxRow r{rows, nrows, 0, W, out, k, s, pad, dil, count, 5 * W};
            const size_t n = static_cast<size_t>(out * count);
            std::vector<H> y(n);
            std::vector<int32_t> idx(n);
            unpool::ukernels::argmaxpool_row_half__scalar<H, int32_t>(x.data(), r, y.data(),
                                                                      idx.data());
            for (int64_t t = 0; t < count; ++t) {
              for (int64_t ow = 0; ow < out; ++ow) {
                std::vector<uint16_t> taps;
                std::vector<int64_t> at;
                // The window's taps w0, w0 + dil, ... inside [0, W); with none
                // (wholly in padding), -inf at its first position, as the kernels.
                int64_t w0 = ow * s - pad;
                const int64_t w1 = std::min(w0 + (k - 1) * dil + 1, W);
                if (w0 < 0) w0 += (-w0 + dil - 1) / dil * dil;
                for (int64_t row = 0; row < nrows; ++row) {
                  for (int64_t w = w0; w < w1; w += dil) {
                    const int64_t o = t * 5 * W + rows[row] + w;
                    taps.push_back(x[static_cast<size_t>(o)].bits);
                    at.push_back(o);
                  }
                }
                uint16_t want_bits = HalfTraits<H>::kNegInf;
                int64_t want_at = t * 5 * W + w0;
                if (!taps.empty()) model<H>(taps, at, &want_bits, &want_at);
                const size_t o = static_cast<size_t>(t * out + ow);
                ASSERT_EQ(y[o].bits, want_bits) << "W=" << W << " t=" << t << " ow=" << ow;
                ASSERT_EQ(idx[o], want_at) << "W=" << W << " t=" << t << " ow=" << ow;
              }
            }
            // Every variant of the list (the scalar one first) where its
            // guard holds, with both index types.
            auto every_variant = [&](auto index) {
              using I = decltype(index);
              for (const auto& v : unpool::ukernels::kArgmaxpoolHalfVariants<H, I>) {
                if (!v.applies(r)) continue;
                std::vector<H> y2(n);
                std::vector<I> i2(n);
                v.fn(x.data(), r, y2.data(), i2.data());
                for (size_t o = 0; o < n; ++o) {
                  ASSERT_EQ(y2[o].bits, y[o].bits)
                      << v.name << " W=" << W << " " << o << " nan " << nan;
                  ASSERT_EQ(int64_t{i2[o]}, int64_t{idx[o]})
                      << v.name << " W=" << W << " " << o << " nan " << nan;
                }
              }
            };
            every_variant(int32_t{});
            every_variant(int64_t{});
          }
        }
      }
    }
  }
}

TEST(Half, RowKernelsFollowTheFloat32Rule) {
  check_row_kernels<Float16>();
  check_row_kernels<BFloat16>();
}

// Channels-last positions: a D x H x W input of C channels and one window
// (clipped, dilated, or empty), every variant against the float32 model per
// channel, on data with and without NaN, with cells around the outputs that
// no variant may write.
template <typename H>
void check_nhwc_kernels() {
  std::mt19937 rng(7);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int ran_simd = 0;
  for (int64_t C : {1, 7, 8, 9, 15, 16, 17, 24, 33, 64}) {
    for (int iter = 0; iter < 80; ++iter) {
      const bool nan = iter % 2 == 0;
      int64_t in[3];
      unpool::ukernels::ArgmaxNhwc p{};
      for (int i = 0; i < 3; ++i) {
        in[i] = pick(1, 4);
        p.dilation[i] = pick(1, 2);
        p.start[i] = pick(0, in[i] - 1);
        p.end[i] = std::min(in[i], p.start[i] + pick(0, 3) * p.dilation[i]);
      }
      p.height = in[1];
      p.width = in[2];
      p.channels = C;
      const std::vector<H> x = row_data<H>(static_cast<size_t>(in[0] * in[1] * in[2] * C),
                                           static_cast<uint32_t>(C * 1000 + iter), nan);
      const int64_t first = (p.start[0] * in[1] + p.start[1]) * in[2] + p.start[2];
      std::vector<uint16_t> want_bits(static_cast<size_t>(C));
      std::vector<int64_t> want_at(static_cast<size_t>(C));
      for (int64_t c = 0; c < C; ++c) {
        std::vector<uint16_t> taps;
        std::vector<int64_t> at;
        for (int64_t d = p.start[0]; d < p.end[0]; d += p.dilation[0]) {
          for (int64_t h = p.start[1]; h < p.end[1]; h += p.dilation[1]) {
            for (int64_t w = p.start[2]; w < p.end[2]; w += p.dilation[2]) {
              const int64_t o = (d * in[1] + h) * in[2] + w;
              taps.push_back(x[static_cast<size_t>(o * C + c)].bits);
              at.push_back(o);
            }
          }
        }
        const size_t k = static_cast<size_t>(c);
        want_bits[k] = HalfTraits<H>::kNegInf;
        want_at[k] = first;
        if (!taps.empty()) model<H>(taps, at, &want_bits[k], &want_at[k]);
      }
      auto every_variant = [&](auto index) {
        using I = decltype(index);
        const auto chosen = unpool::ukernels::config::argmaxpool_nhwc<H, I>(p);
        bool chosen_applies = false;
        for (const auto& v : unpool::ukernels::kArgmaxpoolNhwcHalfVariants<H, I>) {
          chosen_applies |= v.fn == chosen && v.applies(p);
          if (!v.applies(p)) continue;
          if (std::string(v.name).find("wasmsimd") != std::string::npos) ++ran_simd;
          constexpr size_t kGuard = 4;
          std::vector<H> y(static_cast<size_t>(C) + 2 * kGuard, H{0x1234});
          std::vector<I> idx(static_cast<size_t>(C) + 2 * kGuard, I(-7));
          v.fn(x.data(), p, y.data() + kGuard, idx.data() + kGuard);
          for (size_t g = 0; g < kGuard; ++g) {
            ASSERT_TRUE(y[g].bits == 0x1234 && y[y.size() - 1 - g].bits == 0x1234 &&
                        idx[g] == I(-7) && idx[idx.size() - 1 - g] == I(-7))
                << v.name << " wrote outside its channels, C=" << C << " iter " << iter;
          }
          for (size_t c = 0; c < static_cast<size_t>(C); ++c) {
            ASSERT_EQ(y[kGuard + c].bits, want_bits[c])
                << v.name << " C=" << C << " iter " << iter << " channel " << c;
            ASSERT_EQ(int64_t{idx[kGuard + c]}, want_at[c])
                << v.name << " C=" << C << " iter " << iter << " channel " << c;
          }
        }
        ASSERT_TRUE(chosen_applies) << "config picks a variant whose guard fails";
      };
      every_variant(int32_t{});
      every_variant(int64_t{});
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
#ifdef __wasm_simd128__
  EXPECT_GT(ran_simd, 0) << "argmaxpool_nhwc_half__wasmsimd never ran";
  EXPECT_EQ((unpool::ukernels::config::argmaxpool_nhwc<H, int32_t>(unpool::ukernels::ArgmaxNhwc{})),
            (&unpool::ukernels::argmaxpool_nhwc_half__wasmsimd<H, int32_t>));
#else
  EXPECT_EQ(ran_simd, 0);
#endif
}

TEST(Half, NhwcKernelsFollowTheFloat32Rule) {
  check_nhwc_kernels<Float16>();
  check_nhwc_kernels<BFloat16>();
}

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

// The channels-first pool op on 16-bit values (which runs on float32 keys
// where no 16-bit SIMD kernel applies), and the keys path on its own in
// every build, against the scalar 16-bit kernel through the same row loop:
// random geometries with strides 1 to 4, dilation, padding, ceil mode
// (windows wholly in padding), both index types.
template <typename H>
void check_pool_op(unpool::DType dtype) {
  std::mt19937 rng(11);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int checked = 0;
  for (int iter = 0; iter < 300; ++iter) {
    unpool::PoolParams pp;
    pp.dims = static_cast<int32_t>(pick(1, 3));
    pp.ceil_mode = pick(0, 1) != 0;
    unpool::Shape in;
    in.rank = pp.dims + 2;
    in.dims[0] = pick(1, 2);
    in.dims[1] = pick(1, 3);
    for (auto* a : {&pp.kernel, &pp.stride, &pp.padding, &pp.dilation}) {
      a->count = pp.dims;
      a->list = true;
    }
    for (int i = 0; i < pp.dims; ++i) {
      in.dims[2 + i] = i == pp.dims - 1 ? pick(1, 40) : pick(1, 7);
      pp.kernel.values[i] = pick(1, 4);
      pp.stride.values[i] = pick(1, 4);
      pp.dilation.values[i] = pick(0, 3) == 0 ? pick(2, 3) : 1;
      pp.padding.values[i] = pick(0, pp.kernel.values[i] / 2);
    }
    for (auto itype : {unpool::IndexType::kInt32, unpool::IndexType::kInt64}) {
      unpool::Plan plan;
      std::string err;
      if (unpool::plan_max_pool(pp, in, dtype, itype, &plan, &err) != unpool::Status::kOk) break;
      const auto& g = plan.geometry;
      const size_t n_in = static_cast<size_t>(g.planes * g.in_plane());
      const size_t n_out = static_cast<size_t>(g.planes * g.out_plane());
      const std::vector<H> x = row_data<H>(n_in, static_cast<uint32_t>(iter), iter % 3 != 0);
      std::vector<H> want(n_out);
      std::vector<int64_t> want_at(n_out);
      unpool::internal::pool_rows<H, int64_t>(
          g, x.data(), want.data(), want_at.data(),
          [](const H* px, const ArgmaxRow& r, H* py, int64_t* pi) {
            unpool::ukernels::argmaxpool_row_half__scalar<H, int64_t>(px, r, py, pi);
          });
      std::vector<H> y(n_out, H{0x1234});
      std::vector<int64_t> idx(n_out, -7);  // int32 indices fill the first half
      ASSERT_EQ(
          unpool::run_max_pool(plan, unpool::PlaneRange{}, x.data(), y.data(), idx.data(), &err),
          unpool::Status::kOk)
          << err;
      for (size_t o = 0; o < n_out; ++o) {
        const int64_t at = itype == unpool::IndexType::kInt64
                               ? idx[o]
                               : reinterpret_cast<const int32_t*>(idx.data())[o];
        ASSERT_EQ(y[o].bits, want[o].bits) << "iter " << iter << " output " << o;
        ASSERT_EQ(at, want_at[o]) << "iter " << iter << " output " << o;
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(Half, PoolOpGivesTheScalarKernelsBits) {
  check_pool_op<Float16>(unpool::DType::kFloat16);
  check_pool_op<BFloat16>(unpool::DType::kBFloat16);
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
