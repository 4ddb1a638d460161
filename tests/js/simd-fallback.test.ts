// Without WebAssembly SIMD, init() picks the scalar build by itself: the
// probe (WebAssembly.validate of a tiny SIMD module) is made to fail here,
// as in an engine without SIMD. Vitest gives this file its own package
// instance, so the other suites keep the SIMD build.
import { afterAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';

const realValidate = WebAssembly.validate;
const probes: number[] = [];
WebAssembly.validate = ((bytes: BufferSource) => {
  const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes as ArrayBuffer);
  probes.push(b.length);
  // The probe is a few dozen bytes; anything else is validated for real.
  return b.length < 64 ? false : realValidate(bytes);
}) as typeof WebAssembly.validate;
await unpool.init();
WebAssembly.validate = realValidate;

afterAll(() => {
  WebAssembly.validate = realValidate;
});

describe('an engine without SIMD', () => {
  it('gets the scalar build, which works', () => {
    expect(probes.length).toBeGreaterThan(0);
    expect(unpool.backendInfo()).toEqual({ simd: false });
    const x = { data: Float32Array.from({ length: 16 }, (_, i) => i + 1), shape: [1, 1, 4, 4] };
    const { output, indices } = unpool.maxPool2d(x, { kernelSize: 2 });
    expect(Array.from(output.data)).toEqual([6, 8, 14, 16]);
    expect(Array.from(indices.data)).toEqual([5, 7, 13, 15]);
  });

  it('backendInfo() returns a copy', () => {
    const info = unpool.backendInfo();
    info.simd = true;
    expect(unpool.backendInfo().simd).toBe(false);
  });
});
