// The docs' Node.js WebGPU programs (blocks fenced `js node-webgpu` in
// README.md and docs/*.md), run as written with Node.js 24 + the `webgpu`
// package: each is written into the package (build/, so `unpool/webgpu`
// resolves by the package's own name) with only its `'webgpu'` import
// pointed at WEBGPU_PACKAGE, run in a child process, and must exit 0 and
// print exactly what its console.log comments say. Prints
// `webgpu-node-docs: N passed, N failed`.
//   WEBGPU_PACKAGE   folder of the `webgpu` package (default: import 'webgpu')
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { docBlocks, DOCS, expectedOutput, root } from '../../examples/blocks.mjs';

const pkg = process.env.WEBGPU_PACKAGE;
const dir = join(root, 'build', `node-docs-${process.pid}`);
mkdirSync(dir, { recursive: true });
const blocks = DOCS.flatMap(docBlocks).filter((b) => b.fence === 'node-webgpu');
let passed = 0;
let failed = 0;
const fail = (b, why) => {
  failed++;
  console.log(`webgpu-node-docs: FAIL ${b.file}:${b.line}: ${why}`);
};
for (const [i, b] of blocks.entries()) {
  const code = pkg ? b.code.replace("from 'webgpu';", `from ${JSON.stringify(pathToFileURL(join(pkg, 'index.js')).href)};`) : b.code;
  if (pkg && code === b.code) {
    fail(b, "no `from 'webgpu';` import to point at WEBGPU_PACKAGE");
    continue;
  }
  const file = join(dir, `block-${i}.mjs`);
  writeFileSync(file, code);
  const r = spawnSync(process.execPath, [file], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  const printed = r.stdout.split('\n').filter((l) => l !== '');
  const want = expectedOutput(b.code);
  if (r.status !== 0) fail(b, `exit ${r.status ?? r.signal}: ${r.stderr.split('\n').slice(0, 6).join(' | ')}`);
  else if (JSON.stringify(printed) !== JSON.stringify(want)) fail(b, `printed ${JSON.stringify(printed)}, want ${JSON.stringify(want)}`);
  else passed++;
}
rmSync(dir, { recursive: true, force: true });
if (blocks.length === 0) fail({ file: 'docs', line: 0 }, 'no block fenced js node-webgpu');
console.log(`webgpu-node-docs: ${blocks.length} docs program(s) on ${process.version}`);
console.log(`webgpu-node-docs: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
