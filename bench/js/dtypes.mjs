#!/usr/bin/env node
// The value dtypes side by side in one process: pool and unpool of one shape
// with the copying API (and `out`), float32 against float16 and bfloat16
// (Uint16Array bits) and, where the engine has it, float16 in a
// Float16Array; each case's dtypes alternated batch by batch so that all
// see the same machine state. Issue 16's targets (2d 1x64x112x112 k2 s2):
// a float16 pool at most 0.75x float32's time, a float16 unpool at most 0.8x.
//
// Usage: node bench/js/dtypes.mjs [dist] [--shape 1,64,112,112] [--reps 31] [--kernel 2]
// Prints the median µs per call of each dtype and its ratio to float32; the
// resident rows time the kernels alone, the copy and out rows add the copies.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const dist = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'dist';
const shape = option('--shape', '1,64,112,112').split(',').map(Number);
const reps = Number(option('--reps', '31'));
const kernel = Number(option('--kernel', '2'));
const dims = shape.length - 2;
const opts = { kernelSize: kernel, stride: kernel };

const u = await import(pathToFileURL(path.resolve(dist, 'index.js')).href);
await u.init();
const pool = u[`maxPool${dims}d`];
const unpool = u[`maxUnpool${dims}d`];

const n = shape.reduce((p, d) => p * d, 1);
// Multiples of 1/16 below 100 in magnitude: exact in float32 and float16, so
// both hold the same values; bfloat16 gets them rounded (the float32 bits, to
// nearest even).
const values = Float32Array.from({ length: n }, (_, i) => Math.round(Math.sin(i * 0.37) * 1600) / 16);
const f16 = Uint16Array.from(values, (v) => {
  if (v === 0) return Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  const e = Math.floor(Math.log2(a));
  return (v < 0 ? 0x8000 : 0) | ((e + 15) << 10) | (a / 2 ** (e - 10) - 1024);
});
const bf16 = Uint16Array.from(new Uint32Array(values.buffer), (w) => (w + 0x7fff + ((w >>> 16) & 1)) >>> 16);
const F16 = globalThis.Float16Array;
const inputs = {
  float32: { data: values, shape },
  'float16 (Uint16Array)': { data: f16, shape, dtype: 'float16' },
  'bfloat16 (Uint16Array)': { data: bf16, shape, dtype: 'bfloat16' },
  ...(F16 ? { 'float16 (Float16Array)': { data: new F16(f16.buffer), shape } } : {}),
};

function cases(x) {
  const p = pool(x, opts);
  const m = p.output.data.length;
  const Out = x.data.constructor;
  const poolOut = { ...opts, out: { output: new Out(m), indices: new Int32Array(m) } };
  const unpoolOut = { ...opts, out: new Out(n) };
  // Resident: the kernels alone (inputs uploaded once, results kept in module memory).
  const resident = { ...opts, resident: true };
  const xr = u.uploadTensor(x);
  const pr = pool(xr, resident);
  return {
    'pool copy': () => pool(x, opts),
    'pool out': () => pool(x, poolOut),
    'pool resident': () => {
      const r = pool(xr, resident);
      r.output.dispose();
      r.indices.dispose();
    },
    'unpool copy': () => unpool(p.output, p.indices, opts),
    'unpool out': () => unpool(p.output, p.indices, unpoolOut),
    'unpool resident': () => unpool(pr.output, pr.indices, resident).dispose(),
  };
}

const all = Object.fromEntries(Object.entries(inputs).map(([k, x]) => [k, cases(x)]));
const names = Object.keys(all.float32);
const batch = {};
for (const name of names) {
  let calls = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 200) {
    for (const c of Object.values(all)) c[name]();
    ++calls;
  }
  batch[name] = Math.max(1, Math.round(calls / 50));
}
const times = {};
for (let r = 0; r < reps; ++r) {
  for (const name of names) {
    for (const [dtype, c] of Object.entries(all)) {
      const t0 = performance.now();
      for (let i = 0; i < batch[name]; ++i) c[name]();
      (times[`${name} ${dtype}`] ??= []).push(((performance.now() - t0) / batch[name]) * 1000);
    }
  }
}
const median = (v) => [...v].sort((p, q) => p - q)[v.length >> 1];
console.log(`${dist}: ${shape.join('x')}, k = ${kernel}, s = ${kernel}; ${process.version}; ` +
            `median of ${reps} alternated batches, µs per call (ratio to float32)`);
const dtypes = Object.keys(all);
console.log(`| op | ${dtypes.join(' | ')} |\n|---|${dtypes.map(() => '---:').join('|')}|`);
for (const name of names) {
  const base = median(times[`${name} float32`]);
  const cells = dtypes.map((d) => {
    const t = median(times[`${name} ${d}`]);
    return d === 'float32' ? t.toFixed(1) : `${t.toFixed(1)} (${(t / base).toFixed(2)})`;
  });
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
