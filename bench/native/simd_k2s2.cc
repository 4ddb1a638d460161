// The k2s2 pool's SIMD kernels alone, float16, bfloat16 and float32, on 64
// planes of 112x112 (the 2d 1x64x112x112 workload), built two ways by
// bench/native/simde.sh: em++ -msimd128 under Node, and natively with g++
// through SIMDe, so the same kernel code runs as WebAssembly and as native
// code. Prints the median µs per call of each and a hash of its results
// (values and indices), which every build must print the same.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "ukernels/argmaxpool_half_wasmsimd.h"
#include "ukernels/argmaxpool_wasmsimd_k2s2.h"

using unpool::ukernels::ArgmaxRow;
using unpool::ukernels::BFloat16;
using unpool::ukernels::Float16;
using unpool::ukernels::HalfTraits;

namespace {

constexpr int kPlanes = 64, kIn = 112, kOut = 56;

template <typename F>
double median_us(F run) {
  for (int k = 0; k < 100; ++k) run();  // warm-up
  std::vector<double> t;
  for (int rep = 0; rep < 15; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < 50; ++k) run();
    t.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
        50);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// FNV-1a over the bytes of `v`, continuing from h.
template <typename T>
uint64_t hash(const std::vector<T>& v, uint64_t h = 14695981039346656037u) {
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  for (size_t i = 0; i < v.size() * sizeof(T); ++i) h = (h ^ p[i]) * 1099511628211u;
  return h;
}

}  // namespace

int main() {
  int64_t rows[2] = {0, kIn};
  ArgmaxRow r{};
  r.rows = rows;
  r.nrows = 2;
  r.width = kIn;
  r.out_width = kOut;
  r.kernel = r.stride = 2;
  r.dilation = 1;
  r.count = kOut;
  r.step = 2 * kIn;
  const size_t in = size_t{kPlanes} * kIn * kIn, out = size_t{kPlanes} * kOut * kOut;
  // bench/js/suite.mjs's input(): values in [-128, 128).
  std::vector<float> x32(in), y32(out);
  std::vector<Float16> x16(in), y16(out);
  std::vector<BFloat16> xb(in), yb(out);
  std::vector<int32_t> idx(out);
  uint32_t a = 1;
  for (size_t i = 0; i < in; ++i) {
    a = a * 1664525u + 1013904223u;
    x32[i] = static_cast<float>(a >> 8) / 65536.0f - 128.0f;
    x16[i].bits = HalfTraits<Float16>::from_float(x32[i]);
    xb[i].bits = HalfTraits<BFloat16>::from_float(x32[i]);
  }
  auto pool = [&](auto kernel, const auto* x, auto* y) {
    return [&, kernel, x, y] {
      for (int p = 0; p < kPlanes; ++p) {
        kernel(x + p * kIn * kIn, r, y + p * kOut * kOut, idx.data() + p * kOut * kOut);
      }
    };
  };
  using unpool::ukernels::argmaxpool_row__wasmsimd_k2s2;
  using unpool::ukernels::argmaxpool_row_half__wasmsimd_k2s2;
  const double t16 = median_us(
      pool(&argmaxpool_row_half__wasmsimd_k2s2<Float16, int32_t>, x16.data(), y16.data()));
  const uint64_t h16 = hash(idx, hash(y16));
  const double tb =
      median_us(pool(&argmaxpool_row_half__wasmsimd_k2s2<BFloat16, int32_t>, xb.data(), yb.data()));
  const uint64_t hb = hash(idx, hash(yb));
  const double t32 =
      median_us(pool(&argmaxpool_row__wasmsimd_k2s2<float, int32_t>, x32.data(), y32.data()));
  const uint64_t h32 = hash(idx, hash(y32));
  std::printf("float16 %.1f %016llx\n", t16, static_cast<unsigned long long>(h16));
  std::printf("bfloat16 %.1f %016llx\n", tb, static_cast<unsigned long long>(hb));
  std::printf("float32 %.1f %016llx\n", t32, static_cast<unsigned long long>(h32));
  return 0;
}
