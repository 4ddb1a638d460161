// The channels-last microkernels of ukernels/variants.inc: every argmax
// variant against the first (argmaxpool_nhwc__scalar) on the positions its
// guard accepts, and that one, like the unpool, scatter-add and gather
// kernels, against the channels-first kernels run on each channel's plane.
// Channel counts sweep around the SIMD tile and the kernels' channel block
// (c < 4, c == 4, c % 4 != 0, 16, 17, large); windows are clipped, dilated
// or wholly in padding; data holds NaNs, ties, +-0 and +-inf. Results must
// be identical bits.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ukernels/config.h"
#include "ukernels/ukernels.h"

namespace unpool_test {
namespace {

namespace uk = unpool::ukernels;

template <typename T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T>
std::vector<T> nasty_values(std::mt19937& rng, size_t n) {
  const T inf = std::numeric_limits<T>::infinity();
  const T nan = std::numeric_limits<T>::quiet_NaN();
  const T specials[] = {T(0), -T(0), inf, -inf, nan, -nan, T(1), T(-1), T(2)};
  std::uniform_int_distribution<int> flavour(0, 2), special(0, 8), small(-2, 2), rare(0, 9);
  const int f = flavour(rng);
  std::vector<T> v(n);
  for (auto& e : v) {
    if (f == 0) e = T(small(rng));  // many ties
    else if (f == 1) e = rare(rng) == 0 ? specials[special(rng)] : T(small(rng));
    else e = specials[special(rng)];
  }
  return v;
}

const int64_t kChannels[] = {1, 2, 3, 4, 5, 7, 8, 12, 15, 16, 17, 19, 20, 32, 33, 67};

// A 3d input of D x H x W positions, channels interleaved, and one window
// per dim drawn around it (clipped, dilated, or wholly outside).
struct NhwcCase {
  int64_t in[3];
  int64_t channels;
  uk::ArgmaxNhwc p;
  std::string describe() const {
    std::ostringstream m;
    m << "input " << in[0] << "x" << in[1] << "x" << in[2] << " C " << channels << " window";
    for (int i = 0; i < 3; ++i) {
      m << " [" << p.start[i] << ", " << p.end[i] << ") step " << p.dilation[i];
    }
    return m.str();
  }
};

NhwcCase random_nhwc_case(std::mt19937& rng, int64_t channels) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  NhwcCase c{};
  c.channels = channels;
  for (int i = 0; i < 3; ++i) {
    c.in[i] = pick(1, 4);
    const int64_t k = pick(1, 3), d = pick(0, 2) ? 1 : 2, pad = pick(0, k);
    const int64_t o = pick(0, (c.in[i] + 2 * pad - 1) / (k > 0 ? k : 1));
    const uk::Window w = uk::clipped_window(o, c.in[i], k, k, pad, d);
    c.p.start[i] = w.start;
    c.p.end[i] = w.end;
    c.p.dilation[i] = d;
  }
  c.p.height = c.in[1];
  c.p.width = c.in[2];
  c.p.channels = channels;
  return c;
}

// Channel c of the input alone, channels first: the naive rule.
template <typename T, typename I>
void reference_position(const std::vector<T>& x, const NhwcCase& c, int64_t ch, T* y, I* idx) {
  const auto& p = c.p;
  T best = -std::numeric_limits<T>::infinity();
  I at = static_cast<I>((p.start[0] * p.height + p.start[1]) * p.width + p.start[2]);
  for (int64_t d = p.start[0]; d < p.end[0]; d += p.dilation[0]) {
    for (int64_t h = p.start[1]; h < p.end[1]; h += p.dilation[1]) {
      for (int64_t w = p.start[2]; w < p.end[2]; w += p.dilation[2]) {
        const int64_t o = (d * p.height + h) * p.width + w;
        const T v = x[static_cast<size_t>(o * c.channels + ch)];
        if (v > best || v != v) {
          best = v;
          at = static_cast<I>(o);
        }
      }
    }
  }
  *y = best;
  *idx = at;
}

template <typename T, typename I>
void check_argmaxpool_nhwc(std::mt19937& rng, int64_t channels, int* ran_simd) {
  const NhwcCase c = random_nhwc_case(rng, channels);
  const size_t n = static_cast<size_t>(c.in[0] * c.in[1] * c.in[2] * channels);
  const std::vector<T> x = nasty_values<T>(rng, n);
  const size_t C = static_cast<size_t>(channels);
  std::vector<T> want_y(C);
  std::vector<I> want_i(C);
  for (int64_t ch = 0; ch < channels; ++ch) {
    const size_t at = static_cast<size_t>(ch);
    reference_position(x, c, ch, &want_y[at], &want_i[at]);
  }
  const auto chosen = uk::config::argmaxpool_nhwc<T, I>(c.p);
  bool chosen_applies = false;
  for (const auto& v : uk::kArgmaxpoolNhwcVariants<T, I>) {
    chosen_applies |= v.fn == chosen && v.applies(c.p);
    if (!v.applies(c.p)) continue;
    if (std::string(v.name).find("wasmsimd") != std::string::npos) ++*ran_simd;
    constexpr size_t kGuard = 4;
    std::vector<T> y(C + 2 * kGuard, T(7.5));
    std::vector<I> idx(C + 2 * kGuard, I(-7));
    v.fn(x.data(), c.p, y.data() + kGuard, idx.data() + kGuard);
    for (size_t g = 0; g < kGuard; ++g) {
      ASSERT_TRUE(y[g] == T(7.5) && y[y.size() - 1 - g] == T(7.5) && idx[g] == I(-7) &&
                  idx[idx.size() - 1 - g] == I(-7))
          << v.name << " wrote outside its channels: " << c.describe();
    }
    for (size_t ch = 0; ch < C; ++ch) {
      ASSERT_TRUE(same_bits(y[kGuard + ch], want_y[ch]) && idx[kGuard + ch] == want_i[ch])
          << v.name << " " << sizeof(T) * 8 << "-bit values, " << sizeof(I) * 8 << "-bit indices, "
          << c.describe() << ": channel " << ch << " got " << y[kGuard + ch] << " at "
          << idx[kGuard + ch] << ", want " << want_y[ch] << " at " << want_i[ch];
    }
  }
  ASSERT_TRUE(chosen_applies) << "config picks a variant whose guard fails: " << c.describe();
}

TEST(UkernelNhwc, ArgmaxpoolVariantsMatchTheReferenceBits) {
  std::mt19937 rng(31);
  int ran_simd = 0;
  for (int64_t channels : kChannels) {
    for (int iter = 0; iter < 150; ++iter) {
      check_argmaxpool_nhwc<float, int32_t>(rng, channels, &ran_simd);
      check_argmaxpool_nhwc<float, int64_t>(rng, channels, &ran_simd);
      check_argmaxpool_nhwc<double, int32_t>(rng, channels, &ran_simd);
      check_argmaxpool_nhwc<double, int64_t>(rng, channels, &ran_simd);
      if (HasFatalFailure()) return;
    }
  }
  const auto f32 = uk::config::argmaxpool_nhwc<float, int32_t>(uk::ArgmaxNhwc{});
#ifdef __wasm_simd128__
  EXPECT_GT(ran_simd, 0) << "argmaxpool_nhwc__wasmsimd never ran";
  const auto want = &uk::argmaxpool_nhwc__wasmsimd<float, int32_t>;
#else
  const auto want = &uk::argmaxpool_nhwc__scalar<float, int32_t>;
#endif
  EXPECT_EQ(f32, want) << "config's channels-last f32 kernel";
}

// The interleaved kernels against the channels-first ones on each channel.
template <typename T, typename I>
void check_scatter_nhwc(std::mt19937& rng, int64_t n, int64_t plane, int64_t channels) {
  const std::string what = std::to_string(sizeof(T) * 8) + "-bit values, " +
                           std::to_string(sizeof(I) * 8) + "-bit indices, n " + std::to_string(n) +
                           " plane " + std::to_string(plane) + " C " + std::to_string(channels);
  const size_t C = static_cast<size_t>(channels), N = static_cast<size_t>(n),
               M = static_cast<size_t>(plane);
  std::uniform_int_distribution<int64_t> any(0, plane - 1), wild(-3, plane + 2);
  std::vector<I> idx(N * C), wild_idx(N * C);
  for (auto& v : idx) v = static_cast<I>(any(rng));
  for (auto& v : wild_idx) v = static_cast<I>(wild(rng));
  const std::vector<T> x = nasty_values<T>(rng, N * C), g = nasty_values<T>(rng, M * C);
  // Channel ch of an interleaved array as a plane of its own.
  auto plane_of = [C](const auto& a, size_t ch) {
    std::vector<typename std::decay_t<decltype(a)>::value_type> r(a.size() / C);
    for (size_t i = 0; i < r.size(); ++i) r[i] = a[i * C + ch];
    return r;
  };
  std::vector<T> unpooled(M * C, T(0)), summed(M * C, T(0)), gathered(N * C, T(0));
  for (const auto& v : uk::kUnpoolNhwcVariants<T, I>) {
    if (v.applies()) v.fn(x.data(), idx.data(), n, channels, unpooled.data());
  }
  for (const auto& v : uk::kScatterAddNhwcVariants<T, I>) {
    if (v.applies()) v.fn(x.data(), wild_idx.data(), n, channels, plane, summed.data());
  }
  for (const auto& v : uk::kGatherNhwcVariants<T, I>) {
    if (v.applies()) v.fn(g.data(), idx.data(), n, channels, gathered.data());
  }
  for (size_t ch = 0; ch < C; ++ch) {
    const std::vector<T> xc = plane_of(x, ch), gc = plane_of(g, ch);
    const std::vector<I> ic = plane_of(idx, ch), wc = plane_of(wild_idx, ch);
    std::vector<T> u(M, T(0)), s(M, T(0)), ga(N, T(0));
    uk::unpool_scatter__scalar(xc.data(), ic.data(), n, u.data());
    uk::scatter_add_in_range__scalar(xc.data(), wc.data(), n, plane, s.data());
    uk::gather__scalar(gc.data(), ic.data(), n, ga.data());
    for (size_t i = 0; i < M; ++i) {
      ASSERT_TRUE(same_bits(unpooled[i * C + ch], u[i])) << "unpool " << what << " ch " << ch;
      ASSERT_TRUE(same_bits(summed[i * C + ch], s[i]))
          << "scatter-add (offsets outside the plane too) " << what << " ch " << ch;
    }
    for (size_t i = 0; i < N; ++i) {
      ASSERT_TRUE(same_bits(gathered[i * C + ch], ga[i])) << "gather " << what << " ch " << ch;
    }
  }
}

TEST(UkernelNhwc, ScatterGatherMatchChannelsFirstBits) {
  std::mt19937 rng(77);
  for (int64_t channels : kChannels) {
    for (int64_t n : {1, 3, 4, 9, 64}) {
      for (int64_t plane : {n, 4 * n, (n + 1) / 2}) {
        check_scatter_nhwc<float, int32_t>(rng, n, plane, channels);
        check_scatter_nhwc<double, int64_t>(rng, n, plane, channels);
        if (HasFatalFailure()) return;
      }
    }
  }
}

}  // namespace
}  // namespace unpool_test
