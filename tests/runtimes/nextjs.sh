# Sourced by scripts/test-runtimes.sh: the Next.js cells. The app
# (tests/runtimes/next-app: app router, a client component that pools and
# unpools in the browser) is built with webpack and with Turbopack inside the
# tool cache (so that next and react resolve from its node_modules), with
# the tarball extracted as node_modules/unpool, served by `next start` on
# 127.0.0.1 and checked in chromium like the other pages.
section "Next.js $(node -p "require('$bin/next/package.json').version") (webpack, Turbopack) in chromium"
next_app="$tools/apps/next-$$"
rm -rf "$next_app"
mkdir -p "$next_app/node_modules/unpool" "$next_app/public"
cp -r tests/runtimes/next-app/. "$next_app/"
cp tests/runtimes/checks.mjs "$next_app/app/"
cp "$vectors" "$next_app/public/vectors.json"
echo '{ "name": "unpool-next", "private": true }' >"$next_app/package.json"
tar -xzf "$tarball" -C "$next_app/node_modules/unpool" --strip-components=1
export UNPOOL_NEXT_ROOT="$tools"
next_cli="$bin/next/dist/bin/next"
for bundler in webpack turbopack; do
  name="next build --$bundler, next start"
  rm -rf "$next_app/.next"
  if ! (cd "$next_app" && node "$next_cli" build "--$bundler" >"$work/next-build.log" 2>&1); then
    fail "$name (build)"; tail -n 40 "$work/next-build.log" | sed 's/^/        /' >&2; continue
  fi
  port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  (cd "$next_app" && exec node "$next_cli" start -H 127.0.0.1 -p "$port" >"$work/next-start.log" 2>&1) &
  server_pid=$!
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$port/" >/dev/null 2>&1 && break
    sleep 0.5
  done
  if node tests/runtimes/browser-cells.mjs "$expected" --url "http://127.0.0.1:$port" / \
       >"$work/cells" 2>"$work/stderr"; then
    pass "$name in chromium"
  else
    fail "$name in chromium"; sed 's/^/        /' "$work/cells" "$work/stderr" "$work/next-start.log" | head -n 40 >&2
  fi
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=
done
rm -rf "$next_app"
