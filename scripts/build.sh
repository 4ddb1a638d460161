#!/usr/bin/env bash
# `npm run build`: the npm package in dist/ — the WebAssembly module
# (build/wasm, incremental) and the TypeScript API compiled with tsc.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh wasm npm
bash scripts/build-wasm.sh
mkdir -p dist
for f in unpool.mjs unpool.wasm unpool-scalar.mjs unpool-scalar.wasm; do
  cmp -s "build/wasm/$f" "dist/$f" || cp "build/wasm/$f" "dist/$f"
done
cp js/src/unpool.d.mts js/src/unpool-scalar.d.mts dist/
# tsc only when a source is newer than its output.
if [ ! -f dist/index.js ] || [ -n "$(find js/src tsconfig.json -newer dist/index.js -print -quit)" ]; then
  npx tsc -p tsconfig.json
  touch dist/index.js
fi
