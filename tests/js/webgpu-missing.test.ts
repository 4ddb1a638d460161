// unpool/webgpu where the runtime has no usable WebGPU: Node.js, WebKitGTK
// (no navigator.gpu at all), Chromium without its WebGPU flags (a
// navigator.gpu that gives no adapter). The module still loads, and
// initWebGPU() refuses as documented: an UnpoolError with code
// 'unsupported' that says what to pass instead, never a TypeError from
// touching what is not there. This file runs in Node and in every browser
// engine of scripts/test-browser.sh; each says which case it is.
import { expect, it } from 'vitest';
import { UnpoolError } from '../../dist/index.js';
import { initWebGPU } from '../../dist/webgpu/index.js';

type Gpu = { requestAdapter(): Promise<unknown> };
const gpu = (globalThis as { navigator?: { gpu?: Gpu } }).navigator?.gpu;

/** What initWebGPU() threw: it must be an UnpoolError with code 'unsupported' and exactly `message`. */
async function expectRefusal(message: string) {
  const error = await initWebGPU().then(() => 'resolved', (e: unknown) => e);
  expect(error).toBeInstanceOf(UnpoolError);
  expect(error).toBeInstanceOf(RangeError);
  expect((error as UnpoolError).code).toBe('unsupported');
  expect((error as UnpoolError).message).toBe(message);
}

it('initWebGPU() refuses with its documented message where there is no WebGPU adapter', async () => {
  if (gpu === undefined) {
    console.log('webgpu-missing: no navigator.gpu');
    await expectRefusal("initWebGPU: this runtime has no navigator.gpu; pass { device } (or, in Node.js, " +
      "{ gpu: create([]) } from the 'webgpu' package)");
  } else if (await gpu.requestAdapter() === null) {
    console.log('webgpu-missing: navigator.gpu without an adapter');
    await expectRefusal('initWebGPU: navigator.gpu.requestAdapter() gave no adapter');
  } else {
    // An engine with a WebGPU adapter: no refusal (tests/webgpu checks the rest).
    console.log('webgpu-missing: navigator.gpu has an adapter');
    const backend = await initWebGPU();
    expect(typeof backend.maxPool2d).toBe('function');
  }
});
