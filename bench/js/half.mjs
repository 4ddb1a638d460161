#!/usr/bin/env node
// float16 and bfloat16 against float32, side by side in one run (issue 16's
// targets), 2d 1x64x112x112, k = s = 2:
//   - the pool with the copying API: 16-bit at most 0.75x float32's time;
//   - the unpool of its result: 16-bit at most 0.8x float32's time;
//   - the resident pool (no copies), to set beside the native g++ -O3 figure
//     of the same kernel (bench/native/run.sh 'op/pool_(f16|bf16)/2d/1x64x112x112').
//   - resident adaptive pools to 5/14 of each size (2d: 40x40, uneven
//     overlapping windows; channels first, the 16-bit ones run the float32
//     kernel on float32 keys of their values) and pools of other windows:
//     k3 s2 p1 (ResNet's), k3 s1 p1 and k3 s3;
//   - the floor: the copies of a pool alone (values in, values and indices,
//     Int32Array as by default, out into fresh arrays), no kernel. The
//     indices are the same bytes for every dtype, so the 16-bit pool can
//     come no closer to 0.5x than the floors allow.
//   - the sum of those parts, copies alone and resident pool, per dtype: the
//     ratio the copying pools would have with no GC and no call costs;
//   - in Node, the two copying pools again in alternated batches with their
//     minor page faults, the rounds without faults and with them apart.
// 16-bit tensors are Uint16Array + dtype (every engine), and Float16Array
// where the global exists.
//
// Usage: node bench/js/half.mjs [dist] [--reps 21] [--scalar] [--shape 1,16,32,32,32]
//          [--layout NHWC]
//   --shape: another shape, 1d to 3d (the targets are 2d's); with --layout
//   (NLC, NHWC or NDHWC) it is given channels last, e.g. 1,112,112,64.
import { runCases, input, halfBits } from './suite.mjs';
import { openDist } from './cli.mjs';

const { u, reps } = await openDist();
const at = process.argv.indexOf('--shape');
const shape = at >= 0 ? process.argv[at + 1].split(',').map(Number) : [1, 64, 112, 112];
const dims = shape.length - 2;
if (!(dims >= 1 && dims <= 3) || !shape.every((d) => Number.isInteger(d) && d > 0)) {
  throw new Error(`half: --shape needs 3 to 5 positive sizes, got ${process.argv[at + 1]}`);
}
const pool = u[`maxPool${dims}d`], unpool = u[`maxUnpool${dims}d`];
const adaptive = u[`adaptiveMaxPool${dims}d`];
const lat = process.argv.indexOf('--layout');
const k2 = lat >= 0 ? { kernelSize: 2, layout: process.argv[lat + 1] } : { kernelSize: 2 };
// The unpool restores the input's size (an odd size leaves a column over).
const k2Unpool = { ...k2, outputSize: lat >= 0 ? shape.slice(1, -1) : shape.slice(2) };
const spatial = lat >= 0 ? shape.slice(1, -1) : shape.slice(2);
const uneven = { outputSize: spatial.map((d) => Math.max(1, Math.floor((d * 5) / 14))) };
if (lat >= 0) uneven.layout = k2.layout;
const f32 = input(shape);
const f16 = halfBits(f32, 'float16');
const bf16 = halfBits(f32, 'bfloat16');
const tensors = {
  float32: { data: f32, shape },
  float16: { data: f16, shape, dtype: 'float16' },
  bfloat16: { data: bf16, shape, dtype: 'bfloat16' },
};
const F16 = globalThis.Float16Array;
if (F16) tensors['Float16Array'] = { data: new F16(f16.buffer), shape };

const windows = {
  'k3 s2 p1': { kernelSize: 3, stride: 2, padding: 1 },
  'k3 s1 p1': { kernelSize: 3, stride: 1, padding: 1 },
  'k3 s3': { kernelSize: 3 },
};
const pooled = {}, resident = {};
for (const [k, x] of Object.entries(tensors)) {
  pooled[k] = pool(x, k2);
  resident[k] = u.uploadTensor(x);
}
const cases = {};
for (const k of Object.keys(tensors)) {
  cases[`pool ${k}`] = () => pool(tensors[k], k2);
  cases[`unpool ${k}`] = () => unpool(pooled[k].output, pooled[k].indices, k2Unpool);
  cases[`pool ${k} resident`] = () => {
    const r = pool(resident[k], { ...k2, resident: true });
    r.output.dispose();
    r.indices.dispose();
  };
  cases[`adaptive ${k} resident`] = () => {
    const r = adaptive(resident[k], { ...uneven, resident: true });
    r.output.dispose();
    r.indices.dispose();
  };
  for (const [name, o] of Object.entries(windows)) {
    cases[`pool ${name} ${k} resident`] = () => {
      const r = pool(resident[k], { ...k2, ...o, resident: true });
      r.output.dispose();
      r.indices.dispose();
    };
  }
}
// The copies of the pool alone, through a wasm memory as the library's are.
const n = pooled.float32.output.data.length;
const memory = new WebAssembly.Memory({ initial: Math.ceil((f32.length * 4 + n * 8) / 65536) });
// Fresh results as the library makes them (js/src/streamed.ts): Node's
// Buffer.allocUnsafeSlow, not zeroed, then one copy in.
const unsafe = globalThis.Buffer?.allocUnsafeSlow;
const fresh = (T, from) => {
  const bytes = from.byteLength;
  const a = unsafe ? new T(unsafe(bytes).buffer, 0, from.length) : new T(from.length);
  a.set(from);
  return a;
};
const floor = (x) => {
  const xs = new x.constructor(memory.buffer, 0, x.length);
  const ys = new x.constructor(memory.buffer, x.byteLength, n);
  const is = new Int32Array(memory.buffer, x.byteLength + ys.byteLength, n);
  return () => {
    xs.set(x);
    return [fresh(x.constructor, ys), fresh(Int32Array, is)];
  };
};
cases['floor float32'] = floor(f32);
cases['floor float16'] = floor(f16);

