// Benchmarks of the C++ kernels (not tests): float32, int32 indices, one
// thread. Two families:
//
//   op/<op>/<workload>        the public C++ API, validation included: pool
//                             with indices, unpool of its result, and both
//                             backward passes. This is the native ceiling of
//                             the JS API.
//   ukernel/<variant>/<wl>    every microkernel variant of variants.inc over
//                             the same problem. Argmax pool variants run in
//                             the operator layer's own loops (pool_rows.h,
//                             channels_last.h), on the calls their guard
//                             accepts (config.h's choice elsewhere); the
//                             others over each plane.
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
#include <string>
#include <vector>

#include "channels_last_bench.h"
#include "pool_rows.h"
#include "problem.h"
#include "ukernels/config.h"
#include "ukernels/ukernels.h"
#include "unpool/unpool.h"

namespace unpool_bench {
namespace {

namespace uk = unpool::ukernels;

// The operator layer's loop over planes and output rows, running variant v
// where its guard holds and config.h's choice elsewhere. Returns how many
// calls v took.
template <typename V>
int64_t pool_rows(const Problem& pr, const V& v, float* y, int32_t* idx) {
  int64_t taken = 0;
  unpool::internal::pool_rows<float, int32_t>(
      pr.geometry, pr.x.data(), y, idx,
      [&v, &taken](const float* px, const uk::ArgmaxRow& r, float* py, int32_t* pidx) {
        const bool mine = v.applies(r);
        taken += mine;
        const auto fn = mine ? v.fn : uk::config::argmaxpool_row<float, int32_t>(r);
        fn(px, r, py, pidx);
      });
  return taken;
}

void register_workload(const Workload& w) {
  auto pr = std::make_shared<Problem>(w);
  const std::string name = w.name;
  auto reg = [&](const std::string& n, auto fn) {
    benchmark::RegisterBenchmark(n.c_str(),
                                 [pr, fn](benchmark::State& st) {
                                   if (!pr->ok) {
                                     st.SkipWithError("setup failed");
                                     return;
                                   }
                                   fn(st, *pr);
                                 })
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
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
    // 16-bit values (issue 16's native reference for the resident pool).
    for (const auto t : {unpool::DType::kFloat16, unpool::DType::kBFloat16}) {
      reg(std::string("op/pool_") + (t == unpool::DType::kFloat16 ? "f16/" : "bf16/") + name,
          [t](State& st, Problem& p) {
            for (auto _ : st) {
              unpool::max_pool(p.pool, p.in, t, p.x16.data(), p.y16.data(), i32, p.idx.data(),
                               nullptr);
              benchmark::ClobberMemory();
            }
          });
    }
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
      unpool::max_unpool_backward(p.pool.dims, unpool::Layout::kChannelsFirst, p.in, p.out, f32,
                                  p.gx.data(), i32, p.idx.data(), p.gy.data(), nullptr);
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
    reg(std::string("ukernel/") + v.name + "/" + name, [&v](State& st, Problem& p) {
      if (pool_rows(p, v, p.y.data(), p.idx.data()) == 0) {
        st.SkipWithError("its guard holds for no call of this workload");
        return;
      }
      for (auto _ : st) {
        pool_rows(p, v, p.y.data(), p.idx.data());
        benchmark::ClobberMemory();
      }
    });
  }
  const int64_t planes = w.shape[0] * w.shape[1];
  for (const auto& v : uk::kUnpoolVariants<float, int32_t>) {
    if (!v.applies()) continue;
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
    if (!v.applies()) continue;
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
  for (const auto& v : uk::kScatterAddInRangeVariants<float, int32_t>) {
    if (!v.applies()) continue;
    const auto fn = v.fn;
    reg(std::string("ukernel/") + v.name + "/" + name, [fn, planes](State& st, Problem& p) {
      const int64_t n = static_cast<int64_t>(p.y.size()) / planes;
      const int64_t m = static_cast<int64_t>(p.unpooled.size()) / planes;
      for (auto _ : st) {
        for (int64_t q = 0; q < planes; ++q) {
          fn(p.gy.data() + q * n, p.idx.data() + q * n, n, m, p.gx.data() + q * m);
        }
        benchmark::ClobberMemory();
      }
    });
  }
  register_channels_last(w, reg);
  for (const auto& v : uk::kScatterAddVariants<float, int32_t>) {
    if (!v.applies()) continue;
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
}  // namespace unpool_bench

int main(int argc, char** argv) {
  for (const auto& w : unpool_bench::workloads()) unpool_bench::register_workload(w);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
