// The probes of bench.mjs (probes.mjs) that measure what the copying API's
// fresh results cost beyond the call itself:
//
//   --gc      where the garbage collector's time lands
//   --faults  back-to-back calls: time and minor page faults
import { PerformanceObserver } from 'node:perf_hooks';
import { numberOption, option, shapeOption } from './cli.mjs';
import { unpoolCases } from './suite.mjs';
import { pageFaults, ratioRange, us } from './timing.mjs';
import { freshCopy, input, tensorOf, windowOf, WORKLOADS } from './workloads.mjs';

// ---- --gc: where the garbage collector's time lands -----------------------------------------

/**
 * The copying API's fresh results are external memory; V8 runs a scavenge
 * in whichever call crosses its external memory limit, which need not be
 * the call (or the case) whose results made the garbage. Two views of one
 * workload (--workload, default 2d 1x64x112x112): (1) the comparison's
 * cases of this package in its order with its 5 ms batches, each GC (a
 * PerformanceObserver `gc` entry) given to the batch it started in; (2) the
 * float32 and float16 copying pools alone, rounds of 20 calls of each
 * alternated, where each type pays for its own garbage. Totals, not
 * medians: a median of batches would leave the GC out.
 */
export async function gc(u, { reps }) {
  const name = option('--workload', '2d 1x64x112x112');
  const w = WORKLOADS.find((x) => x.name === name);
  if (!w) throw new Error(`bench --gc: no workload '${name}' (${WORKLOADS.map((x) => x.name).join(', ')})`);
  const rounds = numberOption('--rounds', 60);
  if (!PerformanceObserver.supportedEntryTypes.includes('gc')) throw new Error('bench --gc: this runtime has no gc entries');
  const gcs = [];  // [start, duration] in ms, performance.now()'s clock
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push([e.startTime, e.duration]);
  }).observe({ entryTypes: ['gc'] });
  const spans = [];  // [start, end, case, calls]; afterwards each GC goes to the span it started in
  const timed = (label, fn, until) => {
    const t0 = performance.now();
    let calls = 0;
    while (calls === 0 || !until(calls, performance.now() - t0)) {
      fn();
      ++calls;
    }
    spans.push([t0, performance.now(), label, calls]);
  };
  const totals = async () => {
    await new Promise((r) => setTimeout(r, 100));  // the gc entries are delivered
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
  const show = (title, totals) => {
    console.log(`\n${title} (µs per call)\n${'case'.padEnd(18)}     time       gc`);
    for (const [label, s] of Object.entries(totals)) console.log(`${label.padEnd(18)} ${us((s.ms / s.calls) * 1000)} ${us((s.gc / s.calls) * 1000)}`);
  };

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
  show(`${w.name}\n1. the comparison's cases in its order, ${reps} reps of 5 ms batches`, inOrder);

  const pool = u[`maxPool${w.dims}d`];
  const f32 = input(w.shape);
  const tensors = { float32: tensorOf(f32, w.shape, 'float32'), float16: tensorOf(f32, w.shape, 'float16') };
  const { k, s: stride, p } = windowOf(w);
  const opts = { kernelSize: k, stride, padding: p };
  for (let i = 0; i < 50; ++i) Object.values(tensors).forEach((x) => pool(x, opts));
  await totals();
  const ratios = [];
  for (let r = 0; r < rounds; ++r) {
    const n0 = spans.length;
    const order = r % 2 ? ['float16', 'float32'] : ['float32', 'float16'];
    for (const d of order) timed(d, () => pool(tensors[d], opts), (calls) => calls >= 20);
    const [a, b] = spans.slice(n0).map((s) => (s[1] - s[0]) / s[3]);
    ratios.push(order[0] === 'float16' ? a / b : b / a);
  }
  const alone = await totals();
  show(`2. the copying pools alone, ${rounds} rounds of 20 calls of each, alternated`, alone);
  console.log(`float16 / float32: ${ratioRange(ratios)} (median of the rounds, range)`);

  // The pools' ratio in both views: as timed, without GC, and with each
  // type charged the GC its own garbage costs (view 2's GC per call).
  const per = (s, gcMs = s.gc) => (s.ms - s.gc + gcMs) / s.calls;
  const line = (label, a, b, ga, gb) =>
    `${label}: as timed ${(per(a) / per(b)).toFixed(2)}, without GC ${(per(a, 0) / per(b, 0)).toFixed(2)}` +
    (ga === undefined ? '' : `, each charged its own GC ${(per(a, ga) / per(b, gb)).toFixed(2)}`);
  const own16 = alone.float16.gc / alone.float16.calls, own32 = alone.float32.gc / alone.float32.calls;
  console.log('\nfloat16 / float32, copying pool (totals):');
  console.log(line("  1. the comparison's order", inOrder['pool float16'], inOrder['pool copy'],
                   own16 * inOrder['pool float16'].calls, own32 * inOrder['pool copy'].calls));
  console.log(line('  2. alone, alternated', alone.float16, alone.float32));
}

