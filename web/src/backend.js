// The two backends of the demo: the WebAssembly API ('unpool'), always, and
// the WebGPU API ('unpool/webgpu'), where navigator.gpu gives an adapter.
// Each runs the pool and the unpool of the page on the same host tensor and
// gives the same result object: {pooled, out, errors, ms: {pool, unpool}},
// pooled = {OH, OW, C, layout, data, indices, tensors: {output, indices}}
// (host data, in the layout of the call: prm.layout).
import * as unpool from 'unpool';
import { initWebGPU } from 'unpool/webgpu';
import { timed } from './timing.js';
import { poolCall, unpoolCall } from './modes.js';
import { valuesOf } from './dtypes.js';
import { spatialOf, channelsOf } from './geometry.js';
import { findAdapter } from './adapter.js';

export const BACKEND_NAME = { wasm: 'WebAssembly', webgpu: 'WebGPU' };

/**
 * Looks for WebGPU: {gpu, adapter} (gpu: what initWebGPU() resolves to,
 * adapter: its name) or {reason} when there is none.
 */
export async function probeWebGPU() {
  const found = await findAdapter();
  if (!found.adapter) return found;
  try {
    const device = await found.adapter.requestDevice();
    const gpu = await initWebGPU({ device });
    return { gpu, adapter: found.name };
  } catch (e) {
    return { reason: `the WebGPU device could not be set up: ${e.message}` };
  }
}

function pooledOf(output, indices, dtype, layout) {
  const [OH, OW] = spatialOf(output.shape, layout);
  return {
    OH, OW, C: channelsOf(output.shape, layout), layout,
    data: valuesOf(output.data, dtype), indices: indices.data, tensors: { output, indices },
  };
}

function outOf(t, dtype, layout) {
  const [H, W] = spatialOf(t.shape, layout);
  return { H, W, C: channelsOf(t.shape, layout), layout, data: valuesOf(t.data, dtype), tensor: t };
}

/**
 * Pool and unpool with the WebAssembly API, synchronously. `sizeOf(shape)`
 * gives the unpool's outputSize for the pooled shape.
 */
export function runWasm(x, prm, sizeOf, dtype) {
  const r = { pooled: null, out: null, errors: [], ms: {} };
  let p;
  try {
    p = timed(() => poolCall(unpool, x, prm));
  } catch (e) {
    r.errors.push(e);
    return r;
  }
  r.ms.pool = p.ms;
  r.pooled = pooledOf(p.value.output, p.value.indices, dtype, prm.layout);
  try {
    const size = sizeOf(p.value.output.shape);
    const u = timed(() => unpoolCall(unpool, p.value, prm, size));
    r.ms.unpool = u.ms;
    r.out = outOf(u.value, dtype, prm.layout);
  } catch (e) {
    r.errors.push(e);
  }
  return r;
}

/**
 * Runs `fn` (a gpu.* call, which submits its work) once for its value, then
 * again until about 10 ms have passed: the time per call is from the call to
 * the queue's onSubmittedWorkDone, so it includes the GPU's work.
 */
async function gpuTimed(device, fn, parts) {
  const value = fn();  // also compiles the pipelines: not timed
  await device.queue.onSubmittedWorkDone();
  const t0 = performance.now();
  let runs = 0;
  do {
    const v = fn();
    await device.queue.onSubmittedWorkDone();
    for (const t of parts(v)) t.destroy();
    runs++;
  } while ((performance.now() - t0 < 10 || runs < 3) && runs < 200);
  return { value, ms: (performance.now() - t0) / runs };
}

/** Pool and unpool with the WebGPU API on `gpu`: the input is uploaded, the results read back. */
export async function runGpu(gpu, x, prm, sizeOf, dtype) {
  const r = { pooled: null, out: null, errors: [], ms: {} };
  const live = [];
  const keep = (t) => { live.push(t); return t; };
  try {
    const gx = keep(gpu.upload(x));
    // Fractional pooling is channels first only: x.shape[1] is C.
    const samples = prm.mode === 'fractional'
      ? keep(gpu.upload({ data: prm.samples, shape: [1, x.shape[1], 2] })) : undefined;
    let p;
    try {
      p = await gpuTimed(gpu.device, () => poolCall(gpu, gx, prm, samples), (v) => [v.output, v.indices]);
      keep(p.value.output);
      keep(p.value.indices);
      r.ms.pool = p.ms;
      const [output, indices] = await Promise.all([p.value.output.read(), p.value.indices.read()]);
      r.pooled = pooledOf(output, indices, dtype, prm.layout);
    } catch (e) {
      r.errors.push(e);
      return r;
    }
    try {
      const size = sizeOf(p.value.output.shape);
      const u = await gpuTimed(gpu.device, () => unpoolCall(gpu, p.value, prm, size), (v) => [v]);
      keep(u.value);
      r.ms.unpool = u.ms;
      r.out = outOf(await u.value.read(), dtype, prm.layout);
    } catch (e) {
      r.errors.push(e);
    }
    return r;
  } finally {
    for (const t of live) t.destroy();
  }
}

/** Bits of a typed array as unsigned integers (so NaN payloads and -0 compare too). */
function bits(data) {
  if (data instanceof Float32Array) return new Uint32Array(data.buffer, data.byteOffset, data.length);
  if (data instanceof Float64Array) return new BigUint64Array(data.buffer, data.byteOffset, data.length);
  return data;
}

function sameArray(a, b) {
  if (!a || !b) return a === b;
  if (a.constructor !== b.constructor || a.length !== b.length) return false;
  const x = bits(a);
  const y = bits(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** Whether two results have the same shapes, bits, index arrays and error messages. */
export function sameResults(a, b) {
  const shape = (t) => JSON.stringify(t?.shape);
  const msgs = (r) => JSON.stringify(r.errors.map((e) => `${e.name}: ${e.message}`));
  return msgs(a) === msgs(b) &&
    shape(a.pooled?.tensors.output) === shape(b.pooled?.tensors.output) &&
    sameArray(a.pooled?.tensors.output.data, b.pooled?.tensors.output.data) &&
    sameArray(a.pooled?.tensors.indices.data, b.pooled?.tensors.indices.data) &&
    shape(a.out?.tensor) === shape(b.out?.tensor) &&
    sameArray(a.out?.tensor.data, b.out?.tensor.data);
}
