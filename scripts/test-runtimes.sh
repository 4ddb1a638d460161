#!/usr/bin/env bash
# The runtime matrix: the packed tarball, installed by name into an empty
# folder, where users run it (docs/runtimes.md lists the cells):
#   - Node.js 20, 22 and 24 (ESM import and CommonJS require), Deno 2, Bun:
#     the README quick start, a conformance subset, backendInfo().simd;
#     each with `unpool` and with `unpool/inline`;
#   - the same runtimes with the v2 vectors' float16 and bfloat16 cases:
#     Uint16Array bits everywhere, Float16Array where the runtime has it
#     (Node.js 24, Deno, Bun), whose results must be Float16Arrays;
#   - `unpool/onnx` in the same runtimes (import, and require in Node.js and
#     Bun): the pack stage's small model (tests/js/pack/onnx-model.mjs) on
#     onnxruntime-web's wasm EP, unpool running its MaxPool and MaxUnpool,
#     equal to ORT alone and to Node.js 24's result;
#   - chromium: pages bundled by plain esbuild (`unpool`, `unpool/inline`),
#     Blob-URL module workers (wasmBinary, `unpool/inline`), a module whose
#     import.meta.url is a data: URL (locateFile, wasmBinary);
#   - Next.js (app router, a client component) built with webpack and with
#     Turbopack, served by `next start` and checked in chromium;
#   - package hygiene: publint, attw, TypeScript 5 and 6 consumers in strict
#     mode, `npm publish --dry-run`'s file list.
# Every cell runs; the stage fails if any failed. The tools come from
# tests/runtimes/tools/package-lock.json, installed once into a cache
# (tests/runtimes/install-tools.sh); the tarball's dependency
# (@bufbuild/protobuf) and onnxruntime-web come from npm's own cache once
# fetched (--prefer-offline), so that after that the stage needs no network.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
started=$SECONDS
scripts/ensure-deps.sh wasm browser npm
bash scripts/build.sh
tools=$(bash tests/runtimes/install-tools.sh)
bin="$tools/node_modules"
export NEXT_TELEMETRY_DISABLED=1 DENO_NO_UPDATE_CHECK=1 DENO_DIR="$tools/.deno"

work=$(mktemp -d "${TMPDIR:-/tmp}/unpool-runtimes.XXXXXX")
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work" "$tools/apps/next-$$"
}
trap cleanup EXIT

passed=0
failed=0
failures=()
section() { echo "test-runtimes: $* (at $((SECONDS - started)) s)"; }
pass() { passed=$((passed + 1)); echo "  ok    $1"; }
fail() { failed=$((failed + 1)); failures+=("$1"); echo "  FAIL  $1" >&2; }

echo "test-runtimes: npm pack"
tarball="$work/$(npm pack --silent --pack-destination "$work" 2>/dev/null | tail -n1)"
app="$work/app"
mkdir -p "$app"
echo '{ "name": "unpool-runtimes", "private": true, "type": "module" }' >"$app/package.json"
(cd "$app" && PATH="/nonexistent-emscripten:$PATH" npm install --no-audit --no-fund --silent --prefer-offline \
   "$tarball" onnxruntime-web@1.30.0)
cp tests/runtimes/checks.mjs tests/runtimes/smoke.mjs tests/runtimes/smoke.cjs "$app/"
vectors="$repo/tests/vectors/golden_public.json"

# Every cell's summary must equal this one (Node.js 24, `unpool`).
expected=
cell() { # cell NAME COMMAND...: runs in $app, its stdout must be the summary
  local name=$1 out
  shift
  if ! out=$(cd "$app" && "$@" 2>"$work/stderr"); then
    fail "$name"; sed 's/^/        /' "$work/stderr" >&2; return
  fi
  [ -n "$expected" ] || expected=$out
  local want=${cell_want:-$expected}
  if [ "$out" = "$want" ]; then pass "$name"; else
    fail "$name"; echo "        got  $out" >&2; echo "        want $want" >&2
  fi
}

section "Node.js, Deno, Bun"
for entry in unpool unpool/inline; do
  for v in 24 22 20; do
    node="$bin/node$v/bin/node"
    cell "node $("$node" --version) import('$entry')" "$node" smoke.mjs "$entry" "$vectors"
    cell "node $("$node" --version) require('$entry')" "$node" smoke.cjs "$entry" "$vectors"
  done
  cell "deno $("$bin/.bin/deno" --version | head -1 | cut -d' ' -f2) import('$entry')" \
    "$bin/.bin/deno" run --allow-read --allow-env smoke.mjs "$entry" "$vectors"
  cell "bun $("$bin/.bin/bun" --version) import('$entry')" "$bin/.bin/bun" smoke.mjs "$entry" "$vectors"
  cell "bun $("$bin/.bin/bun" --version) require('$entry')" "$bin/.bin/bun" smoke.cjs "$entry" "$vectors"
done
# The scalar build, through both entries: the same results, simd false.
cell_want=${expected/'"simd":true'/'"simd":false'}
for entry in unpool unpool/inline; do
  cell "node $("$bin/node24/bin/node" --version) import('$entry'), init({ simd: false })" \
    "$bin/node24/bin/node" smoke.mjs "$entry" "$vectors" scalar
done
cell_want=