// ---- --faults: back-to-back calls -------------------------------------------------------------

/**
 * Time and minor page faults per call of back-to-back calls (no batching,
 * no pauses): what the copying API costs an app that calls it in a loop,
 * where fresh multi-MB results keep the allocator returning memory to the
 * system and faulting it back in. `out` and bare allocations of the same
 * sizes beside it. --dtype uint8 (int8, int16, float16...) adds that type's
 * copying pool and its results alone after float32's. Linux.
 */
export async function faults(u, { quick }) {
  if (pageFaults() === undefined) throw new Error('bench --faults: this runtime counts no page faults');
  const shape = shapeOption('--shape', '1,64,112,112');
  const calls = numberOption('--calls', quick ? 20 : 200);
  const rounds = numberOption('--rounds', 2);
  const dims = shape.length - 2;
  const pool = u[`maxPool${dims}d`], unpool = u[`maxUnpool${dims}d`];
  const f32 = input(shape);
  const x = { data: f32, shape };
  const opts = { kernelSize: 2 };
  const p = pool(x, opts);
  const n = f32.length, m = p.output.data.length;
  const unpoolOpts = { ...opts, outputSize: shape.slice(2) };
  const poolOut = { ...opts, out: { output: new Float32Array(m), indices: new Int32Array(m) } };
  const unpoolOut = { ...unpoolOpts, out: new Float32Array(n) };
  const dtype = option('--dtype');
  const typed = {};
  if (dtype) {
    const xi = tensorOf(f32, shape, dtype);
    const pi = pool(xi, opts);
    Object.assign(typed, {
      'pool, copy, float32 results alone': () => [freshCopy(p.output.data), freshCopy(p.indices.data)],
      [`pool, copy (${dtype})`]: () => pool(xi, opts),
      [`pool, copy, ${dtype} results alone`]: () => [freshCopy(pi.output.data), freshCopy(pi.indices.data)],
    });
  }
  const cases = {
    'pool, copy': () => pool(x, opts),
    ...typed,
    'pool, out': () => pool(x, poolOut),
    'unpool, copy': () => unpool(p.output, p.indices, unpoolOpts),
    'unpool, out': () => unpool(p.output, p.indices, unpoolOut),
    [`new Float32Array(${n})`]: () => new Float32Array(n),
    [`new Float32Array(${m}) + Int32Array`]: () => [new Float32Array(m), new Int32Array(m)],
  };
  console.log(`${shape.join('x')}, ${calls} back-to-back calls per row, ${rounds} rounds`);
  console.log('| call | round | time per call | minor page faults per call |\n|---|---:|---:|---:|');
  for (let r = 1; r <= rounds; ++r) {
    for (const [name, fn] of Object.entries(cases)) {
      for (let i = 0; i < 20; ++i) fn();
      const f0 = pageFaults(), t0 = performance.now();
      for (let i = 0; i < calls; ++i) fn();
      const t = ((performance.now() - t0) / calls) * 1000;
      console.log(`| ${name} | ${r} | ${us(t).trim()} µs | ${((pageFaults() - f0) / calls).toFixed(1)} |`);
    }
  }
}
