#!/usr/bin/env bash
# Builds the WebAssembly module into build/wasm (incremental: CMake rebuilds
# only what changed) with Debian's Emscripten.
set -euo pipefail
cd "$(dirname "$0")/.."
# emcc -O2 and above run acorn from Debian's node modules.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
# One target at a time: two em++ links running in parallel (-j) can pair a
# glue with the other link's imports (seen with Emscripten 3.1.6).
cmake --build build/wasm --target unpool_wasm -j"$(nproc)"
cmake --build build/wasm --target unpool_wasm_scalar -j"$(nproc)"
# A glue must provide exactly the imports of its .wasm. Concurrent em++
# links on this machine (other build folders) have left pairs that do not
# match; such a target is linked again.
glue_matches() {
  node -e '
    const fs = require("fs");
    const [glue, wasm] = process.argv.slice(1);
    const imports = WebAssembly.Module.imports(new WebAssembly.Module(fs.readFileSync(wasm)))
      .filter((i) => i.kind === "function").map((i) => i.name).sort();
    const m = /var asmLibraryArg=\{([^}]*)\}/.exec(fs.readFileSync(glue, "utf8"));
    const keys = m ? [...m[1].matchAll(/"([^"]+)":/g)].map((k) => k[1]).sort() : [];
    process.exit(JSON.stringify(imports) === JSON.stringify(keys) ? 0 : 1);
  ' "build/wasm/$1.mjs" "build/wasm/$1.wasm"
}
for name in unpool unpool-scalar; do
  target=unpool_wasm; [ "$name" = unpool-scalar ] && target=unpool_wasm_scalar
  for attempt in 1 2 3; do
    glue_matches "$name" && break
    echo "build-wasm: build/wasm/$name.mjs does not match its .wasm; linking it again" >&2
    rm -f "build/wasm/$name.mjs" "build/wasm/$name.wasm"
    cmake --build build/wasm --target "$target" -j1 >/dev/null
  done
  glue_matches "$name" || { echo "build-wasm: build/wasm/$name.mjs still does not match" >&2; exit 1; }
done
