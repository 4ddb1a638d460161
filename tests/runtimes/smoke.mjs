// One runtime cell (Node.js, Deno or Bun), run from a folder where the
// packed tarball is installed: imports the entry named by argv[2] ('unpool'
// or 'unpool/inline') by name and prints the checks' summary as JSON.
import process from 'node:process';
import { readFileSync } from 'node:fs';
import { runChecks } from './checks.mjs';

const [entry, vectors] = process.argv.slice(2);
const api = entry === 'unpool/inline' ? await import('unpool/inline') : await import('unpool');
const summary = await runChecks(api, readFileSync(vectors, 'utf8'));
process.stdout.write(`${JSON.stringify(summary)}\n`);
