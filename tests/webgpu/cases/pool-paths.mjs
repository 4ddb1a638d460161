// The max pool's two paths (pool.wgsl): outputs whose window lies wholly
// inside the input take the interior path when the pipeline is specialised
// for the kernel (every kernel dim at most 4: device.ts's tapCounts()), the
// others (padding, ceil_mode clipping) and every output of a larger kernel
// the general loop. Each trial's tensor has both kinds of output, or a
// kernel of 4, 5 or 6 along some dim (the last specialised one, and two
// that are not); values of every dtype with NaN, ±0, subnormals, ±inf,
// ties and the type's extremes; both layouts and index types. Bits equal
// the WebAssembly API's.
//
// And max unpool's two paths (unpool.wgsl): with disjoint windows (stride
// >= kernel) and 32- or 64-bit values, a plain scatter over a cleared
// output, which falls back to the scatter + gather when an index is not in
// its own window (elsewhere in the plane, a duplicate, outside the plane).
import * as unpool from '../../../dist/index.js';
import { initWebGPU } from '../../../dist/webgpu/index.js';
import { rng } from '../rng.mjs';

const SPECIAL32 = [NaN, -0, 0, Infinity, -Infinity, 1e-45, -1e-45, 1.1754942e-38, 3.4028235e38, -3.4028235e38, 1, -1];
const DTYPES = ['float32', 'float64', 'float16', 'bfloat16', 'uint8', 'int8', 'int16', 'int32', 'int64'];
const INTS = { uint8: [Uint8Array, 0, 255], int8: [Int8Array, -128, 127], int16: [Int16Array, -32768, 32767],
  int32: [Int32Array, -(2 ** 31), 2 ** 31 - 1], int64: [BigInt64Array, -(2n ** 63n), 2n ** 63n - 1n] };

function values(r, dtype, n) {
  const small = () => Math.floor(r() * 5) - 2;  // ties
  if (dtype === 'float32' || dtype === 'float64') {
    const Cls = dtype === 'float32' ? Float32Array : Float64Array;
    return { data: Cls.from({ length: n }, () => {
      const u = r();
      if (u < 0.3) return SPECIAL32[Math.floor(r() * SPECIAL32.length)];
      if (u < 0.6) return small();
      return (r() - 0.5) * 10 ** Math.floor(r() * 8 - 4);
    }) };
  }
  if (dtype === 'float16' || dtype === 'bfloat16') {
    const specials = dtype === 'float16' ? [0x7e00, 0xfc00, 0x7c00, 0x8000, 0, 0x0001, 0x8001, 0x7bff, 0xfbff]
      : [0x7fc0, 0xff80, 0x7f80, 0x8000, 0, 0x0001, 0x8001, 0x7f7f, 0xff7f];
    return { data: Uint16Array.from({ length: n }, () => (r() < 0.3 ? specials[Math.floor(r() * specials.length)]
      : Math.floor(r() * 0x10000) & (r() < 0.5 ? 0xbfff : 0xffff))), dtype };
  }
  const [Cls, lo, hi] = INTS[dtype];
  return { data: Cls.from({ length: n }, () => {
    const u = r();
    const v = u < 0.15 ? lo : u < 0.3 ? hi : (dtype === 'uint8' ? 2 : 0) + small();
    return typeof lo === 'bigint' ? BigInt(v) : v;
  }) };
}

function bits(t) {
  const d = t.data;
  if (d instanceof Float32Array || d instanceof Float64Array) {
    return Array.from(d, (v) => (Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : String(v)));
  }
  if (d instanceof Uint16Array || (globalThis.Float16Array && d instanceof globalThis.Float16Array)) {
    const b = new Uint16Array(d.buffer, d.byteOffset, d.length);
    const nan = t.dtype === 'bfloat16' ? 0x7f80 : 0x7c00;
    return Array.from(b, (v) => ((v & 0x7fff) > nan ? 'NaN' : String(v)));
  }
  return Array.from(d, String);
}

async function agree(what, cpu, g) {
  const got = await g.read();
  const a = bits(cpu), b = bits(got);
  if (a.length !== b.length) throw new Error(`${what}: ${b.length} elements on the GPU, ${a.length} on the CPU`);
  const i = a.findIndex((v, k) => v !== b[k]);
  if (i >= 0) throw new Error(`${what}: element ${i} is ${b[i]} on the GPU, ${a[i]} on the CPU`);
}

