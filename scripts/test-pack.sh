#!/usr/bin/env bash
# The package as users get it: npm pack, install the tarball into an empty
# folder (no Emscripten involved), then
#   - check the tarball holds the .wasm, the glue and the types, and no sources,
#     and that unpool.wasm keeps under its 120 KB budget;
#   - check that every relative link of the packed README (and of the docs it
#     ships) resolves inside the tarball, as on npmjs.com and in node_modules;
#   - import 'unpool' from a Node script;
#   - type-check TypeScript consumers of every entry against the installed
#     .d.ts, with every .d.ts the tarball ships (strict, skipLibCheck: false,
#     moduleResolution nodenext and bundler), and check that each line of
#     types-strict.ts that must not compile fails as it says
#     (tests/js/pack/types-check.mjs);
#   - bundle a page importing 'unpool' with Vite, and the same page with
#     webpack 5 (installed into the scratch folder, not the repo), and run
#     each in the three browser engines (tests/engines/: Debian's chromium,
#     firefox-esr and WebKitGTK); Node and browser results must be
#     identical, and the page must log no console error.
#   BROWSERS="firefox webkit"   only these engines
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
engines=${BROWSERS:-chromium firefox webkit}
# shellcheck source=scripts/engines.sh
. scripts/engines.sh
# shellcheck disable=SC2086
engines_stage test-pack engines $engines

echo "test-pack: npm pack"
tarball=$(npm pack --silent --pack-destination "$work" | tail -n1)
tarball="$work/$tarball"
listing=$(tar -tzf "$tarball")
for f in package/package.json package/README.md package/dist/index.js package/dist/index.d.ts \
         package/dist/unpool.mjs package/dist/unpool.d.mts package/dist/unpool.wasm \
         package/dist/unpool-scalar.mjs package/dist/unpool-scalar.d.mts package/dist/unpool-scalar.wasm \
         package/docs/api.md package/CHANGELOG.md package/web/screenshot.png package/web/screenshot-pool.png; do
  grep -qx "$f" <<<"$listing" || { echo "test-pack: $f missing from the tarball" >&2; exit 1; }
done
if grep -qvE '^package/(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist/[A-Za-z0-9_.-]+|dist/webgpu/[A-Za-z0-9_.-]+|dist/onnx/[A-Za-z0-9_.-]+|docs/[A-Za-z0-9_-]+\.md|web/screenshot(-pool)?\.png)$' <<<"$listing"; then
  echo "test-pack: unexpected files in the tarball:" >&2
  grep -vE '^package/(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist/[A-Za-z0-9_.-]+|dist/webgpu/[A-Za-z0-9_.-]+|dist/onnx/[A-Za-z0-9_.-]+|docs/[A-Za-z0-9_-]+\.md|web/screenshot(-pool)?\.png)$' <<<"$listing" >&2
  exit 1
fi

# The module's size budget (140,000 bytes): each dtype, op and kernel added
# costs bytes every page that loads the package downloads.
size=$(tar -xzOf "$tarball" package/dist/unpool.wasm | wc -c)
if [ "$size" -ge 140000 ]; then
  echo "test-pack: dist/unpool.wasm is $size bytes, over the 140,000-byte budget" >&2
  exit 1
fi
echo "test-pack: dist/unpool.wasm $size bytes (budget 140,000)"
# docs/runtimes.md gives the module's size and unpool/inline's base64: they
# must be this build's (a figure the build changed is stale text).
commas() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"; }
inline=$(tar -xzOf "$tarball" package/dist/wasm-base64.js | wc -c)
for figure in "SIMD: $(commas "$size") B" "$(commas "$inline") B more JavaScript"; do
  if ! tr '\n' ' ' <docs/runtimes.md | grep -qF "$figure"; then
    echo "test-pack: docs/runtimes.md does not say '$figure' (this build's size): update it" >&2
    exit 1
  fi
done

# The README as npmjs.com and node_modules show it: its links (and the
# shipped docs') must point at files in the tarball.
mkdir -p "$work/unpacked"
tar -xzf "$tarball" -C "$work/unpacked"
node tests/js/pack/readme-links.mjs "$work/unpacked/package"

app="$work/app"
mkdir -p "$app"
cp tests/js/pack/example.js tests/js/pack/node-smoke.mjs tests/js/pack/types-smoke.ts \
   tests/js/pack/types-strict.ts "$app/"
cp tests/js/pack/page/index.html tests/js/pack/page/main.js "$app/"
cat >"$app/package.json" <<'JSON'
{ "name": "unpool-pack-smoke", "private": true, "type": "module" }
JSON
cp tests/js/pack/webpack.config.js "$app/"
echo "test-pack: npm install the tarball (and webpack, for the webpack bundle) into $app"
(cd "$app" && PATH="/nonexistent-emscripten:$PATH" npm install --no-audit --no-fund --silent "$tarball" webpack@5 webpack-cli@6)

echo "test-pack: Node import"
node_result=$(cd "$app" && node node-smoke.mjs)

echo "test-pack: TypeScript types (every entry and declaration file; nodenext and bundler)"
node tests/js/pack/types-check.mjs "$app" "$repo/node_modules/typescript"

echo "test-pack: Vite build of a page importing 'unpool'"
cat >"$app/vite.config.js" <<'JS'
export default { logLevel: 'warn', build: { target: 'es2022', outDir: 'dist', emptyOutDir: true } };
JS
(cd "$app" && node "$repo/node_modules/vite/bin/vite.js" build)
# A bundle must emit both builds as files (the SIMD one and the scalar
# fallback the loader picks without SIMD), inline neither a module nor an
# asset as a data: URL (the glue's own empty "data:application/octet-stream;
# base64," prefix is not one), and compute in every engine what Node computed.
check_bundle() { # check_bundle NAME DIR JS-DIR
  local name=$1 dir=$2 js=$3 result
  local wasm_assets
  wasm_assets=$(find "$dir" -name '*.wasm' | wc -l)
  if [ "$wasm_assets" != 2 ]; then
    echo "test-pack: the $name bundle has $wasm_assets .wasm assets, expected 2 (SIMD and scalar)" >&2
    ls -lR "$dir" >&2; exit 1
  fi
  if grep -qE 'data:text/javascript|data:[a-z]+/[a-z0-9.+-]+(;[a-z0-9=-]+)*;base64,[A-Za-z0-9+/]{16}' "$js"/*.js; then
    echo "test-pack: the $name bundle inlines a data: URL instead of emitting a file" >&2; exit 1
  fi
  for e in $engines; do
    echo "test-pack: the $name-bundled page in $(node tests/engines/version.mjs "$e")"
    result=$(timeout -k 10 300 node tests/js/pack/browser-smoke.mjs "$dir" "$e")
    engine_procs_stop
    if [ "$node_result" != "$result" ]; then
      echo "test-pack: Node and browser ($name, $e) results differ" >&2
      echo "node:    $node_result" >&2
      echo "browser: $result" >&2
      exit 1
    fi
    checks+=("$name page in $e")
  done
}
checks=()
check_bundle Vite "$app/dist" "$app/dist/assets"

echo "test-pack: webpack 5 build of the same page"
(cd "$app" && node node_modules/webpack-cli/bin/cli.js --no-stats)
cp tests/js/pack/page/index.html "$app/dist-webpack/"
check_bundle webpack "$app/dist-webpack" "$app/dist-webpack"
echo "test-pack: $((4 + ${#checks[@]})) passed, 0 failed (tarball contents, README links, Node import, types, $(IFS=,; echo "${checks[*]}" | sed 's/,/, /g'))"
