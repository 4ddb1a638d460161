// The SIMD build (dist/unpool.wasm) and the scalar build
// (dist/unpool-scalar.wasm, init({ simd: false })) must give identical bits
// for every op, including NaN payloads and the float sums of duplicate
// indices. Two instances of the package are loaded side by side (the module
// registry is reset between the imports, so each has its own loaded module).
// Node only; skipped while dist/ has no scalar build.
import { describe, expect, it, vi } from 'vitest';
import { rng } from './rng.js';

/** Float32Array or Float64Array (their union has no `from` callable with a map function). */
type FloatCtor = {
  readonly name: string;
  new (length: number): Float32Array | Float64Array;
  from(src: ArrayLike<number>, map: (v: number, k: number) => number): Float32Array | Float64Array;
};

type Api = Record<string, (...args: any[]) => any>;

const isNode = typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string' &&
  typeof (globalThis as { window?: unknown }).window === 'undefined';

async function hasScalarBuild(): Promise<boolean> {
  if (!isNode) return false;
  const fs = await import(/* @vite-ignore */ 'node:fs' as string) as { existsSync(p: URL): boolean };
  return fs.existsSync(new URL('../../dist/unpool-scalar.wasm', import.meta.url));
}

const available = await hasScalarBuild();

async function loadBoth(): Promise<{ simd: Api; scalar: Api }> {
  vi.resetModules();  // each call loads two fresh instances
  const simd = await import('../../dist/index.js') as unknown as Api;
  await simd.init({ simd: true });
  vi.resetModules();
  const scalar = await import('../../dist/index.js') as unknown as Api;
  expect(scalar).not.toBe(simd);
  await scalar.init({ simd: false });
  // Not a comparison of the SIMD build with itself:
  expect(simd.backendInfo().simd).toBe(true);
  expect(scalar.backendInfo().simd).toBe(false);
  return { simd, scalar };
}

