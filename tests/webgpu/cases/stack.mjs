// Checks of the WebGPU stack itself, not of unpool: what the GPU kernels
// rely on, on every stack the suite runs on. Values travel as u32 bits
// (array<u32>), never as f32: some stacks miss NaN with `x != x` and
// SwiftShader flushes subnormals in float compares and adds, so a kernel
// that orders floats by their bits must get the bits through untouched.
//
// The format of a case module (this file is one; every tests/webgpu/cases/*.mjs
// runs on every stack) is in ../harness/core.mjs.
import { bufferFrom, computePipeline, dispatch, expectU32, readU32, COPY_DST, COPY_SRC, STORAGE } from '../harness/gpu.mjs';

// Bit patterns a float kernel meets: ±0, subnormals, ±Inf, quiet and
// signalling NaNs with payloads, the u32 extremes.
const SPECIAL = [
  0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x007fffff, 0x00800000, 0x7f7fffff, 0x7f800000, 0xff800000,
  0x7fc00000, 0xffc00000, 0x7f800001, 0x7fbfffff, 0xffffffff, 0x7fffffff, 0x3f800000, 0xbf800000,
];

/** Deterministic u32 words, the same in every runtime. */
function words(n, seed) {
  const out = new Uint32Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    out[i] = i < SPECIAL.length ? SPECIAL[i] : x;
  }
  return out;
}

/** The float bits as a key whose unsigned order is the float order (NaNs above +Inf or below -Inf by sign). */
const orderedKey = (b) => ((b >>> 31) === 1 ? ~b : b ^ 0x80000000) >>> 0;

