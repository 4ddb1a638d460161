#!/usr/bin/env node
// `npm run bench`: the JavaScript API against its peers, in one Node process
// (plus one child for the scalar build), one thread, float32, int32 indices:
//
//   copy      unpool's copying API (fresh result arrays), SIMD build
//   out       the same with caller-supplied `out` arrays
//   resident  WasmTensors: input uploaded once, results left in module memory
//             (each call allocates its results and disposes them)
//   scalar    the copying API of the scalar build (init({ simd: false }))
//   js        hand-written JavaScript (bench/js/reference.mjs)
//   ort       ONNX Runtime Web's wasm backend, numThreads = 1 (MaxPool with
//             its Indices output; MaxUnpool of that result), when installed
//   native    the C++ op benchmark built with g++ -O3 (build/bench/unpool_bench,
//             bench/native/), run in the same session: the ceiling
//
// Per case: warm-up, then REPS batches of >= 5 ms (or one call); the figure
// is the median time per call. Benchmarks, not tests: run on a quiet machine.
//
// Usage: node bench/js/bench.mjs [--quick] [--filter REGEX] [--write]
//          [--no-ort] [--no-native] [--no-scalar]
//   --write  replaces the "JavaScript API" section of bench/RESULTS.md
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { jsMaxPool1d, jsMaxPool2d, jsMaxPool3d, jsMaxUnpool } from './reference.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const child = option('--child');
const quick = flag('--quick');
const filter = new RegExp(option('--filter') ?? '.');
const REPS = quick ? 5 : 15;
const MIN_BATCH_MS = quick ? 2 : 5;
const WARMUP_MS = quick ? 50 : 200;
const loadBefore = os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** Workloads: k = s = 2, no padding, as the native benchmark names them. */
const WORKLOADS = [
  { name: '1d 1x64x12544', dims: 1, shape: [1, 64, 12544] },
  { name: '2d 1x64x112x112', dims: 2, shape: [1, 64, 112, 112] },
  { name: '2d 8x64x56x56', dims: 2, shape: [8, 64, 56, 56] },
  { name: '2d 1x3x512x512', dims: 2, shape: [1, 3, 512, 512] },
  { name: '2d 1x8x16x16', dims: 2, shape: [1, 8, 16, 16] },
  { name: '3d 1x16x32x32x32', dims: 3, shape: [1, 16, 32, 32, 32] },
].filter((w) => filter.test(w.name));

const nativeName = (w, op) =>
  `op/${op}/${w.name.replace(' ', '/')}/k2s2`;

