#!/usr/bin/env bash
# The examples in examples/ and the JavaScript blocks of README.md and
# docs/*.md, each run as a user runs it (node, the package imported by its
# name), checked by tests/examples/ with node's test runner.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh wasm npm
bash scripts/build.sh
node --test tests/examples/
