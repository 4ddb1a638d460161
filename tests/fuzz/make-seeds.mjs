#!/usr/bin/env node
// Writes seed corpora for the fuzz targets from the conformance vectors, in
// the byte layouts of tests/fuzz/fuzz_input.h (pool, unpool) and
// tests/fuzz/fuzz_window_input.h (adaptive: adaptive and fractional pools
// and the unpool without kernel). An integer case (issue 31) also gets the
// bytes of each target's integer pass, which follows the float one: its
// value type and the case's own values.
//   node tests/fuzz/make-seeds.mjs OUT_DIR   -> OUT_DIR/{pool,unpool,adaptive}/<case id>
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const vectors = join(dirname(fileURLToPath(import.meta.url)), '..', 'vectors');
const TABLE = [0, -0, 1, -1, 2, 2, 0.5, -2.5, 3, 3, NaN, Infinity, -Infinity, 1e30, -7, 1];

const decode = (v) => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);
const nearest = (v) => {
  if (Number.isNaN(v)) return 10;
  let best = 0;
  for (let i = 1; i < TABLE.length; i++) {
    if (Math.abs(TABLE[i] - v) < Math.abs(TABLE[best] - v)) best = i;
  }
  return best;
};

function encode(c, dims) {
  const p = c.params;
  const x = c.inputs.x;
  const per = (v, dflt) => {
    if (v === null || v === undefined) return Array(dims).fill(dflt);
    return Array.isArray(v) ? Array.from({ length: dims }, (_, i) => v[i] ?? v[0] ?? dflt)
                            : Array(dims).fill(v);
  };
  const k = per(p.kernel_size, 1), s = per(p.stride, 1), pad = per(p.padding, 0);
  const dil = per(p.dilation, 1);
  const out = p.output_size ?? null;
  const sizes = [...k, ...s, ...pad, ...dil, ...(out ?? [])];
  const wide = sizes.some((v) => v < -128 || v > 127);
  const batched = x.shape.length === dims + 2;
  let flags = 0;
  if (x.dtype === 'float64') flags |= 1;
  if (batched) flags |= 8;
  if (out) flags |= 16;
  if ([p.kernel_size, p.stride, p.padding, p.dilation].some(Array.isArray)) flags |= 32;
  if (p.stride !== null && p.stride !== undefined) flags |= 64;
  if (wide) flags |= 128;
  if (!c.op.includes('unpool') && p.ceil_mode) flags |= 4;
  const bytes = [dims - 1, flags];
  const size = (v) => (wide ? bytes.push(v & 255, (v >> 8) & 255) : bytes.push(v & 255));
  for (let i = 0; i < dims; i++) [k[i], s[i], pad[i], dil[i]].forEach(size);
  const lead = batched ? x.shape.slice(0, 2) : [0, x.shape[0]];
  bytes.push(lead[0] & 255, lead[1] & 255, ...x.shape.slice(-dims).map((v) => v & 255));
  bytes.push(out ? out.length : 0);
  (out ?? []).forEach(size);
  for (const v of x.data) bytes.push(nearest(decode(v)));
  for (const v of c.inputs.indices?.data ?? []) bytes.push(v & 255, (v >> 8) & 255);
  for (const v of c.inputs.grad_output?.data ?? []) bytes.push(nearest(decode(v)));
  bytes.push(...intTail(c, c.op.includes('unpool') ? 'unpool' : 'pool'));
  return Buffer.from(bytes);
}

// The integer value types in with_int_type's order (fuzz_input.h: pick % 5),
// with their size in bytes and their ends.
const INT_TYPES = {
  uint8: [1, 0n, 255n], int8: [1, -128n, 127n], int16: [2, -32768n, 32767n],
  int32: [4, -(2n ** 31n), 2n ** 31n - 1n], int64: [8, -(2n ** 63n), 2n ** 63n - 1n],
};
const INT_ORDER = Object.keys(INT_TYPES);