export const cases = [
  {
    name: 'limits: maxComputeInvocationsPerWorkgroup >= 128, workgroup size 64',
    async run(ctx) {
      const device = ctx.device;
      const l = device.limits;
      if (!(l.maxComputeInvocationsPerWorkgroup >= 128)) {
        throw new Error(`maxComputeInvocationsPerWorkgroup ${l.maxComputeInvocationsPerWorkgroup} < 128`);
      }
      if (!(l.maxComputeWorkgroupSizeX >= 64)) throw new Error(`maxComputeWorkgroupSizeX ${l.maxComputeWorkgroupSizeX} < 64`);
      if (!(l.maxStorageBuffersPerShaderStage >= 4)) {
        throw new Error(`maxStorageBuffersPerShaderStage ${l.maxStorageBuffersPerShaderStage} < 4`);
      }
      // The adapter's own maximum, on a device of its own (ctx.requestDevice).
      const most = ctx.adapter.limits.maxComputeInvocationsPerWorkgroup;
      const big = await ctx.requestDevice({ requiredLimits: { maxComputeInvocationsPerWorkgroup: most } });
      if (big.limits.maxComputeInvocationsPerWorkgroup !== most) {
        throw new Error(`requiredLimits ${most} gave ${big.limits.maxComputeInvocationsPerWorkgroup}`);
      }
      ctx.log(`adapter maxComputeInvocationsPerWorkgroup=${most};` +
        ` default device limits: maxComputeInvocationsPerWorkgroup=${l.maxComputeInvocationsPerWorkgroup}` +
        ` maxComputeWorkgroupSizeX=${l.maxComputeWorkgroupSizeX}` +
        ` maxStorageBuffersPerShaderStage=${l.maxStorageBuffersPerShaderStage}` +
        ` maxStorageBufferBindingSize=${l.maxStorageBufferBindingSize}`);
    },
  },
  {
    name: 'writeBuffer, copyBufferToBuffer at offsets, mapAsync readback',
    async run(ctx) {
      const device = ctx.device;
      const data = words(300, 7);
      const src = bufferFrom(device, data, COPY_SRC);
      const dst = device.createBuffer({ size: 2048, usage: COPY_SRC | COPY_DST });
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(src, 16, dst, 256, 200 * 4);
      device.queue.submit([encoder.finish()]);
      expectU32(await readU32(device, dst, 200, 256), data.subarray(4, 204), 'copy at offsets');
      expectU32(await readU32(device, src, 300), data, 'writeBuffer then read');
    },
  },
  {
    name: 'array<u32> copy with workgroup size 64 (bits untouched, partial last group)',
    async run(ctx) {
      const device = ctx.device;
      const n = 1000; // 16 workgroups, the last one partly out of range
      const data = words(n, 1);
      const src = bufferFrom(device, data);
      const dst = bufferFrom(device, new Uint32Array(n + 64).fill(0xdeadbeef));
      const ids = bufferFrom(device, new Uint32Array(n).fill(0xdeadbeef));
      const pipeline = await computePipeline(device, /* wgsl */ `
        @group(0) @binding(0) var<storage, read> src: array<u32>;
        @group(0) @binding(1) var<storage, read_write> dst: array<u32>;
        @group(0) @binding(2) var<storage, read_write> ids: array<u32>;
        @compute @workgroup_size(64)
        fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(workgroup_id) wid: vec3u,
                @builtin(local_invocation_index) lid: u32) {
          let i = gid.x;
          if (i >= arrayLength(&src)) { return; }
          dst[i] = src[i];
          ids[i] = wid.x * 64u + lid;
        }`);
      dispatch(device, pipeline, [src, dst, ids], Math.ceil(n / 64));
      const out = await readU32(device, dst, n + 64);
      expectU32(out.subarray(0, n), data, 'copied words');
      expectU32(out.subarray(n), new Uint32Array(64).fill(0xdeadbeef), 'words past the end (must be untouched)');
      expectU32(await readU32(device, ids, n), Uint32Array.from({ length: n }, (_, i) => i), 'workgroup_id * 64 + local index');
    },
  },
  {
    name: 'u32 integer add (wrapping), unsigned compare, max, float-bits order key',
    async run(ctx) {
      const device = ctx.device;
      const n = 640;
      const a = words(n, 3);
      const b = words(n, 11).reverse(); // the special patterns meet each other and random words
      const pipeline = await computePipeline(device, /* wgsl */ `
        @group(0) @binding(0) var<storage, read> a: array<u32>;
        @group(0) @binding(1) var<storage, read> b: array<u32>;
        @group(0) @binding(2) var<storage, read_write> out: array<u32>;
        @compute @workgroup_size(64)
        fn main(@builtin(global_invocation_id) gid: vec3u) {
          let i = gid.x;
          if (i >= arrayLength(&a)) { return; }
          let x = a[i];
          let y = b[i];
          out[5u * i] = x + y;
          out[5u * i + 1u] = select(0u, 1u, x < y) | select(0u, 2u, x == y) | select(0u, 4u, x >= y);
          out[5u * i + 2u] = max(x, y);
          out[5u * i + 3u] = select(x ^ 0x80000000u, ~x, (x >> 31u) == 1u);
          out[5u * i + 4u] = (x >> 7u) + (y << 3u) - (x & 0xffu);
        }`);
      const out = bufferFrom(device, new Uint32Array(5 * n));
      dispatch(device, pipeline, [bufferFrom(device, a), bufferFrom(device, b), out], Math.ceil(n / 64));
      const want = new Uint32Array(5 * n);
      for (let i = 0; i < n; i++) {
        const x = a[i];
        const y = b[i];
        want[5 * i] = x + y;
        want[5 * i + 1] = (x < y ? 1 : 0) | (x === y ? 2 : 0) | (x >= y ? 4 : 0);
        want[5 * i + 2] = Math.max(x, y);
        want[5 * i + 3] = orderedKey(x);
        want[5 * i + 4] = (x >>> 7) + ((y << 3) >>> 0) - (x & 0xff);
      }
      expectU32(await readU32(device, out, 5 * n), want, 'add / compare / max / key / shifts');
    },
  },
  {
    name: 'atomicMax on array<atomic<u32>>: 4096 invocations on one word',
    async run(ctx) {
      const device = ctx.device;
      const groups = 64;
      const n = groups * 64;
      const pipeline = await computePipeline(device, /* wgsl */ `
        @group(0) @binding(0) var<storage, read_write> w: array<atomic<u32>>;
        fn hash(i: u32) -> u32 {
          var x = i * 2654435761u + 0x9e3779b9u;
          x = x ^ (x >> 15u);
          x = x * 0x2c1b3c6du;
          return x ^ (x >> 12u);
        }
        @compute @workgroup_size(64)
        fn main(@builtin(global_invocation_id) gid: vec3u) {
          let v = hash(gid.x);
          atomicMax(&w[0], v);             // every invocation on one word
          atomicMax(&w[1u + gid.x % 8u], v); // 512 each on eight words
          atomicAdd(&w[9], 1u);            // every invocation ran once
          atomicMax(&w[10], gid.x);
        }`);
      const hash = (i) => {
        let x = (Math.imul(i, 2654435761) + 0x9e3779b9) >>> 0;
        x = (x ^ (x >>> 15)) >>> 0;
        x = Math.imul(x, 0x2c1b3c6d) >>> 0;
        return (x ^ (x >>> 12)) >>> 0;
      };
      const init = new Uint32Array(11).fill(0);
      init[0] = 0x00012345; // the stored value takes part in the max
      const want = Uint32Array.from(init);
      for (let i = 0; i < n; i++) {
        const v = hash(i);
        want[0] = Math.max(want[0], v);
        want[1 + (i % 8)] = Math.max(want[1 + (i % 8)], v);
      }
      want[9] = n;
      want[10] = n - 1;
      if (want[0] < 0x80000000) throw new Error('test setup: the max should have its top bit set (unsigned order)');
      const w = bufferFrom(device, init, STORAGE | COPY_SRC);
      dispatch(device, pipeline, [w], groups);
      expectU32(await readU32(device, w, 11), want, 'atomic words');
    },
  },
  {
    name: 'ctx.vectors loads tests/vectors JSON',
    async run(ctx) {
      const v = await ctx.vectors('golden_public');
      if (!Array.isArray(v.cases) || v.cases.length === 0 || v.cases.length !== v.count) {
        throw new Error(`golden_public.json: ${v.cases?.length} cases, count ${v.count}`);
      }
    },
  },
];
