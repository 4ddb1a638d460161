// The package's types as a strict consumer compiles them (scripts/test-pack.sh):
//   node types-check.mjs <app folder with the tarball installed> <typescript folder>
// Under moduleResolution nodenext and bundler, strict, skipLibCheck: false,
// types-smoke.ts and every declaration file under node_modules/unpool/dist
// compile with no error: a shipped .d.ts that names a declaration
// stripInternal removed (or anything else broken in one no entry reaches)
// fails here.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [app, tsDir] = process.argv.slice(2).map((p) => path.resolve(p));
const ts = (await import(pathToFileURL(path.join(tsDir, 'lib', 'typescript.js')).href)).default;

const dist = path.join(app, 'node_modules', 'unpool', 'dist');
const declarations = fs.readdirSync(dist, { recursive: true })
  .filter((f) => /\.d\.(ts|cts|mts)$/.test(f)).sort().map((f) => path.join(dist, f));

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
  const roots = [path.join(app, 'types-smoke.ts'), ...declarations];
  const errors = ts.getPreEmitDiagnostics(ts.createProgram(roots, options));
  for (const d of errors) console.error(`types-check (${name}): ${format(d)}`);
  failed += errors.length;
  console.log(`types-check (${name}): ${roots.length} files (${declarations.length} of the package's ` +
      `declarations): ${errors.length} errors`);
}
if (failed > 0) {
  console.error(`types-check: ${failed} problems`);
  process.exit(1);
}