/** Values as read_int (fuzz_input.h) reads them: 0..3, an end, or 128 then the bits, high byte first. */
function intBytes(dtype, values) {
  const [size, lo, hi] = INT_TYPES[dtype];
  const out = [];
  for (const s of values) {
    const v = BigInt(s);
    if (v >= 0n && v <= 3n) out.push(Number(v));
    else if (v === lo) out.push(65);
    else if (v === hi) out.push(64);
    else {
      const u = BigInt.asUintN(size * 8, v);
      out.push(128);
      for (let k = size - 1; k >= 0; k--) out.push(Number((u >> BigInt(8 * k)) & 255n));
    }
  }
  return out;
}

const indexBytes = (data) => data.flatMap((v) => [Number(v) & 255, (Number(v) >> 8) & 255]);

/**
 * The bytes after a seed's float section for an integer case that has an
 * expected output: what the float pass still reads (a zero gradient where
 * the case has none; the plane range of fuzz_pool and fuzz_unpool, which
 * read it last; fuzz_adaptive's "no corruption" byte after a pool's
 * backward), then the integer pass: with_int_type's pick (the case's type;
 * channels last, bit 8, for every other case of fuzz_pool and fuzz_unpool)
 * and x, the gradient and the indices in the order the pass reads them.
 * Other cases (floats, errors, a float gradient) get none: their integer
 * pass reads zeros.
 */
function intTail(c, target, op) {
  const dtype = c.inputs.x.dtype;
  if (!(dtype in INT_TYPES) || c.error_kind || !c.expected?.output) return [];
  // The pass takes one type: a float gradient after an integer forward is not its case.
  if (c.inputs.grad_output && c.inputs.grad_output.dtype !== dtype) return [];
  const nOut = c.expected.output.data.length;
  const go = c.inputs.grad_output?.data;
  const pad = go ? [] : Array(nOut).fill(0);
  const x = intBytes(dtype, c.inputs.x.data);
  const grad = intBytes(dtype, go ?? Array(nOut).fill(0));
  const indices = indexBytes(c.inputs.indices?.data ?? []);
  const pick = INT_ORDER.indexOf(dtype) | (c.id.length % 2 ? 8 : 0);
  if (target === 'pool') return [...pad, 0, 255, pick, ...x];
  if (target === 'unpool') return [...pad, 0, 255, pick, ...x, ...indices, ...grad];
  // fuzz_adaptive: the plane range came first; op 2 is the kernel-free unpool.
  const noCorruption = op === 2 ? [] : [0];
  return [...pad, ...noCorruption, INT_ORDER.indexOf(dtype), ...x, ...grad, ...(op === 2 ? indices : [])];
}

// fuzz_window_input.h's sample table, in order.
const SAMPLES = [0, 1 - 2 ** -24, 1, -0, NaN, -0.25, 1.5, 0.999, 0.25, 0.75, 0.1, 0.9, 0.3333,
  0.6180339887, 2 ** -149, 0.5];
const nearestSample = (v) => {
  if (Number.isNaN(v)) return 4;
  if (Object.is(v, -0)) return 3;
  let best = 0;
  for (let i = 1; i < SAMPLES.length; i++) {
    if (!Number.isNaN(SAMPLES[i]) && Math.abs(SAMPLES[i] - v) < Math.abs(SAMPLES[best] - v)) best = i;
  }
  return best;
};

