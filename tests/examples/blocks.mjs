// The JavaScript blocks of README.md and docs/*.md, and what their
// `console.log` lines must print: shared by tests/examples/readme.test.mjs
// (blocks fenced `js`, run with Node.js) and tests/webgpu/harness/node-docs.mjs
// (blocks fenced `js node-webgpu`, run with Node.js 24 + the webgpu package).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

/** The documents whose js blocks run: the README, then docs/*.md by name. */
export const DOCS = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort()
  .map((f) => `docs/${f}`)];

/** The js blocks of one document: { file, line, code, fence } (fence: what follows ```js, '' for none). */
export function docBlocks(file) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; ++i) {
    const m = /^```js(?: (\S+))?$/.exec(lines[i].trim());
    if (!m) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end].trim() !== '```') ++end;
    blocks.push({ file, line: start + 1, code: lines.slice(start, end).join('\n'), fence: m[1] ?? '' });
    i = end;
  }
  return blocks;
}

/** What each `console.log` line of `code` must print (its comment), in order. */
export function expectedOutput(code) {
  const lines = code.split('\n');
  const want = [];
  lines.forEach((l, i) => {
    if (!/^\s*console\.log\(/.test(l)) return;
    const trailing = /\);\s*\/\/ (.*)$/.exec(l);
    const below = /^\s*\/\/ (.*)$/.exec(lines[i + 1] ?? '');
    assert.ok(trailing || below, `console.log without the output it prints: ${l}`);
    want.push((trailing ?? below)[1]);
  });
  return want;
}
