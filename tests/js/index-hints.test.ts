// Index errors that say what the indices fit (issue 44): ONNX Runtime's
// flat MaxPool Indices or TensorFlow's argmax given to an unpool (or a
// backward pass) name convertIndices with its options, and an odd input
// unpooled without outputSize names the outputSize that puts every index
// in its window, on every path (small, streamed, into `out`, resident) and
// in the module classes. GPU content errors: tests/webgpu/cases/index-hints.mjs.
import { describe, expect, it } from 'vitest';
import * as u from '../../dist/index.js';

await u.init();

const message = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(u.isUnpoolError(e)).toBe(true);
    expect((e as u.UnpoolError).code).toBe('invalid_index');
    return (e as Error).message;
  }
  throw new Error('no error');
};
const values = (shape: number[], seed = 1.3) =>
  ({ data: Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * seed) * 100), shape });
const ONNX = "every index is consistent with ONNX's flat indices (MaxPool's Indices: counted over the whole tensor, not per (n, c) plane)";
const TF = "every index is consistent with TensorFlow's indices (tf.nn.max_pool_with_argmax: offset * C + c)";

describe('index errors name what the indices fit', () => {
  it('ONNX Runtime\'s flat indices: convertIndices({ from: \'onnx\' }), int32 and int64, every path', () => {
    const x = values([1, 2, 64, 64]);
    const p = u.maxPool2d(x, { kernelSize: 2, indexType: 'int64' });
    // ORT's MaxPool Indices are these (tests/js/onnxruntime.node.test.ts).
    const flat = u.convertIndices(p.indices, { from: 'pytorch', to: 'onnx', inputShape: x.shape });
    const want = `maxUnpool2d: indices[1024]=4096 is out of range for output plane 64x64 (4096 elements); ${ONNX}: ` +
      "convert them first: convertIndices(indices, { from: 'onnx', to: 'pytorch', inputShape: [1, 2, 64, 64] })";
    expect(message(() => u.maxUnpool2d(p.output, flat, { kernelSize: 2 }))).toBe(want);
    const flat32 = { data: Int32Array.from(flat.data, Number), shape: flat.shape };
    expect(message(() => u.maxUnpool2d(p.output, flat32, { kernelSize: 2 }))).toBe(want);
    expect(message(() => u.maxUnpool2d(p.output, flat, { kernelSize: 2, out: new Float32Array(8192) }))).toBe(want);
    const r = u.uploadTensor(flat);
    expect(message(() => u.maxUnpool2d(p.output, r, { kernelSize: 2 }))).toBe(want);
    r.dispose();
    expect(message(() => new u.MaxUnpool2d(2).forward(p.output, flat))).toBe(want.replace(/^maxUnpool2d/, 'MaxUnpool2d.forward'));
    // ... and the fix it names works.
    const fixed = u.convertIndices(flat, { from: 'onnx', to: 'pytorch', inputShape: [1, 2, 64, 64] });
    expect(u.maxUnpool2d(p.output, fixed, { kernelSize: 2 }).shape).toEqual([1, 2, 64, 64]);
  });

  it('a streamed call (planes range by range) gives the whole tensor\'s hint', () => {
    const x = values([2, 32, 64, 64]);
    const p = u.maxPool2d(x, { kernelSize: 2 });
    const flat = u.convertIndices(p.indices, { from: 'pytorch', to: 'onnx', inputShape: x.shape });
    expect(message(() => u.maxUnpool2d(p.output, flat, { kernelSize: 2 }))).toBe(
      `maxUnpool2d: indices[1024]=4096 is out of range for output plane 64x64 (4096 elements); ${ONNX}: ` +
      "convert them first: convertIndices(indices, { from: 'onnx', to: 'pytorch', inputShape: [2, 32, 64, 64] })");
  });

  it('TensorFlow\'s indices, channels last: convertIndices({ from: \'tensorflow\', layout })', () => {
    const x = values([1, 8, 8, 3]);
    const p = u.maxPool2d(x, { kernelSize: 2, layout: 'NHWC' });
    const tf = u.convertIndices(p.indices, { from: 'pytorch', to: 'tensorflow', inputShape: x.shape, layout: 'NHWC' });
    const m = message(() => u.maxUnpool2d(p.output, tf, { kernelSize: 2, layout: 'NHWC' }));
    expect(m).toMatch(/^maxUnpool2d: indices\[\d+\]=\d+ is out of range for output plane 8x8 \(64 elements\); /);
    expect(m.endsWith(`; ${TF}: convert them first: convertIndices(indices, { from: 'tensorflow', to: 'pytorch', ` +
      "inputShape: [1, 8, 8, 3], layout: 'NHWC' })")).toBe(true);
  });

  it('an odd input unpooled without outputSize: the outputSize that puts every index in its window (2d, 3d)', () => {
    const x = values([1, 1, 65, 65], 1.7);
    const p = u.maxPool2d(x, { kernelSize: 2 });
    const want = 'maxUnpool2d: indices[992]=4096 is out of range for output plane 64x64 (4096 elements); every index ' +
      'lies in its own window with outputSize: [65, 65] (maxUnpool2dOutputRange allows 63..65, 63..65): pass it';
    expect(message(() => u.maxUnpool2d(p.output, p.indices, { kernelSize: 2 }))).toBe(want);
    expect(message(() => new u.MaxUnpool2d(2).forward(p.output, p.indices))).toBe(want.replace(/^maxUnpool2d/, 'MaxUnpool2d.forward'));
    expect(u.maxUnpool2d(p.output, p.indices, { kernelSize: 2, outputSize: [65, 65] }).shape).toEqual([1, 1, 65, 65]);
    // (In 1d an index of a pool never passes its default unpool's end: no error to hint at.)
    const p3 = u.maxPool3d(values([1, 1, 5, 4, 5]), { kernelSize: 2 });
    expect(message(() => u.maxUnpool3d(p3.output, p3.indices, { kernelSize: 2 })))
      .toMatch(/; every index lies in its own window with outputSize: \[5, 4, 5\] \(maxUnpool3dOutputRange allows 3\.\.5, 3\.\.5, 3\.\.5\): pass it$/);
  });

  it('ONNX\'s flat indices of an odd input: both fixes; indices in no window: no outputSize named', () => {
    const x = values([1, 2, 65, 65], 1.1);
    const p = u.maxPool2d(x, { kernelSize: 2 });
    const flat = u.convertIndices(p.indices, { from: 'pytorch', to: 'onnx', inputShape: x.shape });
    expect(message(() => u.maxUnpool2d(p.output, flat, { kernelSize: 2 }))).toMatch(
      new RegExp(`; ${ONNX.replace(/[()]/g, '\\$&')} into planes of outputSize: \\[65, 65\\]: convert them first ` +
        "\\(convertIndices\\(indices, \\{ from: 'onnx', to: 'pytorch', inputShape: \\[1, 2, 65, 65\\] \\}\\)\\) and pass outputSize: \\[65, 65\\]$"));
    // Each plane's indices reversed: in range for 65x65, but in no window:
    // no pool's indices of this geometry, and no outputSize is named.
    const q = u.maxPool2d(values([1, 1, 65, 65]), { kernelSize: 2 });
    const reversed = { data: q.indices.data.slice().reverse(), shape: q.indices.shape };
    expect(message(() => u.maxUnpool2d(q.output, reversed, { kernelSize: 2 })))
      .toMatch(/^maxUnpool2d: indices\[\d+\]=\d+ is out of range for output plane 64x64 \(4096 elements\)$/);
  });

  it('backward passes: ONNX\'s flat indices', () => {
    const x = values([1, 3, 8, 8]);
    const p = u.maxPool2d(x, { kernelSize: 2 });
    const flat = u.convertIndices(p.indices, { from: 'pytorch', to: 'onnx', inputShape: x.shape });
    const tail = `; ${ONNX}: convert them first: convertIndices(indices, { from: 'onnx', to: 'pytorch', inputShape: [1, 3, 8, 8] })`;
    expect(message(() => u.maxPool2dBackward(p.output, flat, { inputShape: x.shape, kernelSize: 2 })).endsWith(tail)).toBe(true);
    expect(message(() => u.maxPool2dBackward(p.output, flat, { inputShape: x.shape })).endsWith(tail)).toBe(true);
    expect(message(() => u.maxUnpool2dBackward(x, flat)).endsWith(tail)).toBe(true);
    expect(message(() => new u.MaxPool2d(2).backward(p.output, flat, x.shape)).endsWith(tail)).toBe(true);
  });

  it('indices that fit nothing: the message alone', () => {
    const x = values([1, 2, 8, 8]);
    const p = u.maxPool2d(x, { kernelSize: 2 });
    const bad = { data: p.indices.data.map((v, i) => (i === 5 ? 99999 : v)), shape: p.indices.shape };
    expect(message(() => u.maxUnpool2d(p.output, bad, { kernelSize: 2 })))
      .toBe('maxUnpool2d: indices[5]=99999 is out of range for output plane 8x8 (64 elements)');
    // A kernel-free unpool has no outputSize range to try.
    const odd = u.maxPool2d({ data: Float32Array.from({ length: 25 }, (_, i) => i), shape: [1, 1, 5, 5] }, { kernelSize: 2 });
    expect(message(() => u.maxUnpool2d(odd.output, odd.indices, { outputSize: [4, 4] })))
      .toBe('maxUnpool2d: indices[2]=16 is out of range for output plane 4x4 (16 elements)');
  });
});
