#!/usr/bin/env bash
# Builds the kernel benchmarks three ways, runs them with the same filter and
# prints one table of medians (bench/native/compare.mjs):
#   native       g++ -O3 (CMake Release), Google Benchmark
#   wasm SIMD    em++ -O3 -msimd128, under Node
#   wasm scalar  em++ -O3 without -msimd128 (the fallback build), under Node
# Usage: bench/native/run.sh [FILTER-REGEX]   (REPS=5 MIN_TIME=0.2 by default)
# Raw JSON goes to build/bench-results/. Benchmarks, not tests: run them on a
# quiet machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
filter=${1:-.}
reps=${REPS:-5}
min_time=${MIN_TIME:-0.2}
jobs=$(( $(nproc) < 2 ? $(nproc) : 2 ))

cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release -DUNPOOL_BUILD_BENCH=ON \
  -DUNPOOL_BUILD_TESTS=OFF >/dev/null
cmake --build build/bench --target unpool_bench -j"$jobs" >/dev/null
for simd in ON OFF; do
  dir=build/bench-wasm
  [ "$simd" = OFF ] && dir=build/bench-wasm-scalar
  emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DUNPOOL_BUILD_BENCH=ON \
    -DUNPOOL_WASM_SIMD="$simd" >/dev/null
  cmake --build "$dir" --target unpool_bench -j"$jobs" >/dev/null
done

out=build/bench-results
mkdir -p "$out"
args=(--benchmark_filter="$filter" --benchmark_repetitions="$reps"
      --benchmark_min_time="$min_time" --benchmark_format=json)
build/bench/unpool_bench "${args[@]}" --benchmark_report_aggregates_only=true \
  > "$out/native.json"
node --no-experimental-fetch build/bench-wasm/unpool_bench.js "${args[@]}" > "$out/wasm-simd.json"
node --no-experimental-fetch build/bench-wasm-scalar/unpool_bench.js "${args[@]}" \
  > "$out/wasm-scalar.json"
node bench/native/compare.mjs "$out/native.json" "$out/wasm-simd.json" "$out/wasm-scalar.json"
