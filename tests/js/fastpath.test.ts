// The fast path's own contracts: the status codes it maps by number match
// the embind enum, the parameter block and arena are allocated once (calls
// leave the heap as they found it, small and large, failing or not), and a
// small call does not fall back when its result fits the arena.
import { beforeAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import { ARENA_BYTES, STATUS_NAMES } from '../../dist/core.js';
import { wasm } from '../../dist/loader.js';

beforeAll(async () => {
  await unpool.init();
});

describe('fast path', () => {
  it('status codes match the embind enum', () => {
    const m = wasm('test') as unknown as { Status: Record<string, { value: number }> };
    const names = Object.keys(m.Status).filter((k) => typeof m.Status[k]?.value === 'number');
    expect(names.length).toBe(STATUS_NAMES.length);
    for (const name of names) expect(STATUS_NAMES[m.Status[name].value], name).toBe(name);
  });

  it('small and large calls, failing or not, leave inUseBytes as it was', () => {
    const before = unpool.memoryUsage().inUseBytes;
    for (const side of [4, 16, 64, 256]) {  // from well inside the arena to far beyond it
      const n = side * side * 3;
      const x = { data: Float32Array.from({ length: n }, (_, i) => (i * 7919) % 97), shape: [1, 3, side, side] };
      const { output, indices } = unpool.maxPool2d(x, { kernelSize: 2 });
      const y = unpool.maxUnpool2d(output, indices, { kernelSize: 2 });
      expect(y.data.length).toBe(n);
      const bad = { data: indices.data.map((v, i) => (i === indices.data.length - 1 ? side * side : v)), shape: indices.shape };
      expect(() => unpool.maxUnpool2d(output, bad, { kernelSize: 2 })).toThrow(unpool.UnpoolError);
      expect(unpool.memoryUsage().inUseBytes).toBe(before);
    }
    expect(ARENA_BYTES).toBeGreaterThan(0);
  });

  it('results at the arena boundary are exact (small path and general path agree)', () => {
    // Inputs of just under and just over half the arena: both paths.
    for (const w of [ARENA_BYTES / 8 / 4 - 2, ARENA_BYTES / 8 / 4 + 2]) {
      const x = { data: Float32Array.from({ length: 4 * w }, (_, i) => Math.sin(i)), shape: [1, 1, 4, w] };
      const a = unpool.maxPool2d(x, { kernelSize: 2 });
      const xr = unpool.uploadTensor(x);
      const r = unpool.maxPool2d(xr, { kernelSize: 2, resident: true });
      expect(Array.from(a.output.data)).toEqual(Array.from(r.output.toArray()));
      expect(Array.from(a.indices.data)).toEqual(Array.from(r.indices.toArray()));
      for (const t of [xr, r.output, r.indices]) t.dispose();
    }
  });
});
