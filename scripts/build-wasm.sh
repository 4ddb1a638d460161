#!/usr/bin/env bash
# Builds the WebAssembly module into build/wasm (incremental: CMake rebuilds
# only what changed) with Debian's Emscripten.
set -euo pipefail
cd "$(dirname "$0")/.."
# emcc -O2 and above run acorn from Debian's node modules.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build/wasm --target unpool_wasm unpool_wasm_scalar -j"$(nproc)"
