// A/B of two builds on issue 31's workload (2d 1x64x112x112, k2 s2, int32
// indices) for an integer dtype: in each round, call batches of A's and B's
// integer pool and of A's float32 pool (the same kernel in both builds when
// only the integer kernel changed), in an order that rotates from round to
// round, so that the load of a shared machine hits all three alike. Prints,
// per API (resident, copying), the medians of the rounds' ratios with their
// ranges: A / B (> 1: B is faster), A / float32 and B / float32, and each
// side's median and fastest batch (on a loaded machine the fastest batch is
// the steadier figure of a kernel's own cost).
//   node bench/js/int-ab.mjs <distA> <distB> [--rounds 31] [--batch 10]
//          [--dtype uint8|int8] [--no-check]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { input, intValues } from './suite.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const isValue = (i) => args[i - 1]?.startsWith('--') && args[i - 1] !== '--no-check';
const [distA, distB] = args.filter((a, i) => !a.startsWith('--') && !isValue(i));
if (!distA || !distB) {
  console.error('usage: node bench/js/int-ab.mjs <distA> <distB> [--rounds 31] [--dtype uint8]');
  process.exit(2);
}
const ROUNDS = Number(option('--rounds', '31'));
const dtype = option('--dtype', 'uint8');
const BATCH = Number(option('--batch', '10'));
const load = async (dir) => {
  const u = await import(pathToFileURL(path.resolve(dir, 'index.js')).href);
  await u.init();
  return u;
};
const [a, b] = [await load(distA), await load(distB)];

const shape = [1, 64, 112, 112];
const opts = { kernelSize: 2 };
const x32 = { data: input(shape), shape };
const xi = { data: intValues(x32.data, dtype), shape };
const resident = (u, xr) => () => {
  const r = u.maxPool2d(xr, { kernelSize: 2, resident: true });
  r.output.dispose();
  r.indices.dispose();
};
const apis = {
  resident: [resident(a, a.uploadTensor(xi)), resident(b, b.uploadTensor(xi)),
             resident(a, a.uploadTensor(x32))],
  copy: [() => a.maxPool2d(xi, opts), () => b.maxPool2d(xi, opts), () => a.maxPool2d(x32, opts)],
};
// Both builds must give the same bits (--no-check: B is a measurement-only
// build, e.g. a kernel that only loads and stores).
if (!args.includes('--no-check')) {
  const ra = a.maxPool2d(xi, opts), rb = b.maxPool2d(xi, opts);
  const same = (p, q) => p.length === q.length && p.every((v, i) => v === q[i]);
  if (!same(ra.output.data, rb.output.data) || !same(ra.indices.data, rb.indices.data)) {
    console.error('int-ab: A and B pool differently');
    process.exit(1);
  }
}
const time = (f) => {
  const t0 = performance.now();
  for (let i = 0; i < BATCH; ++i) f();
  return ((performance.now() - t0) / BATCH) * 1000;  // µs a call
};
const median = (v) => [...v].sort((p, q) => p - q)[Math.floor(v.length / 2)];
const s = (v) => v.toFixed(2);
const cell = (v) => `${s(median(v))}x (${s(Math.min(...v))}-${s(Math.max(...v))})`;
console.log(`A = ${distA}, B = ${distB}, ${dtype}, ${ROUNDS} rounds of ${BATCH} calls`);
console.log('| api | A µs (fastest) | B µs (fastest) | float32 µs (fastest) | A / B | A / float32 | B / float32 |');
console.log('|---|---|---|---|---|---|---|');
for (const [name, fs] of Object.entries(apis)) {
  for (let i = 0; i < 3; ++i) fs.forEach((f) => f());  // warm up
  const t = [[], [], []], ab = [], af = [], bf = [];
  for (let r = 0; r < ROUNDS; ++r) {
    const m = [0, 0, 0];
    for (let k = 0; k < 3; ++k) {
      const j = (r + k) % 3;
      m[j] = time(fs[j]);
    }
    m.forEach((v, j) => t[j].push(v));
    ab.push(m[0] / m[1]);
    af.push(m[0] / m[2]);
    bf.push(m[1] / m[2]);
  }
  const us = (v) => `${median(v).toFixed(0)} (${Math.min(...v).toFixed(0)})`;
  console.log(`| ${dtype} ${name} | ${us(t[0])} | ${us(t[1])} | ${us(t[2])} | ` +
              `${cell(ab)} | ${cell(af)} | ${cell(bf)} |`);
}
