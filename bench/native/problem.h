// The workloads of the native benchmarks and the buffers of one (the input,
// its pool, gradients), shared by kernels_bench.cc and
// channels_last_bench.h.
#ifndef UNPOOL_BENCH_NATIVE_PROBLEM_H_
#define UNPOOL_BENCH_NATIVE_PROBLEM_H_

#include <cstdint>
#include <random>
#include <vector>

#include "geometry.h"
#include "unpool/unpool.h"

namespace unpool_bench {

struct Workload {
  const char* name;
  int dims;
  std::vector<int64_t> shape;  // N, C, spatial
  int64_t k, s, p;
};

inline const std::vector<Workload>& workloads() {
  static const std::vector<Workload> w = {
      {"1d/1x64x12544/k2s2", 1, {1, 64, 12544}, 2, 2, 0},
      {"2d/1x64x112x112/k2s2", 2, {1, 64, 112, 112}, 2, 2, 0},
      {"2d/8x64x56x56/k2s2", 2, {8, 64, 56, 56}, 2, 2, 0},
      {"2d/1x3x512x512/k2s2", 2, {1, 3, 512, 512}, 2, 2, 0},
      {"2d/1x8x16x16/k2s2", 2, {1, 8, 16, 16}, 2, 2, 0},
      {"2d/1x64x112x112/k3s2p1", 2, {1, 64, 112, 112}, 3, 2, 1},
      {"2d/1x64x112x112/k3s1p1", 2, {1, 64, 112, 112}, 3, 1, 1},
      {"3d/1x16x32x32x32/k2s2", 3, {1, 16, 32, 32, 32}, 2, 2, 0},
  };
  return w;
}

inline unpool::SizeArg scalar(int64_t v) {
  unpool::SizeArg a;
  a.count = 1;
  a.values[0] = v;
  return a;
}

inline unpool::Shape shape_of(const std::vector<int64_t>& v) {
  unpool::Shape s;
  s.rank = static_cast<int32_t>(v.size());
  for (size_t i = 0; i < v.size(); ++i) s.dims[i] = v[i];
  return s;
}

inline int64_t count(const unpool::Shape& s) { return unpool::numel(s); }

// Buffers of one workload: the input, its pool (values, int32 and int64
// indices), and gradients. Filled once; every benchmark reuses them.
struct Problem {
  unpool::PoolParams pool;
  unpool::UnpoolParams unpool;
  unpool::Shape in, out;
  unpool::internal::Geometry geometry;
  std::vector<float> x, y, gy, unpooled, gx;
  std::vector<int32_t> idx;
  std::vector<int64_t> idx64;
  std::vector<uint16_t> x16, y16;  // 16-bit values (finite, either sign)
  bool ok = false;

  explicit Problem(const Workload& w) {
    pool.dims = unpool.dims = w.dims;
    pool.kernel = unpool.kernel = scalar(w.k);
    pool.stride = unpool.stride = scalar(w.s);
    pool.padding = unpool.padding = scalar(w.p);
    in = shape_of(w.shape);
    unpool.output_size_count = w.dims;  // back to the input's size
    for (int i = 0; i < w.dims; ++i) unpool.output_size[i] = w.shape[2 + i];
    if (!unpool::internal::plan_pool("bench", pool, in, &geometry, &out).ok()) return;
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> value(-1.f, 1.f);
    x.resize(static_cast<size_t>(count(in)));
    for (auto& v : x) v = value(rng);
    x16.resize(x.size());
    for (auto& v : x16) v = static_cast<uint16_t>(rng() & 0xbbff);  // exponents below inf
    y.resize(static_cast<size_t>(count(out)));
    y16.resize(y.size());
    gy = y;
    for (auto& v : gy) v = value(rng);
    idx.resize(y.size());
    idx64.resize(y.size());
    unpooled.resize(x.size());
    gx.resize(x.size());
    ok = unpool::max_pool(pool, in, unpool::DType::kFloat32, x.data(), y.data(),
                          unpool::IndexType::kInt32, idx.data(), nullptr) == unpool::Status::kOk &&
         unpool::max_pool(pool, in, unpool::DType::kFloat32, x.data(), y.data(),
                          unpool::IndexType::kInt64, idx64.data(), nullptr) == unpool::Status::kOk;
  }
};

}  // namespace unpool_bench

#endif  // UNPOOL_BENCH_NATIVE_PROBLEM_H_
