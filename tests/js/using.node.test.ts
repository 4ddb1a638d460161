// `using` frees a WasmTensor when its block ends (issue 44), thrown out of or
// not: Node.js 20 has Symbol.dispose, and Vitest lowers the syntax there.
// Node only: WebKitGTK cannot parse `using`, which Vitest's browser mode
// leaves as written (tests/js/lifetimes.test.ts has the rest, everywhere).
import { expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';

await unpool.init();

const x = () => ({ data: Float32Array.from({ length: 64 }, (_, i) => (i * 5) % 17), shape: [1, 4, 4, 4] });

it('using frees a tensor when its block ends, thrown out of or not', () => {
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

