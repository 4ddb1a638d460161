// The benchmark cases, shared by the Node runner (bench.mjs) and the
// browser page (browser.html): workloads, timing, and the unpool,
// hand-written JS and ONNX Runtime Web variants. See bench.mjs.
import { jsMaxPool1d, jsMaxPool2d, jsMaxPool2dPadded, jsMaxPool3d, jsMaxUnpool } from './reference.mjs';
import { FLOAT, INT64, oneNodeModel } from '../../tests/js/onnx-model.mjs';

/**
 * Workloads: k = s = 2, no padding, as the native benchmark names them, and
 * ResNet's pool (k = 3, s = 2, padding 1: `window`, the native name's last
 * part; `k`, `s`, `p`).
 */
export const WORKLOADS = [
  { name: '1d 1x64x12544', dims: 1, shape: [1, 64, 12544] },
  { name: '2d 1x64x112x112', dims: 2, shape: [1, 64, 112, 112] },
  { name: '2d 1x64x112x112 k3s2p1', dims: 2, shape: [1, 64, 112, 112], window: 'k3s2p1', k: 3, s: 2, p: 1 },
  { name: '2d 8x64x56x56', dims: 2, shape: [8, 64, 56, 56] },
  { name: '2d 1x3x512x512', dims: 2, shape: [1, 3, 512, 512] },
  { name: '2d 1x8x16x16', dims: 2, shape: [1, 8, 16, 16] },
  { name: '3d 1x16x32x32x32', dims: 3, shape: [1, 16, 32, 32, 32] },
];

/** Pseudo-random float32 values in [-128, 128) of `shape`, the same on every run. */
export function input(shape, seed = 1) {
  let a = seed >>> 0;
  const n = shape.reduce((p, d) => p * d, 1);
  const x = new Float32Array(n);
  for (let i = 0; i < n; ++i) {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    x[i] = (a >>> 8) / 65536 - 128;
  }
  return x;
}

const INTEGER_ARRAYS = { uint8: Uint8Array, int8: Int8Array, int16: Int16Array };

/** `input()`'s values as uint8, int8 or int16 (wrapped to the type: any values serve a timing). */
export function intValues(f32, dtype) {
  const a = new INTEGER_ARRAYS[dtype](f32.length);
  for (let i = 0; i < f32.length; ++i) a[i] = Math.floor(f32[i] * 256);
  return a;
}

/** The value types a benchmark can give a tensor. */
export const DTYPES = ['float32', 'float16', 'bfloat16', ...Object.keys(INTEGER_ARRAYS)];

/** A tensor of `shape` with float32 values `f32` as `dtype` (one of DTYPES). */
export function tensorOf(f32, shape, dtype) {
  if (dtype === 'float32') return { data: f32, shape };
  if (dtype === 'float16' || dtype === 'bfloat16') return { data: halfBits(f32, dtype), shape, dtype };
  if (dtype in INTEGER_ARRAYS) return { data: intValues(f32, dtype), shape };
  throw new Error(`bench: the value type must be one of ${DTYPES.join(', ')}, got ${dtype}`);
}

/**
 * A fresh copy of typed array `a` in memory that is not zeroed first: the
 * copying API's results in Node (streamed.ts's freshArray), filled.
 */
export function freshCopy(a) {
  const b = new a.constructor(Buffer.allocUnsafeSlow(a.byteLength).buffer, 0, a.length);
  b.set(a);
  return b;
}

/**
 * The bits of `input()`'s float32 values as float16 or bfloat16, truncated
 * (any finite pattern serves a timing): bfloat16 is each float32's top
 * half, float16 its exponent rebiased and its mantissa cut to 10 bits
 * (|x| < 2^8: no overflow; infinities and NaN stay what they are).
 */
export function halfBits(f32, dtype) {
  return Uint16Array.from(new Uint32Array(f32.buffer, f32.byteOffset, f32.length), (b) => {
    if (dtype === 'bfloat16') return b >>> 16;
    const sign = (b >>> 16) & 0x8000, e = ((b >>> 23) & 0xff) - 112;
    if (e >= 31) return sign | 0x7c00 | ((b & 0x7fffff) !== 0 && e === 143 ? 0x200 : 0);  // inf, NaN
    return e <= 0 ? sign : sign | (e << 10) | ((b >>> 13) & 0x3ff);
  });
}

