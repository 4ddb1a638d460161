#!/usr/bin/env bash
# The package as users get it: npm pack, install the tarball into an empty
# folder (no Emscripten involved), then
#   - check the tarball holds the .wasm, the glue and the types of every
#     entry (each file package.json's exports names), and no sources, and
#     that unpool.wasm keeps under its 140,000-byte budget;
#   - check that every relative link of the packed README (and of the docs it
#     ships) resolves inside the tarball, as on npmjs.com and in node_modules;
#   - import 'unpool' from a Node script; import 'unpool/onnx' and run a
#     small model (MaxPool with Indices, Shape, MaxUnpool: onnx-model.mjs,
#     built with the tarball's own schema) with unpoolNodes 'all' on
#     onnxruntime-web's wasm EP and onnxruntime-node's cpu EP, each equal to
#     ORT alone (tests/js/pack/onnx-example.js);
#   - type-check TypeScript consumers of every entry against the installed
#     .d.ts, with every .d.ts the tarball ships (strict, skipLibCheck: false,
#     moduleResolution nodenext and bundler), and check that each line of
#     types-strict.ts that must not compile fails as it says
#     (tests/js/pack/types-check.mjs);
#   - bundle a page importing 'unpool' and one importing 'unpool/onnx' and
#     onnxruntime-web with Vite, and the same pages with webpack 5 (installed
#     into the scratch folder, not the repo), and run each in the three
#     browser engines (tests/engines/: Debian's chromium, firefox-esr and
#     WebKitGTK); then the onnx page unbundled, from the installed
#     node_modules through an import map (page/importmap.html); Node and
#     browser results must be identical, and no page may log a console error.
# onnxruntime-web and onnxruntime-node 1.30.0 are installed beside the tarball
# with --ignore-scripts: onnxruntime-node's install script would fetch CUDA
# binaries from nuget.org; its CPU binaries ship in the npm package.
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
# Every file an entry of package.json's exports names (each condition's),
# and the files its modules need beyond them.
exported=$(tar -xzOf "$tarball" package/package.json | node -e '
  const targets = (v) => (typeof v === "string" ? [v] : Object.values(v).flatMap(targets));
  const { exports } = JSON.parse(require("fs").readFileSync(0, "utf8"));
  console.log([...new Set(targets(exports))].map((t) => `package/${t.replace(/^\.\//, "")}`).join("\n"));')
for f in $exported package/README.md \
         package/dist/unpool.mjs package/dist/unpool.d.mts package/dist/unpool-scalar.mjs \
         package/dist/unpool-scalar.d.mts package/dist/onnx/onnx_pb.js package/dist/onnx/onnx_pb.d.ts \
         package/docs/api.md package/CHANGELOG.md package/web/screenshot.png package/web/screenshot-pool.png; do
  grep -qx "$f" <<<"$listing" || { echo "test-pack: $f missing from the tarball" >&2; exit 1; }
done
allowed='^package/(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist/(webgpu/|onnx/)?[A-Za-z0-9_.-]+|docs/[A-Za-z0-9_-]+\.md|web/screenshot(-pool)?\.png)$'
if grep -qvE "$allowed" <<<"$listing"; then
  echo "test-pack: unexpected files in the tarball:" >&2
  grep -vE "$allowed" <<<"$listing" >&2
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
   tests/js/pack/types-strict.ts tests/js/pack/onnx-model.mjs tests/js/pack/onnx-example.js \
   tests/js/pack/onnx-node-smoke.mjs "$app/"
cp tests/js/pack/page/*.html tests/js/pack/page/*.js "$app/"
cat >"$app/package.json" <<'JSON'
{ "name": "unpool-pack-smoke", "private": true, "type": "module" }
JSON
cp tests/js/pack/webpack.config.js "$app/"
echo "test-pack: npm install the tarball, ONNX Runtime (web, node) and webpack into $app"
(cd "$app" && PATH="/nonexistent-emscripten:$PATH" npm install --no-audit --no-fund --silent --prefer-offline \
   --ignore-scripts "$tarball" onnxruntime-web@1.30.0 onnxruntime-node@1.30.0 webpack@5 webpack-cli@6)

echo "test-pack: Node import"
node_result=$(cd "$app" && node node-smoke.mjs)

echo "test-pack: Node import of 'unpool/onnx', a model on onnxruntime-web (wasm) and onnxruntime-node (cpu)"
(cd "$app" && node onnx-model.mjs model.onnx)
onnx_result=$(cd "$app" && node onnx-node-smoke.mjs model.onnx)

echo "test-pack: TypeScript types (every entry and declaration file; nodenext and bundler)"
node tests/js/pack/types-check.mjs "$app" "$repo/node_modules/typescript"

echo "test-pack: Vite build of a page importing 'unpool' and one importing 'unpool/onnx'"
cat >"$app/vite.config.js" <<'JS'
export default {
  logLevel: 'warn',
  build: {
    target: 'es2022', outDir: 'dist', emptyOutDir: true,
    rollupOptions: { input: { main: 'index.html', onnx: 'onnx.html' } },
    // ORT Web's bundle is over Vite's 500 kB warning.
    chunkSizeWarningLimit: 2000,
  },
};
JS
(cd "$app" && node "$repo/node_modules/vite/bin/vite.js" build)
unpool_wasm="$app/node_modules/unpool/dist/unpool.wasm"
# A bundle must emit both of unpool's builds as files (the SIMD one and the
# scalar fallback the loader picks without SIMD) and no other .wasm but
# ORT Web's own, inline neither a module nor an asset as a data: URL (the
# glue's own empty "data:application/octet-stream;base64," prefix is not
# one), and compute in every engine what Node computed.
check_bundle() { # check_bundle NAME DIR JS-DIR
  local name=$1 dir=$2 js=$3 f
  local builds=0
  while IFS= read -r f; do
    if cmp -s "$f" "$unpool_wasm" || cmp -s "$f" "$app/node_modules/unpool/dist/unpool-scalar.wasm"; then
      builds=$((builds + 1))
    elif ! cmp -s "$f" "$app/node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.jsep.wasm"; then
      echo "test-pack: the $name bundle emits $f, neither unpool's nor ORT Web's .wasm" >&2; exit 1
    fi
  done < <(find "$dir" -name '*.wasm')
  if [ "$builds" != 2 ]; then
    echo "test-pack: the $name bundle has $builds of unpool's .wasm builds, expected 2 (SIMD and scalar)" >&2
    ls -lR "$dir" >&2; exit 1
  fi
  if grep -qE 'data:text/javascript|data:[a-z]+/[a-z0-9.+-]+(;[a-z0-9=-]+)*;base64,[A-Za-z0-9+/]{16}' "$js"/*.js; then
    echo "test-pack: the $name bundle inlines a data: URL instead of emitting a file" >&2; exit 1
  fi
  cp "$app/model.onnx" "$dir/"
  for e in $engines; do
    check_page "$name" "$dir" "$e" / "$node_result"
    check_page "$name" "$dir" "$e" /onnx.html "$onnx_result"
  done
}
check_page() { # check_page NAME DIR ENGINE PAGE EXPECTED
  local name=$1 dir=$2 e=$3 page=$4 want=$5 result
  echo "test-pack: the $name page $page in $(node tests/engines/version.mjs "$e")"
  result=$(timeout -k 10 300 node tests/js/pack/browser-smoke.mjs "$dir" "$e" "$page" --wasm "$unpool_wasm")
  engine_procs_stop
  if [ "$want" != "$result" ]; then
    echo "test-pack: Node and browser ($name $page, $e) results differ" >&2
    echo "node:    $want" >&2
    echo "browser: $result" >&2
    exit 1
  fi
  checks+=("$name $page in $e")
}
checks=()
check_bundle Vite "$app/dist" "$app/dist/assets"

echo "test-pack: webpack 5 build of the same pages"
(cd "$app" && node node_modules/webpack-cli/bin/cli.js --no-stats)
cp tests/js/pack/page/index.html tests/js/pack/page/onnx.html "$app/dist-webpack/"
check_bundle webpack "$app/dist-webpack" "$app/dist-webpack"

# No bundler: the onnx page's own modules, 'unpool/onnx' and its
# dependencies straight from node_modules through page/importmap.html.
for e in $engines; do
  check_page "import map" "$app" "$e" /importmap.html "$onnx_result"
done
echo "test-pack: $((5 + ${#checks[@]})) passed, 0 failed (tarball contents, README links, Node import, Node onnx, types, $(IFS=,; echo "${checks[*]}" | sed 's/,/, /g'))"
