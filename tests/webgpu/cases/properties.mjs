// Property tests: random tensors through unpool/webgpu and the WebAssembly
// API, bits equal. Values mix NaN, ±0, subnormals, ±inf, ties and runs of
// -inf; windows overlap, pad, dilate and take ceilMode; both layouts, every
// value dtype, both index types; unpool indices include duplicates (and
// indices outside their windows for the pool backward pass). A seeded
// generator, so a failure prints what reproduces it.
import * as unpool from '../../../dist/index.js';
import { initWebGPU } from '../../../dist/webgpu/index.js';
import { rng } from '../rng.mjs';

const SPECIAL32 = [NaN, -0, 0, Infinity, -Infinity, 1e-45, -1e-45, 1.1754942e-38, 3.4028235e38, 1, 1, -1];

/** Random values of `dtype` (16-bit ones as bits with their dtype). */
function valuesOf(r, dtype, n) {
  const pick = () => {
    const u = r();
    if (u < 0.3) return SPECIAL32[Math.floor(r() * SPECIAL32.length)];
    if (u < 0.5) return Math.floor(r() * 4) - 2;  // ties
    return (r() - 0.5) * 10 ** Math.floor(r() * 8 - 4);
  };
  if (dtype === 'float32') return { data: Float32Array.from({ length: n }, pick) };
  if (dtype === 'float64') return { data: Float64Array.from({ length: n }, () => (r() < 0.05 ? 5e-324 : pick())) };
  // 16-bit: raw bits, a quarter of them special patterns.
  const specials = dtype === 'float16' ? [0x7e00, 0xfc00, 0x7c00, 0x8000, 0, 0x0001, 0x8001, 0x7bff, 0xfe01]
    : [0x7fc0, 0xff80, 0x7f80, 0x8000, 0, 0x0001, 0x8001, 0x7f7f, 0xffc1];
  return {
    data: Uint16Array.from({ length: n }, () => (r() < 0.25 ? specials[Math.floor(r() * specials.length)]
      : (Math.floor(r() * 0x10000) & (r() < 0.5 ? 0xbfff : 0xffff)))),
    dtype,
  };
}

const DTYPES = ['float32', 'float64', 'float16', 'bfloat16'];
const F16 = globalThis.Float16Array;

function bits(t) {
  const d = t.data;
  const out = [];
  if (d instanceof Float32Array || d instanceof Float64Array) {
    for (const v of d) out.push(Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : String(v));
  } else if (d instanceof Uint16Array || (F16 && d instanceof F16)) {
    const b = new Uint16Array(d.buffer, d.byteOffset, d.length);
    const nan = t.dtype === 'bfloat16' ? 0x7f80 : 0x7c00;
    for (const v of b) out.push((v & 0x7fff) > nan ? 'NaN' : String(v));
  } else {
    for (const v of d) out.push(String(v));
  }
  return out;
}

async function agree(what, cpu, gpuTensor) {
  const got = await gpuTensor.read();
  const a = bits(cpu), b = bits(got);
  if (JSON.stringify(cpu.shape) !== JSON.stringify(got.shape)) {
    throw new Error(`${what}: shape ${JSON.stringify(got.shape)} on the GPU, ${JSON.stringify(cpu.shape)} on the CPU`);
  }
  if (got.data.constructor !== cpu.data.constructor) {
    throw new Error(`${what}: ${got.data.constructor.name} on the GPU, ${cpu.data.constructor.name} on the CPU`);
  }
  const i = a.findIndex((v, k) => v !== b[k]);
  if (i >= 0) throw new Error(`${what}: element ${i} is ${b[i]} on the GPU, ${a[i]} on the CPU`);
}

async function trials(ctx, count, seed, body, options = {}) {
  await unpool.init();
  const gpu = await initWebGPU({ device: await ctx.requestDevice(), ...options });
  for (let t = 0; t < count; ++t) {
    const r = rng(seed + t);
    try {
      await body(r, gpu);
    } catch (e) {
      throw new Error(`seed ${seed + t}: ${e.message}`);
    }
  }
  ctx.log(`${count} random trials agree`);
}

