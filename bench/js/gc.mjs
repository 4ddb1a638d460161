#!/usr/bin/env node
// Where the garbage collector's time lands. The copying API's fresh results
// are external memory; V8 runs a scavenge in whichever call crosses its
// external memory limit, which need not be the call (or the benchmark case)
// whose results made the garbage. Two views of one workload (default 2d
// 1x64x112x112, k = s = 2):
//   1. `npm run bench`'s cases of this package (suite.mjs `unpoolCases`:
//      copy, out, float16, bfloat16, resident), in its order and with its
//      5 ms batches: time and GC per call of each case, each GC (a
//      PerformanceObserver `gc` entry) given to the batch it started in;
//   2. the float32 and float16 copying pools alone, rounds of 20 calls of
//      each alternated: time and GC per call, and the median of the rounds'
//      float16 / float32 ratios. Here each type pays for its own garbage.
// Totals, not medians: a median of batches would leave the GC out.
//
// Usage: npm run build; node bench/js/gc.mjs [dist] [--workload '2d 1x64x112x112']
//          [--reps 21] [--rounds 60]
import { PerformanceObserver } from 'node:perf_hooks';
import { openDist } from './cli.mjs';
import { WORKLOADS, halfBits, input, unpoolCases, windowOf } from './suite.mjs';

const { u, reps } = await openDist();
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const name = option('--workload', '2d 1x64x112x112');
const w = WORKLOADS.find((x) => x.name === name);
if (!w) throw new Error(`gc: no workload '${name}' (${WORKLOADS.map((x) => x.name).join(', ')})`);
const rounds = Number(option('--rounds', '60'));
if (!(Number.isInteger(rounds) && rounds > 0)) throw new Error(`gc: --rounds must be a positive integer`);
if (!PerformanceObserver.supportedEntryTypes.includes('gc')) throw new Error('gc: this runtime has no gc entries');

const gcs = [];  // [start, duration] in ms, performance.now()'s clock
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push([e.startTime, e.duration]);
}).observe({ entryTypes: ['gc'] });
// Spans [start, end, case, calls]; afterwards each GC goes to the span it started in.
const spans = [];
const timed = (label, fn, until) => {
  const t0 = performance.now();
  let calls = 0;
  while (calls === 0 || !until(calls, performance.now() - t0)) {
    fn();
    ++calls;
  }
  spans.push([t0, performance.now(), label, calls]);
};
const settle = () => new Promise((r) => setTimeout(r, 100));  // deliver the gc entries
const totals = async () => {
  await settle();
  const t = {};
  for (const [a, b, label, calls] of spans) {
    const s = (t[label] ??= { ms: 0, calls: 0, gc: 0 });
    s.ms += b - a;
    s.calls += calls;
  }
  for (const [at, d] of gcs) {
    const span = spans.find(([a, b]) => at >= a && at <= b);
    if (span) t[span[2]].gc += d;
  }
  spans.length = 0;
  gcs.length = 0;
  return t;
};
const us = (ms, calls) => ((ms / calls) * 1000).toFixed(1).padStart(8);

// 1. npm run bench's order.
const { cases, cleanup } = unpoolCases(u, w, ['copy', 'out', 'float16', 'bfloat16', 'resident']);
for (const fn of Object.values(cases)) {
  const t0 = performance.now();
  while (performance.now() - t0 < 200) fn();
}
await totals();
for (let rep = 0; rep < reps; ++rep) {
  for (const [label, fn] of Object.entries(cases)) timed(label, fn, (_, ms) => ms >= 5);
}
const inOrder = await totals();
cleanup();
console.log(`gc: ${w.name}, Node ${process.versions.node}, SIMD ${u.backendInfo().simd}`);
console.log(`\n1. npm run bench's cases in its order, ${reps} reps of 5 ms batches (µs per call)`);
console.log(`${'case'.padEnd(18)}     time       gc`);
for (const [label, s] of Object.entries(inOrder)) {
  console.log(`${label.padEnd(18)} ${us(s.ms, s.calls)} ${us(s.gc, s.calls)}`);
}

// 2. The two copying pools alone, alternated.
const pool = u[`maxPool${w.dims}d`];
const f32 = { data: input(w.shape), shape: w.shape };
const f16 = { data: halfBits(f32.data, 'float16'), shape: w.shape, dtype: 'float16' };
const { k, s: stride, p } = windowOf(w);
const opts = { kernelSize: k, stride, padding: p };
for (let i = 0; i < 50; ++i) {
  pool(f32, opts);
  pool(f16, opts);
}
await totals();
const ratios = [];
for (let r = 0; r < rounds; ++r) {
  const n0 = spans.length;
  for (const [label, t] of r % 2 ? [['float16', f16], ['float32', f32]] : [['float32', f32], ['float16', f16]]) {
    timed(label, () => pool(t, opts), (calls) => calls >= 20);
  }
  const [a, b] = spans.slice(n0);
  const ms = (s) => (s[1] - s[0]) / s[3];
  ratios.push(a[2] === 'float16' ? ms(a) / ms(b) : ms(b) / ms(a));
}
const alone = await totals();
console.log(`\n2. the copying pools alone, ${rounds} rounds of 20 calls of each, alternated (µs per call)`);
console.log(`${'case'.padEnd(18)}     time       gc`);
for (const [label, s] of Object.entries(alone)) {
  console.log(`${label.padEnd(18)} ${us(s.ms, s.calls)} ${us(s.gc, s.calls)}`);
}
ratios.sort((x, y) => x - y);
console.log(`float16 / float32: ${ratios[rounds >> 1].toFixed(2)} (median of the rounds; ` +
  `quartiles ${ratios[rounds >> 2].toFixed(2)} to ${ratios[(3 * rounds) >> 2].toFixed(2)})`);

// The pools' ratio in both views: as timed, without GC, and with each
// type charged the GC its own garbage costs (view 2's GC per call).
const per = (s, gc = s.gc) => (s.ms - s.gc + gc) / s.calls;  // ms a call, with `gc` ms of GC in all
const line = (label, a, b, ga, gb) =>
  `${label}: as timed ${(per(a) / per(b)).toFixed(2)}, without GC ` +
  `${(per(a, 0) / per(b, 0)).toFixed(2)}` +
  (ga === undefined ? '' : `, each charged its own GC ${(per(a, ga) / per(b, gb)).toFixed(2)}`);
const own16 = alone.float16.gc / alone.float16.calls, own32 = alone.float32.gc / alone.float32.calls;
console.log('\nfloat16 / float32, copying pool (totals):');
console.log(line("  1. npm run bench's order", inOrder['pool float16'], inOrder['pool copy'],
                 own16 * inOrder['pool float16'].calls, own32 * inOrder['pool copy'].calls));
console.log(line('  2. alone, alternated', alone.float16, alone.float32));
