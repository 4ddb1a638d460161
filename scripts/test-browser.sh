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
# shellcheck source=scripts/engines.sh
. scripts/engines.sh
# shellcheck disable=SC2086
engines_stage test-browser '' $engines
limit=${BROWSER_TIMEOUT:-1200}

for e in $engines; do
  engine_begin browser "$e"
  rc=0
  UNPOOL_ENGINE=$e timeout -k 10 "$limit" npx vitest run --config vitest.browser.config.ts \
    --reporter=default --reporter=json --outputFile.json="$work/$e.json" || rc=$?
  engine_procs_stop
  summary=$(node tests/engines/vitest-summary.mjs "$work/$e.json" "browser-$e")
  grep -v ' passed, ' <<<"$summary" || true
  engine_end browser "$e" "$(sed -nE 's/.*: ([0-9]+) passed.*/\1/p' <<<"$summary")" \
    "$(sed -nE 's/.*, ([0-9]+) failed$/\1/p' <<<"$summary")" "$rc"
done
engines_summary browser
