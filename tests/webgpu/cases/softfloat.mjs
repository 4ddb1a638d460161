// The IEEE-754-in-integers WGSL library (js/src/webgpu/wgsl/softfloat-*.wgsl)
// against JavaScript's own arithmetic, bit for bit, on a real WebGPU device.
//
// Two ways in:
//  - the WebGPU harness imports this file and runs `cases` (one per
//    function) with ctx.device (or ctx.gpu, from which a device is made);
//    vector counts are small there (a few seconds per stack);
//  - tests/webgpu/softfloat-check.mjs (Node with the `webgpu` package, or
//    Deno) calls runSoftfloatChecks() with the full counts (2^22 vectors
//    per binary32 op, 2^20 per binary64 op).
//
// How: one shader module = the library + one small entry point per
// function (u32 words in, u32 words out, one invocation per vector). The
// inputs mix uniform random bits, random values in every binade, every pair
// of special values, operands aligned so results are ties, cancellations,
// results that underflow into subnormals or overflow. The references:
// binary32 ops are Math.fround(a op b) of the decoded doubles (double
// rounding is harmless for + * / of binary32), binary64 ops JavaScript's
// doubles, conversions a reference written here from exact double
// arithmetic (and cross-checked with Float16Array where the engine has it).
// A NaN matches any NaN; everything else, zero signs included, bit for bit.
//
// The WGSL is read by loadSoftfloatWgsl(): fs in Node, Bun and Deno (a
// file: URL), fetch() in a browser page (the files must be served at the
// same relative path: ../../../js/src/webgpu/wgsl/ from here). Its four
// parts, in the order a kernel family that uses them all prepends them.
import {
  bits32, f32ToBf16Ref, f64buf, half2num, ints, isNaN32, isNaN64, num2half, pairs32, pairs64, seqU16,
  toBf16Inputs, toF16Inputs, toIntInputs32, toIntInputs64, truncSat, u32of64, val32,
} from '../softfloat-inputs.mjs';

// Written out whole: a bundler (Vite, for the browser stacks) rewrites a
// static new URL(path, import.meta.url) only.
const PARTS = [
  new URL('../../../js/src/webgpu/wgsl/softfloat-int.wgsl', import.meta.url),
  new URL('../../../js/src/webgpu/wgsl/softfloat-f32.wgsl', import.meta.url),
  new URL('../../../js/src/webgpu/wgsl/softfloat-f64.wgsl', import.meta.url),
  new URL('../../../js/src/webgpu/wgsl/softfloat-half.wgsl', import.meta.url),
];

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

export async function loadSoftfloatWgsl() {
  const texts = await Promise.all(PARTS.map(loadOne));
  return texts.join('\n');
}

