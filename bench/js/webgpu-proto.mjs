// Prototype kernels for issue 30's targets (not the library's; the kernels
// are js/src/webgpu/wgsl/): a 2d max pool with int32 indices and a max
// unpool, float32, k = s = 2, no padding, timed beside unpool/webgpu's own
// calls and a copyBufferToBuffer on one device, and checked bit for bit
// against them. `protoBench(device, gpu, u, shape)` returns
// { case: µs per call (call + onSubmittedWorkDone, median) } and mismatches.
// Run by bench/js/webgpu-proto-run.mjs (Deno) and webgpu-proto.html (Chromium).
import { input } from './suite.mjs';

const WG = 64;

// What every prototype kernel starts with: the uniform block (output and
// input width and height, work items, workgroups along x) and, for the
// kernels of one invocation per work item, the entry point down to the
// work item `e`.
const HEAD = /* wgsl */ `struct P { ow: u32, oh: u32, iw: u32, ih: u32, count: u32, gx: u32 }
@group(0) @binding(0) var<uniform> p: P;`;
const ENTRY = /* wgsl */ `@compute @workgroup_size(${WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let e = gid.y * p.gx * ${WG}u + gid.x;
  if (e >= p.count) { return; }`;

// One invocation per output element, the window's four taps unrolled; the
// same integer keys as common.wgsl (sign-magnitude, -0 == +0), NaN by its
// bits, the first maximum and the last NaN win.
const POOL = /* wgsl */ `
${HEAD}
@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read_write> y: array<u32>;
@group(0) @binding(3) var<storage, read_write> idx: array<u32>;
fn key(b: u32) -> u32 {
  let mag = b & 0x7fffffffu;
  if ((b >> 31u) == 0u || mag == 0u) { return mag | 0x80000000u; }
  return ~mag & 0x7fffffffu;
}
${ENTRY}
  let ow = e % p.ow;
  let r = e / p.ow;
  let oh = r % p.oh;
  let plane = r / p.oh;
  let pos0 = (2u * oh) * p.iw + 2u * ow;
  let base = plane * p.ih * p.iw;
  var best = x[base + pos0];
  var bi = pos0;
  var bnan = (best & 0x7fffffffu) > 0x7f800000u;
  var bk = key(best);
  for (var t = 1u; t < 4u; t = t + 1u) {
    let pos = pos0 + (t >> 1u) * p.iw + (t & 1u);
    let v = x[base + pos];
    let nan = (v & 0x7fffffffu) > 0x7f800000u;
    let k = key(v);
    if (nan || (!bnan && k > bk)) { best = v; bi = pos; bnan = nan; bk = k; }
  }
  y[e] = best;
  idx[e] = bi;
}`;

// Decomposition of the pool's cost: the same loop with f32 max and no
// indices (ORT's kernel, in NCHW), and with the keys but no index output.
const POOL_F32 = /* wgsl */ `
${HEAD}
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;
${ENTRY}
  let ow = e % p.ow;
  let r = e / p.ow;
  let oh = r % p.oh;
  let plane = r / p.oh;
  let base = plane * p.ih * p.iw + (2u * oh) * p.iw + 2u * ow;
  var best = f32(-100000);
  for (var t = 0u; t < 4u; t = t + 1u) {
    best = max(best, x[base + (t >> 1u) * p.iw + (t & 1u)]);
  }
  y[e] = best;
}`;

// The pool with lane-consecutive loads: a workgroup takes one output row
// of one plane, loads the two input rows it reads into workgroup memory
// (invocation i loads words i, i + 64, ...: consecutive invocations read
// consecutive words, which SwiftShader and lavapipe turn into vector loads
// instead of gathers), then each invocation pools outputs i, i + 64, ... of
// the row from there. Rows up to 2 x 1024 values.
const POOL_TILED = /* wgsl */ `
${HEAD}
@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read_write> y: array<u32>;
@group(0) @binding(3) var<storage, read_write> idx: array<u32>;
var<workgroup> rows: array<u32, 2048>;
fn key(b: u32) -> u32 {
  let mag = b & 0x7fffffffu;
  if ((b >> 31u) == 0u || mag == 0u) { return mag | 0x80000000u; }
  return ~mag & 0x7fffffffu;
}
@compute @workgroup_size(${WG})
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let row = wid.y * p.gx + wid.x;  // plane * oh + oh
  if (row >= p.count) { return; }
  let oh = row % p.oh;
  let plane = row / p.oh;
  let src = plane * p.ih * p.iw + 2u * oh * p.iw;
  for (var j = lid; j < 2u * p.iw; j = j + ${WG}u) { rows[j] = x[src + j]; }
  workgroupBarrier();
  for (var ow = lid; ow < p.ow; ow = ow + ${WG}u) {
    let pos0 = 2u * ow;
    var best = rows[pos0];
    var bi = 0u;
    var bnan = (best & 0x7fffffffu) > 0x7f800000u;
    var bk = key(best);
    for (var t = 1u; t < 4u; t = t + 1u) {
      let v = rows[pos0 + (t >> 1u) * p.iw + (t & 1u)];
      let nan = (v & 0x7fffffffu) > 0x7f800000u;
      let k = key(v);
      if (nan || (!bnan && k > bk)) { best = v; bi = t; bnan = nan; bk = k; }
    }
    let e = row * p.ow + ow;
    y[e] = best;
    idx[e] = (2u * oh + (bi >> 1u)) * p.iw + pos0 + (bi & 1u);
  }
}`;