/** The window of workload `w`: kernel, stride, padding. */
export const windowOf = (w) => ({ k: w.k ?? 2, s: w.s ?? 2, p: w.p ?? 0 });

/** The pooled shape of workload `w`. */
export function pooledShape(w) {
  const { k, s, p } = windowOf(w);
  return [...w.shape.slice(0, 2), ...w.shape.slice(2).map((d) => Math.floor((d + 2 * p - k) / s) + 1)];
}

export const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Times the cases `{ name: fn }` side by side: each is warmed up and its
 * batch size chosen (>= minBatchMs, or one call), then `reps` rounds run one
 * batch of every case in turn, so that all cases see the same machine state.
 * Returns `{ name: median µs per call }`. A case may return a promise.
 */
export async function runCases(cases, { reps, minBatchMs, warmupMs }) {
  const names = Object.keys(cases);
  const batch = {};
  for (const name of names) {
    const fn = cases[name];
    let calls = 0;
    const start = performance.now();
    while (calls < 3 || performance.now() - start < warmupMs) {
      const r = fn();
      if (r instanceof Promise) await r;
      ++calls;
    }
    batch[name] = Math.max(1, Math.ceil(minBatchMs / ((performance.now() - start) / calls)));
  }
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let rep = 0; rep < reps; ++rep) {
    for (const name of names) {
      const fn = cases[name];
      const t0 = performance.now();
      for (let i = 0; i < batch[name]; ++i) {
        const r = fn();
        if (r instanceof Promise) await r;
      }
      times[name].push(((performance.now() - t0) / batch[name]) * 1000);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(times[n])]));
}

// ---- unpool (this package) ----------------------------------------------------

/**
 * unpool's cases for workload `w` with the loaded package `u`: 'pool copy',
 * 'unpool copy', ... for `variants` (copy, out, resident). Call `cleanup`
 * after timing them.
 */
export function unpoolCases(u, w, variants) {
  const pool = u[`maxPool${w.dims}d`];
  const unpool = u[`maxUnpool${w.dims}d`];
  const { k, s, p } = windowOf(w);
  const poolOpts = { kernelSize: k, stride: s, padding: p };
  // The unpools restore the input's size (k3 s2 p1 on 112 would give 111).
  const opts = { ...poolOpts, outputSize: w.shape.slice(2) };
  const x = { data: input(w.shape), shape: w.shape };
  const pooled = pool(x, poolOpts);
  const cases = {};
  const held = [];
  if (variants.includes('copy')) {
    cases['pool copy'] = () => pool(x, poolOpts);
    cases['unpool copy'] = () => unpool(pooled.output, pooled.indices, opts);
  }
  if (variants.includes('out')) {
    const out = { output: new Float32Array(pooled.output.data.length),
                  indices: new Int32Array(pooled.indices.data.length) };
    const y = new Float32Array(x.data.length);
    const outOpts = { ...poolOpts, out };
    const yOpts = { ...opts, out: y };
    cases['pool out'] = () => pool(x, outOpts);
    cases['unpool out'] = () => unpool(pooled.output, pooled.indices, yOpts);
  }
  // 16-bit values with the copying API, as a Uint16Array of bits and `dtype`
  // (every engine).
  for (const dtype of ['float16', 'bfloat16']) {
    if (!variants.includes(dtype)) continue;
    const xh = { data: halfBits(x.data, dtype), shape: w.shape, dtype };
    const ph = pool(xh, poolOpts);
    cases[`pool ${dtype}`] = () => pool(xh, poolOpts);
    cases[`unpool ${dtype}`] = () => unpool(ph.output, ph.indices, opts);
  }
  // Integer values (issue 31): uint8 (an image's bytes) and int8 with the
  // copying API, and uint8 resident; the same pseudo-random stream, cut to
  // the type.
  for (const dtype of ['uint8', 'int8']) {
    if (!variants.includes(dtype) && !(dtype === 'uint8' && variants.includes('uint8 resident'))) continue;
    const xi = { data: intValues(x.data, dtype), shape: w.shape };
    const pi = pool(xi, poolOpts);
    if (variants.includes(dtype)) {
      cases[`pool ${dtype}`] = () => pool(xi, poolOpts);
      cases[`unpool ${dtype}`] = () => unpool(pi.output, pi.indices, opts);
    }
    if (dtype === 'uint8' && variants.includes('uint8 resident')) {
      const xr = u.uploadTensor(xi);
      const pr = pool(xr, { ...poolOpts, resident: true });
      held.push(xr, pr.output, pr.indices);
      const rPoolOpts = { ...poolOpts, resident: true };
      const rOpts = { ...opts, resident: true };
      cases['pool uint8 resident'] = () => {
        const r = pool(xr, rPoolOpts);
        r.output.dispose();
        r.indices.dispose();
      };
      cases['unpool uint8 resident'] = () => unpool(pr.output, pr.indices, rOpts).dispose();
    }
  }
  if (variants.includes('resident')) {
    const xr = u.uploadTensor(x);
    const pr = pool(xr, { ...poolOpts, resident: true });
    held.push(xr, pr.output, pr.indices);
    const rPoolOpts = { ...poolOpts, resident: true };
    const rOpts = { ...opts, resident: true };
    cases['pool resident'] = () => {
      const r = pool(xr, rPoolOpts);
      r.output.dispose();
      r.indices.dispose();
    };
    cases['unpool resident'] = () => unpool(pr.output, pr.indices, rOpts).dispose();
  }
  return { cases, cleanup: () => held.forEach((t) => t.dispose()) };
}

