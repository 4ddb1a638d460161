// The WebGPU benchmark's run (`npm run bench:webgpu`, bench/js/webgpu.mjs),
// for any runtime with navigator.gpu: the Chromium page (webgpu.html), and
// Deno or Node.js 24 + the webgpu package (webgpu-headless.mjs). Side by
// side on one device, per workload and dtype: the cases of webgpu-cases.mjs
// (gpu, ort-gpu, ort-cpu, readback, copy: listed there).
//
// Every call is followed by `await device.queue.onSubmittedWorkDone()`; its
// time is the median over reps of (call + wait), as timing.mjs's runCases
// measures. Where the device has 'timestamp-query', the `ts` figures are GPU
// time between two empty timestamped compute passes submitted before and
// after the call (median of reps).
import { graphModel } from '../../tests/js/onnx-model.mjs';
import { median, runCases } from './timing.mjs';
import { U, webgpuCases } from './webgpu-cases.mjs';

/** The workloads of `npm run bench` that the issue names, k = s = 2. */
export const GPU_WORKLOADS = [
  { name: '2d 1x64x112x112', dims: 2, shape: [1, 64, 112, 112] },
  { name: '2d 8x64x56x56', dims: 2, shape: [8, 64, 56, 56] },
  { name: '3d 1x16x32x32x32', dims: 3, shape: [1, 16, 32, 32, 32] },
  { name: '1d 4x64x4096', dims: 1, shape: [4, 64, 4096] },
  { name: '2d 1x8x16x16', dims: 2, shape: [1, 8, 16, 16] },
];
export const GPU_DTYPES = ['float32', 'float16'];

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
