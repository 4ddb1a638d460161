#!/usr/bin/env bash
# End-to-end test of the demo's two pages in the three browser engines:
# checks that the model page's SegNet is what web/model/train.py makes
# (`train.py --check`: web/model/README.md), builds what is missing, serves
# web/ with Vite on a free localhost port (tests/demo/vite.config.mjs: web's
# config plus the console-error hook of tests/engines/), and runs
#   chromium  tests/demo/demo.test.mjs and webgpu.test.mjs (Debian's
#             chromium, playwright-core): the single-op page, and its WebGPU
#             switch; segnet.test.mjs and segnet-webgpu.test.mjs: the model
#             page, and the model on WebGPU (SwiftShader); segnet-built.test.mjs:
#             the pages as `vite build` makes them
#   firefox   tests/demo/engines.test.mjs and segnet-engines.test.mjs in
#             Debian's firefox-esr, the model page also on WebGPU (lavapipe)
#   webkit    the same two files in WebKitGTK (WebKitWebDriver, Xvfb)
# each a stage line of its own, with screenshots per engine in
# test-results/. The server and every browser, driver and Xvfb are always
# stopped.
#   BROWSERS="firefox webkit"   only these engines
#   DEMO_MODEL_CHECK=full       train.py --check-full: retrain the model in full
set -euo pipefail
cd "$(dirname "$0")/.."
engines=${BROWSERS:-chromium firefox webkit}
# shellcheck source=scripts/engines.sh
. scripts/engines.sh
engines_ensure test-demo $engines
# The model page's model: Debian's python3-torch; WebGPU in chromium and firefox: Mesa's lavapipe and co.
case " $engines " in *" chromium "*|*" firefox "*) groups=(python webgpu) ;; *) groups=(python) ;; esac
scripts/ensure-deps.sh "${groups[@]}"
# DEMO_MODEL_CHECK=full retrains the model in full (3 to 4 minutes) instead.
check=--check
[ "${DEMO_MODEL_CHECK:-}" = full ] && check=--check-full
echo "test-demo: web/model/train.py $check"
/usr/bin/python3 web/model/train.py "$check"
npm run build --silent

port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
work=$(mktemp -d "${TMPDIR:-/tmp}/unpool-demo.XXXXXX")
log="$work/vite.log"
engine_procs_init "$work"
DEMO_NO_HMR=1 node node_modules/vite/bin/vite.js --config tests/demo/vite.config.mjs --host 127.0.0.1 --port "$port" --strictPort >"$log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  engine_procs_stop
  rm -rf "$work"
}
trap cleanup EXIT

url="http://127.0.0.1:$port/"
if ! node -e '
  const url = process.argv[1];
  const deadline = Date.now() + 60000;
  (async () => {
    while (Date.now() < deadline) {
      try { if ((await fetch(url)).ok) return; } catch {}
      await new Promise((r) => setTimeout(r, 250));
    }
    process.exit(1);
  })();' "$url"; then
  echo "test-demo: the Vite server did not answer on $url; its log:" >&2
  cat "$log" >&2
  exit 1
fi
echo "test-demo: demo served at $url"
for e in $engines; do
  engine_begin demo "$e"
  if [ "$e" = chromium ]; then
    # demo.test.mjs, segnet.test.mjs and segnet-built.test.mjs without WebGPU,
    # webgpu.test.mjs and segnet-webgpu.test.mjs with WebGPU on SwiftShader;
    # one Chromium at a time.
    files=(tests/demo/demo.test.mjs tests/demo/webgpu.test.mjs tests/demo/segnet.test.mjs tests/demo/segnet-webgpu.test.mjs
           tests/demo/segnet-built.test.mjs)
  else
    files=(tests/demo/engines.test.mjs tests/demo/segnet-engines.test.mjs)
  fi
  rc=0
  DEMO_URL="$url" DEMO_ENGINES="$e" timeout -k 10 900 node --test --test-concurrency=1 "${files[@]}" \
    | tee "$work/$e.tap" || rc=$?
  engine_procs_stop
  engine_end demo "$e" "$(sed -nE 's/^# pass ([0-9]+)$/\1/p' "$work/$e.tap" | tail -n1)" \
    "$(sed -nE 's/^# fail ([0-9]+)$/\1/p' "$work/$e.tap" | tail -n1)" "$rc"
done
engines_summary demo
