// The conformance vectors through the scalar build (dist/unpool-scalar.wasm,
// init({ simd: false })): the same suite as vectors.test.ts, so both builds
// are held to the same bits. Vitest gives each test file its own module
// graph, so the package loaded here is a separate instance from the SIMD one.
import { describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';

await unpool.init({ simd: false });
await import('./vectors.test.js');

describe('scalar build', () => {
  it('is the build in use', () => {
    expect(unpool.backendInfo()).toEqual({ simd: false });
  });
});