section "float16 and bfloat16: Uint16Array bits everywhere, Float16Array where the runtime has it"
# tests/runtimes/half.mjs prints how many v2 cases it ran per container; the
# counts come from the vectors, Float16Array's "absent" where the global is.
cp tests/runtimes/half.mjs "$app/"
vectors2="$repo/tests/vectors/golden_public_v2.json"
half_counts=$(node -e '
  const cs = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).cases.filter((c) =>
    ["float16", "bfloat16"].includes(c.inputs.x.dtype) && !c.expected.error && c.expected.output &&
    c.error_kind === undefined && !/fractional/.test(c.op));
  process.stdout.write(`${cs.length} ${cs.filter((c) => c.inputs.x.dtype === "float16").length}`);
' "$vectors2")
read -r half_u16 half_f16 <<<"$half_counts"
for v in 24 22 20; do
  node="$bin/node$v/bin/node"
  if [ "$v" = 24 ]; then f16=$half_f16; else f16='"absent"'; fi
  cell_want="{\"Uint16Array\":$half_u16,\"Float16Array\":$f16}" \
    cell "node $("$node" --version) float16/bfloat16" "$node" half.mjs "$vectors2"
done
cell_want="{\"Uint16Array\":$half_u16,\"Float16Array\":$half_f16}" \
  cell "deno $("$bin/.bin/deno" --version | head -1 | cut -d' ' -f2) float16/bfloat16" \
  "$bin/.bin/deno" run --allow-read --allow-env half.mjs "$vectors2"
cell_want="{\"Uint16Array\":$half_u16,\"Float16Array\":$half_f16}" \
  cell "bun $("$bin/.bin/bun" --version) float16/bfloat16" "$bin/.bin/bun" half.mjs "$vectors2"

section "unpool/onnx: a small model on onnxruntime-web's wasm EP"
cp tests/js/pack/onnx-model.mjs tests/js/pack/onnx-example.js tests/runtimes/onnx.mjs tests/runtimes/onnx.cjs "$app/"
if (cd "$app" && node onnx-model.mjs model.onnx 2>"$work/stderr"); then
  # Every cell must print what Node.js 24's prints (onnx-example.js has
  # checked each against ORT alone already).
  saved_expected=$expected
  expected=
  for v in 24 22 20; do
    node="$bin/node$v/bin/node"
    cell "node $("$node" --version) import('unpool/onnx')" "$node" onnx.mjs model.onnx
    cell "node $("$node" --version) require('unpool/onnx')" "$node" onnx.cjs model.onnx
  done
  cell "deno $("$bin/.bin/deno" --version | head -1 | cut -d' ' -f2) import('unpool/onnx')" \
    "$bin/.bin/deno" run --allow-read --allow-env onnx.mjs model.onnx
  cell "bun $("$bin/.bin/bun" --version) import('unpool/onnx')" "$bin/.bin/bun" onnx.mjs model.onnx
  cell "bun $("$bin/.bin/bun" --version) require('unpool/onnx')" "$bin/.bin/bun" onnx.cjs model.onnx
  expected=$saved_expected
else
  fail "unpool/onnx: building the model with the tarball's schema"; sed 's/^/        /' "$work/stderr" >&2
fi

section "esbuild pages, Blob-URL workers, a data: module in chromium"
page="$app/page"
mkdir -p "$page/src"
cp tests/runtimes/browser/*.mjs "$page/src/"
cp tests/runtimes/checks.mjs "$page/"
cp "$vectors" "$page/vectors.json"
esbuild_ok=1
for entry in page inline-page worker inline-worker blob-worker data-module data-url; do
  if ! (cd "$page" && "$bin/.bin/esbuild" "src/$entry.mjs" --bundle --format=esm --target=es2022 \
          --log-level=warning --outfile="$entry.js" 2>"$work/stderr"); then
    esbuild_ok=0; fail "esbuild --bundle $entry.mjs"; sed 's/^/        /' "$work/stderr" >&2
  fi
done
if [ "$esbuild_ok" = 1 ]; then
  pass "esbuild $("$bin/.bin/esbuild" --version) bundles every page and worker"
  # esbuild does not emit new URL(…, import.meta.url) assets: the .wasm
  # files go beside the bundle by hand, as docs/runtimes.md says.
  cp "$app/node_modules/unpool/dist/"*.wasm "$page/"
  for p in page inline-page blob-worker data-url; do
    printf '<!doctype html><meta charset="utf-8"><title>%s</title><script type="module" src="./%s.js"></script>\n' \
      "$p" "$p" >"$page/$p.html"
  done
  if node tests/runtimes/browser-cells.mjs "$expected" --dir "$page" page.html inline-page.html \
       'blob-worker.html#binary' 'blob-worker.html#inline' 'data-url.html#locate' 'data-url.html#binary' \
       >"$work/cells" 2>"$work/stderr"; then :; fi
  while read -r line; do
    case "$line" in
      *': ok') pass "chromium ${line%: ok}" ;;
      *) fail "chromium $line" ;;
    esac
  done <"$work/cells"
  if [ "$failed" -gt 0 ] || [ ! -s "$work/cells" ]; then sed "s/^/        /" "$work/stderr" >&2; fi
  [ -s "$work/cells" ] || fail "chromium (no result)"
fi

source tests/runtimes/nextjs.sh
source tests/runtimes/hygiene.sh

echo "test-runtimes: took $((SECONDS - started)) s"
if [ "$failed" -gt 0 ]; then
  printf 'test-runtimes: failed: %s\n' "${failures[@]}" >&2
fi
echo "runtimes: $passed passed, $failed failed"
[ "$failed" = 0 ]