/** unpool alone (the scalar child process): `{ workload: { case: µs } }`. */
export async function benchUnpool(u, simd, variants, workloads, timing) {
  await u.init({ simd });
  if (u.backendInfo().simd !== simd) throw new Error(`bench: expected simd=${simd}`);
  const results = {};
  for (const w of workloads) {
    const { cases, cleanup } = unpoolCases(u, w, variants);
    results[w.name] = await runCases(cases, timing);
    cleanup();
  }
  return results;
}

// ---- hand-written JavaScript ------------------------------------------------------

/** The hand-written JavaScript (reference.mjs): 'pool js', 'unpool js'. */
export function jsCases(w) {
  const { k, s, p } = windowOf(w);
  const pools = { 1: jsMaxPool1d, 2: p > 0 ? jsMaxPool2dPadded : jsMaxPool2d, 3: jsMaxPool3d };
  const x = input(w.shape);
  const pool = pools[w.dims];
  const r = pool(x, w.shape, k, s, p);
  return {
    'pool js': () => pool(x, w.shape, k, s, p),
    'unpool js': () => jsMaxUnpool(r.y, r.idx, r.shape, w.shape),
  };
}

// ---- the floor of any copying WebAssembly API ---------------------------------------

/**
 * What a copying API must do whatever its kernel and checks: copy the inputs
 * into WebAssembly memory and the results out into fresh arrays, made by the
 * copy constructor (the cheapest way measured): 'pool floor', 'unpool floor';
 * or into caller arrays: 'pool out floor', 'unpool out floor'; uint8's
 * copies: 'pool uint8 floor', 'unpool uint8 floor'. Whole-tensor
 * copies; no kernel runs. js / floor is what js / copy would be if the kernel
 * took no time, for any library whose kernels run in WebAssembly.
 */
export function floorCases(w) {
  const x = input(w.shape);
  const n = pooledShape(w).reduce((a, b) => a * b, 1);
  const memory = new WebAssembly.Memory({ initial: Math.ceil(((x.length + 2 * n) * 4) / 65536) });
  const xs = new Float32Array(memory.buffer, 0, x.length);
  const ys = new Float32Array(memory.buffer, x.length * 4, n);
  const is = new Int32Array(memory.buffer, (x.length + n) * 4, n);
  const y = input([n], 2);
  const idx = new Int32Array(n);
  const outY = new Float32Array(n);
  const outI = new Int32Array(n);
  const outX = new Float32Array(x.length);
  // uint8's (issue 31): its bytes in, a fresh Uint8Array of values and the
  // same Int32Array of indices out (the same memory as float32's, reused).
  const x8 = intValues(x, 'uint8'), y8 = intValues(y, 'uint8');
  const xs8 = new Uint8Array(memory.buffer, 0, x.length);
  const ys8 = new Uint8Array(memory.buffer, x.length * 4, n);
  return {
    'pool uint8 floor': () => {
      xs8.set(x8);
      return { output: new Uint8Array(ys8), indices: new Int32Array(is) };
    },
    'unpool uint8 floor': () => {
      ys8.set(y8);
      is.set(idx);
      return new Uint8Array(xs8);
    },
    'pool floor': () => {
      xs.set(x);
      return { output: new Float32Array(ys), indices: new Int32Array(is) };
    },
    'unpool floor': () => {
      ys.set(y);
      is.set(idx);
      return new Float32Array(xs);
    },
    // The same into caller arrays (the `out` API's floor).
    'pool out floor': () => {
      xs.set(x);
      outY.set(ys);
      outI.set(is);
    },
    'unpool out floor': () => {
      ys.set(y);
      is.set(idx);
      outX.set(xs);
    },
  };
}

