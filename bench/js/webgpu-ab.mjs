// `bench:webgpu --ab` (bench/js/webgpu.mjs, webgpu-headless.mjs): two builds
// of unpool/webgpu on one device, their calls alternated.
import { median } from './timing.mjs';
import { halfBits, input } from './workloads.mjs';

/**
 * Before/after A/B of unpool/webgpu on one device (`bench:webgpu --ab`):
 * `sides` are two builds' backends (initWebGPU on `device`), A and B; `op`
 * ('pool' or 'unpool', k = s = 2 unless `options` say otherwise; 1d to 3d
 * by the shape) runs on the same input in both, results into preallocated
 * tensors, the calls alternated (A, B, B, A, ...), each followed by
 * onSubmittedWorkDone. The results' bits are compared first. Per round of
 * `reps` calls a side: the medians, the fastest calls and B / A (< 1: B is
 * faster). `moved`: index 0 moved to the next window (index + 2, outside
 * its own window), which sends the plain unpool to its fallback.
 */
export async function abWebGPU({ device, sides, op = 'pool', shape, rounds = 3, reps = 9, dtype = 'float32', moved = false, options = {} }) {
  const dims = shape.length - 2;
  const pool = `maxPool${dims}d`, unpool = `maxUnpool${dims}d`;
  const f32 = input(shape);
  const host = dtype === 'int32' ? { data: Int32Array.from(f32, (v) => Math.round(v * 1000)), shape }
    : dtype === 'float32' ? { data: f32, shape } : { data: halfBits(f32, dtype), shape, dtype };
  const o = { kernelSize: 2, ...options };
  // The unpool restores the input's size (k3 s2 on 16 would give 15).
  const uo = { outputSize: shape.slice(2), ...o };
  const indicesOf = async (g, p) => {
    if (!moved) return p.indices;
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
    const y = g[unpool](p.output, ind, uo);
    calls.push(() => g[unpool](p.output, ind, { ...uo, out: y }));
    results.push([p.output, ind, y]);
  }
  const bits = async (t) => {
    const r = await t.read();
    return new Uint8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength);
  };
  for (let k = 0; k < results[0].length; k++) {
    const [a, b] = [await bits(results[0][k]), await bits(results[1][k])];
    if (a.length !== b.length || a.some((v, i) => v !== b[i])) throw new Error(`--ab: result ${k} of A and B differ`);
  }
  const q = device.queue;
  for (const f of calls) for (let i = 0; i < 3; i++) { f(); await q.onSubmittedWorkDone(); }
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
    out.push({ a, b, minA: ma, minB: mb });
  }
  return { op, shape, dtype, options: o, moved, reps, rounds: out };
}
