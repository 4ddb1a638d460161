#!/usr/bin/env bash
# The models stage: the PyTorch exporter unpool_onnx (python/) and the
# models it exports (tests/models/README.md).
#  1. pytest over python/tests with /usr/bin/python3 (Debian's python3-torch,
#     python3-onnx, python3-pytest): the emitted pattern at opsets 11, 13
#     and 17, onnx.checker, the refusals and their messages.
#  2. tests/models/make-fixtures.py into UNPOOL_MODELS_DIR (default
#     build/models), skipped when its stamp (a hash of python/,
#     tests/models/*.py and the torch version) is current.
#  3. Vitest in Node (vitest.models.config.ts): every fixture on
#     onnxruntime-node's CPU EP alone against PyTorch (export.node.test.ts),
#     and unpool/onnx on onnxruntime-node and onnxruntime-web's wasm EP: the
#     fixtures (models.node.test.ts) and the runner's own cases
#     (runner.node.test.ts).
#  4. The same in the browser engines (vitest.models.browser.config.ts):
#     onnxruntime-web's wasm EP in Chromium, Firefox ESR and WebKitGTK
#     (models-<engine>), and both of ORT Web's WebGPU EPs (the default
#     import's JSEP and onnxruntime-web/webgpu) in Chromium on SwiftShader
#     and Firefox ESR on lavapipe (models-webgpu-<engine>), counting every
#     mapAsync and live GPUBuffer.
#   BROWSERS="chromium"     only these engines (default chromium firefox webkit)
#   MODELS_TIMEOUT=900      seconds per browser leg
set -euo pipefail
cd "$(dirname "$0")/.."
engines=${BROWSERS:-chromium firefox webkit}
# shellcheck source=scripts/engines.sh
. scripts/engines.sh
scripts/ensure-deps.sh python webgpu
# shellcheck disable=SC2086
engines_stage test-models '' $engines
py=/usr/bin/python3
limit=${MODELS_TIMEOUT:-900}

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

# The browser legs fetch the fixtures from build/models, where Vite serves them.
if [ "$(realpath "$dir")" != "$(realpath build/models)" ]; then
  rm -rf build/models && mkdir -p build && cp -r "$dir" build/models
fi
leg() { # leg NAME ENGINE WEBGPU
  engine_begin "models-$1" "$2"
  local rc=0
  UNPOOL_ENGINE=$2 UNPOOL_WEBGPU=$3 timeout -k 10 "$limit" npx vitest run --config vitest.models.browser.config.ts \
    --reporter=default --reporter=json --outputFile.json="$work/$1.json" || rc=$?
  engine_procs_stop
  local summary
  summary=$(node tests/engines/vitest-summary.mjs "$work/$1.json" "models-$1")
  grep -v ' passed, ' <<<"$summary" || true
  engine_end models "$1" "$(sed -nE 's/.*: ([0-9]+) passed.*/\1/p' <<<"$summary")" \
    "$(sed -nE 's/.*, ([0-9]+) failed$/\1/p' <<<"$summary")" "$rc"
}
for e in $engines; do leg "$e" "$e" 0; done
for e in $engines; do
  [ "$e" = webkit ] && continue  # WebKitGTK has no WebGPU
  leg "webgpu-$e" "$e" 1
done
engines_summary models
