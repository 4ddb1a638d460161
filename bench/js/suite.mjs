// The benchmark cases, shared by the Node runner (bench.mjs) and the
// browser page (browser.html): the unpool, hand-written JS, floor and
// ONNX Runtime Web variants of a workload (workloads.mjs), timed side by
// side (timing.mjs). See bench.mjs.
import { jsMaxPool1d, jsMaxPool2d, jsMaxPool2dPadded, jsMaxPool3d, jsMaxUnpool } from './reference.mjs';
import { runCases } from './timing.mjs';
import { halfBits, input, intValues, pooledShape, windowOf } from './workloads.mjs';
import { FLOAT, INT64, oneNodeModel } from '../../tests/js/onnx-model.mjs';

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
