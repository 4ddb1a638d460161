#!/usr/bin/env node
// A/B of two builds of the package in one process: pool and unpool with the
// copying API, with `out` and with resident tensors (in and out), each case of A and B alternated batch by batch
// so that both see the same machine state. For changes too small for the
// run-to-run noise of `npm run bench` (e.g. per-call overhead).
//
// Usage: node bench/js/ab.mjs <distA> <distB> [--shape 1,8,16,16] [--reps 41]
//          [--layout NHWC] [--kernel 2] [--stride K] [--dtype float16]
//          [--adaptive 40] [--scalar] [--nan 0.1]
//   --dtype: float32 (the default), float16 or bfloat16 (a Uint16Array of
//   the float32 values' bits, as bench/js/half.mjs times them), uint8, int8
//   or int16 (the values rounded into the type's range).
//   --adaptive 40 (or 40,40): also the adaptive pool to that output size,
//   copying and resident.
//   --scalar: the builds without SIMD (unpool-scalar.wasm).
//   --nan F: a NaN in a fraction F of the input's rows (the last dim; 1:
//   every row), which the kernels' NaN-free passes must do again.
//   --layout takes the channels-last name of the shape's rank (NLC, NHWC,
//   NDHWC; the shape is then given channels last, e.g. 1,56,56,64).
//   e.g. cp -r dist /tmp/before; (change, npm run build);
//        node bench/js/ab.mjs /tmp/before dist
// Prints the median µs per call of A and B and A/B (> 1: B is faster).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { halfBits } from './suite.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
// Positional: not an option, nor an option's value (--scalar takes none).
const isValue = (i) => args[i - 1]?.startsWith('--') && args[i - 1] !== '--scalar';
const [distA, distB] = args.filter((a, i) => !a.startsWith('--') && !isValue(i));
if (!distA || !distB) {
  console.error('usage: node bench/js/ab.mjs <distA> <distB> [--shape 1,8,16,16] [--reps 41]');
  process.exit(2);
}
const shape = option('--shape', '1,8,16,16').split(',').map(Number);
const reps = Number(option('--reps', '41'));
const dims = shape.length - 2;

const load = async (dir) => {
  const u = await import(pathToFileURL(path.resolve(dir, 'index.js')).href);
  await u.init(args.includes('--scalar') ? { simd: false } : {});
  return u;
};
const [a, b] = [await load(distA), await load(distB)];

const n = shape.reduce((p, d) => p * d, 1);
const dtype = option('--dtype', 'float32');
// Integer values: the float32 values (within +-100) rounded, moved into
// uint8's range, spread over int16's.
const INTS = {
  uint8: (v) => Uint8Array.from(v, (f) => f + 128),
  int8: (v) => Int8Array.from(v),
  int16: (v) => Int16Array.from(v, (f) => f * 300),
};
if (!['float32', 'float16', 'bfloat16'].includes(dtype) && !(dtype in INTS)) {
  console.error(`ab: --dtype must be float32, float16, bfloat16, uint8, int8 or int16, got ${dtype}`);
  process.exit(2);
}
const values = Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37) * 100);
const nanRows = Number(option('--nan', '0'));
if (!(nanRows >= 0 && nanRows <= 1)) {
  console.error(`ab: --nan must be a fraction in [0, 1], got ${option('--nan')}`);
  process.exit(2);
}
// Rows r with frac(r * golden) < F: spread evenly, the NaN at a column
// that moves from row to row.
const rowLen = shape[shape.length - 1];
for (let r = 0; r < n / rowLen; ++r) {
  if ((r * 0.6180339887) % 1 < nanRows) values[r * rowLen + ((r * 37) % rowLen)] = NaN;
}
const x = dtype === 'float32' ? { data: values, shape }
  : dtype in INTS ? { data: INTS[dtype](values), shape }
  : { data: halfBits(values, dtype), shape, dtype };
