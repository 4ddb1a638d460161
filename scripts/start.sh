#!/usr/bin/env bash
# `npm start`: builds the package if needed, then serves the demo (web/) with
# Vite's dev server on localhost and prints its URL. PORT=NNNN picks a port
# (the next free one is taken if it is busy).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps.sh wasm npm
# Incremental: rebuilds only what changed in cpp/ and js/src since dist/.
npm run build --silent
port=${PORT:-5173}
echo "unpool demo: starting Vite on http://127.0.0.1:$port/ (Ctrl-C stops it)"
exec node node_modules/vite/bin/vite.js --config web/vite.config.js --host 127.0.0.1 --port "$port"