function input(shape, seed = 1) {
  let a = seed >>> 0;
  const n = shape.reduce((p, d) => p * d, 1);
  const x = new Float32Array(n);
  for (let i = 0; i < n; ++i) {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    x[i] = (a >>> 8) / 65536 - 128;
  }
  return x;
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Median time per call in microseconds. `fn` may return a promise (awaited). */
async function measure(fn) {
  let calls = 0;
  const start = performance.now();
  while (calls < 3 || performance.now() - start < WARMUP_MS) {
    const r = fn();
    if (r instanceof Promise) await r;
    ++calls;
  }
  const perCall = (performance.now() - start) / calls;
  const batch = Math.max(1, Math.ceil(MIN_BATCH_MS / perCall));
  const times = [];
  for (let rep = 0; rep < REPS; ++rep) {
    const t0 = performance.now();
    for (let i = 0; i < batch; ++i) {
      const r = fn();
      if (r instanceof Promise) await r;
    }
    times.push(((performance.now() - t0) / batch) * 1000);
  }
  return median(times);
}

// ---- unpool (this package) ----------------------------------------------------

async function benchUnpool(simd, variants) {
  const u = await import('../../dist/index.js');
  await u.init({ simd });
  if (u.backendInfo().simd !== simd) throw new Error(`bench: expected simd=${simd}`);
  const results = {};
  for (const w of WORKLOADS) {
    const pool = u[`maxPool${w.dims}d`];
    const unpool = u[`maxUnpool${w.dims}d`];
    const opts = { kernelSize: 2 };
    const x = { data: input(w.shape), shape: w.shape };
    const pooled = pool(x, opts);
    const r = (results[w.name] = {});
    if (variants.includes('copy')) {
      r['pool copy'] = await measure(() => pool(x, opts));
      r['unpool copy'] = await measure(() => unpool(pooled.output, pooled.indices, opts));
    }
    if (variants.includes('out')) {
      const out = { output: new Float32Array(pooled.output.data.length),
                    indices: new Int32Array(pooled.indices.data.length) };
      const y = new Float32Array(x.data.length);
      r['pool out'] = await measure(() => pool(x, { ...opts, out }));
      r['unpool out'] = await measure(() => unpool(pooled.output, pooled.indices, { ...opts, out: y }));
    }
    if (variants.includes('resident')) {
      const xr = u.uploadTensor(x);
      r['pool resident'] = await measure(() => {
        const p = pool(xr, { ...opts, resident: true });
        p.output.dispose();
        p.indices.dispose();
      });
      const pr = pool(xr, { ...opts, resident: true });
      r['unpool resident'] = await measure(() => unpool(pr.output, pr.indices, { ...opts, resident: true }).dispose());
      xr.dispose();
      pr.output.dispose();
      pr.indices.dispose();
    }
  }
  return results;
}

// ---- hand-written JavaScript ------------------------------------------------------

async function benchJs() {
  const results = {};
  const pools = { 1: jsMaxPool1d, 2: jsMaxPool2d, 3: jsMaxPool3d };
  for (const w of WORKLOADS) {
    const x = input(w.shape);
    const pool = pools[w.dims];
    const p = pool(x, w.shape, 2, 2);
    results[w.name] = {
      'pool js': await measure(() => pool(x, w.shape, 2, 2)),
      'unpool js': await measure(() => jsMaxUnpool(p.y, p.idx, p.shape, w.shape)),
    };
  }
  return results;
}

// ---- ONNX Runtime Web -------------------------------------------------------------

async function benchOrt() {
  let ort;
  try {
    ort = await import('onnxruntime-web');
  } catch {
    return undefined;
  }
  const { FLOAT, INT64, oneNodeModel } = await import('./onnx-model.mjs');
  // One thread, no proxy worker; the .wasm is read from node_modules.
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  const realFetch = globalThis.fetch;
  globalThis.fetch = (url, ...rest) => {
    if (/^https?:/i.test(String(url))) throw new Error(`bench: ORT tried to fetch ${url}`);
    return realFetch(url, ...rest);
  };
  const results = {};
  for (const w of WORKLOADS) {
    const d = w.dims;
    const rep = (v) => Array.from({ length: d }, () => v);
    const outShape = [...w.shape.slice(0, 2), ...w.shape.slice(2).map((s) => Math.floor((s - 2) / 2) + 1)];
    const poolSession = await ort.InferenceSession.create(oneNodeModel({
      opType: 'MaxPool',
      inputs: [{ name: 'X', type: FLOAT, shape: w.shape }],
      outputs: [{ name: 'Y', type: FLOAT, shape: outShape }, { name: 'I', type: INT64, shape: outShape }],
      attributes: { kernel_shape: rep(2), strides: rep(2) },
    }), { executionProviders: ['wasm'] });
    const unpoolSession = await ort.InferenceSession.create(oneNodeModel({
      opType: 'MaxUnpool',
      inputs: [{ name: 'X', type: FLOAT, shape: outShape }, { name: 'I', type: INT64, shape: outShape }],
      outputs: [{ name: 'Y', type: FLOAT, shape: w.shape }],
      attributes: { kernel_shape: rep(2), strides: rep(2) },
    }), { executionProviders: ['wasm'] });
    const x = input(w.shape);
    const pooled = await poolSession.run({ X: new ort.Tensor('float32', x, w.shape) });
    const y = pooled.Y.data;
    const idx = pooled.I.data;
    results[w.name] = {
      'pool ort': await measure(() => poolSession.run({ X: new ort.Tensor('float32', x, w.shape) })),
      'unpool ort': await measure(() => unpoolSession.run({
        X: new ort.Tensor('float32', y, outShape), I: new ort.Tensor('int64', idx, outShape),
      })),
    };
    await poolSession.release();
    await unpoolSession.release();
  }
  globalThis.fetch = realFetch;
  return { version: ort.env.versions?.web ?? ort.env.versions?.common ?? '?', results };
}

// ---- native (C++, g++ -O3) --------------------------------------------------------------

function benchNative() {
  const exe = `${root}build/bench/unpool_bench`;
  if (!existsSync(exe)) {
    console.error('bench: building the native benchmark (build/bench)');
    execFileSync('cmake', ['-S', root, '-B', `${root}build/bench`, '-DCMAKE_BUILD_TYPE=Release',
                           '-DUNPOOL_BUILD_BENCH=ON', '-DUNPOOL_BUILD_TESTS=OFF'], { stdio: 'ignore' });
    execFileSync('cmake', ['--build', `${root}build/bench`, '--target', 'unpool_bench', '-j2'],
                 { stdio: 'ignore' });
  }
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
  process.stdout.write(JSON.stringify(await benchUnpool(false, ['copy', 'resident'])));
  process.exit(0);
}

const merge = (into, from, rename = (k) => k) => {
  for (const [w, r] of Object.entries(from ?? {})) {
    for (const [k, v] of Object.entries(r)) (into[w] ??= {})[rename(k)] = v;
  }
};

const all = {};
console.error('bench: unpool (SIMD): copy, out, resident');
merge(all, await benchUnpool(true, ['copy', 'out', 'resident']));
if (!flag('--no-scalar')) {
  console.error('bench: unpool (scalar build, child process)');
  const passthrough = [...(quick ? ['--quick'] : []), ...(option('--filter') ? ['--filter', option('--filter')] : [])];
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', 'scalar', ...passthrough],
                      { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`bench: the scalar child failed:\n${r.stderr}`);
  merge(all, JSON.parse(r.stdout), (k) => k.replace(/ (copy|resident)$/, ' scalar $1'));
}
console.error('bench: hand-written JS');
merge(all, await benchJs());
let ortVersion;
if (!flag('--no-ort')) {
  console.error('bench: ONNX Runtime Web (wasm, 1 thread)');
  const ort = await benchOrt();
  if (ort) {
    ortVersion = ort.version;
    merge(all, ort.results);
  } else {
    console.error('bench: onnxruntime-web is not installed; skipped');
  }
}
if (!flag('--no-native')) {
  console.error('bench: native C++ (build/bench/unpool_bench)');
  try {
    merge(all, benchNative());
  } catch (e) {
    console.error(`bench: native skipped: ${e.message.split('\n')[0]}`);
  }
}

// ---- report ---------------------------------------------------------------------------------

const fmt = (us) => (us === undefined ? '–' : us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(us < 10 ? 2 : 1)} µs`);
const ratio = (a, b) => (a === undefined || b === undefined ? undefined : a / b);
const fmtRatio = (r) => (r === undefined ? '–' : `${r.toFixed(r < 10 ? 2 : 1)}x`);

const COLUMNS = ['copy', 'out', 'resident', 'scalar copy', 'scalar resident', 'js', 'ort', 'native'];
const rows = [];
for (const w of WORKLOADS) {
  for (const op of ['pool', 'unpool']) {
    const r = all[w.name] ?? {};
    const t = (c) => r[`${op} ${c}`];
    rows.push({
      workload: w.name, op, times: COLUMNS.map(t),
      vsJs: ratio(t('js'), t('copy')), vsOrt: ratio(t('ort'), t('copy')),
      outVsOrt: ratio(t('ort'), t('out')), residentVsNative: ratio(t('resident'), t('native')),
      simdVsScalar: ratio(t('scalar copy'), t('copy')),
    });
  }
}

const header = ['workload', 'op', ...COLUMNS];
const lines = [
  `| ${header.join(' | ')} |`,
  `|${header.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.workload} | ${r.op} | ${r.times.map(fmt).join(' | ')} |`),
];
const ratioHeader = ['workload', 'op', 'js / copy', 'ort / copy', 'ort / out', 'resident / native', 'scalar / SIMD (copy)'];
const ratioLines = [
  `| ${ratioHeader.join(' | ')} |`,
  `|${ratioHeader.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.workload} | ${r.op} | ${[r.vsJs, r.vsOrt, r.outVsOrt, r.residentVsNative, r.simdVsScalar].map(fmtRatio).join(' | ')} |`),
];

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
  `- ${new Date().toISOString()}; ${quick ? 'quick run (5 reps, 2 ms batches)' : `${REPS} reps of >= ${MIN_BATCH_MS} ms batches after ${WARMUP_MS} ms warm-up`}`,
];

const text = [
  'Median time per call (float32, int32 indices, k = s = 2, one thread):', '',
  ...lines, '', 'Ratios (> 1: unpool is faster; resident / native < 1 would be faster than native):', '',
  ...ratioLines, '', ...machine,
].join('\n');
console.log(text);

if (flag('--write')) {
  const file = `${root}bench/RESULTS.md`;
  const begin = '<!-- js-bench:begin -->';
  const end = '<!-- js-bench:end -->';
  const section = [
    begin, '## JavaScript API', '',
    `Command: \`npm run bench\` (\`node bench/js/bench.mjs --write\`), which also runs the native`,
    'C++ op benchmark (`build/bench/unpool_bench`) in the same session. Columns: `copy` the',
    'default API (fresh result arrays), `out` caller-supplied result arrays, `resident`',
    'WasmTensors (input uploaded once; results allocated in module memory and disposed each',
    'call), `scalar` the fallback build, `js` hand-written JavaScript (bench/js/reference.mjs),',
    '`ort` ONNX Runtime Web (MaxPool with Indices, MaxUnpool), `native` g++ -O3.', '',
    text, end,
  ].join('\n');
  let md = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  if (md.includes(begin) && md.includes(end)) {
    md = md.slice(0, md.indexOf(begin)) + section + md.slice(md.indexOf(end) + end.length);
  } else {
    md = `${md.trimEnd()}\n\n${section}\n`;
  }
  writeFileSync(file, md);
  console.error(`bench: wrote ${file}`);
}