/** The raw bits of a result's data, as a string (NaN payloads and -0 included). */
function bitsOf(data: ArrayBufferView & { length: number }): string {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const CASES = 80;
const prod = (a: readonly number[]) => a.reduce((p, v) => p * v, 1);

describe.skipIf(!available)('SIMD and scalar builds', () => {
  it('give identical bits for every op on random SIMD-sized problems', async () => {
    const { simd, scalar } = await loadBoth();
    const rand = rng(4);
    let compared = 0;
    for (let t = 0; t < CASES; ++t) {
      const dims = 1 + (t % 3);
      const k = 1 + Math.floor(rand() * 4), s = 1 + Math.floor(rand() * 3), d = 1 + Math.floor(rand() * 2);
      const p = Math.floor(rand() * (Math.floor(k / 2) + 1));
      const spatial = Array.from({ length: dims }, () =>
        Math.max(d * (k - 1) + 1, 1) + Math.floor(rand() * (dims === 3 ? 12 : dims === 2 ? 40 : 300)));
      const shape = [1 + Math.floor(rand() * 2), 1 + Math.floor(rand() * 4), ...spatial];
      const Float: FloatCtor = rand() < 0.5 ? Float32Array : Float64Array;
      const x = { data: Float.from({ length: prod(shape) }, () => {
        const r = rand();
        return r < 0.03 ? NaN : r < 0.05 ? -0 : r < 0.07 ? -Infinity : r < 0.5 ? Math.floor(rand() * 4) : (rand() - 0.5) * 100;
      }), shape };
      const g = { kernelSize: k, stride: s, padding: p, dilation: d, ceilMode: rand() < 0.5 };
      const indexType = rand() < 0.5 ? 'int32' : 'int64';
      const a = simd[`maxPool${dims}d`](x, { ...g, indexType });
      const b = scalar[`maxPool${dims}d`](x, { ...g, indexType });
      expect(bitsOf(b.output.data), `pool output ${t}`).toBe(bitsOf(a.output.data));
      expect(bitsOf(b.indices.data), `pool indices ${t}`).toBe(bitsOf(a.indices.data));
      const go = { data: Float.from({ length: a.output.data.length }, () => (rand() < 0.02 ? NaN : (rand() - 0.5) * 10 ** Math.floor(rand() * 6 - 3))), shape: a.output.shape };
      const both = (fn: string, ...args: unknown[]) => {
        let ra: any, rb: any, ea: unknown, eb: unknown;
        try { ra = simd[fn](...args); } catch (e) { ea = e; }
        try { rb = scalar[fn](...args); } catch (e) { eb = e; }
        expect(String(eb), `${fn} ${t}`).toBe(String(ea));
        if (ra) expect(bitsOf(rb.data), `${fn} ${t}`).toBe(bitsOf(ra.data));
        compared += 1;
      };
      both(`maxPool${dims}dBackward`, go, a.indices, { ...g, inputShape: shape });
      both(`maxPool${dims}dBackward`, go, a.indices, { inputShape: shape });
      const uopts = { kernelSize: k, stride: s, padding: p };
      both(`maxUnpool${dims}d`, a.output, a.indices, uopts);
      both(`maxUnpool${dims}d`, a.output, a.indices, { ...uopts, outputSize: spatial });
      // Many duplicate indices: unpool (last write wins) and scatter-add (float sums in order).
      const few = Math.min(5, prod(spatial));
      const dup = { data: Int32Array.from({ length: a.indices.data.length }, () => Math.floor(rand() * few)), shape: a.output.shape };
      both(`maxUnpool${dims}d`, a.output, dup, { ...uopts, outputSize: spatial });
      both(`maxPool${dims}dBackward`, go, dup, { inputShape: shape });
      both(`maxUnpool${dims}dBackward`, x, dup);
    }
    expect(compared).toBe(CASES * 7);
  }, 120_000);

  it('give identical bits for integer values (uint8 rows of their own, the others on keys)', async () => {
    const { simd, scalar } = await loadBoth();
    const rand = rng(31);
    const classes = [Uint8Array, Uint8ClampedArray, Int8Array, Int16Array, Int32Array] as const;
    for (let t = 0; t < 60; ++t) {
      const dims = 1 + (t % 3);
      const k = t % 2 ? 2 : 1 + Math.floor(rand() * 3), s = t % 2 ? 2 : 1 + Math.floor(rand() * 3);
      const spatial = Array.from({ length: dims }, (_, i) =>
        (i === dims - 1 ? 32 : 2) + Math.floor(rand() * (dims === 3 ? 8 : 60)));
      const last = t % 4 === 3;
      const [N, C] = [1 + Math.floor(rand() * 2), 1 + Math.floor(rand() * 3)];
      const shape = last ? [N, ...spatial, C] : [N, C, ...spatial];
      const n = prod(shape);
      const Cls = classes[t % classes.length];
      const data = t % 6 === 5 ? BigInt64Array.from({ length: n }, () => BigInt(Math.floor(rand() * 5) - 2) * 2n ** 61n)
        : (Cls as unknown as { from(a: ArrayLike<unknown>, f: () => number): ArrayBufferView & { length: number } })
          .from({ length: n }, () => (rand() < 0.5 ? Math.floor(rand() * 4) : Math.floor(rand() * 65536) - 32768));
      const x = { data, shape };
      const g = { kernelSize: k, stride: s, layout: last ? ['NLC', 'NHWC', 'NDHWC'][dims - 1] : undefined };
      const a = simd[`maxPool${dims}d`](x, g);
      const b = scalar[`maxPool${dims}d`](x, g);
      expect(b.output.data.constructor, `pool ${t}`).toBe(data.constructor);
      expect(bitsOf(b.output.data), `pool output ${t}`).toBe(bitsOf(a.output.data));
      expect(bitsOf(b.indices.data), `pool indices ${t}`).toBe(bitsOf(a.indices.data));
      const ua = simd[`maxUnpool${dims}d`](a.output, a.indices, { ...g, outputSize: spatial });
      const ub = scalar[`maxUnpool${dims}d`](a.output, a.indices, { ...g, outputSize: spatial });
      expect(bitsOf(ub.data), `unpool ${t}`).toBe(bitsOf(ua.data));
    }
  });
});

it('the comparison runs when dist/ has the scalar build', () => {
  if (!available) console.log('simd-scalar.test.ts: no dist/unpool-scalar.wasm (or not Node): comparison skipped');
  expect(typeof available).toBe('boolean');
});