const Values = x.data.constructor;
const layout = option('--layout', undefined);
const kernel = Number(option('--kernel', '2'));
const opts = { kernelSize: kernel, stride: Number(option('--stride', String(kernel))) };
if (layout) opts.layout = layout;
// The unpools restore the input's size (a kernel or stride that leaves
// columns over, as k3 s2 on 112, would otherwise give a smaller plane).
const unpoolOpts = { ...opts, outputSize: layout ? shape.slice(1, -1) : shape.slice(2) };
const adaptiveSize = option('--adaptive', undefined)?.split(',').map(Number);
const adaptiveOpts = adaptiveSize && { outputSize: adaptiveSize.length === 1 ? adaptiveSize[0] : adaptiveSize };
if (adaptiveOpts && layout) adaptiveOpts.layout = layout;

function cases(u) {
  const pool = u[`maxPool${dims}d`];
  const unpool = u[`maxUnpool${dims}d`];
  const p = pool(x, opts);
  const m = p.output.data.length;
  const poolOut = { ...opts, out: { output: new Values(m), indices: new Int32Array(m) } };
  const unpoolOut = { ...unpoolOpts, out: new Values(n) };
  // Resident: inputs uploaded once, results kept in module memory and
  // disposed at once (what a chain of ops does between its ends).
  const resident = { ...opts, resident: true };
  const xr = u.uploadTensor(x);
  const pr = pool(xr, resident);
  const adaptive = u[`adaptiveMaxPool${dims}d`];
  const adaptiveCases = adaptiveOpts ? {
    'adaptive copy': () => adaptive(x, adaptiveOpts),
    'adaptive resident': () => {
      const r = adaptive(xr, { ...adaptiveOpts, resident: true });
      r.output.dispose();
      r.indices.dispose();
    },
  } : {};
  return {
    ...adaptiveCases,
    'pool copy': () => pool(x, opts),
    'pool out': () => pool(x, poolOut),
    'unpool copy': () => unpool(p.output, p.indices, unpoolOpts),
    'unpool out': () => unpool(p.output, p.indices, unpoolOut),
    'pool resident': () => {
      const r = pool(xr, resident);
      r.output.dispose();
      r.indices.dispose();
    },
    'unpool resident': () => unpool(pr.output, pr.indices, { ...unpoolOpts, resident: true }).dispose(),
  };
}

const ca = cases(a);
const cb = cases(b);
// Calls per batch: ~2 ms of the slower build.
const batch = {};
for (const name of Object.keys(ca)) {
  let calls = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 200) {
    ca[name]();
    cb[name]();
    ++calls;
  }
  batch[name] = Math.max(1, Math.round(calls / 100));
}
// A and B take turns going first: the first batch of a pair can pay for
// the second (page faults of fresh results, a GC). With A always first, an
// A/A run of 1x64x112x112 gave B an 11% lead on the copying pool.
const times = {};
for (let r = 0; r < reps; ++r) {
  for (const name of Object.keys(ca)) {
    const pair = [['A', ca[name]], ['B', cb[name]]];
    if (r % 2 === 1) pair.reverse();
    for (const [side, fn] of pair) {
      const t0 = performance.now();
      for (let i = 0; i < batch[name]; ++i) fn();
      (times[`${name} ${side}`] ??= []).push(((performance.now() - t0) / batch[name]) * 1000);
    }
  }
}
const median = (v) => [...v].sort((p, q) => p - q)[v.length >> 1];
console.log(`A = ${distA}, B = ${distB} (${args.includes('--scalar') ? 'scalar' : 'SIMD'} builds); ` +
            `${shape.join('x')} ${layout ?? 'channels first'}, ` +
            `${dtype}, k = ${opts.kernelSize}, s = ${opts.stride}` +
            `${nanRows > 0 ? `, NaN in ${nanRows} of the rows` : ''}; ` +
            `median of ${reps} alternated batches, µs per call`);
console.log('| op | A | B | A / B |\n|---|---:|---:|---:|');
for (const name of Object.keys(ca)) {
  const ta = median(times[`${name} A`]);
  const tb = median(times[`${name} B`]);
  console.log(`| ${name} | ${ta.toFixed(2)} | ${tb.toFixed(2)} | ${(ta / tb).toFixed(2)} |`);
}
