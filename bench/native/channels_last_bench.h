// Benchmarks of the channels-last microkernels (registered by
// kernels_bench.cc for each workload).
#ifndef UNPOOL_BENCH_NATIVE_CHANNELS_LAST_BENCH_H_
#define UNPOOL_BENCH_NATIVE_CHANNELS_LAST_BENCH_H_

#ifdef __EMSCRIPTEN__
#include "minibench.h"
#else
#include <benchmark/benchmark.h>
#endif

#include <cstdint>
#include <string>

#include "channels_last.h"
#include "problem.h"
#include "ukernels/config.h"
#include "ukernels/ukernels.h"

namespace unpool_bench {

// The channels-last variants on the workload's tensors read as (N,
// spatial..., C): the same sizes, and the operator layer's position loop.
template <typename Reg>
void register_channels_last(const Workload& w, Reg& reg) {
  using benchmark::State;
  const std::string name = std::string(w.name) + "/nhwc";
  const int64_t batch = w.shape[0];
  for (const auto& v : unpool::ukernels::kArgmaxpoolNhwcVariants<float, int32_t>) {
    reg(std::string("ukernel/") + v.name + "/" + name, [&v](State& st, Problem& p) {
      unpool::internal::Geometry g = p.geometry;
      g.layout = unpool::Layout::kChannelsLast;
      for (auto _ : st) {
        unpool::internal::pool_channels_last<float, int32_t>(
            g, p.x.data(), p.y.data(), p.idx.data(),
            [&v](const float* xn, const unpool::ukernels::ArgmaxNhwc& q, float* y, int32_t* idx) {
              const auto fn = v.applies(q)
                                  ? v.fn
                                  : unpool::ukernels::config::argmaxpool_nhwc<float, int32_t>(q);
              fn(xn, q, y, idx);
            });
        benchmark::ClobberMemory();
      }
    });
  }
  // Offsets of the channels-first pool are valid positions in channels last
  // too (same plane sizes), so the scatter and gather kernels read them.
  for (const auto& v : unpool::ukernels::kUnpoolNhwcVariants<float, int32_t>) {
    if (!v.applies()) continue;
    const auto fn = v.fn;
    reg(std::string("ukernel/") + v.name + "/" + name, [fn, batch](State& st, Problem& p) {
      const int64_t C = p.geometry.channels;
      const int64_t n = static_cast<int64_t>(p.y.size()) / batch / C;
      const int64_t m = static_cast<int64_t>(p.unpooled.size()) / batch / C;
      for (auto _ : st) {
        for (int64_t b = 0; b < batch; ++b) {
          fn(p.y.data() + b * n * C, p.idx.data() + b * n * C, n, C, p.unpooled.data() + b * m * C);
        }
        benchmark::ClobberMemory();
      }
    });
  }
  for (const auto& v : unpool::ukernels::kScatterAddNhwcVariants<float, int32_t>) {
    if (!v.applies()) continue;
    const auto fn = v.fn;
    reg(std::string("ukernel/") + v.name + "/" + name, [fn, batch](State& st, Problem& p) {
      const int64_t C = p.geometry.channels;
      const int64_t n = static_cast<int64_t>(p.y.size()) / batch / C;
      const int64_t m = static_cast<int64_t>(p.unpooled.size()) / batch / C;
      for (auto _ : st) {
        for (int64_t b = 0; b < batch; ++b) {
          fn(p.gy.data() + b * n * C, p.idx.data() + b * n * C, n, C, m, p.gx.data() + b * m * C);
        }
        benchmark::ClobberMemory();
      }
    });
  }
  for (const auto& v : unpool::ukernels::kGatherNhwcVariants<float, int32_t>) {
    if (!v.applies()) continue;
    const auto fn = v.fn;
    reg(std::string("ukernel/") + v.name + "/" + name, [fn, batch](State& st, Problem& p) {
      const int64_t C = p.geometry.channels;
      const int64_t n = static_cast<int64_t>(p.y.size()) / batch / C;
      const int64_t m = static_cast<int64_t>(p.unpooled.size()) / batch / C;
      for (auto _ : st) {
        for (int64_t b = 0; b < batch; ++b) {
          fn(p.gx.data() + b * m * C, p.idx.data() + b * n * C, n, C, p.gy.data() + b * n * C);
        }
        benchmark::ClobberMemory();
      }
    });
  }
}

}  // namespace unpool_bench

#endif  // UNPOOL_BENCH_NATIVE_CHANNELS_LAST_BENCH_H_
