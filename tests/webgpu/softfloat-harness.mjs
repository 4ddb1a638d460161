// The machinery of the softfloat checks (cases/softfloat-{f32,f64,half}.mjs):
// the IEEE-754-in-integers WGSL library (js/src/webgpu/wgsl/softfloat-*.wgsl)
// against JavaScript's own arithmetic, bit for bit, on a real WebGPU device.
//
// Each precision is a case module of its own, compiled with only the parts
// it needs (softfloat-int and its own), as a kernel family compiles only the
// parts it lists (js/src/webgpu/kernels.ts): a part that calls into another
// it does not list fails to compile here. Two ways in:
//  - the WebGPU harness imports the case modules and runs their `cases` (one
//    per function) with ctx.device (or ctx.gpu, from which a device is
//    made); vector counts are small there (a few seconds per stack);
//  - tests/webgpu/softfloat-check.mjs (Node with the `webgpu` package, or
//    Deno) runs every precision's checks with the full counts (2^22 vectors
//    per binary32 op, 2^20 per binary64 op).
//
// How: one shader module = the parts + one small entry point per function
// (u32 words in, u32 words out, one invocation per vector). The inputs
// (softfloat-inputs.mjs) mix uniform random bits, random values in every
// binade, every pair of special values, operands aligned so results are
// ties, cancellations, results that underflow into subnormals or overflow.
// A NaN matches any NaN; everything else, zero signs included, bit for bit.
//
// The WGSL is read by loadParts(): fs in Node, Bun and Deno (a file: URL),
// fetch() in a browser page (the files must be served at the same relative
// path). A case module gives the URLs, written out whole: a bundler (Vite,
// for the browser stacks) rewrites a static new URL(path, import.meta.url) only.
import { f64buf, isNaN32, isNaN64, pairs32, pairs64, u32of64, bits32 } from './softfloat-inputs.mjs';

async function loadOne(url) {
  if (url.protocol === 'file:') {
    if (typeof Deno !== 'undefined') return Deno.readTextFile(url);
    // Hidden from bundlers: a browser never takes this branch.
    const fs = await import(/* @vite-ignore */ 'node:' + 'fs/promises');
    return fs.readFile(url, 'utf8');
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`softfloat: fetch ${url} -> ${response.status}`);
  return response.text();
}

/** The WGSL parts at `urls`, in order, as one text. */
export async function loadParts(urls) {
  const texts = await Promise.all(urls.map(loadOne));
  return texts.join('\n');
}

// Each test: name, inWords/outWords per vector, the WGSL statement (i is
// the vector index, src/dst the buffers), inputs(n, seed), size (a SCALES
// class), check(input, output, count, bad) calling bad() per mismatch, and
// optionally extra(input): a note on the reference, or a throw.

/** A binary32 operation `fn` against Math.fround(jsop(a, b)). */
export function binary32(name, fn, op, jsop) {
  return {
    name,
    inWords: 2,
    outWords: 1,
    body: `dst[i] = ${fn}(src[2u * i], src[2u * i + 1u]);`,
    inputs: (n, seed) => pairs32(op, n, seed),
    size: 'big32',
    check(inp, out, n, bad) {
      const fa = new Float32Array(inp.buffer, inp.byteOffset, 2 * n);
      for (let i = 0; i < n; i++) {
        const ref = Math.fround(jsop(fa[2 * i], fa[2 * i + 1]));
        const got = out[i];
        const ok = Number.isNaN(ref) ? isNaN32(got) : got === bits32(ref);
        if (!ok) bad(i, [inp[2 * i], inp[2 * i + 1]], got, Number.isNaN(ref) ? 'NaN' : bits32(ref));
      }
    },
  };
}

/** A binary64 operation `fn` against jsop(a, b) on doubles. */
export function binary64(name, fn, op, jsop) {
  return {
    name,
    inWords: 4,
    outWords: 2,
    body: `let r = ${fn}(vec2<u32>(src[4u * i], src[4u * i + 1u]), vec2<u32>(src[4u * i + 2u], src[4u * i + 3u]));
  dst[2u * i] = r.x;
  dst[2u * i + 1u] = r.y;`,
    inputs: (n, seed) => pairs64(op, n, seed),
    size: 'big64',
    check(inp, out, n, bad) {
      const fa = new Float64Array(inp.buffer, inp.byteOffset, 2 * n);
      for (let i = 0; i < n; i++) {
        const ref = jsop(fa[2 * i], fa[2 * i + 1]);
        const lo = out[2 * i];
        const hi = out[2 * i + 1];
        let ok;
        if (Number.isNaN(ref)) ok = isNaN64(lo, hi);
        else {
          f64buf[0] = ref;
          ok = lo === u32of64[0] && hi === u32of64[1];
        }
        if (!ok) {
          f64buf[0] = ref;
          bad(i, [...inp.subarray(4 * i, 4 * i + 4)], [lo, hi], Number.isNaN(ref) ? 'NaN' : [u32of64[0], u32of64[1]]);
        }
      }
    },
  };
}

/**
 * A test comparing the output words to ref(input words) (a number of bits,
 * an array of words, or NaN meaning "any NaN of this format": nanOf(got)).
 */
export function unary(name, { inWords = 1, outWords = 1, body, inputs, size, ref, nanOf, extra }) {
  return {
    name,
    inWords,
    outWords,
    body,
    inputs,
    size,
    extra,
    check(inp, out, n, bad) {
      for (let i = 0; i < n; i++) {
        const w = inp.subarray(inWords * i, inWords * i + inWords);
        const got = out.subarray(outWords * i, outWords * i + outWords);
        const want = ref(w);
        let ok;
        if (Number.isNaN(want)) ok = nanOf(got);
        else if (Array.isArray(want)) ok = want.every((v, j) => v >>> 0 === got[j]);
        else ok = got[0] === want >>> 0;
        if (!ok) bad(i, [...w], [...got], want);
      }
    },
  };
}

