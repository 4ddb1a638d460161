#!/usr/bin/env bash
# `npm test`: every suite, in order. Each stage installs what it lacks.
# The browser stages (browser, webgpu, pack, demo) run every browser engine
# (chromium, firefox-esr, WebKitGTK; see docs/testing.md). Each stage's time
# is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
times=()
for stage in lint native fuzz wasmsuite js browser webgpu pack runtimes demo examples; do
  case "$stage" in
    lint) script=scripts/lint.sh ;;
    *) script="scripts/test-$stage.sh" ;;
  esac
  if [ -f "$script" ]; then
    echo "=== test: $stage ==="
    t0=$SECONDS
    bash "$script"
    times+=("$(printf '%-10s %5d s' "$stage" $((SECONDS - t0)))")
  fi
done
echo "=== stage times ==="
printf '%s\n' "${times[@]}"
echo "total      $((SECONDS - started)) s"
echo "=== all test stages passed ==="
