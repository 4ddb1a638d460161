#!/usr/bin/env bash
# The models stage: the PyTorch exporter unpool_onnx (python/) and the
# models it exports (tests/models/README.md).
#  1. pytest over python/tests with /usr/bin/python3 (Debian's python3-torch,
#     python3-onnx, python3-pytest): the emitted pattern at opsets 11, 13
#     and 17, onnx.checker, the refusals and their messages.
#  2. tests/models/make-fixtures.py into UNPOOL_MODELS_DIR (default
#     build/models), skipped when its stamp (a hash of python/,
#     tests/models/*.py and the torch version) is current.
#  3. Vitest (vitest.models.config.ts): every fixture on onnxruntime-node's
#     CPU EP against PyTorch.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh python npm
py=/usr/bin/python3

echo "models: pytest (python/tests)"
"$py" -m pytest -q -p no:cacheprovider python/tests

dir=${UNPOOL_MODELS_DIR:-build/models}
mapfile -t sources < <({ find python \( -name build -o -name __pycache__ -o -name '*.egg-info' \) -prune \
                          -o -type f \( -name '*.py' -o -name '*.toml' \) -print; ls tests/models/*.py; } | LC_ALL=C sort)
key=$( { sha256sum "${sources[@]}"; "$py" -c 'import torch; print("torch", torch.__version__)'; } | sha256sum | cut -d' ' -f1)
if [ -f "$dir/.stamp" ] && [ "$(cat "$dir/.stamp")" = "$key" ]; then
  echo "models: fixtures in $dir are current"
else
  echo "models: make-fixtures.py $dir"
  mkdir -p "$dir"
  rm -f "$dir"/*.onnx "$dir"/*.json "$dir"/*.bin "$dir/.stamp"
  "$py" tests/models/make-fixtures.py "$dir"
  echo "$key" > "$dir/.stamp"
fi

echo "models: vitest (vitest.models.config.ts)"
UNPOOL_MODELS_DIR="$dir" npx vitest run --config vitest.models.config.ts
