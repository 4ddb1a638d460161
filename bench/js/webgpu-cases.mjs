// The WebGPU benchmark's cases (webgpu-suite.mjs runs them), per workload
// and dtype, side by side on one device:
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
import { halfBits, input } from './workloads.mjs';
import { graphModel } from '../../tests/js/onnx-model.mjs';

/** GPUBufferUsage's flags (not a global outside browsers). */
export const U = { MAP_READ: 1, COPY_SRC: 4, COPY_DST: 8, STORAGE: 128, QUERY_RESOLVE: 512 };

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
