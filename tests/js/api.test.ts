// The API surface: exports against the .d.ts, tensor forms, index types,
// module classes, errors (class, message, code) and that failures leak nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import {
  init, maxPool1d, maxPool2d, maxPool2dBackward, maxPool3d, maxUnpool1d, maxUnpool2d,
  maxUnpool2dBackward, maxUnpool3d, MaxPool2d, MaxUnpool2d, MaxPool1d, MaxUnpool3d,
  UnpoolError,
} from '../../dist/index.js';

// The published declarations, read as text so this runs in a browser too.
const dts = import.meta.glob('../../dist/*.d.ts', {
  query: '?raw', import: 'default', eager: true,
}) as Record<string, string>;
const glueDts = import.meta.glob('../../dist/unpool.d.mts', {
  query: '?raw', import: 'default', eager: true,
}) as Record<string, string>;

/** Value (not type) exports declared by a dist/*.d.ts, following `export *`. */
function declaredValues(file: string): string[] {
  const text = dts[`../../dist/${file}`];
  if (text === undefined) throw new Error(`no dist/${file}`);
  const names: string[] = [];
  for (const m of text.matchAll(/^export declare (?:function|class|const|let) (\w+)/gm)) names.push(m[1]);
  for (const m of text.matchAll(/^export \{([^}]*)\} from/gm)) {
    names.push(...m[1].split(',').map((s) => s.trim()).filter((s) => s && !s.startsWith('type ')));
  }
  for (const m of text.matchAll(/^export \* from '\.\/([\w-]+)\.js'/gm)) names.push(...declaredValues(`${m[1]}.d.ts`));
  return [...new Set(names)];
}

// 4x4 plane with distinct values, N=1, C=2.
const x2 = () => ({ data: Float32Array.from({ length: 32 }, (_, i) => ((i * 7) % 32) - 8), shape: [1, 2, 4, 4] });

beforeAll(async () => {
  await init();
});

