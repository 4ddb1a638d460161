#!/usr/bin/env bash
# The WebGPU suite (every tests/webgpu/cases/*.mjs) on five software WebGPU
# stacks; each must find its adapter (no adapter is a failure, never a skip):
#   chromium                 Vitest browser mode in Debian's chromium, Dawn on
#                            SwiftShader (vitest.webgpu.config.ts)
#   firefox                  Vitest browser mode in Debian's firefox-esr
#                            (puppeteer-core), wgpu on Mesa's lavapipe
#   deno                     Deno's navigator.gpu (wgpu) on Mesa's lavapipe:
#                            the one with shader-f16
#   node-vulkan-swiftshader  Node 24 + the `webgpu` package (dawn.node) on the
#                            SwiftShader Vulkan ICD that chromium ships
#   node-opengles            Node 24 + dawn.node's OpenGL ES backend on Mesa's
#                            llvmpipe (surfaceless EGL), a compatibility adapter
#   node-docs, node-gc       not stacks of the suite: the docs' Node.js program
#                            as written (harness/node-docs.mjs), and the
#                            documented setup under forced gc() (node-gc.mjs)
# They differ where the kernels care (`x != x` misses NaN on three of them;
# SwiftShader flushes subnormals in float compares and adds), so all five run.
# (WebKitGTK has no WebGPU: scripts/test-browser.sh checks initWebGPU's
# refusal there.)
# Every stack runs; the stage fails if any failed.
#   WEBGPU_STACKS="deno node-opengles"  only these stacks
#   WEBGPU_CASES=stack.mjs              only these case files (not chromium, firefox)
#   WEBGPU_STACK_TIMEOUT=900            seconds per stack
# Deno and Node 24 come from the runtime tools (tests/runtimes/install-tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
scripts/ensure-deps.sh wasm browser npm webgpu firefox
bash scripts/build.sh
tools=$(bash tests/runtimes/install-tools.sh)
bin="$tools/node_modules"

work=$(mktemp -d "${TMPDIR:-/tmp}/unpool-webgpu.XXXXXX")
# shellcheck source=scripts/engines.sh
. scripts/engines.sh
engine_procs_init "$work/engines"
trap 'engine_procs_stop; rm -rf "$work"' EXIT
# Mesa's Vulkan and EGL loaders print an error on every start without it.
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "$XDG_RUNTIME_DIR" ]; then
  export XDG_RUNTIME_DIR="$work/xdg"
  mkdir -m 700 "$XDG_RUNTIME_DIR"
fi
export DENO_NO_UPDATE_CHECK=1 DENO_DIR="$tools/.deno"
limit=${WEBGPU_STACK_TIMEOUT:-900}
stacks=${WEBGPU_STACKS:-chromium firefox deno node-vulkan-swiftshader node-opengles node-docs node-gc}

total_passed=0
total_failed=0
results=()
# stack NAME COMMAND...: runs one stack; its output must end with
# `webgpu-NAME: N passed, N failed` and its exit code be 0.
stack() {
  local name=$1 t0=$SECONDS rc summary passed=0 failed=0 note=
  shift
  echo "=== webgpu: $name${version:+ ($version)} ==="
  set +e
  timeout -k 10 "$limit" "$@" 2>"$work/$name.err" | tee "$work/$name.log"
  rc=${PIPESTATUS[0]}
  set -e
  # dawn.node's OpenGL ES backend warns about dynamic-offset limits on every
  # device: noise.
  grep -v 'artificially reduced from' "$work/$name.err" >&2 || true
  summary=$(grep -E "^webgpu-$name: [0-9]+ passed, [0-9]+ failed$" "$work/$name.log" | tail -n1 || true)
  if [ -n "$summary" ]; then
    passed=$(echo "$summary" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
    failed=$(echo "$summary" | sed -E 's/.*, ([0-9]+) failed$/\1/')
  else
    note=" (no summary line)"
  fi
  [ "$rc" -eq 124 ] && note=" (timed out after $limit s)"
  # A crash, a timeout or a missing summary counts as one failure more.
  if [ "$rc" -ne 0 ] || [ -z "$summary" ]; then [ "$failed" -gt 0 ] || failed=1; fi
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed))
  results+=("$(printf '%-4s webgpu-%s: %s passed, %s failed, exit %s, %s s%s' \
    "$([ "$failed" -eq 0 ] && echo ok || echo FAIL)" "$name" "$passed" "$failed" "$rc" "$((SECONDS - t0))" "$note")")
}

# The browser legs (chromium, firefox): Vitest prints its own report; the
# summary line is made from its JSON report. (A function run by `timeout`,
# hence bash -c.)
vitest_leg() { # vitest_leg ENGINE
  local rc=0
  UNPOOL_ENGINE=$1 npx vitest run --config vitest.webgpu.config.ts \
    --reporter=default --reporter=json --outputFile.json="$work/$1.json" || rc=$?
  node tests/engines/vitest-summary.mjs "$work/$1.json" "webgpu-$1"
  return "$rc"
}
export -f vitest_leg
export work

node24="$bin/node24/bin/node"
version=
for s in $stacks; do
  case "$s" in
    chromium|firefox)
      version=$(node tests/engines/version.mjs "$s") || version="not found"
      stack "$s" bash -c 'vitest_leg "$0"' "$s"
      version=
      engine_procs_stop ;;
    deno)
      # Pins wgpu to Vulkan on lavapipe, whatever else the machine has.
      stack deno env DENO_WEBGPU_BACKEND=vulkan \
        VK_ICD_FILENAMES="$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json | head -n1)" \
        "$bin/.bin/deno" run --allow-read --allow-env tests/webgpu/harness/run-deno.mjs ;;
    node-vulkan-swiftshader)
      # Dawn refuses lavapipe (Mesa 22.3 lacks shaderUniform*ArrayDynamicIndexing):
      # only chromium's SwiftShader ICD is shown to it.
      stack node-vulkan-swiftshader env WEBGPU_PACKAGE="$bin/webgpu" \
        VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json \
        "$node24" tests/webgpu/harness/run-node.mjs vulkan-swiftshader ;;
    node-opengles)
      stack node-opengles env WEBGPU_PACKAGE="$bin/webgpu" EGL_PLATFORM=surfaceless \
        "$node24" tests/webgpu/harness/run-node.mjs opengles ;;
    node-docs)
      # docs/webgpu.md's Node.js program as written (blocks fenced js node-webgpu).
      stack node-docs env WEBGPU_PACKAGE="$bin/webgpu" \
        VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json \
        "$node24" tests/webgpu/harness/node-docs.mjs ;;
    node-gc)
      # docs/webgpu.md's Node.js setup, initWebGPU({ gpu: create([]) }), with
      # gc() forced between calls: the backend must keep Dawn alive.
      stack node-gc env WEBGPU_PACKAGE="$bin/webgpu" \
        VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json \
        "$node24" --expose-gc tests/webgpu/harness/node-gc.mjs ;;
    *) echo "test-webgpu: unknown stack '$s'" >&2; exit 2 ;;
  esac
done

echo "=== webgpu: summary ==="
printf '%s\n' "${results[@]}"
echo "test-webgpu: $((SECONDS - started)) s in all"
# Cases over every stack (a stack that crashed or found no adapter counts as
# at least one failure).
echo "test-webgpu: $total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