// ---- ONNX Runtime Web -------------------------------------------------------------

/** The version of the loaded onnxruntime-web. */
export const ortVersion = (ort) => ort.env.versions?.web ?? ort.env.versions?.common ?? '?';

/**
 * ONNX Runtime Web (the module `ort`), wasm backend, one thread: 'pool ort'
 * (MaxPool with its Indices output) and 'unpool ort' (MaxUnpool of that
 * result). Call `cleanup` (async) after timing them.
 */
export async function ortCases(ort, w) {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  const d = w.dims;
  const { k, s, p } = windowOf(w);
  const rep = (v) => Array.from({ length: d }, () => v);
  const outShape = pooledShape(w);
  const attributes = { kernel_shape: rep(k), strides: rep(s), ...(p > 0 ? { pads: rep(p).concat(rep(p)) } : {}) };
  const poolSession = await ort.InferenceSession.create(oneNodeModel({
    opType: 'MaxPool',
    inputs: [{ name: 'X', type: FLOAT, shape: w.shape }],
    outputs: [{ name: 'Y', type: FLOAT, shape: outShape }, { name: 'I', type: INT64, shape: outShape }],
    attributes,
  }), { executionProviders: ['wasm'] });
  // MaxUnpool's output_shape input restores sizes the window does not
  // (k3 s2 p1 on 112 would give 111), as unpool's outputSize does.
  const restore = p > 0 || k !== s;
  const unpoolSession = await ort.InferenceSession.create(oneNodeModel({
    opType: 'MaxUnpool',
    inputs: [{ name: 'X', type: FLOAT, shape: outShape }, { name: 'I', type: INT64, shape: outShape },
             ...(restore ? [{ name: 'S', type: INT64, shape: [w.shape.length] }] : [])],
    outputs: [{ name: 'Y', type: FLOAT, shape: w.shape }],
    attributes,
  }), { executionProviders: ['wasm'] });
  const sizes = restore ? { S: new ort.Tensor('int64', BigInt64Array.from(w.shape, BigInt), [w.shape.length]) } : {};
  const x = input(w.shape);
  const pooled = await poolSession.run({ X: new ort.Tensor('float32', x, w.shape) });
  const y = pooled.Y.data;
  const idx = pooled.I.data;
  return {
    cases: {
      'pool ort': () => poolSession.run({ X: new ort.Tensor('float32', x, w.shape) }),
      'unpool ort': () => unpoolSession.run({
        X: new ort.Tensor('float32', y, outShape), I: new ort.Tensor('int64', idx, outShape), ...sizes,
      }),
    },
    cleanup: async () => {
      await poolSession.release();
      await unpoolSession.release();
    },
  };
}

/**
 * Every implementation of one process side by side, workload by workload:
 * unpool (`u`, already initialised) with `variants`, the hand-written JS,
 * and ONNX Runtime Web when `ort` is given. `{ workload: { case: µs } }`.
 */
export async function benchSideBySide(u, ort, variants, workloads, timing, log = () => {}) {
  const results = {};
  for (const w of workloads) {
    log(w.name);
    const mine = unpoolCases(u, w, variants);
    const theirs = ort ? await ortCases(ort, w) : { cases: {}, cleanup: async () => {} };
    // ORT's calls are async and leave promise and GC work behind, which
    // would land in the timings of the small synchronous cases: its rounds run
    // after the synchronous ones (same workload, same process).
    results[w.name] = {
      ...await runCases({ ...mine.cases, ...jsCases(w), ...floorCases(w) }, timing),
      ...await runCases(theirs.cases, timing),
    };
    mine.cleanup();
    await theirs.cleanup();
  }
  return results;
}

