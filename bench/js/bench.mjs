#!/usr/bin/env node
// `npm run bench`: the JavaScript API against its peers, in one Node process
// (plus one child for the scalar build), one thread, float32 (and the 16-bit
// columns), int32 indices:
//
//   copy      unpool's copying API (fresh result arrays), SIMD build
//   float16, bfloat16  the same with 16-bit values (Uint16Array + dtype)
//   uint8, int8        the same with integer values (Uint8Array, Int8Array)
//   uint8 resident     resident with uint8 values
//   out       the same with caller-supplied `out` arrays
//   resident  WasmTensors: input uploaded once, results left in module memory
//             (each call allocates its results and disposes them)
//   scalar    the copying API of the scalar build (init({ simd: false }))
//   js        hand-written JavaScript (bench/js/reference.mjs)
//   ort       ONNX Runtime Web's wasm backend, numThreads = 1 (MaxPool with
//             its Indices output; MaxUnpool of that result), when installed
//   native    the C++ op benchmark built with g++ -O3 (build/bench/unpool_bench,
//             bench/native/), run in the same session: the ceiling
//   floor     the copies alone: inputs into WebAssembly memory, results into
//             fresh arrays (`out floor`: into caller arrays; `uint8 floor`:
//             uint8's copies); no kernel
//
// Per case: warm-up, then REPS batches of >= 5 ms (or one call); the figure
// is the median time per call. Benchmarks, not tests: run on a quiet machine.
//
// The whole comparison runs --runs times (default 3; each run side by side
// as above): times are the median over runs, ratios the median over runs of
// each run's own ratio, with their range (this VM's timings move by 10-50%
// from one run to the next).
//
// Usage: node bench/js/bench.mjs [--quick] [--filter REGEX] [--write] [--runs N]
//          [--no-ort] [--no-native] [--no-scalar]
//   --write  replaces the "JavaScript API" section of bench/RESULTS.md
//
// Instead of the comparison, one of (--quick shortens each):
//   --ab <distA> <distB>  two builds alternated batch by batch in one process
//            (ab.mjs), copy, out and resident: [--shape 1,8,16,16] [--reps 41]
//            [--runs N: N such processes, order swapped in every other, and
//            each op's geometric mean A / B; 6-8 for changes of 1-3%]
//            [--dtype float32|float16|bfloat16|uint8|int8|int16] [--layout NHWC]
//            [--kernel K] [--stride S] [--adaptive N[,N]] [--nan F] [--scalar]
//            [--no-check]; e.g. cp -r dist /tmp/before; (change, npm run build);
//            node bench/js/bench.mjs --ab /tmp/before dist
//   and the measurements of one build (probes.mjs; [--dist DIR] [--scalar] [--reps N]):
//   --dtypes [float16,bfloat16,uint8,int8]  each type against float32, alternated
//            [--shape 1,64,112,112] [--layout NHWC] [--rounds 31] [--batch 20]
//   --modes    adaptive and fractional pooling, the unpool without kernel
//   --layouts  channels first against channels last
//   --gc       where the GC's time lands [--workload '2d 1x64x112x112'] [--rounds 60]
//   --faults   back-to-back calls: time and page faults [--shape S] [--calls 200]
//              [--rounds 2] [--dtype uint8]
//   --steady   one small call into `out` in a steady loop [--calls 200000]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { abDists, flag, numberOption, option, writeResults } from './cli.mjs';
import { PROBE_FLAGS } from './probes.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const quick = flag('--quick');
const ab = abDists();
const probes = PROBE_FLAGS.filter(flag);
if (probes.length + (ab ? 1 : 0) > 1) throw new Error(`bench: one of --ab, ${PROBE_FLAGS.join(', ')} at a time`);
if (ab) {
  const runs = numberOption('--runs', 1);
  const { runAB, runABProcesses } = await import('./ab.mjs');
  if (runs > 1) runABProcesses(ab, runs);
  else await runAB(ab, quick);
  process.exit(0);
}
if (probes.length === 1) {
  await (await import('./probes.mjs')).runProbe(probes[0], quick);
  process.exit(0);
}

