#!/usr/bin/env bash
# Vitest browser mode: the tests/js suites in headless Debian chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh wasm browser npm
bash scripts/build.sh
npx vitest run --config vitest.browser.config.ts
