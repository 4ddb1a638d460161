// Unusual but valid inputs at the JS boundary: views at odd offsets, shared
// and resizable buffers, sizes near 2^31 on tiny inputs, typed array
// subclasses and lying own properties, option getters that detach or grow
// the data. Each gives the result its plain twin gives, and nothing leaks.
import { describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import { moduleStillWorks, pooled, range } from './hostile-suite.js';

type Fn = (...args: unknown[]) => any;
const api = unpool as unknown as Record<string, Fn>;

await unpool.init();

describe('unusual but valid inputs', () => {
  it('subarrays at odd element offsets, shared and resizable buffers give the same results', () => {
    const before = unpool.memoryUsage().inUseBytes;
    for (const d of [1, 2, 3]) {
      const p = pooled(d);
      const want = api[`maxPool${d}d`](p.x, { kernelSize: 2, indexType: 'int64' });
      const n = p.x.data.length;
      const views: Float32Array[] = [];
      for (const offset of [1, 3, 7]) {
        const big = new Float32Array(n + offset + 5).fill(NaN);
        big.set(p.x.data, offset);
        views.push(big.subarray(offset, offset + n));
      }
      if (typeof SharedArrayBuffer === 'function') {
        const shared = new Float32Array(new SharedArrayBuffer(4 * (n + 1)), 4, n);
        shared.set(p.x.data);
        views.push(shared);
      }
      const ResizableBuffer = ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => ArrayBuffer;
      try {
        const tracking = new Float32Array(new ResizableBuffer(4 * n, { maxByteLength: 8 * n }));
        tracking.set(p.x.data);
        views.push(tracking);
      } catch { /* no resizable buffers here */ }
      for (const data of views) {
        const got = api[`maxPool${d}d`]({ data, shape: p.x.shape }, { kernelSize: 2, indexType: 'int64' });
        expect(got.output.data).toEqual(want.output.data);
        expect(got.indices.data).toEqual(want.indices.data);
        // Odd offsets of indices (BigInt64Array) and values (Float64Array) too.
        const idx = new BigInt64Array(want.indices.data.length + 3);
        idx.set(want.indices.data as BigInt64Array, 3);
        const vals = new Float64Array(want.output.data.length + 1);
        vals.set(want.output.data, 1);
        const y = api[`maxUnpool${d}d`]({ data: vals.subarray(1), shape: want.output.shape },
          { data: idx.subarray(3), shape: want.indices.shape }, { kernelSize: 2 });
        expect(Array.from(y.data)).toEqual(Array.from(api[`maxUnpool${d}d`](want.output, want.indices, { kernelSize: 2 }).data));
      }
    }
    expect(unpool.memoryUsage().inUseBytes).toBe(before);
  });

  it('kernels and paddings near 2^31 on tiny inputs: every window is clipped to the input (no loop over 2^31 taps)', () => {
    const K = 2 ** 31 - 1, P = 2 ** 30 - 1;
    const x = { data: Float32Array.from([3, 1, 4, 1, 5, 9, 2, 6]), shape: [1, 1, 8] };
    for (const opts of [{ kernelSize: K, padding: P }, { kernelSize: K, padding: P, stride: 1, ceilMode: true },
      { kernelSize: 2 ** 20, padding: 2 ** 19, stride: 1 }]) {
      const r = unpool.maxPool1d(x, opts);
      expect(r.output.data.length).toBeGreaterThan(0);
      expect(r.output.data.every((v) => v === 9)).toBe(true);  // each window holds the whole input
      expect(Array.from(r.indices.data).every((i) => i === 5)).toBe(true);
      const g = unpool.maxPool1dBackward({ data: new Float32Array(r.output.data.length).fill(1), shape: r.output.shape },
        r.indices, { ...opts, inputShape: x.shape });
      expect(Array.from(g.data)).toEqual([0, 0, 0, 0, 0, r.output.data.length, 0, 0]);
    }
    const x3 = { data: Float64Array.from({ length: 8 }, (_, i) => i), shape: [1, 1, 2, 2, 2] };
    const r3 = unpool.maxPool3d(x3, { kernelSize: K, padding: P, stride: 1 });
    expect(r3.output.shape).toEqual([1, 1, 2, 2, 2]);
    expect(Array.from(r3.output.data)).toEqual(Array(8).fill(7));
    const u = unpool.maxUnpool1d({ data: Float32Array.from([1, 2]), shape: [1, 2] }, { data: Int32Array.from([0, 2 ** 20]), shape: [1, 2] },
      { kernelSize: 2 ** 20, stride: 1 });  // default size (2 - 1) * 1 + 2^20
    expect(u.shape).toEqual([1, 2 ** 20 + 1]);
    expect([u.data[0], u.data[2 ** 20]]).toEqual([1, 2]);
    moduleStillWorks();
  });

  it('a typed array subclass, own length/byteLength/constructor properties cannot change what is copied', () => {
    const p = pooled(2);
    const want = unpool.maxPool2d(p.x, { kernelSize: 2 });
    class Sub extends Float32Array {}
    const sub = Sub.from(p.x.data);
    const lying = Float32Array.from(p.x.data);
    Object.defineProperty(lying, 'byteLength', { value: 4 });
    Object.defineProperty(lying, 'constructor', { value: Float64Array });
    const before = unpool.memoryUsage().inUseBytes;
    for (const data of [sub, lying]) {
      const got = unpool.maxPool2d({ data, shape: p.x.shape }, { kernelSize: 2 });
      expect(got.output.data).toBeInstanceOf(Float32Array);
      expect(got.output.data.constructor).toBe(Float32Array);
      expect(Array.from(got.output.data)).toEqual(Array.from(want.output.data));
    }
    // An own length larger than the real one: the real length is what counts.
    const longer = Float32Array.from(p.x.data);
    Object.defineProperty(longer, 'length', { value: 1000 });
    expect(() => unpool.maxPool2d({ data: longer, shape: [1, 1, 10, 100] }, { kernelSize: 2 }))
      .toThrow(/^maxPool2d: x\.data has length 16 but x\.shape=\[1, 1, 10, 100\] holds 1000 elements$/);
    expect(unpool.memoryUsage().inUseBytes).toBe(before);
    moduleStillWorks();
  });

  it('an option getter that detaches or grows the data after it was checked cannot cause an out-of-bounds copy', () => {
    const before = unpool.memoryUsage().inUseBytes;
    const x = Float32Array.from(range(16, (i) => i));
    expect(() => unpool.maxPool2d({ data: x, shape: [1, 1, 4, 4] }, {
      get kernelSize() { structuredClone(x.buffer, { transfer: [x.buffer] }); return 2; },
    })).toThrow(TypeError);
    expect(unpool.memoryUsage().inUseBytes).toBe(before);
    const ResizableBuffer = ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => ArrayBuffer & { resize(n: number): void };
    let buf: ArrayBuffer & { resize(n: number): void };
    try {
      buf = new ResizableBuffer(64, { maxByteLength: 1 << 20 });
    } catch {
      return;  // no resizable buffers here
    }
    const tracking = new Float32Array(buf);  // length follows the buffer
    tracking.set(range(16, (i) => i));
    const r = unpool.maxPool2d({ data: tracking, shape: [1, 1, 4, 4] }, {
      get kernelSize() { buf.resize(1 << 20); new Float32Array(buf).fill(1e30, 16); return 2; },
    });
    expect(Array.from(r.output.data)).toEqual([5, 7, 13, 15]);
    expect(unpool.memoryUsage().inUseBytes).toBe(before);
    moduleStillWorks();
  });
});
