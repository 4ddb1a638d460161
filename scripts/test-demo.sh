#!/usr/bin/env bash
# End-to-end test of the demo in headless Chromium (Debian's /usr/bin/chromium
# driven by playwright-core): builds what is missing, serves web/ with Vite on
# a free localhost port, runs tests/demo/*.test.mjs, and always stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh wasm browser npm
npm run build --silent

port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
log=$(mktemp)
DEMO_NO_HMR=1 node node_modules/vite/bin/vite.js --config web/vite.config.js --host 127.0.0.1 --port "$port" --strictPort >"$log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -f "$log"
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
# demo.test.mjs without WebGPU, webgpu.test.mjs with WebGPU on SwiftShader
# (the backend switch); one Chromium at a time.
DEMO_URL="$url" node --test --test-concurrency=1 tests/demo/demo.test.mjs tests/demo/webgpu.test.mjs
