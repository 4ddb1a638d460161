// The runtime's own contracts: what it reads from the module at load (the
// parameter block's layout, status names) is checked and used, the block
// and arena are allocated once (calls leave the heap as they found it, small
// and large, failing or not), and a small call does not fall back when its
// result fits the arena.
import { beforeAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import { ARENA_BYTES } from '../../dist/heap.js';
import { Runtime, runtimeOf } from '../../dist/runtime.js';
import { wasm } from '../../dist/loader.js';
import type { UnpoolWasmModule } from '../../dist/unpool.mjs';

beforeAll(async () => {
  await unpool.init();
});

/** The loaded module with `overrides` in front of it. */
function moduleWith(overrides: Partial<UnpoolWasmModule>): UnpoolWasmModule {
  return Object.assign(Object.create(wasm('test') as object) as UnpoolWasmModule, overrides);
}

describe('runtime', () => {
  it('status names come from the module: an UnpoolError carries the name of its code', () => {
    const m = wasm('test');
    const names = m.statusNames();
    expect(runtimeOf(m).statusNames).toEqual(names);
    expect(names[0]).toBe('ok');
    const x = { data: new Float32Array(16), shape: [1, 1, 4, 4] };
    for (const [call, code] of [
      [() => unpool.maxPool2d(x, { kernelSize: 0 }), 1],
      [() => unpool.maxPool2d({ data: new Float32Array(4), shape: [4] }, { kernelSize: 2 }), 2],
      [() => unpool.maxUnpool2d({ data: new Float32Array(1), shape: [1, 1, 1, 1] },
                                { data: new Int32Array([9]), shape: [1, 1, 1, 1] }, { kernelSize: 2 }), 3],
    ] as const) {
      try {
        call();
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(unpool.UnpoolError);
        expect((e as unpool.UnpoolError).code).toBe(names[code]);
      }
    }
  });

  it('takes the block layout from the module: every field it writes, none overlapping', () => {
    const m = wasm('test');
    const layout = m.paramLayout();
    const rt = runtimeOf(m);
    expect(rt.params.layout).toEqual(layout);
    for (const f of ['dims', 'layout', 'ceilMode', 'outputSizeCount', 'kernel', 'stride', 'padding',
      'dilation', 'outputSize', 'shapeA', 'shapeB', 'shapeOut', 'resultAt', 'rangeMin', 'rangeMax']) {
      expect(typeof layout[f], f).toBe('number');
    }
  });

  it('refuses a module whose block layout disagrees, before allocating anything', () => {
    const m = wasm('test');
    const good = m.paramLayout();
    const before = unpool.memoryUsage().inUseBytes;
    const without = (field: string) => {
      const l: Record<string, number> = { ...good };
      delete l[field];
      return l;
    };
    expect(() => new Runtime(moduleWith({ paramLayout: () => without('kernel') as never })))
      .toThrow(/does not match this JavaScript \(its parameter block has no field 'kernel' of 5 slots\)/);
    expect(() => new Runtime(moduleWith({ paramLayout: () => without('slots') as never })))
      .toThrow(/does not match this JavaScript \(its parameter block has no slot count\)/);
    expect(() => new Runtime(moduleWith({ paramLayout: () => ({ ...good, stride: good.kernel + 1 }) })))
      .toThrow(/does not match this JavaScript \(parameter block fields '(kernel|stride)' and '(kernel|stride)' overlap\)/);
    expect(() => new Runtime(moduleWith({ paramLayout: () => ({ ...good, rangeMax: good.slots - 1 }) })))
      .toThrow(/no field 'rangeMax' of 3 slots/);
    expect(() => new Runtime(moduleWith({ indexTypes: () => ['int32'] })))
      .toThrow(/does not match this JavaScript \(it has no index dtype 'int64'\)/);
    expect(() => new Runtime(moduleWith({ valueTypes: () => ['float32', 'float64', 'float16', 'bfloat16'] })))
      .toThrow(/does not match this JavaScript \(it has no value dtype 'uint8'\)/);
    expect(unpool.memoryUsage().inUseBytes).toBe(before);
  });

  it('a block put back by restore() is written whole by the next call (no field skipped as unchanged)', () => {
    // The GPU's content checks put an earlier call's block back to word its
    // error; writeGeometry skips a field that holds the object it wrote last,
    // which must then not count what the restored block holds as written.
    const rt = runtimeOf(wasm('test'));
    const x = { data: new Float32Array(64).map((_, i) => (i * 37) % 64), shape: [1, 1, 8, 8] };
    unpool.maxPool2d(x, { kernelSize: 2, dilation: 2 });
    const dilated = rt.params.snapshot();
    const plain = unpool.maxPool2d(x, { kernelSize: 2 });
    rt.params.restore(dilated);
    expect(unpool.maxPool2d(x, { kernelSize: 2 })).toEqual(plain);
    expect(rt.params.read('dilation')).toEqual([0, 0, 0, 0, 0]);
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

  // The geometry fields a call leaves at their defaults are not written again
  // while the block holds them (writeGeometry): calls that set each of them
  // (outputSize, poolSize and keep, ratio, stride, padding, dilation) are
  // interleaved with calls that leave them, in both orders.
  it('a kept plan serves only the same op, params, shapes and types: interleaved calls give the same bits', () => {
    const v = (n: number) => Array.from({ length: n }, (_, i) => Math.sin(i * 1.7) * 10);
    const x32 = { data: Float32Array.from(v(72)), shape: [1, 2, 6, 6] };
    const x64 = { data: Float64Array.from(v(72)), shape: [1, 2, 6, 6] };
    const big = { data: Float32Array.from(v(128)), shape: [1, 2, 8, 8] };
    const calls: (() => unknown)[] = [
      () => unpool.maxPool2d(x32, { kernelSize: 2 }),
      () => unpool.maxPool2d(x64, { kernelSize: 2 }),
      () => unpool.maxPool2d(x32, { kernelSize: 3 }),
      () => unpool.maxPool2d(x32, { kernelSize: 2, indexType: 'int64' }),
      () => unpool.maxPool2d(big, { kernelSize: 2 }),
      () => unpool.maxPool2d(x32, { kernelSize: 2, layout: 'NHWC' }),
      () => {
        const p = unpool.maxPool2d(x32, { kernelSize: 2 });
        return unpool.maxUnpool2d(p.output, p.indices, { kernelSize: 2 });
      },
      () => unpool.maxPool2d(x32, { kernelSize: 3, stride: 1, padding: 1, dilation: [1, 2] }),
      () => {
        const p = unpool.maxPool2d(x32, { kernelSize: 2 });
        return unpool.maxUnpool2d(p.output, p.indices, { kernelSize: 2, outputSize: [7, 7] });
      },
      () => unpool.adaptiveMaxPool2d(x32, { outputSize: [4, null] }),
      () => unpool.adaptiveMaxPool2d(x32, { outputSize: 3 }),
      () => unpool.fractionalMaxPool2d(x32, {
        kernelSize: 2, outputSize: [4, 3],
        randomSamples: { data: Float32Array.from([0.1, 0.7, 0.4, 0.9]), shape: [1, 2, 2] },
      }),
      () => unpool.fractionalMaxPool2d(x32, {
        kernelSize: 2, outputRatio: 0.5,
        randomSamples: { data: Float32Array.from([0.3, 0.2, 0.8, 0.6]), shape: [1, 2, 2] },
      }),
    ];
    const once = calls.map((f) => f());
    const bad = () => unpool.maxPool2d(x32, { kernelSize: 0 });
    for (let round = 0; round < 3; ++round) {
      for (let i = calls.length - 1; i >= 0; --i) {
        expect(bad).toThrow(unpool.UnpoolError);
        expect(calls[i](), `call ${i}, round ${round}`).toEqual(once[i]);
        expect(calls[i](), `call ${i} again`).toEqual(once[i]);
      }
    }
  });

  it('backward ops take the small path too: one crossing, no plan() or runPlan()', () => {
    const m = wasm('test') as unknown as Record<string, (...a: number[]) => number>;
    const x = { data: Float32Array.from({ length: 64 }, (_, i) => Math.cos(i)), shape: [1, 1, 8, 8] };
    const p = unpool.maxPool2d(x, { kernelSize: 2 });
    const go = { data: Float32Array.from({ length: 64 }, (_, i) => i), shape: [1, 1, 8, 8] };
    const calls: string[] = [];
    const originals = Object.fromEntries(['plan', 'runPlan', 'runSmall'].map((k) => [k, m[k]]));
    for (const k of Object.keys(originals)) {
      m[k] = (...a: number[]) => {
        calls.push(k);
        return originals[k](...a);
      };
    }
    try {
      unpool.maxPool2dBackward(p.output, p.indices, { inputShape: x.shape, kernelSize: 2 });
      unpool.maxUnpool2dBackward(go, p.indices);
    } finally {
      Object.assign(m, originals);
    }
    expect(calls).toEqual(['runSmall', 'runSmall']);
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