// ---------------------------------------------------------------------------
// GPU

const WG_PER_ROW = 16384;
const ROW = `${WG_PER_ROW * 64}u`;

/** The library `lib` and one entry point test_<name> per test. */
export function kernelSource(lib, tests) {
  const entries = tests.map((t) => `
@compute @workgroup_size(64)
fn test_${t.name}(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x + gid.y * ${ROW};
  if (i >= count.x) {
    return;
  }
  ${t.body}
}`).join('\n');
  return `${lib}
// ---- test entry points
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<uniform> count: vec4<u32>;
${entries}
`;
}

async function compile(device, code) {
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  const scopeError = await device.popErrorScope();
  if (errors.length || scopeError) {
    const lines = code.split('\n');
    throw new Error('softfloat: WGSL does not compile:\n' + errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}\n  ${lines[m.lineNum - 1]}`).join('\n') + (scopeError ? '\n' + scopeError.message : ''));
  }
  return module;
}

async function runOnGpu(device, module, test, input, n) {
  const pipeline = await device.createComputePipelineAsync({
    layout: 'auto',
    compute: { module, entryPoint: `test_${test.name}` },
  });
  const mk = (size, usage) => device.createBuffer({ size: Math.max(16, size), usage });
  const S = GPUBufferUsage;
  const src = mk(input.byteLength, S.STORAGE | S.COPY_DST);
  const outBytes = n * test.outWords * 4;
  const dst = mk(outBytes, S.STORAGE | S.COPY_SRC);
  const uni = mk(16, S.UNIFORM | S.COPY_DST);
  const read = mk(outBytes, S.MAP_READ | S.COPY_DST);
  device.queue.writeBuffer(src, 0, input);
  device.queue.writeBuffer(uni, 0, new Uint32Array([n, 0, 0, 0]));
  const bind = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: src } },
      { binding: 1, resource: { buffer: dst } },
      { binding: 2, resource: { buffer: uni } },
    ],
  });
  const groups = Math.ceil(n / 64);
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bind);
  pass.dispatchWorkgroups(Math.min(groups, WG_PER_ROW), Math.ceil(groups / WG_PER_ROW));
  pass.end();
  enc.copyBufferToBuffer(dst, 0, read, 0, outBytes);
  device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(read.getMappedRange().slice(0, outBytes));
  read.unmap();
  for (const b of [src, dst, uni, read]) b.destroy();
  return out;
}

const hex = (v) => (Array.isArray(v) ? v.map(hex).join(':') : typeof v === 'number' && !Number.isNaN(v) ? '0x' + (v >>> 0).toString(16).padStart(8, '0') : String(v));

/** Vector counts by size class. 'all16' is always exhaustive (65536). */
export const SCALES = {
  full: { big32: 1 << 22, big64: 1 << 20 },
  quick: { big32: 1 << 16, big64: 1 << 14 },
};

/** Runs one test: { name, n, failures, samples, extra, msGen, msGpu, msCheck }. */
export async function runTest(device, module, test, scale = SCALES.full, seed = 1) {
  const n0 = test.size === 'all16' ? 65536 : scale[test.size];
  const t0 = performance.now();
  const input = test.inputs(n0, seed * 7919 + test.name.length);
  const n = input.length / test.inWords;
  const extra = test.extra?.(input);
  const t1 = performance.now();
  const out = await runOnGpu(device, module, test, input, n);
  const t2 = performance.now();
  let failures = 0;
  const samples = [];
  test.check(input, out, n, (i, inWords, got, want) => {
    failures++;
    if (samples.length < 8) samples.push(`#${i} in ${hex(inWords)} got ${hex(got)} want ${hex(want)}`);
  });
  const t3 = performance.now();
  return { name: test.name, n, failures, samples, extra, msGen: t1 - t0, msGpu: t2 - t1, msCheck: t3 - t2 };
}

async function deviceOf(ctx) {
  if (ctx.device) return ctx.device;
  if (!ctx.softfloatDevice) {
    const adapter = await ctx.gpu.requestAdapter();
    if (!adapter) throw new Error('softfloat: no WebGPU adapter');
    ctx.softfloatDevice = await adapter.requestDevice();
  }
  return ctx.softfloatDevice;
}

/**
 * One precision's checks: `parts` (URLs of the WGSL parts it compiles, in
 * order) and its `tests`. `cases`: the harness's, one per function, quick
 * counts; `runChecks(device, { scale, only, log })`: every test, for
 * softfloat-check.mjs.
 */
export function softfloatSuite(parts, tests) {
  const modules = new WeakMap();
  const moduleFor = (device) => {
    if (!modules.has(device)) modules.set(device, loadParts(parts).then((lib) => compile(device, kernelSource(lib, tests))));
    return modules.get(device);
  };
  const cases = tests.map((test) => ({
    name: `softfloat ${test.name}`,
    run: async (ctx) => {
      const device = await deviceOf(ctx);
      const r = await runTest(device, await moduleFor(device), test, SCALES.quick);
      if (r.failures) throw new Error(`${test.name}: ${r.failures} of ${r.n} vectors differ:\n  ${r.samples.join('\n  ')}`);
    },
  }));
  async function runChecks(device, { scale = SCALES.full, only, log = () => {} } = {}) {
    const results = [];
    for (const test of tests) {
      if (only && !only.includes(test.name)) continue;
      const r = await runTest(device, await moduleFor(device), test, scale);
      log(r);
      results.push(r);
    }
    return results;
  }
  return { tests, cases, runChecks };
}
