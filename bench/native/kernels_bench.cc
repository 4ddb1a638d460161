// Benchmarks of the C++ kernels (not tests): float32, int32 indices, one
// thread. Two families:
//
//   op/<op>/<workload>        the public C++ API, validation included: pool
//                             with indices, unpool of its result, and both
//                             backward passes. This is the native ceiling of
//                             the JS API.
//   ukernel/<variant>/<wl>    every microkernel variant of variants.inc over
//                             the same problem, without the operator layer.
//
// Built natively against Google Benchmark, and with em++ against
// minibench.h (see bench/native/bench.cmake and bench/native/run.sh).
#ifdef __EMSCRIPTEN__
#include "minibench.h"
#else
#include <benchmark/benchmark.h>
#endif

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "geometry.h"
#include "ukernels/ukernels.h"
#include "unpool/unpool.h"

namespace {

namespace uk = unpool::ukernels;

struct Workload {
  const char* name;
  int dims;
  std::vector<int64_t> shape;  // N, C, spatial
  int64_t k, s, p;
};

const std::vector<Workload>& workloads() {
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

unpool::SizeArg scalar(int64_t v) {
  unpool::SizeArg a;
  a.count = 1;
  a.values[0] = v;
  return a;
}

unpool::Shape shape_of(const std::vector<int64_t>& v) {
  unpool::Shape s;
  s.rank = static_cast<int32_t>(v.size());
  for (size_t i = 0; i < v.size(); ++i) s.dims[i] = v[i];
  return s;
}

int64_t count(const unpool::Shape& s) { return unpool::numel(s); }

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
    y.resize(static_cast<size_t>(count(out)));
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

// The operator layer's loop over planes and output rows, calling `fn` (one
// call per run of output rows unclipped along H, as max_pool.cc batches them).
// (Dilation 1 along D and H, as in every workload here.)
void pool_rows(const Problem& pr, uk::ArgmaxpoolFn<float, int32_t> fn, float* y, int32_t* idx) {
  const unpool::internal::Geometry& g = pr.geometry;
  const int64_t H = g.in[1], W = g.in[2];
  std::vector<int64_t> rows(static_cast<size_t>(g.kernel[0] * g.kernel[1]));
  uk::ArgmaxRow r{};
  r.rows = rows.data();
  r.width = W;
  r.out_width = g.out[2];
  r.kernel = g.kernel[2];
  r.stride = g.stride[2];
  r.pad = g.pad[2];
  r.dilation = g.dilation[2];
  r.step = g.stride[1] * W;
  int64_t batch_begin, batch_end;
  uk::unclipped_range(H, g.out[1], g.kernel[1], g.stride[1], g.pad[1], 1, 0, &batch_begin,
                      &batch_end);
  for (int64_t p = 0; p < g.planes; ++p) {
    const float* px = pr.x.data() + p * g.in_plane();
    for (int64_t od = 0; od < g.out[0]; ++od) {
      const auto sd = unpool::internal::window(od, g.in[0], g.kernel[0], g.stride[0], g.pad[0], 1);
      for (int64_t oh = 0; oh < g.out[1]; oh += r.count) {
        const auto sh = unpool::internal::window(oh, g.in[1], g.kernel[1], g.stride[1], g.pad[1], 1);
        r.count = oh >= batch_begin && oh < batch_end ? batch_end - oh : 1;
        r.first_row = (sd.start * H + sh.start) * W;
        r.nrows = 0;
        for (int64_t d = sd.start; d < sd.end; ++d) {
          for (int64_t h = sh.start; h < sh.end; ++h) {
            rows[static_cast<size_t>(r.nrows++)] = (d * H + h) * W - r.first_row;
          }
        }
        const int64_t o = p * g.out_plane() + (od * g.out[1] + oh) * g.out[2];
        fn(px, r, y + o, idx + o);
      }
    }
  }
}

void register_workload(const Workload& w) {
  auto pr = std::make_shared<Problem>(w);
  const std::string name = w.name;
  auto reg = [&](const std::string& n, auto fn) {
    benchmark::RegisterBenchmark(n.c_str(), [pr, fn](benchmark::State& st) {
      if (!pr->ok) {
        st.SkipWithError("setup failed");
        return;
      }
      fn(st, *pr);
    })->Unit(benchmark::kMicrosecond)->UseRealTime();
  };
  using benchmark::State;
  const auto f32 = unpool::DType::kFloat32;
  const auto i32 = unpool::IndexType::kInt32;
  reg("op/pool/" + name, [](State& st, Problem& p) {
    for (auto _ : st) {
      unpool::max_pool(p.pool, p.in, f32, p.x.data(), p.y.data(), i32, p.idx.data(), nullptr);
      benchmark::ClobberMemory();
    }
  });
  if (name == "2d/1x64x112x112/k2s2") {
    reg("op/pool_i64/" + name, [](State& st, Problem& p) {
      for (auto _ : st) {
        unpool::max_pool(p.pool, p.in, f32, p.x.data(), p.y.data(), unpool::IndexType::kInt64,
                         p.idx64.data(), nullptr);
        benchmark::ClobberMemory();
      }
    });
  }
  reg("op/unpool/" + name, [](State& st, Problem& p) {
    for (auto _ : st) {
      unpool::max_unpool(p.unpool, p.out, f32, p.y.data(), i32, p.idx.data(), p.unpooled.data(),
                         nullptr);
      benchmark::ClobberMemory();
    }
  });
  reg("op/pool_backward/" + name, [](State& st, Problem& p) {
    for (auto _ : st) {
      unpool::max_pool_backward(p.pool, p.in, p.out, f32, p.gy.data(), i32, p.idx.data(),
                                p.gx.data(), nullptr);
      benchmark::ClobberMemory();
    }
  });
  reg("op/unpool_backward/" + name, [](State& st, Problem& p) {
    for (auto _ : st) {
      unpool::max_unpool_backward(p.pool.dims, unpool::Layout::kChannelsFirst, p.in, p.out, f32, p.gx.data(), i32, p.idx.data(),
                                  p.gy.data(), nullptr);
      benchmark::ClobberMemory();
    }
  });
  // The floor of unpool: zero-filling its output.
  reg("memset/" + name, [](State& st, Problem& p) {
    for (auto _ : st) {
      std::memset(p.unpooled.data(), 0, p.unpooled.size() * sizeof(float));
      benchmark::ClobberMemory();
    }
  });
  for (const auto& v : uk::kArgmaxpoolVariants<float, int32_t>) {
    const auto fn = v.fn;
    reg(std::string("ukernel/") + v.name + "/" + name, [fn](State& st, Problem& p) {
      for (auto _ : st) {
        pool_rows(p, fn, p.y.data(), p.idx.data());
        benchmark::ClobberMemory();
      }
    });
  }
  const int64_t planes = w.shape[0] * w.shape[1];
  for (const auto& v : uk::kUnpoolVariants<float, int32_t>) {
    const auto fn = v.fn;
    reg(std::string("ukernel/") + v.name + "/" + name, [fn, planes](State& st, Problem& p) {
      const int64_t n = static_cast<int64_t>(p.y.size()) / planes;
      const int64_t m = static_cast<int64_t>(p.unpooled.size()) / planes;
      for (auto _ : st) {
        for (int64_t q = 0; q < planes; ++q) {
          fn(p.y.data() + q * n, p.idx.data() + q * n, n, p.unpooled.data() + q * m);
        }
        benchmark::ClobberMemory();
      }
    });
  }
  for (const auto& v : uk::kGatherVariants<float, int32_t>) {
    const auto fn = v.fn;
    reg(std::string("ukernel/") + v.name + "/" + name, [fn, planes](State& st, Problem& p) {
      const int64_t n = static_cast<int64_t>(p.y.size()) / planes;
      const int64_t m = static_cast<int64_t>(p.unpooled.size()) / planes;
      for (auto _ : st) {
        for (int64_t q = 0; q < planes; ++q) {
          fn(p.gx.data() + q * m, p.idx.data() + q * n, n, p.gy.data() + q * n);
        }
        benchmark::ClobberMemory();
      }
    });
  }
  for (const auto& v : uk::kCheckIndicesVariants<int32_t>) {
    const auto fn = v.fn;
    reg(std::string("ukernel/") + v.name + "/" + name, [fn, planes](State& st, Problem& p) {
      const int64_t n = static_cast<int64_t>(p.y.size()) / planes;
      const int64_t m = static_cast<int64_t>(p.unpooled.size()) / planes;
      for (auto _ : st) {
        bool ok = true;
        for (int64_t q = 0; q < planes; ++q) ok &= fn(p.idx.data() + q * n, n, m);
        benchmark::DoNotOptimize(ok);
      }
    });
  }
  for (const auto& v : uk::kScatterAddVariants<float, int32_t>) {
    const auto fn = v.fn;
    reg(std::string("ukernel/") + v.name + "/" + name, [fn, planes](State& st, Problem& p) {
      const int64_t n = static_cast<int64_t>(p.y.size()) / planes;
      const int64_t m = static_cast<int64_t>(p.unpooled.size()) / planes;
      for (auto _ : st) {
        for (int64_t q = 0; q < planes; ++q) {
          fn(p.gy.data() + q * n, p.idx.data() + q * n, n, p.gx.data() + q * m);
        }
        benchmark::ClobberMemory();
      }
    });
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (const auto& w : workloads()) register_workload(w);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