const child = option('--child');
const filter = new RegExp(option('--filter') ?? '.');
const REPS = quick ? 5 : 21;
const RUNS = Number(option('--runs') ?? (quick ? 1 : 3));
if (!(Number.isInteger(RUNS) && RUNS >= 1)) throw new Error(`bench: --runs ${option('--runs')} must be a positive integer`);
const MIN_BATCH_MS = quick ? 2 : 5;
const WARMUP_MS = quick ? 50 : 200;
const loadBefore = os.loadavg().map((l) => l.toFixed(2)).join(' ');

const suite = await import('./suite.mjs');
const { medianOfRuns, tables } = await import('./report.mjs');
const WORKLOADS = (await import('./workloads.mjs')).WORKLOADS.filter((w) => filter.test(w.name));
const timing = { reps: REPS, minBatchMs: MIN_BATCH_MS, warmupMs: WARMUP_MS };

const nativeName = (w, op) =>
  `op/${op}/${w.name.split(' ').slice(0, 2).join('/')}/${w.window ?? 'k2s2'}`;

// ---- native (C++, g++ -O3) --------------------------------------------------------------

function benchNative() {
  const exe = `${root}build/bench/unpool_bench`;
  // Configured once, built every time (incremental): the figures are of the
  // current sources, not of whatever binary an earlier run left.
  if (!existsSync(`${root}build/bench/CMakeCache.txt`)) {
    console.error('bench: configuring the native benchmark (build/bench)');
    execFileSync('cmake', ['-S', root, '-B', `${root}build/bench`, '-DCMAKE_BUILD_TYPE=Release',
                           '-DUNPOOL_BUILD_BENCH=ON', '-DUNPOOL_BUILD_TESTS=OFF'], { stdio: 'ignore' });
  }
  execFileSync('cmake', ['--build', `${root}build/bench`, '--target', 'unpool_bench', '-j2'],
               { stdio: 'ignore' });
  const names = WORKLOADS.flatMap((w) => ['pool', 'unpool'].map((op) => nativeName(w, op)));
  const re = `^(${names.join('|')})(/real_time)?$`;
  const out = execFileSync(exe, [`--benchmark_filter=${re}`, `--benchmark_repetitions=${quick ? 3 : 9}`,
                                 '--benchmark_min_time=0.1', '--benchmark_report_aggregates_only=true',
                                 '--benchmark_format=json'], { maxBuffer: 1 << 26 }).toString();
  const results = {};
  for (const b of JSON.parse(out).benchmarks) {
    if (b.aggregate_name !== 'median') continue;
    const scale = { ns: 1e-3, us: 1, ms: 1e3 }[b.time_unit];
    for (const w of WORKLOADS) {
      for (const op of ['pool', 'unpool']) {
        if (b.run_name.replace(/\/real_time$/, '') === nativeName(w, op)) {
          (results[w.name] ??= {})[`${op} native`] = b.real_time * scale;
        }
      }
    }
  }
  return results;
}

// ---- main ---------------------------------------------------------------------------------

if (child === 'scalar') {
  const u = await import('../../dist/index.js');
  process.stdout.write(JSON.stringify(await suite.benchUnpool(u, false, ['copy', 'resident'], WORKLOADS, timing)));
  process.exit(0);
}

const merge = (into, from, rename = (k) => k) => {
  for (const [w, r] of Object.entries(from ?? {})) {
    for (const [k, v] of Object.entries(r)) (into[w] ??= {})[rename(k)] = v;
  }
};

