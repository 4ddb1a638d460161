// The few pieces of Google Benchmark's API that kernels_bench.cc uses, for
// em++ builds: Debian ships Google Benchmark only as a native library, so the
// same benchmark source compiles against this header under Emscripten.
//
// Each benchmark is calibrated once (iterations grow until a run takes
// --benchmark_min_time seconds), then run --benchmark_repetitions times; the
// median time per iteration is reported. --benchmark_format=json prints the
// medians in Google Benchmark's JSON shape (aggregate_name "median"), so one
// script reads both; --benchmark_filter takes a regex.
#ifndef UNPOOL_BENCH_NATIVE_MINIBENCH_H_
#define UNPOOL_BENCH_NATIVE_MINIBENCH_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <regex>
#include <string>
#include <vector>

namespace benchmark {

enum TimeUnit { kNanosecond, kMicrosecond, kMillisecond };

class State {
 public:
  explicit State(int64_t iterations) : iterations_(iterations) {}
  struct Value {};
  class Iterator {
   public:
    Iterator(State* s, int64_t left) : s_(s), left_(left) {}
    bool operator!=(const Iterator&) {
      if (left_ != 0) return true;
      s_->stop_ = std::chrono::steady_clock::now();
      return false;
    }
    void operator++() { --left_; }
    Value operator*() const { return {}; }

   private:
    State* s_;
    int64_t left_;
  };
  Iterator begin() {
    start_ = std::chrono::steady_clock::now();
    return {this, iterations_};
  }
  Iterator end() { return {this, 0}; }
  void SkipWithError(const char* message) { error_ = message; }
  int64_t iterations() const { return iterations_; }
  double seconds() const { return std::chrono::duration<double>(stop_ - start_).count(); }
  const std::string& error() const { return error_; }

 private:
  int64_t iterations_;
  std::chrono::steady_clock::time_point start_, stop_;
  std::string error_;
};

template <typename T>
inline void DoNotOptimize(T&& value) {
  static volatile const void* sink;
  sink = &value;
}
inline void ClobberMemory() { std::atomic_signal_fence(std::memory_order_seq_cst); }

class Benchmark {
 public:
  Benchmark(std::string name, std::function<void(State&)> fn)
      : name_(std::move(name)), fn_(std::move(fn)) {}
  Benchmark* Unit(TimeUnit u) {
    unit_ = u;
    return this;
  }
  Benchmark* UseRealTime() { return this; }
  const std::string& name() const { return name_; }
  TimeUnit unit() const { return unit_; }
  void run(State& s) const { fn_(s); }

 private:
  std::string name_;
  std::function<void(State&)> fn_;
  TimeUnit unit_ = kNanosecond;
};

namespace internal {
struct Options {
  double min_time = 0.5;
  int repetitions = 1;
  bool json = false;
  std::string filter = ".";
};
inline Options& options() {
  static Options o;
  return o;
}
inline std::vector<std::unique_ptr<Benchmark>>& registry() {
  static std::vector<std::unique_ptr<Benchmark>> r;
  return r;
}
inline const char* unit_name(TimeUnit u) {
  return u == kNanosecond ? "ns" : u == kMicrosecond ? "us" : "ms";
}
inline double unit_scale(TimeUnit u) {
  return u == kNanosecond ? 1e9 : u == kMicrosecond ? 1e6 : 1e3;
}
}  // namespace internal

template <typename F>
Benchmark* RegisterBenchmark(const std::string& name, F fn) {
  internal::registry().push_back(std::make_unique<Benchmark>(name, fn));
  return internal::registry().back().get();
}

inline void Initialize(int* argc, char** argv) {
  internal::Options& o = internal::options();
  for (int i = 1; i < *argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* flag) -> const char* {
      const size_t n = std::strlen(flag);
      return a.compare(0, n, flag) == 0 ? argv[i] + n : nullptr;
    };
    if (const char* v = value("--benchmark_min_time=")) o.min_time = std::atof(v);
    else if (const char* v2 = value("--benchmark_repetitions=")) o.repetitions = std::atoi(v2);
    else if (const char* v3 = value("--benchmark_filter=")) o.filter = v3;
    else if (const char* v4 = value("--benchmark_format=")) o.json = std::strcmp(v4, "json") == 0;
  }
  if (o.repetitions < 1) o.repetitions = 1;
}

inline size_t RunSpecifiedBenchmarks() {
  const internal::Options& o = internal::options();
  const std::regex filter(o.filter);
  size_t count = 0;
  if (o.json) std::printf("{\n  \"context\": {\"library\": \"minibench\"},\n  \"benchmarks\": [");
  for (const auto& b : internal::registry()) {
    if (!std::regex_search(b->name(), filter)) continue;
    // Calibrate: grow the iteration count until one run takes min_time.
    int64_t n = 1;
    for (;;) {
      State s(n);
      b->run(s);
      if (!s.error().empty()) {
        std::fprintf(stderr, "%s: %s\n", b->name().c_str(), s.error().c_str());
        break;
      }
      if (s.seconds() >= o.min_time || n >= (int64_t{1} << 40)) break;
      const double grow = s.seconds() > 0 ? 1.4 * o.min_time / s.seconds() : 10.0;
      n = std::max<int64_t>(n + 1,
                            static_cast<int64_t>(static_cast<double>(n) * std::min(grow, 10.0)));
    }
    std::vector<double> per_iter;
    for (int r = 0; r < o.repetitions; ++r) {
      State s(n);
      b->run(s);
      per_iter.push_back(s.seconds() / static_cast<double>(n));
    }
    std::sort(per_iter.begin(), per_iter.end());
    const size_t m = per_iter.size();
    const double median = m % 2 ? per_iter[m / 2] : 0.5 * (per_iter[m / 2 - 1] + per_iter[m / 2]);
    const double t = median * internal::unit_scale(b->unit());
    if (o.json) {
      std::printf(
          "%s\n    {\"name\": \"%s_median\", \"run_name\": \"%s\", \"run_type\": "
          "\"aggregate\", \"aggregate_name\": \"median\", \"iterations\": %lld, "
          "\"real_time\": %.6g, \"time_unit\": \"%s\"}",
          count ? "," : "", b->name().c_str(), b->name().c_str(), static_cast<long long>(n), t,
          internal::unit_name(b->unit()));
    } else {
      std::printf("%-60s %12.4g %s  (median of %d, %lld iterations)\n", b->name().c_str(), t,
                  internal::unit_name(b->unit()), o.repetitions, static_cast<long long>(n));
    }
    std::fflush(stdout);
    ++count;
  }
  if (o.json) std::printf("\n  ]\n}\n");
  return count;
}

inline void Shutdown() {}

}  // namespace benchmark

#endif  // UNPOOL_BENCH_NATIVE_MINIBENCH_H_
