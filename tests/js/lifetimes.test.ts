// WasmTensor lifetimes (issue 44): [Symbol.dispose] is dispose() where the
// engine has the symbol, and a tensor never disposed can be found:
// memoryUsage().liveTensors counts them. The `using` syntax itself:
// tests/js/using.node.test.ts (WebKitGTK cannot parse it, and Vitest's
// browser mode leaves it as written). GpuTensor's side:
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
