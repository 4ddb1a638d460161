// One runtime cell (Node.js, Deno or Bun), run from a folder where the
// packed tarball is installed: imports the entry named by argv[2] ('unpool'
// or 'unpool/inline') by name and prints the checks' summary as JSON;
// argv[4] 'scalar' loads the scalar build instead of the SIMD one.
import process from 'node:process';
import { readFileSync } from 'node:fs';
import { runChecks } from './checks.mjs';

const [entry, vectors, build] = process.argv.slice(2);
const api = entry === 'unpool/inline' ? await import('unpool/inline') : await import('unpool');
// 'scalar': the fallback build, chosen with init({ simd: false }).
const scalar = build === 'scalar' ? { simd: false, initOptions: { simd: false } } : {};
const summary = await runChecks(api, readFileSync(vectors, 'utf8'), scalar);
process.stdout.write(`${JSON.stringify(summary)}\n`);
