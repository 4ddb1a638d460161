#!/usr/bin/env bash
# Sanitizers and fuzzing (clang 14): the GoogleTest suite under ASan + UBSan,
# then each libFuzzer target for FUZZ_SECONDS (default 30) from seeds made of
# the conformance vectors. Each target checks results against the naive
# reference, so a wrong answer fails like a crash.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh native fuzz
seconds=${FUZZ_SECONDS:-30}
build=build/fuzz
CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DUNPOOL_SANITIZE=ON -DUNPOOL_FUZZ=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
echo "--- GoogleTest under ASan + UBSan"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"

corpus="$build/corpus"
rm -rf "$corpus"
node tests/fuzz/make-seeds.mjs "$corpus"
# Inputs that once failed run first, as part of the corpus.
for target in pool unpool adaptive; do
  if [ -d "tests/fuzz/regressions/$target" ]; then
    mkdir -p "$corpus/$target"
    cp tests/fuzz/regressions/$target/* "$corpus/$target/"
  fi
done
for target in pool unpool adaptive; do
  echo "--- fuzz_$target for ${seconds}s"
  mkdir -p "$build/artifacts"
  log="$build/fuzz_$target.log"
  # -timeout: an input that runs for minutes is a failure (with an
  # artifact), not a run that silently eats the time budget.
  if ! "$build/fuzz_$target" "$corpus/$target" -max_total_time="$seconds" -timeout=120 \
      -artifact_prefix="$build/artifacts/" -print_final_stats=1 >"$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz_$target failed: reproduce with $build/fuzz_$target $build/artifacts/<file>" >&2
    exit 1
  fi
  grep -E "stat::number_of_executed_units|DONE" "$log" | tail -2
done
