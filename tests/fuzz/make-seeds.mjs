#!/usr/bin/env node
// Writes seed corpora for the fuzz targets from the conformance vectors, in
// the byte layout of tests/fuzz/fuzz_input.h.
//   node tests/fuzz/make-seeds.mjs OUT_DIR   -> OUT_DIR/{pool,unpool}/<case id>
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
  return Buffer.from(bytes);
}

const outDir = process.argv[2];
if (!outDir) throw new Error('usage: make-seeds.mjs OUT_DIR');
for (const target of ['pool', 'unpool']) mkdirSync(join(outDir, target), { recursive: true });
let n = 0;
for (const f of readdirSync(vectors).filter((f) => f.endsWith('.json'))) {
  for (const c of JSON.parse(readFileSync(join(vectors, f), 'utf8')).cases) {
    const dims = Number(c.op.match(/(\d)d/)[1]);
    const target = c.op.includes('unpool') ? 'unpool' : 'pool';
    writeFileSync(join(outDir, target, c.id), encode(c, dims));
    n++;
  }
}
console.log(`make-seeds: ${n} seeds in ${outDir}`);
