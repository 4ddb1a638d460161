// Before init() has finished, calls throw an Error that says what to do.
// Vitest isolates test files, so the module is not loaded in this one.
import { describe, expect, it } from 'vitest';
import { init, isReady, maxPool2d, memoryUsage } from '../../dist/index.js';

describe('before init()', () => {
  it('throws an Error naming the function and init()', () => {
    expect(isReady()).toBe(false);
    const x = { data: new Float32Array(4), shape: [1, 1, 2, 2] };
    expect(() => maxPool2d(x, { kernelSize: 2 })).toThrow(/^maxPool2d: the WebAssembly module is not loaded; await init\(\) first$/);
    expect(() => memoryUsage()).toThrow(/^memoryUsage: .*init\(\)/);
  });

  it('a failed init() can be retried', async () => {
    await expect(init({ locateFile: () => 'file:///nonexistent/unpool.wasm' })).rejects.toBeDefined();
    expect(isReady()).toBe(false);
    await init();
    expect(isReady()).toBe(true);
  });
});
