#!/usr/bin/env bash
# `npm run build`: the npm package in dist/ — the WebAssembly module
# (build/wasm, incremental) and the TypeScript API compiled with tsc.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh wasm npm
bash scripts/build-wasm.sh
mkdir -p dist
# One glue serves both builds: the loader hands it the scalar .wasm through
# locateFile/wasmBinary. That holds while the two glues are the same but for
# the file name; stop here when they are not.
if ! cmp -s <(sed 's/unpool-scalar\.wasm/unpool.wasm/g' build/wasm/unpool-scalar.mjs) build/wasm/unpool.mjs; then
  echo "build: the glue of the scalar build differs from the SIMD one (see build/wasm/*.mjs)" >&2
  exit 1
fi
for f in unpool.mjs unpool.wasm unpool-scalar.wasm; do
  cmp -s "build/wasm/$f" "dist/$f" || cp "build/wasm/$f" "dist/$f"
done
cp js/src/unpool.d.mts dist/unpool.d.mts
# tsc only when a source is newer than its output.
if [ ! -f dist/index.js ] || [ -n "$(find js/src tsconfig.json -newer dist/index.js -print -quit)" ]; then
  npx tsc -p tsconfig.json
  touch dist/index.js
fi
