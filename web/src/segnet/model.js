// The model page's network: web/model/segnet.onnx run by unpool/onnx on
// ONNX Runtime Web (the default import: its 'wasm' and 'webgpu' (JSEP)
// execution providers). unpoolNodes 'all' makes unpool run every max pool
// and unpool, so their inputs and outputs can be fetched; on WebGPU they stay
// in GPU buffers ('gpu-buffer') and the page reads back only the planes it
// draws (Result.planes) and the labels.
import * as ort from 'onnxruntime-web';
import ortWasm from 'onnxruntime-web/ort-wasm-simd-threaded.jsep.wasm?url';
import { createSession } from 'unpool/onnx';
import modelUrl from '../../model/segnet.onnx?url';
import { SIZE } from './scenes.js';

// ORT's .wasm is an asset of the app (Vite emits it in a build). One thread:
// more need SharedArrayBuffer, which needs a cross-origin isolated page, and
// the demo is served without COOP/COEP headers.
ort.env.wasm.wasmPaths = { wasm: ortWasm };
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;

export const MODEL_URL = modelUrl;

/** The model's bytes; a clear error when they cannot be fetched. */
export async function fetchModel(url = modelUrl) {
  let res;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`the model ${url} could not be fetched: ${e.message}`);
  }
  if (!res.ok) throw new Error(`the model ${url} could not be fetched: HTTP ${res.status} ${res.statusText}`);
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * The pool/unpool stages of a session, from its steps: the k-th MaxPool
 * and the MaxUnpool that reads its indices (SegNet's switches). Each stage
 * names the five values the page shows and the pool's geometry.
 */
export function stagesOf(steps) {
  const pools = steps.filter((s) => s.kind === 'unpool' && s.op === 'MaxPool');
  const unpools = steps.filter((s) => s.kind === 'unpool' && s.op === 'MaxUnpool');
  return pools.map((p, k) => {
    const u = unpools.find((s) => s.inputs[1] === p.outputs[1]);
    if (!u) throw new Error(`the model's pool ${p.node} has no unpool that reads its indices`);
    const a = p.attributes;
    return {
      number: k + 1, pool: p.node, unpool: u.node,
      values: { encoder: p.inputs[0], pooled: p.outputs[0], switches: p.outputs[1], decoder: u.inputs[0], unpooled: u.outputs[0] },
      kernel: a.kernel_shape, stride: a.strides ?? a.kernel_shape.map(() => 1),
      pads: a.pads ?? [0, 0, 0, 0], dilation: a.dilations ?? a.kernel_shape.map(() => 1),
    };
  });
}

/** A session of the model on one backend ('wasm' or 'webgpu'), with its stages. */
export async function openModel(bytes, backend) {
  const options = backend === 'webgpu'
    ? { ort, executionProviders: ['webgpu'], unpoolNodes: 'all', preferredOutputLocation: 'gpu-buffer' }
    : { ort, executionProviders: ['wasm'], unpoolNodes: 'all' };
  const session = await createSession(bytes, options);
  return { backend, session, stages: stagesOf(session.steps) };
}

/** ORT's GPUDevice (a promise in some versions). */
const ortDevice = async () => ort.env.webgpu.device;

const BYTES = { float32: 4, int32: 4, int64: 8 };
const ARRAY = { float32: Float32Array, int32: Int32Array, int64: BigInt64Array };

/**
 * Reads byte ranges of GPU buffers: [{buffer, offset, size}] -> ArrayBuffers,
 * one staging buffer each, one submit.
 */
async function readRanges(device, ranges) {
  const staging = ranges.map((r) => device.createBuffer({
    size: r.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, label: 'segnet page read',
  }));
  const enc = device.createCommandEncoder();
  ranges.forEach((r, i) => enc.copyBufferToBuffer(r.buffer, r.offset, staging[i], 0, r.size));
  device.queue.submit([enc.finish()]);
  try {
    await Promise.all(staging.map((b) => b.mapAsync(GPUMapMode.READ)));
    return staging.map((b) => b.getMappedRange().slice(0));
  } finally {
    for (const b of staging) b.destroy();
  }
}

/**
 * One run's values. `labels` are on the host (Uint8Array, H*W); every other
 * fetched value stays where the backend put it until dispose(), and
 * planes() gives the (H, W) planes of channels of them.
 */
class Result {
  constructor(model, out, labels, ms) {
    this.model = model;
    this.backend = model.backend;
    this.out = out;
    this.labels = labels;
    this.ms = ms;
  }

  dims(name) { return this.out[name].dims; }

  /** ORT's type name of a fetched value ('float32', 'int64', ...). */
  type(name) { return this.out[name].type; }

  /** The planes [{name, channel}] as typed arrays (Float32Array or BigInt64Array), in order. */
  async planes(wanted) {
    const spec = wanted.map(({ name, channel }) => {
      const t = this.out[name];
      const [, C, H, W] = t.dims;
      if (!(channel >= 0 && channel < C)) throw new RangeError(`${name} has no channel ${channel}`);
      if (!BYTES[t.type]) throw new TypeError(`${name} is ${t.type}; the page draws float32 maps and int32 or int64 switches`);
      return { t, n: H * W, channel, bytes: BYTES[t.type], Array: ARRAY[t.type] };
    });
    if (this.backend !== 'webgpu') {
      return spec.map(({ t, n, channel }) => t.data.subarray(channel * n, (channel + 1) * n));
    }
    const device = await ortDevice();
    const raw = await readRanges(device, spec.map(({ t, n, channel, bytes }) => ({
      buffer: t.gpuBuffer, offset: channel * n * bytes, size: n * bytes,
    })));
    return raw.map((b, i) => new spec[i].Array(b));
  }

  dispose() {
    for (const t of Object.values(this.out)) t.dispose();
    this.out = {};
  }
}

/** The five values of every stage, and the labels. */
const fetchesOf = (model) => [...new Set(['labels', ...model.stages.flatMap((s) => Object.values(s.values))])];

/**
 * Runs the model on the planar float32 image `x` (1, 3, SIZE, SIZE). The
 * time is from run() to the labels on the host (on WebGPU: read back).
 */
export async function runModel(model, x) {
  const feeds = { image: new ort.Tensor('float32', x, [1, 3, SIZE, SIZE]) };
  const t0 = performance.now();
  const out = await model.session.run(feeds, fetchesOf(model));
  let data;
  try {
    data = await out.labels.getData();
  } catch (e) {
    for (const t of Object.values(out)) t.dispose();
    throw e;
  }
  const ms = performance.now() - t0;
  const labels = Uint8Array.from(data, Number);
  out.labels.dispose();
  delete out.labels;
  return new Result(model, out, labels, ms);
}
