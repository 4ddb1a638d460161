# Sourced by scripts/test-runtimes.sh: package hygiene, all offline on the
# tarball. publint must say "All good!"; attw's findings must all be on
# tests/runtimes/attw-accepted.json; a strict TypeScript consumer compiles
# with TypeScript 5 and 6 as an ES module (node16, bundler) and as CommonJS
# (node16); `npm publish --dry-run` lists only intended files.
section "package hygiene"
if "$bin/.bin/publint" run "$tarball" --level suggestion >"$work/publint" 2>&1 && grep -q 'All good!' "$work/publint"; then
  pass "publint $(node -p "require('$bin/publint/package.json').version")"
else
  fail "publint"; sed 's/^/        /' "$work/publint" >&2
fi

"$bin/.bin/attw" "$tarball" --no-definitely-typed --profile strict --format json >"$work/attw.json" 2>"$work/stderr" || true
if node -e '
  const fs = require("fs");
  const [report, accepted] = process.argv.slice(1).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
  const problems = report.analysis && report.analysis.problems;
  if (!Array.isArray(problems)) { console.error("no attw analysis"); process.exit(1); }
  const ok = (p) => accepted.accepted.some((a) => a.kind === p.kind && a.entrypoint === p.entrypoint &&
    (a.resolution === "*" || a.resolution === p.resolutionKind));
  const bad = problems.filter((p) => !ok(p));
  for (const p of bad) console.error(`${p.kind} ${p.entrypoint} (${p.resolutionKind})`);
  process.exit(bad.length ? 1 : 0);
' "$work/attw.json" tests/runtimes/attw-accepted.json 2>"$work/stderr"; then
  pass "attw $(node -p "require('$bin/@arethetypeswrong/cli/package.json').version"): only the accepted findings"
else
  fail "attw: findings not on tests/runtimes/attw-accepted.json"; sed 's/^/        /' "$work/stderr" >&2
fi

types="$app/types"
mkdir -p "$types"
cp tests/runtimes/types/esm.mts tests/runtimes/types/cjs.cts "$types/"
ln -sfn ../node_modules "$types/node_modules"
tsconfig() { # tsconfig MODULE RESOLUTION FILE
  printf '{ "compilerOptions": { "target": "ES2022", "module": "%s", "moduleResolution": "%s", "strict": true,
  "noEmit": true, "types": [], "lib": ["ES2022", "DOM"], "skipLibCheck": false }, "files": ["%s"] }\n' "$@"
}
for ts in typescript5 typescript6; do
  version=$(node -p "require('$bin/$ts/package.json').version")
  for combo in "node16 node16 esm.mts" "esnext bundler esm.mts" "node16 node16 cjs.cts"; do
    set -- $combo
    tsconfig "$1" "$2" "$3" >"$types/tsconfig.json"
    if node "$bin/$ts/bin/tsc" -p "$types/tsconfig.json" >"$work/tsc" 2>&1; then
      pass "tsc $version --strict, module $1, $3"
    else
      fail "tsc $version --strict, module $1, $3"; sed 's/^/        /' "$work/tsc" >&2
    fi
  done
done

# What `npm publish` would upload (--offline: without it npm first asks the
# registry about the name, and waits out its retries when that is down):
# package.json, README, LICENSE, CHANGELOG, the docs and the demo's two
# screenshots (the README's links), dist/ files of the shipped kinds (flat,
# and in dist/webgpu/ and dist/onnx/), and each entry's files present.
if (npm publish --dry-run --json --ignore-scripts --offline --tag runtimes-check >"$work/publish.json" 2>"$work/stderr") &&
   node -e '
     const report = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
     const files = (report.files ?? report[Object.keys(report)[0]]?.files ?? []).map((f) => f.path);
     const intended = /^(package\.json|README\.md|LICENSE|CHANGELOG\.md|docs\/[A-Za-z0-9_-]+\.md|web\/screenshot(-pool)?\.png|dist\/((webgpu|onnx)\/)?[A-Za-z0-9_-]+(\.js|\.cjs|\.mjs|\.d\.ts|\.d\.cts|\.d\.mts|\.wasm))$/;
     const extra = files.filter((f) => !intended.test(f));
     const needed = ["dist/index.js", "dist/index.cjs", "dist/index.d.ts", "dist/index.d.cts", "dist/inline.js",
       "dist/inline.cjs", "dist/inline.d.ts", "dist/inline.d.cts", "dist/wasm-base64.js", "dist/unpool.wasm",
       "dist/unpool-scalar.wasm", "dist/unpool.mjs", "dist/unpool-scalar.mjs", "dist/webgpu/index.js",
       "dist/webgpu/index.d.ts", "dist/onnx/index.js", "dist/onnx/index.d.ts", "dist/onnx/onnx_pb.js"];
     const missing = needed.filter((f) => !files.includes(f));
     if (extra.length || missing.length) {
       console.error(`unintended: ${extra.join(", ") || "none"}; missing: ${missing.join(", ") || "none"}`);
       process.exit(1);
     }
     console.error(`${files.length} files`);
   ' "$work/publish.json" 2>>"$work/stderr"; then
  pass "npm publish --dry-run lists only intended files ($(tail -n1 "$work/stderr"))"
else
  fail "npm publish --dry-run"; grep -v 'Unknown .* config' "$work/stderr" | sed 's/^/        /' >&2
fi