function poolCase(r) {
  const dims = 1 + Math.floor(r() * 3);
  const dtype = DTYPES[Math.floor(r() * 4)];
  const layoutLast = r() < 0.4;
  const n = 1 + Math.floor(r() * 2), c = 1 + Math.floor(r() * 3);
  const kernel = [], stride = [], padding = [], dilation = [], spatial = [];
  for (let i = 0; i < dims; ++i) {
    const k = 1 + Math.floor(r() * 3);
    const d = r() < 0.2 ? 2 : 1;
    kernel.push(k); dilation.push(d);
    stride.push(1 + Math.floor(r() * 3));
    padding.push(Math.floor(r() * (Math.floor(k / 2) + 1)));
    spatial.push((k - 1) * d + 1 + Math.floor(r() * (dims === 3 ? 4 : 8)));
  }
  const shape = layoutLast ? [n, ...spatial, c] : [n, c, ...spatial];
  const layout = layoutLast ? ['NLC', 'NHWC', 'NDHWC'][dims - 1] : undefined;
  const x = { ...valuesOf(r, dtype, shape.reduce((a, b) => a * b, 1)), shape };
  const options = {
    kernelSize: kernel, stride, padding, dilation, ceilMode: r() < 0.5,
    indexType: r() < 0.5 ? 'int64' : 'int32', ...(layout ? { layout } : {}),
  };
  return { dims, dtype, x, options, layout };
}

