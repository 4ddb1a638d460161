// The package's types as a strict consumer compiles them (scripts/test-pack.sh):
//   node types-check.mjs <app folder with the tarball installed> <typescript folder>
// (onnxruntime-web and onnxruntime-node installed there too: the unpool/onnx
// lines pass their namespaces as imported, with no cast.)
// Under moduleResolution nodenext and bundler, strict, skipLibCheck: false:
//  1. types-smoke.ts, types-strict.ts and every declaration file under
//     node_modules/unpool/dist compile with no error: a shipped .d.ts that
//     names a declaration stripInternal removed (or anything else broken in
//     one no entry reaches) fails here;
//  2. types-strict.ts without its `// @ts-expect-error TSnnnn ...` lines has
//     exactly those errors, each on the line below its directive: every line
//     that must not compile fails for the reason it names.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [app, tsDir] = process.argv.slice(2).map((p) => path.resolve(p));
const ts = (await import(pathToFileURL(path.join(tsDir, 'lib', 'typescript.js')).href)).default;

const dist = path.join(app, 'node_modules', 'unpool', 'dist');
const declarations = fs.readdirSync(dist, { recursive: true })
  .filter((f) => /\.d\.(ts|cts|mts)$/.test(f)).sort().map((f) => path.join(dist, f));

const fixture = path.join(app, 'types-strict.ts');
const text = fs.readFileSync(fixture, 'utf8').split('\n');
/** The errors the directives promise: line (from 1) of the code below each -> TS code. */
const expected = new Map();
const directive = /^\s*\/\/ @ts-expect-error TS(\d+) \S/;
text.forEach((l, i) => {
  if (!/^\s*\/\/\s*@ts-expect-error/.test(l)) return;
  const m = directive.exec(l);
  if (m === null) throw new Error(`types-strict.ts:${i + 1}: write // @ts-expect-error TSnnnn <why>`);
  expected.set(i + 2, Number(m[1]));
});
if (expected.size === 0) throw new Error('types-strict.ts has no line that must not compile');
// The same lines with each directive blanked (line numbers kept).
const unmarked = path.join(app, 'types-strict.unmarked.ts');
fs.writeFileSync(unmarked, text.map((l) => (directive.test(l) ? '' : l)).join('\n'));

const resolutions = {
  nodenext: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
  bundler: { module: ts.ModuleKind.ES2022, moduleResolution: ts.ModuleResolutionKind.Bundler },
};

const format = (d) => {
  const where = d.file ? `${path.relative(app, d.file.fileName)}(${d.file.getLineAndCharacterOfPosition(d.start).line + 1}): ` : '';
  return `${where}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
};

let failed = 0;
for (const [name, resolution] of Object.entries(resolutions)) {
  const options = {
    ...resolution, target: ts.ScriptTarget.ES2022, strict: true, noEmit: true, skipLibCheck: false,
    types: [], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  };
  const roots = [path.join(app, 'types-smoke.ts'), fixture, ...declarations];
  const errors = ts.getPreEmitDiagnostics(ts.createProgram(roots, options));
  for (const d of errors) console.error(`types-check (${name}): ${format(d)}`);
  const before = failed += errors.length;

  const program = ts.createProgram([unmarked], options);
  const source = program.getSourceFile(unmarked);
  const got = ts.getPreEmitDiagnostics(program).filter((d) => d.file === source);
  const lines = new Set();
  for (const d of got) {
    const line = source.getLineAndCharacterOfPosition(d.start).line + 1;
    if (expected.get(line) !== d.code) {
      console.error(`types-check (${name}): unexpected ${format(d)}` +
          (expected.has(line) ? ` (the directive names TS${expected.get(line)})` : ''));
      failed += 1;
    }
    lines.add(line);
  }
  for (const [line, code] of expected) {
    if (!lines.has(line)) {
      console.error(`types-check (${name}): types-strict.ts(${line}) compiles; it must fail with TS${code}`);
      failed += 1;
    }
  }
  console.log(`types-check (${name}): ${roots.length} files (${declarations.length} of the package's ` +
      `declarations): ${errors.length} errors; ${expected.size} lines that must not compile: ` +
      `${failed - before} problems`);
}
fs.rmSync(unmarked);
if (failed > 0) {
  console.error(`types-check: ${failed} problems`);
  process.exit(1);
}
