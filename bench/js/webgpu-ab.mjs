// Before/after A/B of unpool/webgpu kernels on one device: two builds of
// dist (A and B, each a folder holding index.js and webgpu/), their calls
// alternated (A, B, A, B, ...) on the same inputs, each call followed by
// onSubmittedWorkDone; medians per round, then the B/A ratio per round.
// The results' bits are compared between A and B first.
//   Deno (lavapipe):  DENO_WEBGPU_BACKEND=vulkan VK_ICD_FILENAMES=.../lvp_icd.x86_64.json \
//                     deno run -A bench/js/webgpu-ab.mjs A_DIST B_DIST [op] [shape] [rounds]
//   Node 24 + webgpu (SwiftShader Vulkan): WEBGPU_PACKAGE=... VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json \
//                     node bench/js/webgpu-ab.mjs A_DIST B_DIST [op] [shape] [rounds]
// op: pool | unpool (2d, kernel 2 stride 2 unless the shape has 3 dims: 1d).
// OPTIONS (JSON): { options, dtype ('float32' | 'float16' | 'int32'), reps, moved }.
import { input } from './suite.mjs';

const args = typeof Deno !== 'undefined' ? Deno.args : process.argv.slice(2);
const [aDir, bDir, op = 'pool', shapeArg = '1,64,112,112', roundsArg = '3', opts = '{}'] = args;
const shape = shapeArg.split(',').map(Number);
const rounds = Number(roundsArg);
const extra = JSON.parse(opts);
const abs = (d) => (d.startsWith('/') ? d : `${(typeof Deno !== 'undefined' ? Deno.cwd() : process.cwd())}/${d}`);

let gpuApi = globalThis.navigator?.gpu;
if (typeof Deno === 'undefined') {
  const { join } = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const dawn = await import(pathToFileURL(join(process.env.WEBGPU_PACKAGE, 'index.js')).href);
  Object.assign(globalThis, dawn.globals);
  gpuApi = dawn.create(['backend=vulkan']);
  globalThis.__keep = gpuApi;
}
const adapter = await gpuApi.requestAdapter();
const device = await adapter.requestDevice();
const sides = [];
for (const dir of [aDir, bDir]) {
  const u = await import(`file://${abs(dir)}/index.js`);
  const w = await import(`file://${abs(dir)}/webgpu/index.js`);
  await u.init();
  sides.push(await w.initWebGPU({ device }));
}
const dims = shape.length - 2;
const pool = `maxPool${dims}d`, unp = `maxUnpool${dims}d`;
const dtype = extra.dtype ?? 'float32';
const host = dtype === 'float32' ? { data: input(shape), shape }
  : dtype === 'float16' ? { data: Uint16Array.from(input(shape), (v, i) => ((i * 7919) & 0x7bff) | (v < 0 ? 0x8000 : 0)), shape, dtype }
    : { data: Int32Array.from(input(shape), (v) => Math.round(v * 1000)), shape };
const o = { kernelSize: 2, ...(extra.options ?? {}) };
// extra.moved: index 0 moved to the next window (index + 2: an index not
// in its own window, which sends the plain unpool to its fallback).
const indicesOf = async (g, p) => {
  if (!extra.moved) return p.indices;
  const r = await p.indices.read();
  r.data[0] += typeof r.data[0] === 'bigint' ? 2n : 2;
  return g.upload({ data: r.data, shape: r.shape });
};
const calls = [];
const results = [];
for (const g of sides) {
  const x = g.upload(host);
  const p = g[pool](x, o);
  if (op === 'pool') {
    calls.push(() => g[pool](x, { ...o, out: { output: p.output, indices: p.indices } }));
    results.push([p.output, p.indices]);
    continue;
  }
  const ind = await indicesOf(g, p);
  const y = g[unp](p.output, ind, o);
  calls.push(() => g[unp](p.output, ind, { ...o, out: y }));
  results.push([p.output, ind, y]);
}
const bits = async (t) => { const r = await t.read(); return new Uint8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength); };
for (let k = 0; k < results[0].length; k++) {
  const [a, b] = [await bits(results[0][k]), await bits(results[1][k])];
  if (a.length !== b.length || a.some((v, i) => v !== b[i])) throw new Error(`result ${k}: A and B differ`);
}
const q = device.queue;
const median = (v) => [...v].sort((x, y) => x - y)[v.length >> 1];
for (const f of calls) for (let i = 0; i < 3; i++) { f(); await q.onSubmittedWorkDone(); }
const reps = Number(extra.reps ?? 9);
const out = [];
for (let r = 0; r < rounds; r++) {
  const t = [[], []];
  for (let i = 0; i < reps; i++) {
    for (const s of (i % 2 ? [1, 0] : [0, 1])) {
      const t0 = performance.now();
      calls[s]();
      await q.onSubmittedWorkDone();
      t[s].push(performance.now() - t0);
    }
  }
  const [a, b] = t.map(median);
  const [ma, mb] = t.map((v) => Math.min(...v));
  out.push({ a: +a.toFixed(2), b: +b.toFixed(2), ratio: +(b / a).toFixed(2), minA: +ma.toFixed(2), minB: +mb.toFixed(2), minRatio: +(mb / ma).toFixed(2) });
}
console.log(JSON.stringify({ adapter: adapter.info?.architecture || adapter.info?.description, op, shape, dtype, rounds: out }));
if (typeof Deno !== 'undefined') Deno.exit(0); else process.exit(0);