const runs = [];
const u = await import('../../dist/index.js');
await u.init({ simd: true });
let ort;
if (!flag('--no-ort')) {
  try {
    ort = await import('onnxruntime-web');
  } catch {
    console.error('bench: onnxruntime-web is not installed; skipped');
  }
}
const ortVersion = ort ? suite.ortVersion(ort) : undefined;
// ORT's .wasm must come from node_modules: no fetch of http(s) URLs.
const realFetch = globalThis.fetch;
globalThis.fetch = (url, ...rest) => {
  if (/^https?:/i.test(String(url))) throw new Error(`bench: something tried to fetch ${url}`);
  return realFetch(url, ...rest);
};
for (let run = 1; run <= RUNS; ++run) {
  const all = {};
  console.error(`bench: run ${run} of ${RUNS}: side by side: unpool (SIMD: copy, out, resident), ` +
                `hand-written JS${ort ? ', ONNX Runtime Web' : ''}`);
  merge(all, await suite.benchSideBySide(u, ort, ['copy', 'out', 'resident', 'float16', 'bfloat16', 'uint8', 'int8', 'uint8 resident'], WORKLOADS, timing,
                                         (w) => console.error(`  ${w}`)));
  if (!flag('--no-scalar')) {
    console.error('bench: unpool (scalar build, child process)');
    const passthrough = [...(quick ? ['--quick'] : []), ...(option('--filter') ? ['--filter', option('--filter')] : [])];
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', 'scalar', ...passthrough],
                        { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`bench: the scalar child failed:\n${r.stderr}`);
    merge(all, JSON.parse(r.stdout), (k) => k.replace(/ (copy|resident)$/, ' scalar $1'));
  }
  if (!flag('--no-native')) {
    console.error('bench: native C++ (build/bench/unpool_bench)');
    try {
      merge(all, benchNative());
    } catch (e) {
      console.error(`bench: native skipped: ${e.message.split('\n')[0]}`);
    }
  }
  runs.push(all);
}
globalThis.fetch = realFetch;

// ---- report ---------------------------------------------------------------------------------

const { lines, ratioLines } = tables(medianOfRuns(runs), WORKLOADS, undefined, runs);

function sh(cmd) {
  try {
    return execFileSync('sh', ['-c', cmd], { encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
}
const machine = [
  `- CPU: ${sh("lscpu | grep 'Model name' | sed 's/.*: *//'")}, \`nproc\` = ${sh('nproc')}`,
  `- Node.js ${process.version}, V8 ${process.versions.v8}; ${os.type()} ${os.release()}`,
  `- onnxruntime-web ${ortVersion ?? 'not run'} (wasm backend, \`numThreads = 1\`, \`proxy = false\`)`,
  `- load average before the run: ${loadBefore}; after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  `- ${new Date().toISOString()}; ${RUNS} run${RUNS > 1 ? 's' : ''}, each of ${quick ? '5 reps of 2 ms batches (quick)' : `${REPS} reps of >= ${MIN_BATCH_MS} ms batches after ${WARMUP_MS} ms warm-up`}`,
];

const text = [
  `Median time per call (float32, int32 indices, k = s = 2 but where the workload names its window, one thread)${RUNS > 1 ? `, median of ${RUNS} runs` : ''}:`, '',
  ...lines, '', 'Ratios (> 1: unpool is faster; resident / native < 1 would be faster than native)' +
  `${RUNS > 1 ? `: the median over the ${RUNS} runs of each run's ratio, and (in parentheses) their range` : ''}:`, '',
  ...ratioLines, '', ...machine,
].join('\n');
console.log(text);

if (flag('--write')) {
  writeResults('js-bench', [
    '## JavaScript API', '',
    `Command: \`npm run bench\` (\`node bench/js/bench.mjs --write\`), which also runs the native`,
    'C++ op benchmark (`build/bench/unpool_bench`) in the same session. Columns: `copy` the',
    'default API (fresh result arrays), `float16` and `bfloat16` the same with 16-bit values,',
    '`uint8` and `int8` the same with integer values (`uint8 resident`: resident uint8),',
    '`out` caller-supplied result arrays, `resident`',
    'WasmTensors (input uploaded once; results allocated in module memory and disposed each',
    'call), `scalar` the fallback build, `js` hand-written JavaScript (bench/js/reference.mjs),',
    '`ort` ONNX Runtime Web (MaxPool with Indices, MaxUnpool), `native` g++ -O3, `floor` the',
    'copies alone (inputs into WebAssembly memory, fresh results; no kernel), `out floor`',
    'the same into caller arrays and `uint8 floor` uint8\'s copies (bench/js/suite.mjs, `floorCases`).', '',
    text,
  ]);
}
