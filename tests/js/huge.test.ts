// Huge requests: the module's heap is wasm32 memory of at most 4 GiB. A call
// whose buffers cannot fit throws an UnpoolError (a RangeError) with code
// 'out_of_memory' saying how many bytes it could not allocate, and the module
// keeps working. Sizes between 2^31 and 2^53 are refused cleanly, never
// wrapped to 32 bits. Node only (excluded from the browser run): one test
// really grows the heap past 2 GiB.
import { beforeAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';

/** The most the JS layer asks malloc for: 4 GiB (MAXIMUM_MEMORY) less one 64 KiB page. */
const MAX_HEAP_BYTES = 4294901760;

beforeAll(async () => {
  await unpool.init();
});

const tensor = <C extends Float32ArrayConstructor | Float64ArrayConstructor | Int32ArrayConstructor>(
  Ctor: C, values: number[], shape: number[]) => ({ data: Ctor.from(values) as InstanceType<C>, shape });
const one = (d: number) => [1, 1, ...Array(d).fill(1)];
const round8 = (b: number) => Math.ceil(b / 8) * 8;

function thrown(call: () => unknown): Error & { code?: string } {
  try {
    call();
  } catch (e) {
    return e as Error & { code?: string };
  }
  throw new Error('expected an error');
}

/** Bytes named by an out_of_memory message. */
function bytesOf(e: Error): number {
  const m = /cannot allocate (\d+) bytes/.exec(e.message);
  expect(m, e.message).not.toBeNull();
  return Number(m![1]);
}

function moduleStillWorks(): void {
  const { output, indices } = unpool.maxPool2d(tensor(Float32Array, Array.from({ length: 16 }, (_, i) => i + 1), [1, 1, 4, 4]), { kernelSize: 2 });
  expect(Array.from(output.data)).toEqual([6, 8, 14, 16]);
  expect(Array.from(unpool.maxUnpool2d(output, indices, { kernelSize: 2 }).data))
    .toEqual([0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 14, 0, 16]);
}

// Really growing the heap costs ~2.5 GiB of RAM and a few seconds: it runs in
// Node unless UNPOOL_SKIP_HUGE=1.
const skipHuge = (globalThis as { process?: { env: Record<string, string> } }).process?.env.UNPOOL_SKIP_HUGE === '1';

describe.skipIf(skipHuge)('a heap grown past 2 GiB in one call', () => {
  it('gives correct results at addresses above 2^31, then a real allocation failure, then works as before', () => {
    const before = unpool.memoryUsage();
    expect(before.heapBytes).toBeLessThan(2 ** 30);  // a fresh module: this test runs first in the file
    // The gather's result lies after a 2.25 GiB gradOutput in the call's heap
    // block: its address is above 2^31 (a signed-pointer bug would show).
    // The block needs the heap to grow by more than dlmalloc asks sbrk for at
    // once (2 GiB), which the JS layer does in steps: on a fresh module this
    // call fails with out_of_memory without them.
    const n = 2 ** 29 + 2 ** 26;
    const go = { data: new Float32Array(n), shape: [1, 1, n] };
    go.data[5] = 3;
    go.data[n - 1] = 7;
    go.data[2 ** 29] = -2;
    const r = unpool.maxUnpool1dBackward(go, { data: Int32Array.from([n - 1, 5, 2 ** 29, 0]), shape: [1, 1, 4] });
    expect(Array.from(r.data)).toEqual([7, 3, -2, 0]);
    const grown = unpool.memoryUsage();
    expect(grown.heapBytes).toBeGreaterThan(2 ** 31);
    expect(grown.inUseBytes).toBe(before.inUseBytes);
    // With 2 GiB already obtained, a request of 4 GiB less 100 kB still fails, cleanly.
    const e = thrown(() => unpool.maxUnpool1d(tensor(Float32Array, [1], one(1)), tensor(Int32Array, [0], one(1)), { kernelSize: 1073700000 }));
    expect(e.code).toBe('out_of_memory');
    const afterFailure = unpool.memoryUsage();
    expect(afterFailure.inUseBytes).toBe(before.inUseBytes);
    expect(afterFailure.heapBytes).toBeGreaterThanOrEqual(grown.heapBytes);
    // The grown heap is reused: another 2 GiB call does not grow it further.
    const again = unpool.maxUnpool1dBackward(go, { data: Int32Array.from([2 ** 29]), shape: [1, 1, 1] });
    expect(Array.from(again.data)).toEqual([-2]);
    expect(unpool.memoryUsage().heapBytes).toBe(afterFailure.heapBytes);
    moduleStillWorks();
    expect(unpool.memoryUsage().inUseBytes).toBe(before.inUseBytes);
  }, 120_000);
});

describe('requests larger than the 4 GiB heap', () => {
  it('are refused with out_of_memory and the exact byte count, for every op that allocates', () => {
    const before = unpool.memoryUsage();
    // unpool 1d: x (1 float64) + indices (1 int32) + output of 2^30 float64 = 8 GiB.
    let e = thrown(() => unpool.maxUnpool1d(tensor(Float64Array, [1], one(1)), tensor(Int32Array, [0], one(1)), { kernelSize: 2 ** 30 }));
    expect(e).toBeInstanceOf(unpool.UnpoolError);
    expect(e.code).toBe('out_of_memory');
    expect(e.message).toBe(`maxUnpool1d: the WebAssembly module cannot allocate ${8 + 8 + 8 * 2 ** 30} bytes ` +
      'for this call (its heap is limited to 4 GiB)');
    // Just over 4 GiB (2^32 + 16 bytes): must not wrap to 16 bytes.
    e = thrown(() => unpool.maxUnpool1d(tensor(Float32Array, [1], one(1)), tensor(Int32Array, [0], one(1)), { kernelSize: 2 ** 30 }));
    expect(e.code).toBe('out_of_memory');
    expect(bytesOf(e)).toBe(2 ** 32 + 16);
    // unpool 3d with an output of 2^32 elements (2^34 bytes), as three sizes each below 2^31.
    e = thrown(() => unpool.maxUnpool3d(tensor(Float32Array, [1], one(3)), tensor(Int32Array, [0], one(3)),
      { kernelSize: [2048, 2048, 1024] }));
    expect(e.code).toBe('out_of_memory');
    expect(bytesOf(e)).toBe(16 + 4 * 2 ** 32);
    // 2d, an outputSize in range: 46341^2 float64 is just over 16 GiB.
    e = thrown(() => unpool.maxUnpool2d(tensor(Float64Array, [1, 2, 3, 4], [1, 1, 2, 2]), tensor(Int32Array, [0, 1, 2, 3], [1, 1, 2, 2]),
      { kernelSize: 23171, outputSize: [46341, 46341] }));
    expect(e.code).toBe('out_of_memory');
    expect(bytesOf(e)).toBe(32 + 16 + round8(8 * 46341 * 46341));
    // Pool backward: the result has inputShape, whatever gradOutput holds.
    e = thrown(() => unpool.maxPool2dBackward(tensor(Float32Array, [1], [1, 1, 1, 1]), tensor(Int32Array, [0], [1, 1, 1, 1]),
      { inputShape: [1, 1, 65536, 65536] }));
    expect(e.code).toBe('out_of_memory');
    expect(bytesOf(e)).toBe(8 + 8 + 4 * 2 ** 32);
    moduleStillWorks();
    expect(unpool.memoryUsage().inUseBytes).toBe(before.inUseBytes);
  });

  it('a size above 2^31 - 1 is too_large in every position, never wrapped to 32 bits', () => {
    const before = unpool.memoryUsage().inUseBytes;
    const x1 = tensor(Float32Array, [1], one(1)), i1 = tensor(Int32Array, [0], one(1));
    for (const v of [2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 32 + 2, 2 ** 40, 2 ** 53 - 1]) {
      for (const [what, call] of [
        ['kernelSize', () => unpool.maxUnpool1d(x1, i1, { kernelSize: v })],
        ['stride', () => unpool.maxPool1d(x1, { kernelSize: 1, stride: v })],
        ['dilation', () => unpool.maxPool1d(x1, { kernelSize: 1, dilation: v })],
        ['padding', () => unpool.maxUnpool1d(x1, i1, { kernelSize: 1, padding: v })],
        ['x shape', () => unpool.maxPool1d({ data: new Float32Array(0), shape: [0, 1, v] }, { kernelSize: 1 })],
        ['x shape', () => unpool.maxUnpool2d({ data: new Float32Array(0), shape: [0, 1, 1, v] }, { data: new Int32Array(0), shape: [0, 1, 1, v] }, { kernelSize: 1 })],
        ['inputShape=', () => unpool.maxPool1dBackward({ data: new Float32Array(0), shape: [0, 1, 1] }, { data: new Int32Array(0), shape: [0, 1, 1] },
          { inputShape: [0, 1, v] })],
      ] as const) {
        const e = thrown(call);
        expect(e, `${what}=${v}`).toBeInstanceOf(unpool.UnpoolError);
        expect(e.code, `${what}=${v}: ${e.message}`).toBe('too_large');
        expect(e.message).toContain(what);
        expect(e.message).toContain(String(v));
      }
      // outputSize above the limit is outside the valid range (which the core caps at 2^31 - 1).
      const e = thrown(() => unpool.maxUnpool1d(x1, i1, { kernelSize: 2, outputSize: [v] }));
      expect(e.code).toBe('output_size_out_of_range');
      expect(e.message).toContain(`outputSize[0]=${v}`);
    }
    expect(unpool.memoryUsage().inUseBytes).toBe(before);
    moduleStillWorks();
  });

  it('int32 indices cannot address a plane with offsets above 2^31 - 1: too_large, int64 works', () => {
    const x = { data: new Float32Array(0), shape: [0, 1, 65536, 32769] };  // an empty batch of planes of 2^31 + 65536
    const e = thrown(() => unpool.maxPool2d(x, { kernelSize: 1 }));
    expect(e.code).toBe('too_large');
    expect(e.message).toBe('maxPool2d: indexType int32 cannot hold offsets up to 2147549183; use int64');
    const r = unpool.maxPool2d(x, { kernelSize: 1, indexType: 'int64' });
    expect(r.output.shape).toEqual([0, 1, 65536, 32769]);
    expect(r.indices.data.length).toBe(0);
    // Planes whose offsets fit int32.
    expect(unpool.maxPool2d({ data: new Float32Array(0), shape: [0, 1, 46340, 46340] }, { kernelSize: 1 }).output.shape)
      .toEqual([0, 1, 46340, 46340]);
  });

  it('a request under the JS limit that malloc cannot satisfy fails for real, with nothing left allocated', () => {
    // These totals pass the JS check (<= MAX_HEAP_BYTES), so the module's
    // malloc is called, and fails: the heap also holds the static data and
    // the stack (in the first 16 MiB of memory) and cannot pass 4 GiB. The
    // heap is not grown in vain for them (wasm memory never shrinks).
    const before = unpool.memoryUsage();
    const x = tensor(Float32Array, [1], one(1)), i = tensor(Int32Array, [0], one(1));
    const kernels = [1073725436, 1073700000, 1073600000];  // totals MAX_HEAP_BYTES, then 100 and 500 kB less
    for (const k of kernels) {
      const e = thrown(() => unpool.maxUnpool1d(x, i, { kernelSize: k }));
      expect(e).toBeInstanceOf(unpool.UnpoolError);
      expect(e.code).toBe('out_of_memory');
      const bytes = bytesOf(e);
      expect(bytes).toBe(16 + round8(4 * k));
      expect(bytes).toBeLessThanOrEqual(MAX_HEAP_BYTES);
      expect(e.message).toMatch(/^maxUnpool1d: the WebAssembly module cannot allocate \d+ bytes for this call \(its heap is limited to 4 GiB\)$/);
      expect(unpool.memoryUsage().inUseBytes).toBe(before.inUseBytes);
      expect(unpool.memoryUsage().heapBytes).toBe(before.heapBytes);
      moduleStillWorks();
    }
    expect(kernels[0] * 4 + 16).toBe(MAX_HEAP_BYTES);
  });
});
