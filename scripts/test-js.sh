#!/usr/bin/env bash
# Vitest in Node over tests/js: the conformance vectors and the API surface,
# through the built package (dist/). Builds what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh wasm npm
bash scripts/build.sh
npx vitest run --config vitest.config.ts