// Each test: name, inWords/outWords per vector, the WGSL statement (i is
// the vector index, src/dst the buffers), inputs(n, seed), and check(input,
// output, count) -> list of mismatches (each a string) and a count.
function binary32(name, fn, op, jsop) {
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

function binary64(name, fn, op, jsop) {
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

// A unary test comparing one u32 of output to ref(input words) (a number
// of bits, or NaN meaning "any NaN of this format").
function unary(name, { inWords = 1, outWords = 1, body, inputs, size, ref, nanOf }) {
  return {
    name,
    inWords,
    outWords,
    body,
    inputs,
    size,
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

const dbl = (w) => {
  u32of64[0] = w[0];
  u32of64[1] = w[1];
  return f64buf[0];
};
const dblBits = (x) => ((f64buf[0] = x), [u32of64[0], u32of64[1]]);

export const TESTS = [
  binary32('f32_add', 'sf_f32_add', 'add', (a, b) => a + b),
  binary32('f32_mul', 'sf_f32_mul', 'mul', (a, b) => a * b),
  binary32('f32_div', 'sf_f32_div', 'div', (a, b) => a / b),
  unary('f32_from_i32', {
    body: 'dst[i] = sf_f32_from_i32(i32(src[i]));',
    inputs: ints,
    size: 'big32',
    ref: (w) => bits32(Math.fround(w[0] | 0)),
  }),
  unary('f32_to_i32_trunc', {
    body: 'dst[i] = u32(sf_f32_to_i32_trunc(src[i]));',
    inputs: toIntInputs32,
    size: 'big32',
    ref: (w) => truncSat(val32(w[0])),
  }),
  binary64('f64_add', 'sf_f64_add', 'add', (a, b) => a + b),
  binary64('f64_mul', 'sf_f64_mul', 'mul', (a, b) => a * b),
  binary64('f64_div', 'sf_f64_div', 'div', (a, b) => a / b),
  unary('f64_from_i32', {
    outWords: 2,
    body: 'let r = sf_f64_from_i32(i32(src[i]));\n  dst[2u * i] = r.x;\n  dst[2u * i + 1u] = r.y;',
    inputs: ints,
    size: 'big64',
    ref: (w) => dblBits(w[0] | 0),
  }),
  unary('f64_to_i32_trunc', {
    inWords: 2,
    body: 'dst[i] = u32(sf_f64_to_i32_trunc(vec2<u32>(src[2u * i], src[2u * i + 1u])));',
    inputs: toIntInputs64,
    size: 'big64',
    ref: (w) => truncSat(dbl(w)),
  }),
  unary('f16_to_f32', {
    body: 'dst[i] = sf_f16_to_f32(src[i]);',
    inputs: () => seqU16(65536),
    size: 'all16',
    ref: (w) => (Number.isNaN(half2num(w[0])) ? NaN : bits32(half2num(w[0]))),
    nanOf: (g) => isNaN32(g[0]),
  }),
  unary('bf16_to_f32', {
    body: 'dst[i] = sf_bf16_to_f32(src[i]);',
    inputs: () => seqU16(65536),
    size: 'all16',
    ref: (w) => (isNaN32(w[0] << 16) ? NaN : (w[0] << 16) >>> 0),
    nanOf: (g) => isNaN32(g[0]),
  }),
  unary('f32_to_f16', {
    body: 'dst[i] = sf_f32_to_f16(src[i]);',
    inputs: toF16Inputs,
    size: 'big32',
    ref: (w) => num2half(val32(w[0])),
    nanOf: (g) => (g[0] & 0x7fff) > 0x7c00 && g[0] <= 0xffff,
  }),
  unary('f32_to_bf16', {
    body: 'dst[i] = sf_f32_to_bf16(src[i]);',
    inputs: toBf16Inputs,
    size: 'big32',
    ref: (w) => f32ToBf16Ref(w[0]),
    nanOf: (g) => (g[0] & 0x7fff) > 0x7f80 && g[0] <= 0xffff,
  }),
];

// The reference for binary16 is this file's; where the engine has
// Float16Array, check that reference against it first (all binary16 values
// and a few million binary32 inputs would be slow: the inputs' own set).
function crossCheckHalfReference(inputs) {
  if (typeof Float16Array === 'undefined') return 'Float16Array not available: own reference only';
  const h = new Float16Array(1);
  const hu = new Uint16Array(h.buffer);
  for (let i = 0; i < 65536; i++) {
    hu[0] = i;
    const a = h[0];
    const b = half2num(i);
    if (!(Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)))) throw new Error(`half2num(${i}) = ${b}, Float16Array says ${a}`);
  }
  for (const u of inputs) {
    const x = val32(u);
    h[0] = x;
    const want = Number.isNaN(x) ? NaN : hu[0];
    const got = num2half(x);
    if (!(Object.is(want, got) || (Number.isNaN(want) && Number.isNaN(got)))) {
      throw new Error(`num2half(0x${u.toString(16)}) = ${got}, Float16Array says ${want}`);
    }
  }
  return 'own reference agrees with Float16Array';
}

// ---------------------------------------------------------------------------
// GPU

export function kernelSource(lib, tests = TESTS) {
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

const WG_PER_ROW = 16384;
const ROW = `${WG_PER_ROW * 64}u`;

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

// Vector counts by size class. 'all16' is always exhaustive (65536).
export const SCALES = {
  full: { big32: 1 << 22, big64: 1 << 20 },
  quick: { big32: 1 << 16, big64: 1 << 14 },
};

// Runs one test: returns { name, n, failures, samples, ms }.
export async function runTest(device, module, test, scale = SCALES.full, seed = 1) {
  const n0 = test.size === 'all16' ? 65536 : scale[test.size];
  const t0 = performance.now();
  const input = test.inputs(n0, seed * 7919 + test.name.length);
  const n = input.length / test.inWords;
  const extra = test.name === 'f32_to_f16' ? crossCheckHalfReference(input) : undefined;
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

const modules = new WeakMap();
async function moduleFor(device) {
  if (!modules.has(device)) modules.set(device, loadSoftfloatWgsl().then((lib) => compile(device, kernelSource(lib))));
  return modules.get(device);
}

export async function runSoftfloatChecks(device, { scale = SCALES.full, only, log = () => {} } = {}) {
  const module = await moduleFor(device);
  const results = [];
  for (const test of TESTS) {
    if (only && !only.includes(test.name)) continue;
    const r = await runTest(device, module, test, scale);
    log(r);
    results.push(r);
  }
  return results;
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

// The harness's cases: one per function, quick counts.
export const cases = TESTS.map((test) => ({
  name: `softfloat ${test.name}`,
  run: async (ctx) => {
    const device = await deviceOf(ctx);
    const r = await runTest(device, await moduleFor(device), test, SCALES.quick);
    if (r.failures) throw new Error(`${test.name}: ${r.failures} of ${r.n} vectors differ:\n  ${r.samples.join('\n  ')}`);
  },
}));
