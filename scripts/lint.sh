#!/usr/bin/env bash
# `npm run lint`, the first stage of `npm test`:
#  1. tsc --noEmit in strict mode over js/src (tsconfig.json, as the package
#     is built) and over tests/js, tests/webgpu/*.test.ts and tests/models
#     (tsconfig.lint.json). The tests import the package from dist/, so its
#     declarations are compiled first when stale.
#  2. clang-format --dry-run -Werror (.clang-format) over the C++ in cpp/,
#     tests/cpp/, tests/fuzz/ and bench/native/, except generated files.
#  3. js/src/onnx/onnx_pb.ts is what scripts/gen-onnx-proto.sh generates
#     from js/src/onnx/proto/onnx.proto.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh lint npm

echo "lint: tsc --noEmit (js/src)"
npx tsc --noEmit -p tsconfig.json

# The same freshness rule as scripts/build.sh: tsc only when a source is
# newer than dist/index.js; the glue's declarations are copied as the build does.
mkdir -p dist
cp js/src/unpool.d.mts js/src/unpool-scalar.d.mts dist/
if [ ! -f dist/index.js ] || [ -n "$(find js/src tsconfig.json -newer dist/index.js -print -quit)" ]; then
  npx tsc -p tsconfig.json
  touch dist/index.js
fi
echo "lint: tsc --noEmit (tests/js, tests/webgpu, tests/models)"
npx tsc -p tsconfig.lint.json

# Generated from tests/vectors (gen-cpp-table.mjs); formatted by its generator.
generated='^tests/cpp/golden_cases\.inc$'
mapfile -t files < <(git ls-files -- cpp tests/cpp tests/fuzz bench/native \
  | grep -E '\.(h|hpp|cc|cpp|inc)$' | grep -Ev "$generated")
echo "lint: clang-format --dry-run -Werror (${#files[@]} files)"
if ! clang-format --dry-run -Werror --style=file "${files[@]}"; then
  echo "lint: C++ not formatted; to fix: clang-format -i --style=file <the files named above>" >&2
  exit 1
fi
bash scripts/gen-onnx-proto.sh --check
echo "lint: ok"
