// The WebGPU benchmark's cases (`npm run bench:webgpu`, bench/js/webgpu.mjs),
// for any runtime with navigator.gpu: the Chromium page (webgpu.html), and
// Deno or Node.js 24 + the webgpu package (webgpu-headless.mjs). Side by side on one device, per workload and dtype:
//
//   gpu       unpool/webgpu: maxPoolNd with indices, maxUnpoolNd, and the
//             pool -> unpool chain, results into preallocated GpuTensors (`out`)
//   ort-gpu   ONNX Runtime Web's WebGPU EP (JSEP): MaxPool without Indices,
//             its only GPU pooling (input and output stay gpu-buffer tensors)
//   ort-cpu   ONNX Runtime Web: one model MaxPool (with Indices) -> MaxUnpool,
//             which only its CPU EP runs: the input read back, the model on
//             the wasm EP (one thread), the output written back
//   readback  the chain users write today: read the tensor back (mapAsync of
//             a reused staging buffer), unpool's WebAssembly op, writeBuffer of
//             the results ('readback-host': the results left on the host)
//   copy      the adapter's floor: one copyBufferToBuffer of the bytes the op
//             must read plus the bytes it must write (pool: x + output +
//             indices; unpool: output + indices + y; chain: both)
//
// Every call is followed by `await device.queue.onSubmittedWorkDone()`; its
// time is the median over reps of (call + wait), as bench/js/timing.mjs's
// runCases measures. Where the device has 'timestamp-query', the `ts`
// figures are GPU time between two empty timestamped compute passes
// submitted before and after the call (median of reps).
import { runCases } from './timing.mjs';
import { input, halfBits } from './workloads.mjs';
import { graphModel } from '../../tests/js/onnx-model.mjs';

/** The workloads of `npm run bench` that the issue names, k = s = 2. */
export const GPU_WORKLOADS = [
  { name: '2d 1x64x112x112', dims: 2, shape: [1, 64, 112, 112] },
  { name: '2d 8x64x56x56', dims: 2, shape: [8, 64, 56, 56] },
  { name: '3d 1x16x32x32x32', dims: 3, shape: [1, 16, 32, 32, 32] },
  { name: '1d 4x64x4096', dims: 1, shape: [4, 64, 4096] },
  { name: '2d 1x8x16x16', dims: 2, shape: [1, 8, 16, 16] },
];
export const GPU_DTYPES = ['float32', 'float16'];

const U = { MAP_READ: 1, COPY_SRC: 4, COPY_DST: 8, STORAGE: 128, QUERY_RESOLVE: 512 };

// ---- timing ------------------------------------------------------------------------------

/**
 * GPU time of one call by timestamp queries, or undefined without the
 * feature: an empty timestamped pass, the call, another one; resolved and
 * read back after. Returns ns.
 */
