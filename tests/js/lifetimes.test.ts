// WasmTensor lifetimes (issue 44): `using` frees a tensor at the end of its
// block where the engine has Symbol.dispose (Node.js 20+ and the browsers
// here; Vitest lowers the syntax), and a tensor never disposed can be found:
// memoryUsage().liveTensors counts them. GpuTensor's side:
// tests/webgpu/cases/lifetimes.mjs, and docs/webgpu.md's Node.js program
// (run as written on Node.js 24 by the WebGPU stage).
import { describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';

await unpool.init();

const x = () => ({ data: Float32Array.from({ length: 64 }, (_, i) => (i * 5) % 17), shape: [1, 4, 4, 4] });
const hasDispose = typeof (Symbol as { dispose?: unknown }).dispose === 'symbol';

describe('WasmTensor lifetimes', () => {
  it('memoryUsage().liveTensors counts the WasmTensors not disposed', () => {
    const before = unpool.memoryUsage();
    const t = unpool.uploadTensor(x());
    const p = unpool.maxPool2d(t, { kernelSize: 2, resident: true });
    expect(unpool.memoryUsage().liveTensors).toBe(before.liveTensors + 3);
    p.output.dispose();
    p.output.dispose();  // twice: counted once
    expect(unpool.memoryUsage().liveTensors).toBe(before.liveTensors + 2);
    t.dispose(); p.indices.dispose();
    expect(unpool.memoryUsage()).toEqual(before);
    // A failed call makes none.
    expect(() => unpool.maxPool2d(x(), { kernelSize: 9, resident: true })).toThrow(RangeError);
    expect(unpool.memoryUsage()).toEqual(before);
  });

  it.runIf(hasDispose)('using frees a tensor when its block ends, thrown out of or not', () => {
    const before = unpool.memoryUsage();
    let kept: unpool.WasmTensor | undefined;
    {
      using t = unpool.uploadTensor(x());
      const r = unpool.maxPool2d(t, { kernelSize: 2, resident: true });
      using p = r.output;
      using i = r.indices;
      kept = p;
      expect(unpool.memoryUsage().liveTensors).toBe(before.liveTensors + 3);
      expect(Array.from(p.toArray()).length).toBe(16);
      expect(i.dtype).toBe('int32');
    }
    expect(kept.isDisposed).toBe(true);
    expect(unpool.memoryUsage()).toEqual(before);
    expect(() => {
      using t = unpool.uploadTensor(x());
      kept = t;
      throw new Error('out of the block');
    }).toThrow('out of the block');
    expect(kept.isDisposed).toBe(true);
    expect(unpool.memoryUsage()).toEqual(before);
  });

  it('[Symbol.dispose] is dispose() where the engine has the symbol, and absent elsewhere', () => {
    const t = unpool.uploadTensor(x());
    const d = (Symbol as { dispose?: symbol }).dispose;
    if (hasDispose) {
      (t as unknown as Record<symbol, () => void>)[d!]();
      expect(t.isDisposed).toBe(true);
    } else {
      // No method under a key "undefined".
      expect('undefined' in t).toBe(false);
      t.dispose();
    }
  });
});