// The same indices for every dtype whose values order as float32's do.
const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
if (!same(pooled.bfloat16.indices.data, pool({ data: new Float32Array(new Uint32Array(Array.from(bf16, (h) => h << 16)).buffer), shape }, k2).indices.data)) {
  throw new Error('half: bfloat16 indices differ from float32 ones on the same values');
}

const t = await runCases(cases, { reps, minBatchMs: 20, warmupMs: 200 });
Object.values(resident).forEach((r) => r.dispose());
const us = (k) => t[k].toFixed(0).padStart(7);
console.log(`half: ${shape.join('x')}${k2.layout ? ` ${k2.layout}` : ''} k2 s2, Node ${process.versions.node}, SIMD ${u.backendInfo().simd}, Float16Array ${F16 ? 'yes' : 'no'}, median of ${reps} alternated batches (µs per call)`);
for (const k of Object.keys(cases)) console.log(`${k.padEnd(30)} ${us(k)}`);
console.log('');
const ratio = (a, b) => (t[a] / t[b]).toFixed(2);
for (const k of Object.keys(tensors).filter((k) => k !== 'float32')) {
  console.log(`${k}: pool ${ratio(`pool ${k}`, 'pool float32')}x float32 (target <= 0.75), ` +
    `unpool ${ratio(`unpool ${k}`, 'unpool float32')}x (target <= 0.8), ` +
    `resident pool ${t[`pool ${k} resident`].toFixed(0)} µs`);
}
for (const k of Object.keys(tensors).filter((k) => k !== 'float32')) {
  console.log(`${k}, resident: adaptive ${ratio(`adaptive ${k} resident`, 'adaptive float32 resident')}x float32, ` +
    Object.keys(windows).map((w) => `${w} pool ${ratio(`pool ${w} ${k} resident`, `pool ${w} float32 resident`)}x`)
      .join(', '));
}
console.log(`floor: copies alone, 16-bit ${ratio('floor float16', 'floor float32')}x float32's; ` +
  `with no 16-bit kernel time at all the pool would be ${ratio('floor float16', 'pool float32')}x float32's`);
// The copying pool is its copies and its resident pool (the kernel, with
// the results' allocation) and little else: the parts' sums, side by side,
// are what the copying pools' ratio can reach without GC or call costs.
const parts = (k) => t[`floor ${k === 'float32' ? 'float32' : 'float16'}`] + t[`pool ${k} resident`];
for (const k of Object.keys(tensors).filter((k) => k !== 'float32')) {
  console.log(`sum of parts (copies alone + resident pool): ${k} ` +
    `${(parts(k) / parts('float32')).toFixed(2)}x float32's (${parts(k).toFixed(0)} µs against ` +
    `${parts('float32').toFixed(0)}); the copying pools ${ratio(`pool ${k}`, 'pool float32')}x`);
}

// The copying pools' time depends on whether the allocator hands their
// fresh results memory it already has, or pages the kernel must fault in
// (after a GC frees results, glibc may return that memory to the system;
// a fault costs microseconds in a VM). Alternated batches of the two pools,
// each with its minor page faults, split by that (Node only).
const usage = globalThis.process?.resourceUsage;
if (typeof usage === 'function' && typeof usage().minorPageFault === 'number') {
  const faults = () => usage().minorPageFault;
  const rounds = [];
  for (let r = 0; r < 30; ++r) {
    const round = {};
    for (const k of ['float32', 'float16']) {
      const f0 = faults(), t0 = performance.now();
      for (let i = 0; i < 20; ++i) pool(tensors[k], k2);
      round[k] = { us: ((performance.now() - t0) / 20) * 1000, faults: (faults() - f0) / 20 };
    }
    rounds.push(round);
  }
  const med = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
  const report = (name, rs) => {
    if (rs.length === 0) return console.log(`${name}: no such round`);
    const f = (k, key) => med(rs.map((r) => r[k][key])).toFixed(0);
    console.log(`${name}: ${rs.length} of ${rounds.length} rounds; float32 ${f('float32', 'us')} µs ` +
      `(${f('float32', 'faults')} faults a call), float16 ${f('float16', 'us')} µs ` +
      `(${f('float16', 'faults')}); float16 / float32 ` +
      `${med(rs.map((r) => r.float16.us / r.float32.us)).toFixed(2)}`);
  };
  const quiet = (r) => r.float32.faults < 10 && r.float16.faults < 10;
  console.log('');
  report('copying pools, no page faults', rounds.filter(quiet));
  report('copying pools, page faults', rounds.filter((r) => !quiet(r)));
}