// Unpool as a gather: pass 1 checks that each index lies in its own 2x2
// window (then, windows being disjoint, no two indices share a target) and
// counts those that do not; pass 2 writes every output element: its window's
// value where the window's index names it, else +0. Where pass 1 counted any,
// the library's scatter/gather would have to run instead (not prototyped:
// an indirect dispatch whose size pass 1 writes costs nothing otherwise).
const UNPOOL = /* wgsl */ `
${HEAD}
@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read> idx: array<u32>;
@group(0) @binding(3) var<storage, read_write> y: array<u32>;
@group(0) @binding(4) var<storage, read_write> bad: atomic<u32>;
@compute @workgroup_size(${WG})
fn check(@builtin(global_invocation_id) gid: vec3<u32>) {
  let e = gid.y * p.gx * ${WG}u + gid.x;
  if (e >= p.count) { return; }
  let ow = e % p.ow;
  let oh = (e / p.ow) % p.oh;
  let i = idx[e];
  let h = i / p.iw;
  let w = i % p.iw;
  if (i >= p.iw * p.ih || h / 2u != oh || w / 2u != ow) { atomicAdd(&bad, 1u); }
}
@compute @workgroup_size(${WG})
fn gather(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.y * p.gx * ${WG}u + gid.x;
  if (t >= p.count) { return; }
  let plane_n = p.iw * p.ih;
  let pos = t % plane_n;
  let plane = t / plane_n;
  let h = pos / p.iw;
  let w = pos % p.iw;
  var v = 0u;
  if (h / 2u < p.oh && w / 2u < p.ow) {
    let o = plane * p.oh * p.ow + (h / 2u) * p.ow + w / 2u;
    if (idx[o] == pos) { v = x[o]; }
  }
  y[t] = v;
}`;

// The library's unpool reduced to its two passes (no status, no bounds
// message): scatter position + 1 with atomicMax into `win`, gather. Timed
// with `win` kept and cleared by clearBuffer, and with a fresh `win` each
// call (as the library allocates its scratch).
const SCATTER_GATHER = /* wgsl */ `
${HEAD}
@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read> idx: array<u32>;
@group(0) @binding(3) var<storage, read_write> y: array<u32>;
@group(0) @binding(4) var<storage, read_write> win: array<atomic<u32>>;
@compute @workgroup_size(${WG})
fn scatter(@builtin(global_invocation_id) gid: vec3<u32>) {
  let e = gid.y * p.gx * ${WG}u + gid.x;
  if (e >= p.count) { return; }
  let plane = e / (p.ow * p.oh);
  atomicMax(&win[plane * p.iw * p.ih + idx[e]], e + 1u);
}
@compute @workgroup_size(${WG})
fn gather(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.y * p.gx * ${WG}u + gid.x;
  if (t >= p.count) { return; }
  let w = atomicLoad(&win[t]);
  var v = 0u;
  if (w != 0u) { v = x[w - 1u]; }
  y[t] = v;
}`;

// Unpool as a plain scatter where the windows are disjoint (stride >=
// kernel): each input element checks that its index lies in its own window
// (then no two share a target) and writes its value there, over an output
// cleared by clearBuffer; elements whose index is not in their window are
// counted (the library would then run its scatter + gather instead).
const PLAIN_SCATTER = /* wgsl */ `
${HEAD}
@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read> idx: array<u32>;
@group(0) @binding(3) var<storage, read_write> y: array<u32>;
@group(0) @binding(4) var<storage, read_write> bad: atomic<u32>;
${ENTRY}
  let r = e / p.ow;
  let ow = e - r * p.ow;
  let plane = r / p.oh;
  let oh = r - plane * p.oh;
  let i = idx[e];
  let h = i / p.iw;
  let w = i - h * p.iw;
  if (i >= p.iw * p.ih || h - 2u * oh >= 2u || w - 2u * ow >= 2u) {
    atomicAdd(&bad, 1u);
    return;
  }
  y[plane * p.iw * p.ih + i] = x[e];
}`;

