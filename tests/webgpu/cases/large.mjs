// Calls too large for one binding or one dispatch dimension:
// - a call whose tensors pass the binding limit is split into chunks of
//   whole planes (images, channels-last), each bound at an aligned offset;
//   here with a small limit (initWebGPU's internal bindingLimit) on every
//   op, and once with a tensor past the device's real
//   maxStorageBufferBindingSize;
// - a dispatch of more than 65,535 workgroups is folded into two dimensions.
// Results equal the WebAssembly API's; a bad index in a later chunk words
// the CPU's message (positions count from the tensor's start).
import * as unpool from '../../../dist/index.js';
import { initWebGPU } from '../../../dist/webgpu/index.js';
import { rng } from '../rng.mjs';

function bits(t) {
  const d = t.data;
  if (d instanceof Float32Array || d instanceof Float64Array) {
    return Array.from(d, (v) => (Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : String(v)));
  }
  return Array.from(d, String);
}

async function agree(what, cpu, g) {
  const got = await g.read();
  const a = bits(cpu), b = bits(got);
  if (a.length !== b.length) throw new Error(`${what}: ${b.length} elements on the GPU, ${a.length} on the CPU`);
  for (let i = 0; i < a.length; ++i) {
    if (a[i] !== b[i]) throw new Error(`${what}: element ${i} is ${b[i]} on the GPU, ${a[i]} on the CPU`);
  }
}

/** A device whose bind groups are watched: did any binding start past 0 (a chunk)? */
async function watched(ctx) {
  const device = await ctx.requestDevice();
  const seen = { chunked: 0 };
  const create = device.createBindGroup.bind(device);
  device.createBindGroup = (d) => {
    if (d.entries.some((e) => (e.resource.offset ?? 0) > 0)) seen.chunked += 1;
    return create(d);
  };
  return { device, seen };
}

function values(r, dtype, n) {
  if (dtype === 'float64') return Float64Array.from({ length: n }, () => (r() < 0.05 ? NaN : Math.round(r() * 20) - 10));
  return Float32Array.from({ length: n }, () => (r() < 0.05 ? NaN : r() < 0.05 ? -0 : Math.round(r() * 20) - 10));
}