describe('exports', () => {
  it('every value export named in index.d.ts exists, and nothing else is exported', () => {
    const declared = declaredValues('index.d.ts').sort();
    expect(declared).toContain('maxPool2d');
    expect(declared).toContain('memoryUsage');
    expect(Object.keys(unpool).sort()).toEqual(declared);
    for (const name of declared) expect(typeof (unpool as Record<string, unknown>)[name], name).toBe('function');
  });

  it('has the functional API for 1d, 2d and 3d and the module classes', () => {
    for (const d of [1, 2, 3]) {
      for (const f of [`maxPool${d}d`, `maxUnpool${d}d`, `maxPool${d}dBackward`, `maxUnpool${d}dBackward`,
        `MaxPool${d}d`, `MaxUnpool${d}d`]) {
        expect(typeof (unpool as Record<string, unknown>)[f], f).toBe('function');
      }
    }
    for (const f of ['adaptiveMaxPool1d', 'adaptiveMaxPool2d', 'adaptiveMaxPool3d',
      'adaptiveMaxPool1dBackward', 'adaptiveMaxPool2dBackward', 'adaptiveMaxPool3dBackward',
      'fractionalMaxPool2d', 'fractionalMaxPool3d', 'fractionalMaxPool2dBackward',
      'fractionalMaxPool3dBackward', 'AdaptiveMaxPool1d', 'AdaptiveMaxPool2d', 'AdaptiveMaxPool3d',
      'FractionalMaxPool2d', 'FractionalMaxPool3d']) {
      expect(typeof (unpool as Record<string, unknown>)[f], f).toBe('function');
    }
  });

  it('the hand-written types of the Emscripten module match the module', async () => {
    const text = Object.values(glueDts)[0];
    const body = /interface UnpoolWasmModule \{([\s\S]*?)\n\}/.exec(text)![1];
    const members = [...body.matchAll(/^ {2}(\w+)[(:]/gm)].map((m) => m[1]);
    expect(members.length).toBeGreaterThan(10);
    const create = (await import('../../dist/unpool.mjs')).default as unknown as (o: object) => Promise<Record<string, unknown>>;
    const wasmUrl = new URL('../../dist/unpool.wasm', import.meta.url);
    const bytes = typeof window === 'undefined'
      ? await (await import(/* @vite-ignore */ 'node:fs/promises' as string)).readFile(wasmUrl)
      : new Uint8Array(await (await fetch(wasmUrl)).arrayBuffer());
    const m = await create({ wasmBinary: bytes });
    for (const name of members) expect(m[name], name).toBeDefined();
    const names = (m.statusNames as () => string[])();
    expect(names).toEqual(['ok', 'invalid_argument', 'invalid_shape', 'invalid_index', 'output_size_out_of_range', 'too_large']);
  });

  it('in a browser, the .wasm was fetched from next to the package entry', () => {
    if (typeof window === 'undefined') return;  // Node reads the file instead
    const urls = performance.getEntriesByType('resource').map((e) => e.name);
    expect(urls.some((u) => /\/dist\/unpool\.wasm$/.test(new URL(u).pathname))).toBe(true);
  });

  it('init() is idempotent and later calls are synchronous', async () => {
    await init();
    await init({ locateFile: () => 'ignored-after-first-load.wasm' });
    expect(unpool.isReady()).toBe(true);
  });
});

describe('tensors', () => {
  it('pools and unpools, PyTorch layout and results', () => {
    const x = { data: Float32Array.from([1, 5, 2, 0, 3, 4, 9, 8, -1, -2, 7, 6, 0, 0, 6, 7]), shape: [1, 1, 4, 4] };
    const { output, indices } = maxPool2d(x, { kernelSize: 2 });
    expect(Array.from(output.data)).toEqual([5, 9, 0, 7]);
    expect(Array.from(indices.data)).toEqual([1, 6, 12, 10]);
    expect(output.shape).toEqual([1, 1, 2, 2]);
    const y = maxUnpool2d(output, indices, { kernelSize: 2 });
    expect(Array.from(y.data)).toEqual([0, 5, 0, 0, 0, 0, 9, 0, 0, 0, 7, 0, 0, 0, 0, 0]);
  });

  it('accepts subarray views with a non-zero byteOffset', () => {
    const base = x2();
    const big = new Float32Array(40);
    big.set(base.data, 5);
    const view = { data: big.subarray(5, 37), shape: base.shape };
    expect(view.data.byteOffset).toBe(20);
    const a = maxPool2d(base, { kernelSize: 2 });
    const b = maxPool2d(view, { kernelSize: 2 });
    expect(b.output.data).toEqual(a.output.data);
    expect(b.indices.data).toEqual(a.indices.data);
    const idxBig = new BigInt64Array(20);
    idxBig.set(BigInt64Array.from(a.indices.data, BigInt), 3);
    const u = maxUnpool2d(a.output, { data: idxBig.subarray(3, 11), shape: a.indices.shape }, { kernelSize: 2 });
    expect(u.data).toEqual(maxUnpool2d(a.output, a.indices, { kernelSize: 2 }).data);
  });

  it('accepts { data, dims } as ONNX Runtime Web tensors have it', () => {
    const { data, shape } = x2();
    const r = maxPool2d({ data, dims: shape }, { kernelSize: 2 });
    expect(r.output.data).toEqual(maxPool2d({ data, shape }, { kernelSize: 2 }).output.data);
  });

  it('returns copies the caller owns, of the input dtype', () => {
    const x = { data: Float64Array.from({ length: 12 }, (_, i) => i), shape: [2, 6] };
    const r = maxPool1d(x, { kernelSize: 2 });
    expect(r.output.data).toBeInstanceOf(Float64Array);
    expect(r.output.data.buffer.byteLength).toBe(r.output.data.byteLength);
    expect(Array.from(r.output.data)).toEqual([1, 3, 5, 7, 9, 11]);
  });

  it('int32 and int64 indices give the same values and are accepted everywhere', () => {
    const x = { data: Float32Array.from({ length: 2 * 64 }, (_, i) => Math.sin(i * 1.7)), shape: [2, 4, 4, 4] };
    const a = maxPool3d(x, { kernelSize: 2, indexType: 'int32' });
    const b = maxPool3d(x, { kernelSize: 2, indexType: 'int64' });
    expect(a.indices.data).toBeInstanceOf(Int32Array);
    expect(b.indices.data).toBeInstanceOf(BigInt64Array);
    expect(Array.from(b.indices.data, Number)).toEqual(Array.from(a.indices.data));
    expect(maxUnpool3d(a.output, b.indices, { kernelSize: 2 }).data)
        .toEqual(maxUnpool3d(a.output, a.indices, { kernelSize: 2 }).data);
  });

  it('pool backward scatter-adds and unpool backward gathers', () => {
    const x = { data: Float32Array.from([1, 9, 2, 3, 4, 5]), shape: [1, 1, 6] };
    const { indices } = maxPool1d(x, { kernelSize: 3, stride: 1 });
    expect(Array.from(indices.data)).toEqual([1, 1, 4, 5]);
    const g = unpool.maxPool1dBackward({ data: Float32Array.from([1, 2, 4, 8]), shape: [1, 1, 4] }, indices,
                                       { inputShape: [1, 1, 6] });
    expect(Array.from(g.data)).toEqual([0, 3, 0, 0, 4, 8]);
    const go = { data: Float32Array.from([0, 10, 20, 30, 40, 50]), shape: [1, 1, 6] };
    const gi = unpool.maxUnpool1dBackward(go, indices);
    expect(Array.from(gi.data)).toEqual([10, 10, 40, 50]);
    expect(gi.shape).toEqual([1, 1, 4]);
  });

  it('unpool outputSize may carry N and C, or C for unbatched input', () => {
    const x = { data: Float32Array.from([1, 2, 3, 4]), shape: [1, 2, 2] };
    const idx = { data: Int32Array.from([0, 1, 2, 3]), shape: [1, 2, 2] };
    for (const outputSize of [[5, 5], [9, 9, 5, 5], [1, 5, 5]]) {
      expect(maxUnpool2d(x, idx, { kernelSize: 2, stride: 2, outputSize }).shape).toEqual([1, 5, 5]);
    }
  });
});

describe('maxUnpoolNdOutputRange', () => {
  it('gives exactly the outputSize values maxUnpoolNd accepts', () => {
    const x = { data: Float32Array.from([1, 2, 3, 4, 5, 6]), shape: [1, 2, 3] };
    const idx = { data: Int32Array.from([0, 2, 4, 1, 3, 5]), shape: [1, 2, 3] };
    for (const opts of [{ kernelSize: 3, stride: 2 }, { kernelSize: 2 }, { kernelSize: 4, stride: 3, padding: 1 }]) {
      const [range] = unpool.maxUnpool1dOutputRange(x.shape, opts);
      expect(range.min).toBeLessThanOrEqual(range.max);
      for (let size = range.min - 1; size <= range.max + 1; ++size) {
        const call = () => maxUnpool1d(x, idx, { ...opts, outputSize: [size] });
        if (size < range.min || size > range.max) {
          expect(call).toThrow(UnpoolError);
        } else if (size >= 6) {  // indices go up to 5
          expect(call().shape).toEqual([1, 2, size]);
        }
      }
    }
    expect(unpool.maxUnpool3dOutputRange([1, 2, 3, 4], { kernelSize: [1, 2, 3] })).toHaveLength(3);
  });
});

describe('module classes', () => {
  it('MaxPool2d / MaxUnpool2d mirror torch.nn, with backward', () => {
    const x = x2();
    const pool = new MaxPool2d(3, { stride: 2, padding: 1 });
    const unpoolLayer = new MaxUnpool2d(3, { stride: 2, padding: 1 });
    const { output, indices } = pool.forward(x);
    const f = maxPool2d(x, { kernelSize: 3, stride: 2, padding: 1 });
    expect(output.data).toEqual(f.output.data);
    const y = unpoolLayer.forward(output, indices, x.shape);
    expect(y.shape).toEqual(x.shape);
    expect(y.data).toEqual(maxUnpool2d(output, indices, { kernelSize: 3, stride: 2, padding: 1, outputSize: [4, 4] }).data);
    const g = pool.backward({ data: new Float32Array(output.data.length).fill(1), shape: output.shape }, indices, x.shape);
    expect(g.data).toEqual(maxPool2dBackward({ data: new Float32Array(output.data.length).fill(1), shape: output.shape },
                                             indices, { inputShape: x.shape }).data);
    expect(unpoolLayer.backward(y, indices).data).toEqual(maxUnpool2dBackward(y, indices).data);
  });

  it('MaxPool1d with int64 indices and MaxUnpool3d defaults', () => {
    const r = new MaxPool1d(2, { indexType: 'int64' }).forward({ data: Float32Array.from([3, 1, 2, 4]), shape: [1, 4] });
    expect(Array.from(r.indices.data as BigInt64Array)).toEqual([0n, 3n]);
    const u = new MaxUnpool3d(2).forward({ data: Float32Array.from([7]), shape: [1, 1, 1, 1] }, { data: Int32Array.from([5]), shape: [1, 1, 1, 1] });
    expect(u.shape).toEqual([1, 2, 2, 2]);
    expect(Array.from(u.data)).toEqual([0, 0, 0, 0, 0, 7, 0, 0]);
  });

  it('each class has its dims (static dims); a subclass keeps them', () => {
    const classes = Object.entries(unpool).filter(([name]) => /^(Max|MaxUn|AdaptiveMax|FractionalMax)[Pp]ool\dd$/.test(name));
    expect(classes.length).toBe(11);
    for (const [name, cls] of classes) expect((cls as { dims: number }).dims, name).toBe(Number(name.at(-2)));
    class MyPool extends MaxPool1d {}
    // A 1d pool: an input of rank 3 is (N, C, L); a 2d pool would pool its last two dims.
    const r = new MyPool(2).forward({ data: Float32Array.from([3, 1, 2, 4]), shape: [1, 1, 4] });
    expect(r.output.shape).toEqual([1, 1, 2]);
    expect(() => new MyPool(2).forward({ data: new Float32Array(4), shape: [4] })).toThrow(/^MaxPool1d\.forward: /);
    // A subclass that changes its dims to one its family has not is refused at construction.
    class Odd extends unpool.FractionalMaxPool2d {}
    Object.defineProperty(Odd, 'dims', { value: 1 });
    expect(() => new Odd(2)).toThrow(TypeError);
    expect(() => new Odd(2)).toThrow("Odd: static dims=1 must be one of 2, 3 (a FractionalMaxPool class's spatial dims)");
  });
});