// The floor of any compute shader that does the pool's memory traffic:
// one invocation per output reads its window's four input words (the same
// div/mod chain for its address) and writes one value word and one index
// word, with no keys or NaN rule (an unsigned max of the raw words); and a
// plain word-for-word copy of the bytes copyBufferToBuffer copies (the
// pool's reads plus its writes), one word an invocation, and four words
// (a vec4<u32>) an invocation.
const FLOOR_TOUCH = /* wgsl */ `
${HEAD}
@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read_write> y: array<u32>;
@group(0) @binding(3) var<storage, read_write> idx: array<u32>;
${ENTRY}
  let r = e / p.ow;
  let ow = e - r * p.ow;
  let plane = r / p.oh;
  let oh = r - plane * p.oh;
  let i = (plane * p.ih + 2u * oh) * p.iw + 2u * ow;
  let m = max(max(x[i], x[i + 1u]), max(x[i + p.iw], x[i + p.iw + 1u]));
  y[e] = m;
  idx[e] = i;
}`;
const FLOOR_COPY = /* wgsl */ `
${HEAD}
@group(0) @binding(1) var<storage, read> a: array<u32>;
@group(0) @binding(2) var<storage, read_write> b: array<u32>;
@compute @workgroup_size(${WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.y * p.gx * ${WG}u + gid.x;
  if (i >= p.count) { return; }
  b[i] = a[i];
}`;
const FLOOR_COPY4 = /* wgsl */ `
${HEAD}
@group(0) @binding(1) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> b: array<vec4<u32>>;
@compute @workgroup_size(${WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.y * p.gx * ${WG}u + gid.x;
  if (i >= p.count) { return; }
  b[i] = a[i];
}`;

const U = { MAP_READ: 1, COPY_SRC: 4, COPY_DST: 8, UNIFORM: 64, STORAGE: 128 };
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];