/** A geometry with interior and edge outputs, or a kernel of 4 to 6 along one dim. */
function geometry(r) {
  const dims = 1 + Math.floor(r() * 3);
  const big = r() < 0.4 ? Math.floor(r() * dims) : -1;
  const kernel = [], stride = [], padding = [], dilation = [], spatial = [];
  for (let i = 0; i < dims; ++i) {
    const k = i === big ? 4 + Math.floor(r() * 3) : 1 + Math.floor(r() * (dims === 3 ? 3 : 4));
    const d = r() < 0.25 ? 2 : 1;
    kernel.push(k); dilation.push(d);
    stride.push(1 + Math.floor(r() * 3));
    padding.push(Math.floor(r() * (Math.floor(k / 2) + 1)));
    // Room for several windows, so most outputs are interior.
    spatial.push((k - 1) * d + 1 + Math.floor(r() * (dims === 3 ? 5 : 12)));
  }
  return { dims, kernel, stride, padding, dilation, spatial };
}

export const cases = [
  {
    name: 'max pool: interior and edge outputs, kernels 1-6, every dtype, both layouts and index types',
    run: async (ctx) => {
      await unpool.init();
      const gpu = await initWebGPU({ device: await ctx.requestDevice() });
      const count = 60;
      for (let t = 0; t < count; ++t) {
        const seed = 9000 + t;
        const r = rng(seed);
        try {
          const { dims, kernel, stride, padding, dilation, spatial } = geometry(r);
          const dtype = DTYPES[t % DTYPES.length];
          const last = r() < 0.4;
          const n = 1 + Math.floor(r() * 2), c = 1 + Math.floor(r() * 3);
          const shape = last ? [n, ...spatial, c] : [n, c, ...spatial];
          const x = { ...values(r, dtype, shape.reduce((a, b) => a * b, 1)), shape };
          const options = {
            kernelSize: kernel, stride, padding, dilation, ceilMode: r() < 0.5,
            indexType: r() < 0.5 ? 'int64' : 'int32', ...(last ? { layout: ['NLC', 'NHWC', 'NDHWC'][dims - 1] } : {}),
          };
          const cpu = unpool[`maxPool${dims}d`](x, options);
          const X = gpu.upload(x);
          const g = gpu[`maxPool${dims}d`](X, options);
          await agree(`pool output (${dtype}, ${JSON.stringify(options)})`, cpu.output, g.output);
          await agree(`pool indices (${dtype}, ${JSON.stringify(options)})`, cpu.indices, g.indices);
          X.destroy(); g.output.destroy(); g.indices.destroy();
        } catch (e) {
          throw new Error(`seed ${seed}: ${e.message}`);
        }
      }
      ctx.log(`${count} random trials agree`);
    },
  },
  {
    name: 'max pool k2s2 with no edge (every output interior): NaN, ties and ±0 at each tap',
    run: async (ctx) => {
      await unpool.init();
      const gpu = await initWebGPU({ device: await ctx.requestDevice() });
      // Every 2x2 window of the 4 taps from a small alphabet, so each tap
      // position holds the first maximum, the last NaN, a ±0 tie, ... somewhere.
      const alphabet = [NaN, -0, 0, 1, -Infinity, 1e-45];
      const windows = alphabet.length ** 4;
      const side = Math.ceil(Math.sqrt(windows));
      const shape = [1, 1, 2 * side, 2 * side];
      for (const [dtype, Cls] of [['float32', Float32Array], ['float64', Float64Array]]) {
        const data = new Cls(4 * side * side).fill(-Infinity);
        for (let w = 0; w < windows; ++w) {
          const oh = Math.floor(w / side), ow = w % side;
          for (let tap = 0, k = w; tap < 4; ++tap, k = Math.floor(k / alphabet.length)) {
            data[(2 * oh + (tap >> 1)) * 2 * side + 2 * ow + (tap & 1)] = alphabet[k % alphabet.length];
          }
        }
        for (const indexType of ['int32', 'int64']) {
          const x = { data, shape };
          const cpu = unpool.maxPool2d(x, { kernelSize: 2, indexType });
          const X = gpu.upload(x);
          const g = gpu.maxPool2d(X, { kernelSize: 2, indexType });
          await agree(`${dtype} ${indexType} output`, cpu.output, g.output);
          await agree(`${dtype} ${indexType} indices`, cpu.indices, g.indices);
          X.destroy(); g.output.destroy(); g.indices.destroy();
        }
      }
      ctx.log(`${windows} windows agree`);
    },
  },
  {
    name: 'max unpool, disjoint windows: the plain scatter, and its fallback (index elsewhere, duplicate, outside the plane)',
    run: async (ctx) => {
      await unpool.init();
      const gpu = await initWebGPU({ device: await ctx.requestDevice() });
      const count = 48;
      let fellBack = 0, errors = 0;
      for (let t = 0; t < count; ++t) {
        const seed = 9500 + t;
        const r = rng(seed);
        try {
          const dims = 1 + Math.floor(r() * 3);
          const dtype = ['float32', 'float64', 'int32', 'int64', 'float16', 'uint8'][t % 6];
          const kernel = [], stride = [], padding = [], spatial = [];
          for (let i = 0; i < dims; ++i) {
            const k = 1 + Math.floor(r() * 3);
            kernel.push(k);
            stride.push(k + Math.floor(r() * 2));
            padding.push(Math.floor(r() * (Math.floor(k / 2) + 1)));
            spatial.push(k + Math.floor(r() * (dims === 3 ? 5 : 10)));
          }
          const last = r() < 0.4;
          const n = 1 + Math.floor(r() * 2), c = 1 + Math.floor(r() * 3);
          const shape = last ? [n, ...spatial, c] : [n, c, ...spatial];
          const lo = last ? { layout: ['NLC', 'NHWC', 'NDHWC'][dims - 1] } : {};
          const indexType = r() < 0.5 ? 'int64' : 'int32';
          const x = { ...values(r, dtype, shape.reduce((a, b) => a * b, 1)), shape };
          const pooled = unpool[`maxPool${dims}d`](x, { kernelSize: kernel, stride, padding, indexType, ...lo });
          const idx = pooled.indices.data.slice();
          const plane = spatial.reduce((a, b) => a * b, 1);
          // 0: as pooled (every index in its own window); 1: one elsewhere in
          // the plane; 2: one a duplicate of another's; 3: one outside the plane.
          const mode = t % 4;
          const at = Math.floor(r() * idx.length);
          const big = typeof idx[0] === 'bigint';
          if (mode === 1) idx[at] = big ? BigInt(Math.floor(r() * plane)) : Math.floor(r() * plane);
          if (mode === 2) idx[at] = idx[Math.floor(r() * idx.length)];
          if (mode === 3) idx[at] = big ? BigInt(plane + 3) : -2;
          const options = { kernelSize: kernel, stride, padding, ...lo };
          const indices = { data: idx, shape: pooled.indices.shape };
          let cpu, cpuError;
          try { cpu = unpool[`maxUnpool${dims}d`](pooled.output, indices, options); } catch (e) { cpuError = e; }
          const P = gpu.upload(pooled.output);
          const I = gpu.upload(indices);
          // A shape error is thrown at the call (both APIs); a bad index at read().
          let g, thrown;
          try { g = gpu[`maxUnpool${dims}d`](P, I, options); } catch (e) { thrown = e; }
          if (cpuError) {
            if (!thrown) errors += 1;
            const got = thrown ?? await g.read().then(() => undefined, (e) => e);
            if (!got || got.message !== cpuError.message || got.code !== cpuError.code) {
              throw new Error(`expected ${cpuError.code} "${cpuError.message}", got ${got ? `${got.code} "${got.message}"` : 'no error'}`);
            }
          } else {
            if (mode !== 0) fellBack += 1;
            await agree(`unpool (${dtype}, mode ${mode}, ${JSON.stringify({ ...options, indexType })})`, cpu, g);
          }
          P.destroy(); I.destroy(); g?.destroy();
        } catch (e) {
          throw new Error(`seed ${seed}: ${e.message}`);
        }
      }
      if (errors === 0 || fellBack === 0) throw new Error(`the trials reached ${errors} errors and ${fellBack} fallbacks`);
      ctx.log(`${count} random trials agree (${fellBack} with one index changed, ${errors} errors worded as on the CPU)`);
    },
  },
];