export const cases = [
  {
    name: 'every op split into chunks of planes (a 64 KiB binding limit) equals the wasm API',
    run: async (ctx) => {
      await unpool.init();
      const { device, seen } = await watched(ctx);
      const gpu = await initWebGPU({ device, bindingLimit: 65536 });
      const r = rng(7);
      for (const [layout, dtype] of [[undefined, 'float32'], ['NHWC', 'float64'], [undefined, 'float64'], ['NHWC', 'float32']]) {
        // 600 planes of 5x7: odd plane sizes, so chunks are whole multiples of the alignment.
        const n = layout ? 60 : 3, c = layout ? 10 : 200;
        const shape = layout ? [n, 5, 7, c] : [n, c, 5, 7];
        const x = { data: values(r, dtype, shape.reduce((a, b) => a * b, 1)), shape };
        const X = gpu.upload(x);
        const lo = layout ? { layout } : {};
        const options = { kernelSize: 2, stride: 2, ceilMode: true, indexType: 'int64', ...lo };
        const cpu = unpool.maxPool2d(x, options);
        const g = gpu.maxPool2d(X, options);
        await agree(`${layout ?? 'NCHW'} pool`, cpu.output, g.output);
        await agree(`${layout ?? 'NCHW'} indices`, cpu.indices, g.indices);
        const back = { kernelSize: 2, stride: 2, ceilMode: true, inputShape: shape, ...lo };
        await agree('pool backward', unpool.maxPool2dBackward(cpu.output, cpu.indices, back),
                    gpu.maxPool2dBackward(g.output, g.indices, back));
        const u = { kernelSize: 2, stride: 2, outputSize: [5, 7], ...lo };
        const ucpu = unpool.maxUnpool2d(cpu.output, cpu.indices, u);
        const ugpu = gpu.maxUnpool2d(g.output, g.indices, u);
        await agree('unpool', ucpu, ugpu);
        await agree('unpool backward', unpool.maxUnpool2dBackward(ucpu, cpu.indices, lo),
                    gpu.maxUnpool2dBackward(ugpu, g.indices, lo));
        const a = { outputSize: [3, 4], ...lo };
        const acpu = unpool.adaptiveMaxPool2d(x, a);
        const agpu = gpu.adaptiveMaxPool2d(X, a);
        await agree('adaptive', acpu.output, agpu.output);
        await agree('adaptive backward', unpool.adaptiveMaxPool2dBackward(acpu.output, acpu.indices, { inputShape: shape, ...lo }),
                    gpu.adaptiveMaxPool2dBackward(agpu.output, agpu.indices, { inputShape: shape, ...lo }));
        const conv = { from: 'pytorch', to: 'onnx', inputShape: shape, ...lo, ...(layout ? {} : { dims: 2 }) };
        await agree('convertIndices', unpool.convertIndices(cpu.indices, conv), gpu.convertIndices(g.indices, conv));
        if (!layout) {
          const samples = { data: dtype === 'float64' ? Float64Array.from({ length: n * c * 2 }, r) : Float32Array.from({ length: n * c * 2 }, r), shape: [n, c, 2] };
          const f = { kernelSize: 2, outputSize: [3, 4] };
          const fcpu = unpool.fractionalMaxPool2d(x, { ...f, randomSamples: samples });
          const fgpu = gpu.fractionalMaxPool2d(X, { ...f, randomSamples: gpu.upload(samples) });
          await agree('fractional', fcpu.indices, fgpu.indices);
          await agree('fractional backward', unpool.fractionalMaxPool2dBackward(fcpu.output, fcpu.indices, { inputShape: shape }),
                      gpu.fractionalMaxPool2dBackward(fgpu.output, fgpu.indices, { inputShape: shape }));
        }
        // A bad index in the last chunk: the CPU's message, with its position in the whole tensor.
        const bad = { data: cpu.indices.data.slice(), shape: cpu.indices.shape };
        bad.data[bad.data.length - 3] = 1000n;
        let cpuError;
        try { unpool.maxUnpool2d(cpu.output, bad, u); } catch (e) { cpuError = e; }
        let gpuError;
        try { await gpu.maxUnpool2d(g.output, gpu.upload(bad), u).read(); } catch (e) { gpuError = e; }
        if (!cpuError || gpuError?.message !== cpuError.message) {
          throw new Error(`bad index: GPU ${gpuError?.message} | CPU ${cpuError?.message}`);
        }
      }
      ctx.log(`${seen.chunked} bind groups bound a chunk past the tensors' start`);
      if (seen.chunked === 0) throw new Error('no call was split into chunks');
    },
  },
  {
    name: "a tensor past the device's maxStorageBufferBindingSize",
    run: async (ctx) => {
      await unpool.init();
      const { device, seen } = await watched(ctx);
      const gpu = await initWebGPU({ device });
      const limit = device.limits.maxStorageBufferBindingSize;
      const planeBytes = 512 * 512 * 4;
      const planes = Math.floor(limit / planeBytes) + 8;
      if (planes * planeBytes > device.limits.maxBufferSize) {
        throw new Error(`maxBufferSize ${device.limits.maxBufferSize} cannot hold ${planes * planeBytes} bytes`);
      }
      const shape = [1, planes, 512, 512];
      const data = new Float32Array(planes * 512 * 512);
      for (let i = 0; i < data.length; ++i) data[i] = ((i * 2654435761) >>> 0) % 1000 - 500;
      const x = { data, shape };
      const cpu = unpool.maxPool2d(x, { kernelSize: 2 });
      const X = gpu.upload(x);
      const g = gpu.maxPool2d(X, { kernelSize: 2 });
      X.destroy();
      await agree('pool', cpu.output, g.output);
      await agree('indices', cpu.indices, g.indices);
      ctx.log(`${planes * planeBytes} bytes in, limit ${limit}: ${seen.chunked} chunked bind groups`);
      if (seen.chunked === 0) throw new Error('the call was not split');
    },
  },
  {
    name: 'more than 65,535 workgroups: the dispatch folds into two dimensions',
    run: async (ctx) => {
      await unpool.init();
      const gpu = await initWebGPU({ device: await ctx.requestDevice() });
      // 2048 x 2100 unpooled outputs: 4.3M work items, 67,200 workgroups of 64.
      const shape = [1, 1, 1024, 1050];
      const x = { data: Float32Array.from({ length: 1024 * 1050 }, (_, i) => (i % 97) - 48), shape };
      const p = unpool.maxPool2d({ data: Float32Array.from({ length: 2048 * 2100 }, (_, i) => ((i * 7919) % 1009) - 500), shape: [1, 1, 2048, 2100] }, { kernelSize: 2 });
      const cpu = unpool.maxUnpool2d(x, p.indices, { kernelSize: 2 });
      const g = gpu.maxUnpool2d(gpu.upload(x), gpu.upload(p.indices), { kernelSize: 2 });
      await agree('unpool of 4.3M outputs', cpu, g);
    },
  },
];
