#!/usr/bin/env node
// Time and minor page faults per call of back-to-back calls (no batching, no
// pauses): what the copying API costs an app that calls it in a loop, where
// fresh multi-MB results keep the allocator returning memory to the kernel
// and faulting it back in. `out` and bare allocations of the same sizes are
// timed beside it. Linux (process.resourceUsage().minorPageFault).
// --dtype uint8 (or int8, int16) adds that type's copying pool and its
// results alone (fresh arrays of its result sizes), after float32's in each
// round: the integer copying ratio where the page faults dominate.
//
// Usage: npm run build; node bench/js/faults.mjs [--shape 1,64,112,112] [--calls 200] [--rounds 2]
//          [--dtype uint8]
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshCopy } from './suite.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const shape = option('--shape', '1,64,112,112').split(',').map(Number);
const calls = Number(option('--calls', '200'));
const rounds = Number(option('--rounds', '2'));
const dims = shape.length - 2;
if (!(dims >= 1 && dims <= 3) || shape.some((s) => !(Number.isInteger(s) && s > 0)) ||
    shape.slice(2).some((s) => s % 2 !== 0)) {
  throw new Error(`faults: --shape ${shape} must be N,C and 1-3 even spatial sizes`);
}
if (!(Number.isInteger(calls) && calls > 0) || !(Number.isInteger(rounds) && rounds > 0)) {
  throw new Error('faults: --calls and --rounds must be positive integers');
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const u = await import(pathToFileURL(path.join(root, 'dist/index.js')).href);
await u.init();
const pool = u[`maxPool${dims}d`];
const unpool = u[`maxUnpool${dims}d`];

const n = shape.reduce((a, b) => a * b, 1);
const m = n / 2 ** dims;
const x = { data: Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37) * 100), shape };
const opts = { kernelSize: 2 };
const p = pool(x, opts);
const poolOut = { ...opts, out: { output: new Float32Array(m), indices: new Int32Array(m) } };
const unpoolOut = { ...opts, out: new Float32Array(n) };
const INTS = { uint8: Uint8Array, int8: Int8Array, int16: Int16Array };
const dtype = option('--dtype', undefined);
if (dtype !== undefined && !(dtype in INTS)) {
  throw new Error(`faults: --dtype must be uint8, int8 or int16, got ${dtype}`);
}
const intCases = {};
if (dtype) {
  const xi = { data: INTS[dtype].from(x.data, (v) => (dtype === 'uint8' ? v + 128 : v)), shape };
  const pi = pool(xi, opts);
  Object.assign(intCases, {
    'pool, copy, float32 results alone': () => [freshCopy(p.output.data), freshCopy(p.indices.data)],
    [`pool, copy (${dtype})`]: () => pool(xi, opts),
    [`pool, copy, ${dtype} results alone`]: () => [freshCopy(pi.output.data), freshCopy(pi.indices.data)],
  });
}
const cases = {
  'pool, copy': () => pool(x, opts),
  ...intCases,
  'pool, out': () => pool(x, poolOut),
  'unpool, copy': () => unpool(p.output, p.indices, opts),
  'unpool, out': () => unpool(p.output, p.indices, unpoolOut),
  [`new Float32Array(${n})`]: () => new Float32Array(n),
  [`new Float32Array(${m}) + Int32Array`]: () => [new Float32Array(m), new Int32Array(m)],
};

console.log(`${shape.join('x')}, ${calls} back-to-back calls per row, ${rounds} rounds`);
console.log('| call | round | time per call | minor page faults per call |');
console.log('|---|---:|---:|---:|');
for (let r = 1; r <= rounds; ++r) {
  for (const [name, fn] of Object.entries(cases)) {
    for (let i = 0; i < 20; ++i) fn();
    const f0 = process.resourceUsage().minorPageFault;
    const t0 = performance.now();
    for (let i = 0; i < calls; ++i) fn();
    const us = ((performance.now() - t0) / calls) * 1000;
    const time = us < 100 ? us.toFixed(2) : us.toFixed(0);
    const faults = (process.resourceUsage().minorPageFault - f0) / calls;
    console.log(`| ${name} | ${r} | ${time} µs | ${faults.toFixed(1)} |`);
  }
}
