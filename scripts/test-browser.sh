#!/usr/bin/env bash
# Vitest browser mode: the tests/js suites (the conformance vectors among
# them, through the public API) in the three engines web apps run in, each
# from Debian's packages (vitest.browser.config.ts):
#   chromium   Debian's chromium (V8), Vitest's Playwright provider
#   firefox    Debian's firefox-esr (SpiderMonkey), puppeteer-core
#   webkit     WebKitGTK's MiniBrowser (JavaScriptCore), WebKitWebDriver + Xvfb
# Each engine is a stage line of its own with its version, and ends with
# `browser-<engine>: N passed, N failed`. An engine that does not start fails
# the stage (never a skip); every engine runs, the stage fails if any failed.
#   BROWSERS="firefox webkit"   only these engines
#   BROWSER_TIMEOUT=1200        seconds per engine
set -euo pipefail
cd "$(dirname "$0")/.."
engines=${BROWSERS:-chromium firefox webkit}
groups=()
for e in $engines; do
  case "$e" in
    chromium) groups+=(browser) ;;
    firefox) groups+=(firefox) ;;
    webkit) groups+=(webkit) ;;
    *) echo "test-browser: unknown engine '$e' (chromium, firefox, webkit)" >&2; exit 2 ;;
  esac
done
scripts/ensure-deps.sh wasm npm "${groups[@]}"
bash scripts/build.sh

work=$(mktemp -d "${TMPDIR:-/tmp}/unpool-browser.XXXXXX")
# shellcheck source=scripts/engine-procs.sh
. scripts/engine-procs.sh
engine_procs_init "$work"
trap 'engine_procs_stop; rm -rf "$work"' EXIT
limit=${BROWSER_TIMEOUT:-1200}

failed_total=0
results=()
for e in $engines; do
  t0=$SECONDS
  version=$(node tests/engines/version.mjs "$e") || version="$e (not found)"
  echo "=== test: browser ($version) ==="
  rc=0
  UNPOOL_ENGINE=$e timeout -k 10 "$limit" npx vitest run --config vitest.browser.config.ts \
    --reporter=default --reporter=json --outputFile.json="$work/$e.json" || rc=$?
  engine_procs_stop
  summary=$(node tests/engines/vitest-summary.mjs "$work/$e.json" "browser-$e")
  echo "$summary"
  failed=$(echo "$summary" | sed -nE 's/.*, ([0-9]+) failed$/\1/p')
  [ "$rc" -eq 124 ] && echo "browser-$e: timed out after $limit s"
  if [ "$rc" -ne 0 ] && [ "${failed:-0}" -eq 0 ]; then failed=1; fi
  failed_total=$((failed_total + ${failed:-1}))
  results+=("$(echo "$summary" | tail -n1), exit $rc, $((SECONDS - t0)) s ($version)")
done
echo "=== browser: summary ==="
printf '%s\n' "${results[@]}"
[ "$failed_total" -eq 0 ]