function stamper(device) {
  if (!device.features?.has('timestamp-query')) return undefined;
  const set = device.createQuerySet({ type: 'timestamp', count: 2 });
  const resolved = device.createBuffer({ size: 16, usage: U.QUERY_RESOLVE | U.COPY_SRC });
  const staging = device.createBuffer({ size: 16, usage: U.MAP_READ | U.COPY_DST });
  const mark = (w) => {
    const e = device.createCommandEncoder();
    e.beginComputePass({ timestampWrites: { querySet: set, ...w } }).end();
    return e;
  };
  return async (fn) => {
    device.queue.submit([mark({ beginningOfPassWriteIndex: 0 }).finish()]);
    await fn();
    const e = mark({ endOfPassWriteIndex: 1 });
    e.resolveQuerySet(set, 0, 2, resolved, 0);
    e.copyBufferToBuffer(resolved, 0, staging, 0, 16);
    device.queue.submit([e.finish()]);
    await staging.mapAsync(1);
    const t = new BigUint64Array(staging.getMappedRange().slice(0));
    staging.unmap();
    return Number(t[1] - t[0]);
  };
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const count = (shape) => shape.reduce((a, b) => a * b, 1);
const pooledShape = (shape, dims) => [...shape.slice(0, shape.length - dims), ...shape.slice(-dims).map((d) => Math.floor(d / 2))];
const round4 = (n) => Math.ceil(n / 4) * 4;

/** A reused staging buffer that reads a GPUBuffer's first `bytes` back. */
function reader(device, bytes) {
  const staging = device.createBuffer({ size: round4(bytes), usage: U.MAP_READ | U.COPY_DST });
  return async (buffer) => {
    const e = device.createCommandEncoder();
    e.copyBufferToBuffer(buffer, 0, staging, 0, round4(bytes));
    device.queue.submit([e.finish()]);
    await staging.mapAsync(1);
    const copy = staging.getMappedRange(0, round4(bytes)).slice(0, bytes);
    staging.unmap();
    return copy;
  };
}

// ---- the cases ----------------------------------------------------------------------------

/**
 * The cases of workload `w` in `dtype` on backend `gpu` (unpool/webgpu's),
 * with the WebAssembly API `u` and ONNX Runtime Web `ort` (optional):
 * { cases: { name: async fn }, notes: [why a case is missing], cleanup }.
 */
export async function webgpuCases(u, gpu, ort, w, dtype, ortSessions) {
  const device = gpu.device;
  const q = device.queue;
  const done = () => q.onSubmittedWorkDone();
  const d = w.dims;
  const pool = gpu[`maxPool${d}d`];
  const unpool = gpu[`maxUnpool${d}d`];
  const wasmPool = u[`maxPool${d}d`];
  const wasmUnpool = u[`maxUnpool${d}d`];
  const opts = { kernelSize: 2 };
  const f32 = input(w.shape);
  const host = dtype === 'float32' ? { data: f32, shape: w.shape } : { data: halfBits(f32, dtype), shape: w.shape, dtype };
  const vBytes = dtype === 'float32' ? 4 : 2;
  const pshape = pooledShape(w.shape, d);
  const xBytes = count(w.shape) * vBytes;
  const yBytes = count(pshape) * vBytes;
  const iBytes = count(pshape) * 4;
  const held = [];
  const keep = (t) => { held.push(t); return t; };
  const notes = [];
  const checks = [];
  const ortLocation = {};
  const cases = {};

  // unpool/webgpu, results into preallocated tensors.
  const x = keep(gpu.upload(host));
  const first = pool(x, opts);
  keep(first.output);
  keep(first.indices);
  const y = keep(unpool(first.output, first.indices, opts));
  const out2 = { output: keep(pool(x, opts).output), indices: undefined };
  out2.indices = keep(pool(x, opts).indices);
  const poolOut = { ...opts, out: { output: first.output, indices: first.indices } };
  const unpoolOut = { ...opts, out: y };
  await done();
  // Each case waits for the queue unless called with `false` (the timestamped runs).
  cases['pool gpu'] = async (wait = true) => { pool(x, poolOut); if (wait) await done(); };
  cases['unpool gpu'] = async (wait = true) => { unpool(first.output, first.indices, unpoolOut); if (wait) await done(); };
  cases['chain gpu'] = async (wait = true) => {
    pool(x, { ...opts, out: out2 });
    unpool(out2.output, out2.indices, unpoolOut);
    if (wait) await done();
  };

  // The floor: copies of the bytes each op reads and writes.
  const floorBytes = { pool: xBytes + yBytes + iBytes, unpool: yBytes + iBytes + xBytes };
  const biggest = round4(Math.max(...Object.values(floorBytes)));
  const a = device.createBuffer({ size: biggest, usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
  const b = device.createBuffer({ size: biggest, usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
  const copy = (n) => {
    const e = device.createCommandEncoder();
    e.copyBufferToBuffer(a, 0, b, 0, round4(n));
    return e.finish();
  };
  cases['pool copy'] = async (wait = true) => { q.submit([copy(floorBytes.pool)]); if (wait) await done(); };
  cases['unpool copy'] = async (wait = true) => { q.submit([copy(floorBytes.unpool)]); if (wait) await done(); };
  cases['chain copy'] = async (wait = true) => {
    q.submit([copy(floorBytes.pool), copy(floorBytes.unpool)]);
    if (wait) await done();
  };

  // Today's chain: read back, the WebAssembly op, upload.
  const readX = reader(device, xBytes);
  const readY = reader(device, yBytes);
  const readI = reader(device, iBytes);
  const typed = (buf) => (dtype === 'float32' ? new Float32Array(buf) : new Uint16Array(buf));
  const hostOf = (buf, shape) => ({ data: typed(buf), shape, ...(dtype === 'float32' ? {} : { dtype }) });
  const wasmOpts = { kernelSize: 2 };
  // ... and the same with the results left on the host (for a consumer on the CPU).
  cases['pool readback-host'] = async () => {
    wasmPool(hostOf(await readX(x.buffer), w.shape), wasmOpts);
  };
  cases['pool readback'] = async () => {
    const r = wasmPool(hostOf(await readX(x.buffer), w.shape), wasmOpts);
    q.writeBuffer(out2.output.buffer, 0, r.output.data);
    q.writeBuffer(out2.indices.buffer, 0, r.indices.data);
    await done();
  };
  cases['unpool readback'] = async () => {
    const [yb, ib] = await Promise.all([readY(first.output.buffer), readI(first.indices.buffer)]);
    const r = wasmUnpool(hostOf(yb, pshape), { data: new Int32Array(ib), shape: pshape }, wasmOpts);
    q.writeBuffer(y.buffer, 0, r.data);
    await done();
  };
  cases['chain readback'] = async () => {
    const p = wasmPool(hostOf(await readX(x.buffer), w.shape), wasmOpts);
    const r = wasmUnpool(p.output, p.indices, wasmOpts);
    q.writeBuffer(y.buffer, 0, r.data);
    await done();
  };

  // ONNX Runtime Web on the same device.
  const released = [];
  if (ort) {
    const rep = (v) => Array.from({ length: d }, () => v);
    const attributes = { kernel_shape: rep(2), strides: rep(2) };
    const xOrt = () => ort.Tensor.fromGpuBuffer(x.buffer, { dataType: dtype, dims: w.shape });
    // The WebGPU session: its output must come back as a gpu-buffer (checked
    // below, with its values), else the figure is not a GPU MaxPool.
    try {
      const s = await ortSessions.create(graphModel({
        nodes: [{ op: 'MaxPool', inputs: ['X'], outputs: ['Y'], attributes }],
        inputs: [{ name: 'X', type: dtype, shape: w.shape }],
        outputs: [{ name: 'Y', type: dtype, shape: pshape }],
      }));
      released.push(s);
      const run = async (wait = true) => {
        const r = await s.run({ X: xOrt() });
        if (wait) await done();
        r.Y.dispose();
      };
      await run();
      // Its output, read by our own copy after onSubmittedWorkDone, must be
      // unpool's pooled values (the input is in [-128, 128): ORT's -1e5 start
      // does not matter): else ORT's work was not done when the wait ended.
      {
        const t0 = performance.now();
        const r = await s.run({ X: xOrt() });
        await done();
        const ms = performance.now() - t0;
        const readOut = reader(device, yBytes);
        const want = new Uint8Array(await readOut(first.output.buffer));
        let got;
        const location = r.Y.location;
        if (location === 'gpu-buffer') {
          got = new Uint8Array(await readOut(r.Y.gpuBuffer));
        } else {
          const d = r.Y.data;
          got = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
          notes.push(`ort-gpu ${w.name} ${dtype}: ORT returned its output in location '${r.Y.location}', not 'gpu-buffer': ` +
                     'its MaxPool did not run on the GPU here');
        }
        r.Y.dispose();
        const same = got.every((v, i) => v === want[i]);
        if (!same) notes.push(`ort-gpu ${w.name} ${dtype}: its output after onSubmittedWorkDone is NOT unpool's pooled tensor`);
        checks.push({ key: `${w.name} ${dtype}`, ortOutputChecked: same, location, oneRunMs: ms });
        ortLocation[`${w.name} ${dtype}`] = location;
        if (location === 'gpu-buffer' && same) cases['pool ort-gpu'] = run;
      }
    } catch (e) {
      notes.push(`ort-gpu ${w.name} ${dtype}: ${String(e.message ?? e).split('\n')[0].slice(0, 160)}`);
    }
    // ORT places MaxPool with Indices and MaxUnpool on its CPU EP; fed a
    // gpu-buffer in a WebGPU session, 1.30's run() fails (ort_value.h:85), so
    // this is the chain an ORT user writes: read back, the wasm EP's model, upload.
    try {
      const s = await ortSessions.cpu(graphModel({
        nodes: [
          { op: 'MaxPool', inputs: ['X'], outputs: ['P', 'I'], attributes },
          { op: 'MaxUnpool', inputs: ['P', 'I'], outputs: ['Y'], attributes },
        ],
        inputs: [{ name: 'X', type: dtype, shape: w.shape }],
        outputs: [{ name: 'Y', type: dtype, shape: w.shape }],
      }));
      released.push(s);
      const run = async () => {
        const X = new ort.Tensor(dtype, typed(await readX(x.buffer)), w.shape);
        const r = await s.run({ X });
        q.writeBuffer(y.buffer, 0, r.Y.data);
        await done();
      };
      await run();
      cases['chain ort-cpu'] = run;
    } catch (e) {
      notes.push(`ort-cpu ${w.name} ${dtype}: ${String(e.message ?? e).split('\n')[0].slice(0, 160)}`);
    }
  }

  return {
    cases,
    notes,
    checks,
    ortLocation,
    bytes: floorBytes,
    cleanup: async () => {
      for (const s of released) await s.release();
      for (const t of held) t.destroy();
      a.destroy();
      b.destroy();
    },
  };
}

/**
 * Every workload and dtype, side by side: { results: { 'workload dtype': { case: µs } }, notes }.
 * `ts` adds, where the device has timestamp queries, '<case> ts' (GPU µs).
 */
export async function benchWebGPU({ u, gpu, ort, ortSessions, workloads, dtypes, timing, log = () => {} }) {
  const results = {};
  const notes = [];
  const stamp = stamper(gpu.device);
  for (const w of workloads) {
    for (const dtype of dtypes) {
      const key = `${w.name} ${dtype}`;
      log(key);
      const c = await webgpuCases(u, gpu, ort, w, dtype, ortSessions);
      notes.push(...c.notes);
      for (const k of c.checks) {
        log(`ORT check ${k.key}: output in '${k.location}', equal to unpool's: ${k.ortOutputChecked}, one run + wait ${k.oneRunMs.toFixed(1)} ms`);
      }
      try {
        results[key] = await runCases(c.cases, timing);
        results[key].bytes = c.bytes;
        if (stamp) {
          for (const [name, fn] of Object.entries(c.cases)) {
            if (name.includes('readback')) continue;
            const v = [];
            if (name.includes('ort-cpu')) continue;
            for (let i = 0; i < Math.max(5, Math.min(timing.reps, 11)); i++) v.push(await stamp(() => fn(false)));
            results[key][`${name} ts`] = median(v) / 1000;
          }
        }
      } finally {
        await c.cleanup();
      }
    }
  }
  return { results, notes, timestamps: !!stamp };
}

/** "vendor / architecture / description" of a GPUAdapterInfo. */
export function adapterLine(info) {
  const f = (k) => (info?.[k] ? info[k] : '(empty)');
  return `vendor ${f('vendor')}, architecture ${f('architecture')}, description ${f('description')}`;
}

/**
 * One stack's whole run: the WebAssembly API `u`, unpool/webgpu's
 * `initWebGPU`, ONNX Runtime Web `ort` (or undefined) and `navGpu`
 * (navigator.gpu). ORT's WebGPU EP makes its own device at its first
 * session, so that session comes first and every case runs on ORT's device
 * (docs/webgpu.md); without ORT, on a device of our own.
 */
export async function runStack({ u, initWebGPU, ort, navGpu, workloads, dtypes, timing, log = () => {} }) {
  const notes = [];
  await u.init({ simd: true });
  const adapter = await navGpu.requestAdapter();
  if (!adapter) throw new Error('navigator.gpu gave no adapter');
  let device;
  let ortSessions;
  if (ort) {
    try {
      ort.env.wasm.numThreads = 1;
      ort.env.wasm.proxy = false;
      const so = { executionProviders: ['webgpu'], preferredOutputLocation: 'gpu-buffer' };
      ortSessions = {
        create: (bytes) => ort.InferenceSession.create(bytes, so),
        cpu: (bytes) => ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] }),
      };
      const first = await ortSessions.create(graphModel({
        nodes: [{ op: 'MaxPool', inputs: ['X'], outputs: ['Y'], attributes: { kernel_shape: [2, 2], strides: [2, 2] } }],
        inputs: [{ name: 'X', type: 'float32', shape: [1, 1, 4, 4] }],
        outputs: [{ name: 'Y', type: 'float32', shape: [1, 1, 2, 2] }],
      }));
      device = await ort.env.webgpu.device;
      await first.release();
      if (!device) throw new Error('ort.env.webgpu.device is undefined after a WebGPU session');
    } catch (e) {
      notes.push(`ONNX Runtime Web's WebGPU EP did not start: ${String(e.message ?? e).split('\n')[0]}`);
      ort = undefined;
      device = undefined;
    }
  }
  if (!device) {
    const requiredFeatures = adapter.features.has('timestamp-query') ? ['timestamp-query'] : [];
    device = await adapter.requestDevice({ requiredFeatures });
  }
  const gpu = await initWebGPU({ device });
  const info = device.adapterInfo ?? adapter.info;
  const r = await benchWebGPU({ u, gpu, ort, ortSessions, workloads, dtypes, timing, log });
  return {
    adapter: adapterLine(info),
    features: [...device.features].sort().join(' '),
    device: ort ? "ONNX Runtime Web's (ort.env.webgpu.device)" : 'requested by the benchmark',
    ortVersion: ort ? (ort.env.versions?.web ?? ort.env.versions?.common) : undefined,
    timestamps: r.timestamps,
    results: r.results,
    notes: [...notes, ...r.notes],
  };
}

/**
 * Before/after A/B of unpool/webgpu on one device (`bench:webgpu --ab`):
 * `sides` are two builds' backends (initWebGPU on `device`), A and B; `op`
 * ('pool' or 'unpool', k = s = 2 unless `options` say otherwise; 1d to 3d
 * by the shape) runs on the same input in both, results into preallocated
 * tensors, the calls alternated (A, B, B, A, ...), each followed by
 * onSubmittedWorkDone. The results' bits are compared first. Per round of
 * `reps` calls a side: the medians, the fastest calls and B / A (< 1: B is
 * faster). `moved`: index 0 moved to the next window (index + 2, outside
 * its own window), which sends the plain unpool to its fallback.
 */
export async function abWebGPU({ device, sides, op = 'pool', shape, rounds = 3, reps = 9, dtype = 'float32', moved = false, options = {} }) {
  const dims = shape.length - 2;
  const pool = `maxPool${dims}d`, unpool = `maxUnpool${dims}d`;
  const f32 = input(shape);
  const host = dtype === 'int32' ? { data: Int32Array.from(f32, (v) => Math.round(v * 1000)), shape }
    : dtype === 'float32' ? { data: f32, shape } : { data: halfBits(f32, dtype), shape, dtype };
  const o = { kernelSize: 2, ...options };
  // The unpool restores the input's size (k3 s2 on 16 would give 15).
  const uo = { outputSize: shape.slice(2), ...o };
  const indicesOf = async (g, p) => {
    if (!moved) return p.indices;
    const r = await p.indices.read();
    r.data[0] += typeof r.data[0] === 'bigint' ? 2n : 2;
    return g.upload({ data: r.data, shape: r.shape });
  };
  const calls = [];
  const results = [];
  for (const g of sides) {
    const x = g.upload(host);
    const p = g[pool](x, o);
    if (op === 'pool') {
      calls.push(() => g[pool](x, { ...o, out: { output: p.output, indices: p.indices } }));
      results.push([p.output, p.indices]);
      continue;
    }
    const ind = await indicesOf(g, p);
    const y = g[unpool](p.output, ind, uo);
    calls.push(() => g[unpool](p.output, ind, { ...uo, out: y }));
    results.push([p.output, ind, y]);
  }
  const bits = async (t) => {
    const r = await t.read();
    return new Uint8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength);
  };
  for (let k = 0; k < results[0].length; k++) {
    const [a, b] = [await bits(results[0][k]), await bits(results[1][k])];
    if (a.length !== b.length || a.some((v, i) => v !== b[i])) throw new Error(`--ab: result ${k} of A and B differ`);
  }
  const q = device.queue;
  for (const f of calls) for (let i = 0; i < 3; i++) { f(); await q.onSubmittedWorkDone(); }
  const out = [];
  for (let r = 0; r < rounds; r++) {
    const t = [[], []];
    for (let i = 0; i < reps; i++) {
      for (const s of (i % 2 ? [1, 0] : [0, 1])) {
        const t0 = performance.now();
        calls[s]();
        await q.onSubmittedWorkDone();
        t[s].push(performance.now() - t0);
      }
    }
    const [a, b] = t.map(median);
    const [ma, mb] = t.map((v) => Math.min(...v));
    out.push({ a, b, minA: ma, minB: mb });
  }
  return { op, shape, dtype, options: o, moved, reps, rounds: out };
}

