// The 16-bit max-pool kernels on rows (channels first) and on channels-last
// positions, every variant against a float32 model of PyTorch's rules, and
// the pool op on 16-bit values against the scalar kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "half_test_util.h"
#include "pool_rows.h"
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

}  // namespace
}  // namespace unpool_test
