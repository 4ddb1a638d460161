#!/usr/bin/env bash
# `npm test`: every suite, in order. Each stage installs what it lacks.
set -euo pipefail
cd "$(dirname "$0")/.."
for stage in lint native fuzz wasmsuite js browser webgpu pack runtimes demo examples; do
  case "$stage" in
    lint) script=scripts/lint.sh ;;
    *) script="scripts/test-$stage.sh" ;;
  esac
  if [ -f "$script" ]; then
    echo "=== test: $stage ==="
    bash "$script"
  fi
done
echo "=== all test stages passed ==="