// ---- report -------------------------------------------------------------------------

const fmt = (us) => (us === undefined ? '–' : us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(us < 10 ? 2 : 1)} µs`);
const ratio = (a, b) => (a === undefined || b === undefined ? undefined : a / b);
const fmtRatio = (r) => (r === undefined ? '–' : `${r.toFixed(r < 10 ? 2 : 1)}x`);

const ALL_COLUMNS = ['copy', 'out', 'resident', 'float16', 'bfloat16', 'uint8', 'int8', 'uint8 resident',
                     'scalar copy', 'scalar resident', 'js', 'ort', 'native', 'floor', 'out floor',
                     'uint8 floor'];

/** Cell by cell, the median over `runs` (each `{ workload: { case: µs } }`). */
export function medianOfRuns(runs) {
  const out = {};
  for (const w of new Set(runs.flatMap((r) => Object.keys(r)))) {
    for (const k of new Set(runs.flatMap((r) => Object.keys(r[w] ?? {})))) {
      const v = runs.map((r) => r[w]?.[k]).filter((x) => x !== undefined);
      (out[w] ??= {})[k] = median(v);
    }
  }
  return out;
}

/**
 * Markdown tables of times and ratios; `all[workload]['<op> <column>']` in µs.
 * With `runs` (several such objects), each ratio is the median over the runs
 * of that run's ratio, followed by its range.
 */
export function tables(all, workloads, columns = ALL_COLUMNS, runs = undefined) {
  const COLUMNS = columns;
  const rows = [];
  for (const w of workloads) {
    for (const op of ['pool', 'unpool']) {
      const r = all[w.name] ?? {};
      const t = (c) => r[`${op} ${c}`];
      const ratios = (r) => {
        const tt = (c) => r[w.name]?.[`${op} ${c}`];
        return [ratio(tt('js'), tt('copy')), ratio(tt('ort'), tt('copy')), ratio(tt('ort'), tt('out')),
                ratio(tt('resident'), tt('native')), ratio(tt('scalar copy'), tt('copy')),
                ratio(tt('js'), tt('floor')), ratio(tt('ort'), tt('floor')), ratio(tt('ort'), tt('out floor')),
                ratio(tt('float16'), tt('copy')), ratio(tt('bfloat16'), tt('copy')),
                ratio(tt('uint8'), tt('copy')), ratio(tt('int8'), tt('copy')),
                ratio(tt('uint8 resident'), tt('resident')), ratio(tt('uint8 floor'), tt('copy'))];
      };
      let cells = ratios(all).map(fmtRatio);
      if (runs !== undefined && runs.length > 1) {
        const per = runs.map(ratios);
        cells = cells.map((_, i) => {
          const v = per.map((p) => p[i]).filter((x) => x !== undefined);
          if (v.length === 0) return '–';
          return `${fmtRatio(median(v))} (${fmtRatio(Math.min(...v))}-${fmtRatio(Math.max(...v))})`;
        });
      }
      rows.push({ workload: w.name, op, times: COLUMNS.map(t), cells });
    }
}

const header = ['workload', 'op', ...COLUMNS];
const lines = [
  `| ${header.join(' | ')} |`,
  `|${header.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.workload} | ${r.op} | ${r.times.map(fmt).join(' | ')} |`),
];
const ratioHeader = ['workload', 'op', 'js / copy', 'ort / copy', 'ort / out', 'resident / native', 'scalar / SIMD (copy)',
                     'js / floor', 'ort / floor', 'ort / out floor', 'float16 / float32 time (copy)',
                     'bfloat16 / float32 time (copy)', 'uint8 / float32 time (copy)', 'int8 / float32 time (copy)',
                     'uint8 / float32 time (resident)', 'uint8 floor / float32 time (copy)'];
const ratioLines = [
  `| ${ratioHeader.join(' | ')} |`,
  `|${ratioHeader.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.workload} | ${r.op} | ${r.cells.join(' | ')} |`),
];
return { lines, ratioLines };
}