// Adaptive (op 0), fractional (op 1) and kernel-free unpool (op 2) cases in
// the layout of fuzz_window_input.h.
function encodeWindow(c, dims) {
  const p = c.params;
  const x = c.inputs.x;
  const op = c.op.startsWith('adaptive') ? 0 : c.op.startsWith('fractional') ? 1 : 2;
  const perDim = (v) => (v === null || v === undefined ? null
                         : Array.isArray(v) ? v.slice(-dims) : Array(dims).fill(v));
  const out = perDim(p.output_size) ?? Array(dims).fill(0);
  const kernel = perDim(p.kernel_size) ?? Array(dims).fill(0);
  const ratio = perDim(p.output_ratio) ?? Array(dims).fill(0);
  const sizes = [...out, ...kernel].map((v) => v ?? 0);
  const wide = sizes.some((v) => v < -128 || v > 127);
  const batched = x.shape.length === dims + 2;
  const lists = [p.output_size, p.kernel_size, p.output_ratio].some(Array.isArray);
  let flags = 0;
  if (x.dtype === 'float64') flags |= 1;
  if (c.id.length % 2) flags |= 2;  // int64 indices for some seeds
  if (batched) flags |= 4;
  if (lists) flags |= 8;
  if (wide) flags |= 16;
  const hasSize = p.output_size !== null && p.output_size !== undefined;
  const hasRatio = p.output_ratio !== null && p.output_ratio !== undefined;
  if (op === 1 && hasRatio && !hasSize) flags |= 64;
  if (op === 1 && hasRatio && hasSize) flags |= 128;
  const bytes = [(dims - 1) * 3 + op, flags];
  const lead = batched ? x.shape.slice(0, 2) : [0, x.shape[0]];
  bytes.push(lead[0] & 255, lead[1] & 255, ...x.shape.slice(-dims).map((v) => v & 255));
  // The natural entry count, else one that count % 6 gives.
  const given = Array.isArray(p.output_size) ? p.output_size.length : null;
  bytes.push(given !== null && given !== dims ? 204 + given : 0);
  const size = (v) => (wide ? bytes.push(v & 255, (v >> 8) & 255) : bytes.push(v & 255));
  for (let i = 0; i < dims; i++) {
    size(out[i] ?? 0);
    size(kernel[i]);
    bytes.push(Number.isNaN(ratio[i]) ? 255 : Math.max(0, Math.min(253, Math.round(ratio[i] * 200))));
  }
  bytes.push(out.reduce((k, v, i) => (v === null ? k | (1 << i) : k), 0));
  bytes.push(p.padding && !Array.isArray(p.padding) ? p.padding & 255 : 0);
  const samples = c.inputs.random_samples;
  let samplesShape = 0;
  if (c.error_kind === 'samples_shape' && samples) {
    const want = [batched ? x.shape[0] : 1, x.shape[batched ? 1 : 0], dims];
    samplesShape = samples.shape.length !== 3 ? 5 : samples.shape[0] !== want[0] ? 6 : 7;
  }
  bytes.push(samplesShape);
  bytes.push(0, 255);  // planes [0, -1): all of them
  for (const v of x.data) bytes.push(nearest(decode(v)));
  for (const v of samples?.data ?? []) bytes.push(nearestSample(decode(v)));
  for (const v of c.inputs.indices?.data ?? []) bytes.push(v & 255, (v >> 8) & 255);
  for (const v of c.inputs.grad_output?.data ?? []) bytes.push(nearest(decode(v)));
  bytes.push(...intTail(c, 'adaptive', op));
  return Buffer.from(bytes);
}

const windowCase = (c) => c.op.startsWith('adaptive') || c.op.startsWith('fractional') ||
  (c.op.includes('unpool') && c.params.kernel_size === null);

const outDir = process.argv[2];
if (!outDir) throw new Error('usage: make-seeds.mjs OUT_DIR');
for (const target of ['pool', 'unpool', 'adaptive']) mkdirSync(join(outDir, target), { recursive: true });
let n = 0;
for (const f of readdirSync(vectors).filter((f) => f.endsWith('.json'))) {
  for (const c of JSON.parse(readFileSync(join(vectors, f), 'utf8')).cases) {
    const dims = Number(c.op.match(/(\d)d/)[1]);
    if (windowCase(c)) {
      writeFileSync(join(outDir, 'adaptive', c.id), encodeWindow(c, dims));
    } else {
      const target = c.op.includes('unpool') ? 'unpool' : 'pool';
      writeFileSync(join(outDir, target, c.id), encode(c, dims));
    }
    n++;
  }
}
console.log(`make-seeds: ${n} seeds in ${outDir}`);
