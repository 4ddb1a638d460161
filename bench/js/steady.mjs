#!/usr/bin/env node
// One build, one process, one call in a steady loop: the per-call time of a
// small pool into `out`, without another build's calls in between (what
// bench/js/ab.mjs measures alternated).
// Usage: node bench/js/steady.mjs <dist>
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(process.argv[2] ?? 'dist');
const u = await import(pathToFileURL(path.join(dist, 'index.js')).href);
await u.init();
const shape = [1, 8, 16, 16];
const n = 8 * 256;
const x = { data: Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37) * 100), shape };
const out = { output: new Float32Array(n / 4), indices: new Int32Array(n / 4) };
const options = { kernelSize: 2, out };
for (let i = 0; i < 20000; ++i) u.maxPool2d(x, options);
const calls = 200000;
const t = performance.now();
for (let i = 0; i < calls; ++i) u.maxPool2d(x, options);
const us = ((performance.now() - t) / calls) * 1000;
console.log(`${dist}: maxPool2d 1x8x16x16 k2 into out: ${us.toFixed(3)} µs a call`);
