#!/usr/bin/env bash
# The test driver. `npm test` runs every stage below, in order;
# `bash scripts/test.sh js browser` (or `npm run test:js`, ...) runs the
# stages named. The table below says what each stage runs: a one-line
# stage is written there, a stage with more to do has a script of its own
# (scripts/test-<stage>.sh, its header says what it runs). Each stage
# installs what it lacks (scripts/ensure-deps.sh) and builds what it needs.
# The browser stages (browser, webgpu, pack, demo) run every browser engine
# (chromium, firefox-esr, WebKitGTK; see docs/testing.md). The stages' times
# are printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

STAGES=(lint native fuzz wasmsuite js models browser webgpu pack runtimes demo examples)

run_stage() {
  case "$1" in
    lint) bash scripts/lint.sh ;;
    native)
      # The kernels built natively and the GoogleTest suite (CTest).
      scripts/ensure-deps.sh native
      node tests/vectors/gen-cpp-table.mjs --check
      cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
      cmake --build build/native -j"$(nproc)"
      ctest --test-dir build/native --output-on-failure -j"$(nproc)" ;;
    js)
      # Vitest in Node over tests/js, through the built package (dist/).
      scripts/ensure-deps.sh wasm npm
      bash scripts/build.sh
      npx vitest run --config vitest.config.ts ;;
    examples)
      # examples/ and the js blocks of README.md and docs/*.md, run as a
      # user runs them (tests/examples/, node's test runner).
      scripts/ensure-deps.sh wasm npm
      bash scripts/build.sh
      node --test tests/examples/ ;;
    fuzz|wasmsuite|models|browser|webgpu|pack|runtimes|demo) bash "scripts/test-$1.sh" ;;
    *) echo "test: unknown stage '$1' (${STAGES[*]})" >&2; return 2 ;;
  esac
}

stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=("${STAGES[@]}")
for s in "${stages[@]}"; do
  case " ${STAGES[*]} " in *" $s "*) ;; *) run_stage "$s" ;; esac  # an unknown name fails here
done
started=$SECONDS
times=()
for stage in "${stages[@]}"; do
  echo "=== test: $stage ==="
  t0=$SECONDS
  run_stage "$stage"
  times+=("$(printf '%-10s %5d s' "$stage" $((SECONDS - t0)))")
done
echo "=== stage times ==="
printf '%s\n' "${times[@]}"
echo "total      $((SECONDS - started)) s"
if [ $# -eq 0 ]; then echo "=== all test stages passed ==="; else echo "=== test stages passed: ${stages[*]} ==="; fi
