// Output reuse (`out`) and resident tensors (WasmTensor: `resident: true`,
// uploadTensor, dispose): same bits as the copying API, chaining without
// copies, clear errors after dispose, nothing leaked.
import { beforeAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';

const {
  maxPool2d, maxUnpool2d, maxPool2dBackward, maxUnpool2dBackward, maxPool1d, maxUnpool1d,
  maxPool3d, maxUnpool3d, memoryUsage, uploadTensor, WasmTensor, UnpoolError,
} = unpool;

beforeAll(async () => {
  await unpool.init();
});

function random(n: number, seed: number): Float32Array {
  let a = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    a = (Math.imul(a, 1664525) + 1013904223) >>> 0;
    return ((a >>> 8) % 17) - 8;  // small integers: plenty of ties
  });
}

// Byte for byte, without Node's Buffer, so the browser run can use it too.
const sameBits = (a: ArrayBufferView, b: ArrayBufferView) => {
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

describe('resident tensors', () => {
  it('pool -> unpool resident equals the copying API, bit for bit', () => {
    const before = memoryUsage().inUseBytes;
    const x = { data: random(2 * 3 * 9 * 10, 1), shape: [2, 3, 9, 10] };
    // The pool's geometry, and the unpool's (with outputSize, which a pool does not take).
    const pool = { kernelSize: 3, stride: 2, padding: 1 };
    const opts = { ...pool, outputSize: [9, 10] };
    const copy = maxPool2d(x, pool);
    const r = maxPool2d(x, { ...pool, resident: true });
    expect(r.output).toBeInstanceOf(WasmTensor);
    expect(r.output.dtype).toBe('float32');
    expect(r.indices.dtype).toBe('int32');
    expect(r.output.shape).toEqual(copy.output.shape);
    expect(Object.isFrozen(r.output.shape)).toBe(true);
    expect(sameBits(r.output.toArray(), copy.output.data)).toBe(true);
    expect(r.indices.read()).toEqual(copy.indices);
    const y = maxUnpool2d(r.output, r.indices, { ...opts, resident: true });
    const yCopy = maxUnpool2d(copy.output, copy.indices, opts);
    expect(y.shape).toEqual(yCopy.shape);
    expect(sameBits(y.toArray(), yCopy.data)).toBe(true);
    // Mixed: a resident x with host indices, and a host result.
    const mixed = maxUnpool2d(r.output, copy.indices, opts);
    expect(sameBits(mixed.data, yCopy.data)).toBe(true);
    // Backward passes take resident inputs too.
    const g = maxPool2dBackward(r.output, r.indices, { ...pool, inputShape: x.shape });
    expect(sameBits(g.data, maxPool2dBackward(copy.output, copy.indices,
                                              { ...pool, inputShape: x.shape }).data)).toBe(true);
    const gu = maxUnpool2dBackward(y, r.indices, { resident: true });
    expect(sameBits(gu.toArray(), maxUnpool2dBackward(yCopy, copy.indices).data)).toBe(true);
    expect(memoryUsage().inUseBytes).toBeGreaterThan(before);
    for (const t of [r.output, r.indices, y, gu]) t.dispose();
    expect(memoryUsage().inUseBytes).toBe(before);
  });

  it('1d and 3d, float64 and int64', () => {
    const before = memoryUsage().inUseBytes;
    const x1 = { data: Float64Array.from(random(2 * 17, 2)), shape: [2, 17] };
    const p1 = maxPool1d(x1, { kernelSize: 3, indexType: 'int64', resident: true });
    expect(p1.output.dtype).toBe('float64');
    expect(p1.indices.dtype).toBe('int64');
    expect(p1.indices.toArray()).toBeInstanceOf(BigInt64Array);
    const c1 = maxPool1d(x1, { kernelSize: 3, indexType: 'int64' });
    expect(p1.indices.toArray()).toEqual(c1.indices.data);
    const u1 = maxUnpool1d(p1.output, p1.indices, { kernelSize: 3 });
    expect(sameBits(u1.data, maxUnpool1d(c1.output, c1.indices, { kernelSize: 3 }).data)).toBe(true);
    const x3 = { data: random(1 * 2 * 5 * 6 * 7, 3), shape: [1, 2, 5, 6, 7] };
    const x3r = uploadTensor(x3);
    const p3 = maxPool3d(x3r, { kernelSize: 2, resident: true });
    const c3 = maxPool3d(x3, { kernelSize: 2 });
    expect(sameBits(p3.output.toArray(), c3.output.data)).toBe(true);
    const u3 = maxUnpool3d(p3.output, p3.indices, { kernelSize: 2, outputSize: [5, 6, 7] });
    expect(u3.shape).toEqual([1, 2, 5, 6, 7]);
    p1.output.dispose(); p1.indices.dispose(); p3.output.dispose(); p3.indices.dispose();
    // The uploaded x3 is still held until it is disposed.
    expect(memoryUsage().inUseBytes).toBeGreaterThanOrEqual(before + x3.data.byteLength);
    x3r.dispose();
    expect(memoryUsage().inUseBytes).toBe(before);
  });

  it('uploadTensor copies in, read/toArray copy out; results survive heap growth', () => {
    const x = { data: random(64, 4), shape: [1, 1, 8, 8] };
    const t = uploadTensor(x);
    expect(t.shape).toEqual([1, 1, 8, 8]);
    expect(t.size).toBe(64);
    expect(t.byteLength).toBe(256);
    const heap = memoryUsage().heapBytes;
    // Grow the heap: views taken before would be detached.
    const big = { data: new Float32Array(8 * 2 ** 20), shape: [1, 1, 2048, 4096] };
    maxPool2d(big, { kernelSize: 2 });
    expect(memoryUsage().heapBytes).toBeGreaterThan(heap);
    expect(sameBits(t.toArray(), x.data)).toBe(true);
    const a = t.toArray();
    a[0] = 1234;  // a copy: the tensor is unchanged
    expect(t.toArray()[0]).toBe(x.data[0]);
    t.dispose();
  });

  it('after dispose(): clear errors, never a read of freed memory', () => {
    const before = memoryUsage().inUseBytes;
    const r = maxPool2d({ data: random(16, 5), shape: [1, 1, 4, 4] }, { kernelSize: 2, resident: true });
    r.output.dispose();
    r.output.dispose();  // idempotent
    expect(r.output.isDisposed).toBe(true);
    expect(r.output.byteLength).toBe(0);
    expect(() => r.output.toArray()).toThrow(/WasmTensor.toArray: the tensor was disposed/);
    expect(() => r.output.read()).toThrow(/disposed/);
    expect(() => maxUnpool2d(r.output, r.indices, { kernelSize: 2 }))
        .toThrow(new unpool.UnpoolTypeError('maxUnpool2d: x is a WasmTensor that was disposed'));
    r.indices.dispose();
    expect(memoryUsage().inUseBytes).toBe(before);
  });

  it('wrong kinds, the constructor, out with resident', () => {
    const r = maxPool2d({ data: random(16, 6), shape: [1, 1, 4, 4] }, { kernelSize: 2, resident: true });
    // An int32 WasmTensor is values where values go (issue 31), but not a gradient that adds.
    expect(() => maxPool2dBackward(r.indices as never, r.indices, { kernelSize: 2, inputShape: [1, 1, 4, 4] }))
        .toThrow(/^maxPool2dBackward: gradOutput is a WasmTensor of int32 values; a pool's gradient adds/);
    expect(() => maxUnpool2d(r.output, r.output as never, { kernelSize: 2 }))
        .toThrow(/indices must hold int32 or int64 data/);
    expect(() => new (WasmTensor as any)(Symbol('x'), null, 8, 'float32', [1])).toThrow(TypeError);
    expect(() => uploadTensor(r.output as never)).toThrow(/already a WasmTensor/);
    expect(() => maxUnpool2d(r.output, r.indices, { kernelSize: 2, resident: true, out: new Float32Array(16) }))
        .toThrow(new unpool.UnpoolTypeError('maxUnpool2d: out and resident: true exclude each other'));
    expect(() => maxUnpool2d(r.output, r.indices, { kernelSize: 2, resident: 1 as never }))
        .toThrow(TypeError);
    r.output.dispose(); r.indices.dispose();
  });

  it('a failed resident call leaves nothing allocated', () => {
    const before = memoryUsage().inUseBytes;
    const r = maxPool2d({ data: random(16, 7), shape: [1, 1, 4, 4] }, { kernelSize: 2, resident: true });
    const bad = uploadTensor({ data: new Int32Array([0, 1, 2, 99]), shape: [1, 1, 2, 2] });
    const held = memoryUsage().inUseBytes;
    expect(() => maxUnpool2d(r.output, bad, { kernelSize: 2, resident: true })).toThrow(UnpoolError);
    expect(memoryUsage().inUseBytes).toBe(held);
    r.output.dispose(); r.indices.dispose(); bad.dispose();
    expect(memoryUsage().inUseBytes).toBe(before);
  });
});

describe('module classes', () => {
  it('take resident tensors as inputs', () => {
    const before = memoryUsage().inUseBytes;
    const x = { data: random(2 * 6 * 6, 9), shape: [2, 6, 6] };
    const xr = uploadTensor(x);
    const pool = new unpool.MaxPool2d(2);
    const unpoolLayer = new unpool.MaxUnpool2d(2);
    const a = pool.forward(xr);
    const b = pool.forward(x);
    expect(sameBits(a.output.data, b.output.data)).toBe(true);
    const r = maxPool2d(xr, { kernelSize: 2, resident: true });
    expect(sameBits(unpoolLayer.forward(r.output, r.indices).data,
                    unpoolLayer.forward(b.output, b.indices).data)).toBe(true);
    for (const t of [xr, r.output, r.indices]) t.dispose();
    expect(memoryUsage().inUseBytes).toBe(before);
  });
});

describe('out', () => {
  const x = { data: random(2 * 8 * 8, 8), shape: [2, 1, 8, 8] };

  it('writes into the given arrays (also subarrays) and returns them', () => {
    const copy = maxPool2d(x, { kernelSize: 2 });
    const output = new Float32Array(32);
    const backing = new Int32Array(40);
    const indices = backing.subarray(4, 36);
    const r = maxPool2d(x, { kernelSize: 2, out: { output, indices } });
    expect(r.output.data).toBe(output);
    expect(r.indices.data).toBe(indices);
    expect(sameBits(output, copy.output.data)).toBe(true);
    expect(Array.from(indices)).toEqual(Array.from(copy.indices.data));
    expect(backing[0]).toBe(0);
    expect(backing[39]).toBe(0);
    // Only one of the two.
    const half = maxPool2d(x, { kernelSize: 2, out: { indices: new Int32Array(32) } });
    expect(half.output.data).not.toBe(output);
    const y = new Float32Array(128).fill(7);
    const u = maxUnpool2d(copy.output, copy.indices, { kernelSize: 2, out: y });
    expect(u.data).toBe(y);
    expect(sameBits(y, maxUnpool2d(copy.output, copy.indices, { kernelSize: 2 }).data)).toBe(true);
    const g = new Float32Array(128);
    expect(maxPool2dBackward(copy.output, copy.indices, { kernelSize: 2, inputShape: x.shape, out: g }).data).toBe(g);
    const gu = new Float32Array(32);
    expect(maxUnpool2dBackward(u, copy.indices, { out: gu }).data).toBe(gu);
    expect(sameBits(gu, copy.output.data)).toBe(true);
  });

  it('checks type and length before anything runs', () => {
    const copy = maxPool2d(x, { kernelSize: 2 });
    const before = memoryUsage().inUseBytes;
    expect(() => maxUnpool2d(copy.output, copy.indices, { kernelSize: 2, out: new Float64Array(128) }))
        .toThrow(new unpool.UnpoolTypeError('maxUnpool2d: out must be a Float32Array (the result\'s type), got Float64Array(128)'));
    expect(() => maxUnpool2d(copy.output, copy.indices, { kernelSize: 2, out: new Float32Array(127) }))
        .toThrow(new unpool.UnpoolError('maxUnpool2d: out has length 127; the result has 128 elements', 'invalid_shape'));
    expect(() => maxPool2d(x, { kernelSize: 2, out: { indices: new BigInt64Array(32) } }))
        .toThrow(/maxPool2d: out.indices must be an Int32Array/);
    expect(() => maxPool2d(x, { kernelSize: 2, out: new Float32Array(32) as never }))
        .toThrow(/maxPool2d: out must be an object \{ output\?, indices\? \}/);
    expect(() => maxUnpool2d(copy.output, copy.indices, { kernelSize: 2, out: [1, 2] as never }))
        .toThrow(TypeError);
    expect(memoryUsage().inUseBytes).toBe(before);
  });
});
