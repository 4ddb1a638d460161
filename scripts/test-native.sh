#!/usr/bin/env bash
# Native build of the kernels and the GoogleTest suite (CTest).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh native
node tests/vectors/gen-cpp-table.mjs --check
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j"$(nproc)"
ctest --test-dir build/native --output-on-failure -j"$(nproc)"
