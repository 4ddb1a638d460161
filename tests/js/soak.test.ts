// Soak: 100,000 mixed calls on small tensors (every op, both dtypes, both
// index types, module classes, about 20% failing calls of every error kind),
// each successful result checked against the first result of the same call;
// afterwards the module's heap holds exactly the bytes it held before.
import { beforeAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import { rng } from './rng.js';

/** Float32Array or Float64Array (their union has no `from` callable with a map function). */
type FloatCtor = {
  readonly name: string;
  new (length: number): Float32Array | Float64Array;
  from(src: ArrayLike<number>, map: (v: number, k: number) => number): Float32Array | Float64Array;
};

type Fn = (...args: unknown[]) => any;
type Ctor = new (...args: unknown[]) => any;
const api = unpool as unknown as Record<string, Fn & Ctor>;

const CALLS = 100_000;

beforeAll(async () => {
  await unpool.init();
});

interface Call {
  name: string;
  run: () => any;
  /** The error class a failing call must throw (undefined: must succeed). */
  fails?: typeof TypeError | typeof RangeError;
  code?: string;
}

/** The flat data of a result, for comparing runs. */
function flatten(r: any): unknown[] {
  if (Array.isArray(r)) return r.map((e) => [e.min, e.max]).flat();
  if (r && r.output) return [...Array.from(r.output.data as ArrayLike<unknown>), ...Array.from(r.indices.data as ArrayLike<unknown>)];
  return Array.from(r.data as ArrayLike<unknown>);
}

function buildCalls(): Call[] {
  const rand = rng(6);
  const calls: Call[] = [];
  for (const d of [1, 2, 3]) {
    for (const Float of [Float32Array, Float64Array] as FloatCtor[]) {
      for (const indexType of ['int32', 'int64'] as const) {
        const inSpatial = d === 3 ? [4, 3, 5] : d === 2 ? [6, 5] : [9];
        const inShape = [2, 3, ...inSpatial];
        const n = inShape.reduce((p, v) => p * v, 1);
        const x = { data: Float.from({ length: n }, () => (rand() < 0.1 ? NaN : Math.floor(rand() * 9) - 4)), shape: inShape };
        const geometry = { kernelSize: 2, stride: 2, padding: 1, dilation: 1, ceilMode: d !== 2 };
        const pool = api[`maxPool${d}d`](x, { ...geometry, indexType });
        const { output, indices } = pool;
        const go = { data: Float.from({ length: output.data.length }, () => rand() - 0.5), shape: output.shape };
        const uopts = { kernelSize: 2, stride: 2, padding: 1, outputSize: inSpatial };
        const y = api[`maxUnpool${d}d`](output, indices, uopts);
        const gy = { data: Float.from({ length: y.data.length }, () => rand()), shape: y.shape };
        const tag = `${d}d ${Float.name} ${indexType}`;
        const layer = new api[`MaxPool${d}d`](2, { stride: 2, padding: 1, ceilMode: d !== 2, indexType });
        const unlayer = new api[`MaxUnpool${d}d`](2, { stride: 2, padding: 1 });
        calls.push(
          { name: `maxPool ${tag}`, run: () => api[`maxPool${d}d`](x, { ...geometry, indexType }) },
          { name: `maxUnpool ${tag}`, run: () => api[`maxUnpool${d}d`](output, indices, uopts) },
          { name: `maxPoolBackward ${tag}`, run: () => api[`maxPool${d}dBackward`](go, indices, { ...geometry, inputShape: inShape }) },
          { name: `maxUnpoolBackward ${tag}`, run: () => api[`maxUnpool${d}dBackward`](gy, indices) },
          { name: `maxUnpoolOutputRange ${tag}`, run: () => api[`maxUnpool${d}dOutputRange`](output.shape, uopts) },
          { name: `MaxPool.forward ${tag}`, run: () => layer.forward(x) },
          { name: `MaxPool.backward ${tag}`, run: () => layer.backward(go, indices, inShape) },
          { name: `MaxUnpool.forward ${tag}`, run: () => unlayer.forward(output, indices, inShape) },
          { name: `MaxUnpool.backward ${tag}`, run: () => unlayer.backward(gy, indices) },
        );
        // Failing calls: one of each kind of error.
        const badIndices = { data: indices.data.slice(), shape: indices.shape };
        badIndices.data[badIndices.data.length - 1] = (indexType === 'int64' ? BigInt(y.data.length) : y.data.length) as never;
        const detachedX = { data: x.data.slice(), shape: x.shape };
        structuredClone(detachedX.data.buffer, { transfer: [detachedX.data.buffer] });
        const one = { data: new Float(1), shape: [1, 1, ...Array(d).fill(1)] };
        const oneIdx = { data: new Int32Array(1), shape: one.shape };
        calls.push(
          { name: `index out of range ${tag}`, run: () => api[`maxUnpool${d}d`](output, badIndices, uopts), fails: RangeError, code: 'invalid_index' },
          { name: `gather index out of range ${tag}`, run: () => api[`maxUnpool${d}dBackward`](go, badIndices), fails: RangeError, code: 'invalid_index' },
          { name: `kernel 0 ${tag}`, run: () => api[`maxPool${d}d`](x, { kernelSize: 0 }), fails: RangeError, code: 'invalid_argument' },
          { name: `outputSize out of range ${tag}`, run: () => api[`maxUnpool${d}d`](output, indices, { ...uopts, outputSize: inSpatial.map((s) => s + 5) }), fails: RangeError, code: 'output_size_out_of_range' },
          { name: `shape mismatch ${tag}`, run: () => api[`maxPool${d}dBackward`](go, indices, { ...geometry, stride: 1, inputShape: inShape }), fails: RangeError, code: 'invalid_shape' },
          { name: `wrong values type ${tag}`, run: () => api[`maxPool${d}d`]({ data: new Uint32Array(n), shape: inShape }, { kernelSize: 2 }), fails: TypeError },
          { name: `data length ${tag}`, run: () => api[`maxPool${d}d`]({ data: x.data.subarray(1), shape: inShape }, { kernelSize: 2 }), fails: RangeError },
          { name: `detached ${tag}`, run: () => api[`maxPool${d}d`](detachedX, { kernelSize: 2 }), fails: TypeError },
          { name: `NaN size ${tag}`, run: () => api[`maxUnpool${d}d`](output, indices, { kernelSize: NaN }), fails: RangeError },
          // Over the 4 GiB heap (refused before malloc), and a real malloc failure just under it.
          { name: `too large ${tag}`, run: () => api[`maxUnpool${d}d`](one, oneIdx, { kernelSize: 2 ** 31 - 1 }), fails: RangeError },
          { name: `malloc fails ${tag}`, run: () => unpool.maxUnpool1d({ data: new Float32Array(1), shape: [1, 1] }, { data: new Int32Array(1), shape: [1, 1] }, { kernelSize: 1073700000 }), fails: RangeError, code: 'out_of_memory' },
        );
      }
    }
  }
  return calls;
}

describe('soak', () => {
  it(`${CALLS} mixed calls, about 20% failing: results stay the same and the heap returns to where it started`, () => {
    const calls = buildCalls();
    const ok = calls.filter((c) => !c.fails), bad = calls.filter((c) => c.fails);
    // First results of every successful call, and one pass of every failing one.
    const first = new Map<Call, unknown[]>();
    for (const c of ok) first.set(c, flatten(c.run()));
    for (const c of bad) expect(c.run).toThrow(c.fails);
    const before = unpool.memoryUsage();
    const rand = rng(2026);
    const counts = new Map<string, number>();
    let failures = 0;
    const t0 = performance.now();
    for (let i = 0; i < CALLS; ++i) {
      const failing = rand() < 0.2;
      const pickFrom = failing ? bad : ok;
      const c = pickFrom[Math.floor(rand() * pickFrom.length)];
      counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
      if (c.fails) {
        let thrown: unknown;
        try {
          c.run();
        } catch (e) {
          thrown = e;
        }
        if (!(thrown instanceof c.fails) || (c.code && (thrown as unpool.UnpoolError).code !== c.code)) {
          throw new Error(`call ${i} (${c.name}): unexpected ${String(thrown)}`);
        }
        failures += 1;
      } else {
        const got = flatten(c.run());
        const want = first.get(c)!;
        if (got.length !== want.length || got.some((v, j) => !Object.is(v, want[j]))) {
          throw new Error(`call ${i} (${c.name}): a different result than the first run`);
        }
      }
    }
    const ms = performance.now() - t0;
    const after = unpool.memoryUsage();
    console.log(`soak: ${CALLS} calls (${failures} failing, ${counts.size} kinds) in ${(ms / 1000).toFixed(1)} s; ` +
      `inUseBytes ${before.inUseBytes} -> ${after.inUseBytes}, heapBytes ${before.heapBytes} -> ${after.heapBytes}`);
    expect(after.inUseBytes).toBe(before.inUseBytes);
    expect(counts.size).toBe(calls.length);  // every kind of call ran
    expect(failures / CALLS).toBeGreaterThan(0.15);
    expect(failures / CALLS).toBeLessThan(0.25);
  }, 300_000);
});