export const cases = [
  {
    name: 'max pool, its backward pass, unpool and unpool backward: random geometry, values, layouts',
    run: (ctx) => trials(ctx, 40, 1000, async (r, gpu) => {
      const { dims, x, options, layout } = poolCase(r);
      const X = gpu.upload(x);
      const cpu = unpool[`maxPool${dims}d`](x, options);
      const g = gpu[`maxPool${dims}d`](X, options);
      await agree('pool output', cpu.output, g.output);
      await agree('pool indices', cpu.indices, g.indices);
      const grad = { ...valuesOf(r, x.dtype ?? (x.data instanceof Float32Array ? 'float32' : 'float64'), cpu.output.data.length), shape: cpu.output.shape };
      if (x.dtype) grad.dtype = x.dtype;
      const back = { ...options, inputShape: x.shape };
      delete back.indexType;
      await agree('pool backward', unpool[`maxPool${dims}dBackward`](grad, cpu.indices, back),
                  gpu[`maxPool${dims}dBackward`](gpu.upload(grad), g.indices, back));
      const uopts = { kernelSize: options.kernelSize, stride: options.stride, padding: options.padding,
                      ...(layout ? { layout } : {}) };
      let ucpu;
      try { ucpu = unpool[`maxUnpool${dims}d`](cpu.output, cpu.indices, uopts); } catch { return; }
      const ugpu = gpu[`maxUnpool${dims}d`](g.output, g.indices, uopts);
      await agree('unpool', ucpu, ugpu);
      await agree('unpool backward', unpool[`maxUnpool${dims}dBackward`](ucpu, cpu.indices, layout ? { layout } : undefined),
                  gpu[`maxUnpool${dims}dBackward`](ugpu, g.indices, layout ? { layout } : undefined));
    }),
  },
  {
    name: 'duplicate and arbitrary indices: unpool (later position wins) and pool backward (scan order)',
    run: (ctx) => trials(ctx, 30, 2000, async (r, gpu) => {
      const { dims, x, options, layout } = poolCase(r);
      const cpu = unpool[`maxPool${dims}d`](x, options);
      const spatial = layout ? x.shape.slice(1, -1) : x.shape.slice(2);
      const plane = spatial.reduce((a, b) => a * b, 1);
      // Indices anywhere in the plane, many repeated.
      const k = Math.max(1, Math.floor(r() * 4));
      const raw = Array.from(cpu.indices.data, () => Math.floor(r() * Math.min(plane, k * 2)));
      const indices = { data: options.indexType === 'int64' ? BigInt64Array.from(raw, BigInt) : Int32Array.from(raw),
                        shape: cpu.indices.shape };
      const I = gpu.upload(indices);
      const Y = gpu.upload(cpu.output);
      const outputSize = spatial;
      const uopts = { outputSize, ...(layout ? { layout } : {}) };
      await agree('unpool (kernel-free)', unpool[`maxUnpool${dims}d`](cpu.output, indices, uopts),
                  gpu[`maxUnpool${dims}d`](Y, I, uopts));
      const back = { ...options, inputShape: x.shape };
      delete back.indexType;
      await agree('pool backward, arbitrary indices', unpool[`maxPool${dims}dBackward`](cpu.output, indices, back),
                  gpu[`maxPool${dims}dBackward`](Y, I, back));
    }),
  },
  {
    name: 'adaptive pool and its backward pass: random sizes, both layouts',
    run: (ctx) => trials(ctx, 30, 3000, async (r, gpu) => {
      const { dims, x, layout } = poolCase(r);
      const spatial = layout ? x.shape.slice(1, -1) : x.shape.slice(2);
      const outputSize = spatial.map((s) => 1 + Math.floor(r() * (s + 2)));
      const indexType = r() < 0.5 ? 'int64' : 'int32';
      const aopts = { outputSize, indexType, ...(layout ? { layout } : {}) };
      const cpu = unpool[`adaptiveMaxPool${dims}d`](x, aopts);
      const g = gpu[`adaptiveMaxPool${dims}d`](gpu.upload(x), aopts);
      await agree('adaptive output', cpu.output, g.output);
      await agree('adaptive indices', cpu.indices, g.indices);
      const bopts = { inputShape: x.shape, ...(layout ? { layout } : {}) };
      await agree('adaptive backward', unpool[`adaptiveMaxPool${dims}dBackward`](cpu.output, cpu.indices, bopts),
                  gpu[`adaptiveMaxPool${dims}dBackward`](g.output, g.indices, bopts));
    }),
  },
  {
    name: 'fractional pool and its backward pass: random sizes and samples (some near 1)',
    run: (ctx) => {
      let runs = 0;
      return trials(ctx, 30, 4000, async (r, gpu) => {
        const dims = 2 + Math.floor(r() * 2);
        const dtype = r() < 0.5 ? 'float32' : 'float64';
        const k = 1 + Math.floor(r() * 2);
        const spatial = Array.from({ length: dims }, () => k + 2 + Math.floor(r() * 6));
        const shape = [1 + Math.floor(r() * 2), 1 + Math.floor(r() * 2), ...spatial];
        const x = { ...valuesOf(r, dtype, shape.reduce((a, b) => a * b, 1)), shape };
        // The size rule: out + k - 1 <= in in 2d, < in in 3d.
        const fsize = spatial.map((s) => 1 + Math.floor(r() * (s - k - (dims === 3 ? 1 : 0))));
        const Arr = dtype === 'float64' ? Float64Array : Float32Array;
        const samples = { data: Arr.from({ length: shape[0] * shape[1] * dims }, () => (r() < 0.15 ? 0.99999994 : r())),
                          shape: [shape[0], shape[1], dims] };
        const fopts = { kernelSize: k, outputSize: fsize, indexType: r() < 0.5 ? 'int64' : 'int32' };
        const fc = unpool[`fractionalMaxPool${dims}d`](x, { ...fopts, randomSamples: samples });
        const fg = gpu[`fractionalMaxPool${dims}d`](gpu.upload(x), { ...fopts, randomSamples: gpu.upload(samples) });
        runs += 1;
        await agree('fractional output', fc.output, fg.output);
        await agree('fractional indices', fc.indices, fg.indices);
        await agree('fractional backward', unpool[`fractionalMaxPool${dims}dBackward`](fc.output, fc.indices, { inputShape: shape }),
                    gpu[`fractionalMaxPool${dims}dBackward`](fg.output, fg.indices, { inputShape: shape }));
      }).then(() => {
        if (runs !== 30) throw new Error(`${runs} of 30 fractional trials ran`);
      });
    },
  },
  {
    name: 'convertIndices: every pair of formats, both layouts and index types; bad indices word the CPU error',
    run: (ctx) => trials(ctx, 40, 5000, async (r, gpu) => {
      const formats = ['pytorch', 'onnx', 'onnx-column-major', 'tensorflow', 'tensorflow-with-batch'];
      const dims = 1 + Math.floor(r() * 3);
      const last = r() < 0.4;
      const n = 1 + Math.floor(r() * 2), c = 1 + Math.floor(r() * 3);
      const spatial = Array.from({ length: dims }, () => 1 + Math.floor(r() * 5));
      const inputShape = last ? [n, ...spatial, c] : [n, c, ...spatial];
      const layout = last ? ['NLC', 'NHWC', 'NDHWC'][dims - 1] : undefined;
      const pooled = spatial.map((s) => 1 + Math.floor(r() * s));
      const shape = last ? [n, ...pooled, c] : [n, c, ...pooled];
      const plane = spatial.reduce((a, b) => a * b, 1);
      // PyTorch indices, converted on the CPU into the source format.
      const pt = Int32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => Math.floor(r() * plane));
      const from = formats[Math.floor(r() * 5)], to = formats[Math.floor(r() * 5)];
      const common = { inputShape, ...(layout ? { layout } : { dims }) };
      const type = r() < 0.5 ? 'int64' : 'int32';
      const src = unpool.convertIndices({ data: pt, shape }, { ...common, from: 'pytorch', to: from, indexType: type });
      // Now and then one bad index (or per-plane indices given as another format).
      const data = src.data.slice();
      const mode = r();
      if (mode < 0.2) data[Math.floor(r() * data.length)] = type === 'int64' ? -3n : -3;
      const given = mode > 0.9 ? { data: type === 'int64' ? BigInt64Array.from(pt, BigInt) : pt, shape } : { data, shape };
      const indexType = r() < 0.5 ? undefined : r() < 0.5 ? 'int32' : 'int64';
      const options = { ...common, from, to, ...(indexType ? { indexType } : {}) };
      let cpu, cpuError;
      try { cpu = unpool.convertIndices(given, options); } catch (e) { cpuError = e; }
      const g = gpu.convertIndices(gpu.upload(given), options);
      if (cpuError) {
        let gpuError;
        try { await g.read(); } catch (e) { gpuError = e; }
        if (gpuError?.message !== cpuError.message || gpuError?.code !== cpuError.code) {
          throw new Error(`error: GPU ${gpuError?.message} | CPU ${cpuError.message}`);
        }
        return;
      }
      await agree(`convertIndices ${from} -> ${to}`, cpu, g);
    }),
  },
  {
    name: 'integer values (uint8, Uint8ClampedArray, int8, int16, int32, int64): pool, unpool, backward, adaptive',
    run: (ctx) => trials(ctx, 40, 6000, async (r, gpu) => {
      const kinds = [
        ['uint8', Uint8Array, 0, 255], ['uint8c', Uint8ClampedArray, 0, 255], ['int8', Int8Array, -128, 127],
        ['int16', Int16Array, -32768, 32767], ['int32', Int32Array, -(2 ** 31), 2 ** 31 - 1],
        ['int64', BigInt64Array, -(2n ** 63n), 2n ** 63n - 1n],
      ];
      const [, Cls, lo, hi] = kinds[Math.floor(r() * kinds.length)];
      const { dims, x: fx, options, layout } = poolCase(r);
      const n = fx.shape.reduce((a, b) => a * b, 1);
      // Few distinct values (many ties), and the type's extremes.
      const pick = () => {
        const u = r();
        if (u < 0.15) return lo;
        if (u < 0.3) return hi;
        const v = Math.floor(r() * 5) - 2;
        return typeof lo === 'bigint' ? BigInt(v) : Cls === Uint8Array || Cls === Uint8ClampedArray ? v + 2 : v;
      };
      const x = { data: Cls.from({ length: n }, pick), shape: fx.shape };
      const X = gpu.upload(x);
      const cpu = unpool[`maxPool${dims}d`](x, options);
      const g = gpu[`maxPool${dims}d`](X, options);
      await agree('integer pool output', cpu.output, g.output);
      await agree('integer pool indices', cpu.indices, g.indices);
      const lo2 = layout ? { layout } : {};
      const u = { kernelSize: options.kernelSize, stride: options.stride, padding: options.padding, ...lo2 };
      let ucpu;
      try { ucpu = unpool[`maxUnpool${dims}d`](cpu.output, cpu.indices, u); } catch { return; }
      const ugpu = gpu[`maxUnpool${dims}d`](g.output, g.indices, u);
      await agree('integer unpool', ucpu, ugpu);
      await agree('integer unpool backward', unpool[`maxUnpool${dims}dBackward`](ucpu, cpu.indices, layout ? { layout } : undefined),
                  gpu[`maxUnpool${dims}dBackward`](ugpu, g.indices, layout ? { layout } : undefined));
      const spatial = layout ? x.shape.slice(1, -1) : x.shape.slice(2);
      const a = { outputSize: spatial.map((s) => 1 + Math.floor(r() * (s + 1))), ...lo2 };
      const acpu = unpool[`adaptiveMaxPool${dims}d`](x, a);
      const agpu = gpu[`adaptiveMaxPool${dims}d`](X, a);
      await agree('integer adaptive', acpu.output, agpu.output);
      await agree('integer adaptive indices', acpu.indices, agpu.indices);
    }),
  },
  {
    name: 'empty batches (N = 0): every op, forward and backward, both layouts, every dtype: the WebAssembly API\'s outcome',
    run: async (ctx) => {
      await unpool.init();
      // Only the batch dim may be 0 (the core refuses any other empty dim,
      // on both paths); such a call has nothing to run on the GPU: no
      // dispatch of zero workgroups, no binding of zero bytes (the harness
      // fails a case on any validation error of its device).
      const gpu = await initWebGPU({ device: ctx.device });
      const CLS = {
        float32: Float32Array, float64: Float64Array, float16: Uint16Array, bfloat16: Uint16Array, uint8: Uint8Array,
        int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array,
      };
      const host = (dtype, shape) => ({
        data: new CLS[dtype](0), shape, ...(dtype === 'float16' || dtype === 'bfloat16' ? { dtype } : {}),
      });
      const idx = (type, shape) => ({ data: type === 'int64' ? new BigInt64Array(0) : new Int32Array(0), shape });
      let calls = 0;
      /**
       * One call on both paths, its tensors as WasmTensors and GpuTensors:
       * equal results, or equal errors (a message that names the tensor's
       * class names the GpuTensor where the WebAssembly API names the
       * WasmTensor, the rest word for word).
       */
      const both = async (what, name, args) => {
        const put = (a, upload) => (a && a.data && a.shape ? upload(a) : a);
        const on = (upload) => args.map((a) => {
          if (a && typeof a === 'object' && !a.data) {
            return Object.fromEntries(Object.entries(a).map(([k, v]) => [k, k === 'randomSamples' ? put(v, upload) : v]));
          }
          return put(a, upload);
        });
        // convertIndices takes host arrays only on the WebAssembly API.
        const resident = name === 'convertIndices' ? args : on(unpool.uploadTensor);
        let cpu, cpuError, g, gpuError;
        try { cpu = name === 'convertIndices' ? unpool.convertIndices(...resident) : unpool[name](...resident); } catch (e) { cpuError = e; }
        try { g = gpu[name](...on(gpu.upload)); } catch (e) { gpuError = e; }
        calls += 1;
        if (cpuError || gpuError) {
          if (cpuError?.constructor !== gpuError?.constructor ||
              cpuError?.message.replaceAll('WasmTensor', 'GpuTensor') !== gpuError?.message) {
            throw new Error(`${what}: CPU ${cpuError ?? 'a result'} | GPU ${gpuError ?? 'a result'}`);
          }
          return;
        }
        if (cpu.output) {
          await agree(`${what} output`, cpu.output, g.output);
          await agree(`${what} indices`, cpu.indices, g.indices);
        } else {
          await agree(what, cpu, g);
        }
      };
      const dtypes = Object.keys(CLS);
      for (const dims of [1, 2, 3]) {
        for (const last of [false, true]) {
          const layout = last ? ['NLC', 'NHWC', 'NDHWC'][dims - 1] : undefined;
          const lo = layout ? { layout } : {};
          const shapeOf = (s) => (last ? [0, ...Array(dims).fill(s), 3] : [0, 3, ...Array(dims).fill(s)]);
          const xs = shapeOf(4), ys = shapeOf(2);
          for (const dtype of dtypes) {
            for (const indexType of ['int32', 'int64']) {
              const w = `${dims}d ${layout ?? 'NC*'} ${dtype} ${indexType}`;
              const x = host(dtype, xs), y = host(dtype, ys), i = idx(indexType, ys);
              await both(`${w} maxPool`, `maxPool${dims}d`, [x, { kernelSize: 2, indexType, ...lo }]);
              await both(`${w} maxUnpool`, `maxUnpool${dims}d`, [y, i, { kernelSize: 2, ...lo }]);
              await both(`${w} maxUnpool (kernel-free)`, `maxUnpool${dims}d`, [y, i, { outputSize: Array(dims).fill(5), ...lo }]);
              await both(`${w} adaptiveMaxPool`, `adaptiveMaxPool${dims}d`, [x, { outputSize: 2, indexType, ...lo }]);
              // The backward passes refuse integer gradients on both paths.
              await both(`${w} maxPoolBackward`, `maxPool${dims}dBackward`, [y, i, { kernelSize: 2, inputShape: xs, ...lo }]);
              await both(`${w} maxUnpoolBackward`, `maxUnpool${dims}dBackward`, [x, i, { ...lo }]);
              await both(`${w} adaptiveMaxPoolBackward`, `adaptiveMaxPool${dims}dBackward`, [y, i, { inputShape: xs, ...lo }]);
              await both(`${w} convertIndices`, 'convertIndices',
                         [i, { from: 'pytorch', to: 'onnx', inputShape: xs, indexType, ...(layout ? lo : { dims }) }]);
              if (dims === 1 || last) continue;
              const samples = host(dtype, [0, 3, dims]);
              const f = { kernelSize: 2, outputSize: 2, indexType };
              await both(`${w} fractionalMaxPool`, `fractionalMaxPool${dims}d`, [x, { ...f, randomSamples: samples }]);
              await both(`${w} fractionalMaxPool (drawn samples)`, `fractionalMaxPool${dims}d`, [x, f]);
              await both(`${w} fractionalMaxPoolBackward`, `fractionalMaxPool${dims}dBackward`, [y, i, { inputShape: xs }]);
            }
          }
        }
      }
      // `out` tensors of zero elements.
      const X = gpu.upload(host('float32', [0, 2, 4, 4]));
      const out = { output: gpu.upload(host('float32', [0, 2, 2, 2])), indices: gpu.upload(idx('int32', [0, 2, 2, 2])) };
      const r = gpu.maxPool2d(X, { kernelSize: 2, out });
      if (r.output !== out.output || r.indices !== out.indices) throw new Error('out: not the given tensors');
      await agree('out', unpool.maxPool2d(host('float32', [0, 2, 4, 4]), { kernelSize: 2 }).output, r.output);
      ctx.log(`${calls} calls with an empty batch agree`);
    },
  },
];
