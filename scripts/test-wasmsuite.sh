#!/usr/bin/env bash
# The whole GoogleTest suite (conformance vectors, random sweep, microkernel
# bit-identity) compiled with em++ and run under Node, one process per build: once with
# -msimd128 (the wasmsimd kernels against their scalar twins) and once
# without (the scalar fallback build). See cmake/wasm-tests.cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh native wasm
# emcc -O2 and above run acorn from Debian's node modules.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
jobs=$(( $(nproc) < 2 ? $(nproc) : 2 ))
for simd in ON OFF; do
  dir=build/wasm-tests
  [ "$simd" = OFF ] && dir=build/wasm-tests-scalar
  echo "--- em++ GoogleTest suite, UNPOOL_WASM_SIMD=$simd ($dir)"
  emcmake cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release \
    -DUNPOOL_WASM_TESTS=ON -DUNPOOL_WASM_SIMD="$simd" >/dev/null
  cmake --build "$dir" --target unpool_wasm_tests -j"$jobs"
  # One Node process for the whole suite: ctest would start one per test
  # (each seconds of CPU to instantiate the module).
  (cd "$dir" && node --no-experimental-fetch unpool_wasm_tests.js)
done