export async function protoBench(device, gpu, shape, reps = 15) {
  const [N, C, H, W] = shape;
  const nIn0 = N * C * H * W;
  const clearBytes = nIn0 * 4;
  const OH = H >> 1;
  const OW = W >> 1;
  const nOut = N * C * OH * OW;
  const nIn = N * C * H * W;
  const q = device.queue;
  const done = () => q.onSubmittedWorkDone();
  const buf = (bytes, usage = U.STORAGE | U.COPY_SRC | U.COPY_DST) => device.createBuffer({ size: bytes, usage });
  const x = gpu.upload({ data: input(shape), shape });
  const lib = gpu.maxPool2d(x, { kernelSize: 2 });
  const libY = gpu.maxUnpool2d(lib.output, lib.indices, { kernelSize: 2 });
  const y = buf(nOut * 4);
  const idx = buf(nOut * 4);
  const up = buf(nIn * 4);
  const bad = buf(4);
  const dispatch = (n) => {
    const groups = Math.ceil(n / WG);
    const gx = Math.min(groups, 65535);
    return [gx, Math.ceil(groups / gx)];
  };
  const uniform = (n) => {
    const u = buf(32, U.UNIFORM | U.COPY_DST);
    q.writeBuffer(u, 0, new Uint32Array([OW, OH, W, H, n, dispatch(n)[0], 0, 0]));
    return u;
  };
  const poolModule = device.createShaderModule({ code: POOL });
  const unpoolModule = device.createShaderModule({ code: UNPOOL });
  const poolPipe = device.createComputePipeline({ layout: 'auto', compute: { module: poolModule, entryPoint: 'main' } });
  const tiledPipe = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: POOL_TILED }), entryPoint: 'main' } });
  const sgModule = device.createShaderModule({ code: SCATTER_GATHER });
  const scatterPipe = device.createComputePipeline({ layout: 'auto', compute: { module: sgModule, entryPoint: 'scatter' } });
  const sgGatherPipe = device.createComputePipeline({ layout: 'auto', compute: { module: sgModule, entryPoint: 'gather' } });
  const f32Pipe = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: POOL_F32 }), entryPoint: 'main' } });
  const checkPipe = device.createComputePipeline({ layout: 'auto', compute: { module: unpoolModule, entryPoint: 'check' } });
  const gatherPipe = device.createComputePipeline({ layout: 'auto', compute: { module: unpoolModule, entryPoint: 'gather' } });
  const uOut = uniform(nOut);
  const uIn = uniform(nIn);
  const group = (pipe, entries) => device.createBindGroup({
    layout: pipe.getBindGroupLayout(0),
    entries: Object.entries(entries).map(([i, b]) => ({ binding: Number(i), resource: { buffer: b } })),
  });
  const poolGroup = group(poolPipe, { 0: uOut, 1: x.buffer, 2: y, 3: idx });
  const yF = buf(nOut * 4);
  const yT = buf(nOut * 4);
  const iT = buf(nOut * 4);
  const rowsN = N * C * OH;
  const uRows = device.createBuffer({ size: 32, usage: U.UNIFORM | U.COPY_DST });
  q.writeBuffer(uRows, 0, new Uint32Array([OW, OH, W, H, rowsN, Math.min(rowsN, 65535), 0, 0]));
  const tiledGroup = group(tiledPipe, { 0: uRows, 1: x.buffer, 2: yT, 3: iT });
  const f32Group = group(f32Pipe, { 0: uOut, 1: x.buffer, 2: yF });
  const checkGroup = group(checkPipe, { 0: uOut, 2: idx, 4: bad });
  const gatherGroup = group(gatherPipe, { 0: uIn, 1: y, 2: idx, 3: up });
  const pass = (enc, pipe, g, n) => {
    const p = enc.beginComputePass();
    p.setPipeline(pipe);
    p.setBindGroup(0, g);
    p.dispatchWorkgroups(...dispatch(n));
    p.end();
  };
  const protoPool = () => {
    const e = device.createCommandEncoder();
    pass(e, poolPipe, poolGroup, nOut);
    q.submit([e.finish()]);
  };
  const win = buf(nIn * 4);
  const upSG = buf(nIn * 4);
  const sgGroups = (w) => [group(scatterPipe, { 0: uOut, 2: idx, 4: w }), group(sgGatherPipe, { 0: uIn, 1: y, 3: upSG, 4: w })];
  const kept = sgGroups(win);
  const scatterGather = (fresh) => () => {
    const w = fresh ? buf(nIn * 4) : win;
    const [g1, g2] = fresh ? sgGroups(w) : kept;
    const e = device.createCommandEncoder();
    if (!fresh) e.clearBuffer(win);
    pass(e, scatterPipe, g1, nOut);
    pass(e, sgGatherPipe, g2, nIn);
    q.submit([e.finish()]);
    if (fresh) w.destroy();
  };
  const clearOnly = () => {
    const e = device.createCommandEncoder();
    e.clearBuffer(win);
    q.submit([e.finish()]);
  };
  const tiledPool = () => {
    const e = device.createCommandEncoder();
    const p = e.beginComputePass();
    p.setPipeline(tiledPipe);
    p.setBindGroup(0, tiledGroup);
    p.dispatchWorkgroups(Math.min(rowsN, 65535), Math.ceil(rowsN / 65535));
    p.end();
    q.submit([e.finish()]);
  };
  const f32Pool = () => {
    const e = device.createCommandEncoder();
    pass(e, f32Pipe, f32Group, nOut);
    q.submit([e.finish()]);
  };
  const protoUnpool = () => {
    const e = device.createCommandEncoder();
    e.clearBuffer(bad);
    pass(e, checkPipe, checkGroup, nOut);
    pass(e, gatherPipe, gatherGroup, nIn);
    q.submit([e.finish()]);
  };
  const a = buf(nIn * 4 + 2 * nOut * 4);
  const b = buf(nIn * 4 + 2 * nOut * 4);
  const copy = () => {
    const e = device.createCommandEncoder();
    e.copyBufferToBuffer(a, 0, b, 0, nIn * 4 + 2 * nOut * 4);
    q.submit([e.finish()]);
  };
  const plainPipe = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: PLAIN_SCATTER }), entryPoint: 'main' } });
  const upPlain = buf(nIn * 4);
  const badPlain = buf(4);
  const plainGroup = group(plainPipe, { 0: uOut, 1: y, 2: idx, 3: upPlain, 4: badPlain });
  const plainScatter = () => {
    const e = device.createCommandEncoder();
    e.clearBuffer(upPlain);
    e.clearBuffer(badPlain);
    pass(e, plainPipe, plainGroup, nOut);
    q.submit([e.finish()]);
  };
  const words = nIn + 2 * nOut;
  const pipe = (code) => device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: 'main' } });
  const touchPipe = pipe(FLOOR_TOUCH);
  const copyPipe = pipe(FLOOR_COPY);
  const copy4Pipe = pipe(FLOOR_COPY4);
  const yTouch = buf(nOut * 4);
  const iTouch = buf(nOut * 4);
  const touchGroup = group(touchPipe, { 0: uOut, 1: x.buffer, 2: yTouch, 3: iTouch });
  const uWords = uniform(words);
  const uWords4 = device.createBuffer({ size: 32, usage: U.UNIFORM | U.COPY_DST });
  q.writeBuffer(uWords4, 0, new Uint32Array([OW, OH, W, H, words / 4, dispatch(words / 4)[0], 0, 0]));
  const copyGroup = group(copyPipe, { 0: uWords, 1: a, 2: b });
  const copy4Group = group(copy4Pipe, { 0: uWords4, 1: a, 2: b });
  const shaderPass = (pipe, g, n) => () => {
    const e = device.createCommandEncoder();
    pass(e, pipe, g, n);
    q.submit([e.finish()]);
  };
  const poolOut = { kernelSize: 2, out: { output: lib.output, indices: lib.indices } };
  const cases = {
    'library pool': () => gpu.maxPool2d(x, poolOut),
    'prototype pool': protoPool,
    'prototype pool, rows through workgroup memory': tiledPool,
    'plain f32 max pool, no indices (ORT\'s kernel in NCHW)': f32Pool,
    'library unpool': () => gpu.maxUnpool2d(lib.output, lib.indices, { kernelSize: 2, out: libY }),
    'prototype unpool (check + gather)': protoUnpool,
    'unpool as clearBuffer + plain scatter (windows disjoint, each index checked in its own window)': plainScatter,
    'scatter + gather, winners kept and cleared': scatterGather(false),
    'scatter + gather, fresh winners buffer each call': scatterGather(true),
    [`clearBuffer of the winners (${(clearBytes / 1e6).toFixed(2)} MB) alone`]: clearOnly,
    'copy of the bytes': copy,
    'floor: a shader reading each window\'s 4 words, writing a value and an index word': shaderPass(touchPipe, touchGroup, nOut),
    'floor: WGSL word-for-word copy of the same bytes as the copy (u32 an invocation)': shaderPass(copyPipe, copyGroup, words),
    'floor: WGSL copy of the same bytes, vec4<u32> an invocation': shaderPass(copy4Pipe, copy4Group, words / 4),
    'copy of the bytes (again, after the shaders)': copy,
  };
  const times = {};
  const host = {};  // the call alone, before the wait (its JavaScript and the API calls)
  for (const [name, fn] of Object.entries(cases)) {
    for (let i = 0; i < 3; i++) { fn(); await done(); }
    const v = [];
    const h = [];
    for (let i = 0; i < reps; i++) {
      const t0 = performance.now();
      fn();
      const t1 = performance.now();
      await done();
      v.push((performance.now() - t0) * 1000);
      h.push((t1 - t0) * 1000);
    }
    times[name] = median(v);
    host[name] = median(h);
  }
  // Bits: the prototypes against the library.
  const read = async (buffer, bytes) => {
    const s = buf(bytes, U.MAP_READ | U.COPY_DST);
    const e = device.createCommandEncoder();
    e.copyBufferToBuffer(buffer, 0, s, 0, bytes);
    q.submit([e.finish()]);
    await s.mapAsync(1);
    const r = new Uint32Array(s.getMappedRange().slice(0));
    s.unmap();
    s.destroy();
    return r;
  };
  const same = async (p, l, bytes) => {
    const [A, B] = [await read(p, bytes), await read(l, bytes)];
    return A.every((v, i) => v === B[i]);
  };
  const checks = {
    'pool values': await same(y, lib.output.buffer, nOut * 4),
    'pool indices': await same(idx, lib.indices.buffer, nOut * 4),
    'tiled pool values': await same(yT, lib.output.buffer, nOut * 4),
    'tiled pool indices': await same(iT, lib.indices.buffer, nOut * 4),
    unpooled: await same(up, libY.buffer, nIn * 4),
    'scatter + gather unpooled': await same(upSG, libY.buffer, nIn * 4),
    'plain scatter unpooled': await same(upPlain, libY.buffer, nIn * 4),
    'plain scatter: indices outside their window': (await read(badPlain, 4))[0],
    'indices outside their window (pass 1)': (await read(bad, 4))[0],
  };
  for (const t of [x, lib.output, lib.indices, libY]) t.destroy();
  for (const t of [y, idx, up, bad, a, b, yF, yT, iT, uRows, win, upSG, yTouch, iTouch, uWords, uWords4, upPlain, badPlain]) t.destroy();
  return { times, host, checks };
}
