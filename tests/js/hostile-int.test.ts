// Hostile arguments for the integer value types (issue 31): the types no
// op pools, the ops that refuse integers, integer gradients of the passes
// that add, and `out` arrays of another class than the result's. Each is a
// TypeError naming the function, the parameter and the type, thrown before
// anything is written, with nothing left allocated in the module.
import { beforeAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';

type Fn = (...args: unknown[]) => unknown;
const api = unpool as unknown as Record<string, Fn>;

beforeAll(async () => {
  await unpool.init();
});

const x2 = (data: ArrayBufferView) => ({ data, shape: [1, 1, 4, 4] });
const idx4 = () => ({ data: Int32Array.from([0, 2, 8, 10]), shape: [1, 1, 2, 2] });
const g2 = (data: ArrayBufferView) => ({ data, shape: [1, 1, 2, 2] });

type Case = [string, () => unknown, RegExp];

const cases: Case[] = [
  // Types nothing pools: uint16 (a Uint16Array is float16/bfloat16 bits), uint32, uint64.
  ['maxPool2d Uint16Array without dtype', () => api.maxPool2d(x2(new Uint16Array(16)), { kernelSize: 2 }),
    /^maxPool2d: x\.data is a Uint16Array\(16\) of raw 16-bit floats; give x\.dtype 'float16' or 'bfloat16'/],
  ['maxPool2d Uint16Array dtype uint16', () => api.maxPool2d({ ...x2(new Uint16Array(16)), dtype: 'uint16' }, { kernelSize: 2 }),
    /^maxPool2d: x\.dtype="uint16" is not a value dtype/],
  ['maxPool2d Uint32Array', () => api.maxPool2d(x2(new Uint32Array(16)), { kernelSize: 2 }),
    /^maxPool2d: x\.data must be .*, got Uint32Array\(16\)$/],
  ['adaptiveMaxPool3d Uint32Array', () => api.adaptiveMaxPool3d({ data: new Uint32Array(8), shape: [1, 1, 2, 2, 2] }, { outputSize: 1 }),
    /^adaptiveMaxPool3d: x\.data must be .*, got Uint32Array\(8\)$/],
  ['maxUnpool2d BigUint64Array', () => api.maxUnpool2d(g2(new BigUint64Array(4)), idx4(), { kernelSize: 2 }),
    /^maxUnpool2d: x\.data must be .*, got BigUint64Array\(4\)$/],
  ['maxUnpool2dBackward Uint32Array', () => api.maxUnpool2dBackward(x2(new Uint32Array(16)), idx4()),
    /^maxUnpool2dBackward: gradOutput\.data must be .*, got Uint32Array\(16\)$/],
  ['ONNX Runtime type bool', () => api.maxPool2d({ data: new Uint8Array(16), dims: [1, 1, 4, 4], type: 'bool' }, { kernelSize: 2 }),
    /^maxPool2d: x\.type="bool" is not a value dtype/],
  // Fractional pooling: no integer form.
  ['fractionalMaxPool2d uint8', () => api.fractionalMaxPool2d(x2(new Uint8Array(16)), { kernelSize: 2, outputSize: 2 }),
    /^fractionalMaxPool2d: x holds uint8 values; fractional pooling takes float32 or float64 only$/],
  ['fractionalMaxPool3d int64', () => api.fractionalMaxPool3d({ data: new BigInt64Array(64), shape: [1, 1, 4, 4, 4] }, { kernelSize: 2, outputSize: 2 }),
    /^fractionalMaxPool3d: x holds int64 values; fractional pooling takes float32 or float64 only$/],
  ['fractionalMaxPool2dBackward int16', () => api.fractionalMaxPool2dBackward(g2(new Int16Array(4)), idx4(), { inputShape: [1, 1, 4, 4] }),
    /^fractionalMaxPool2dBackward: gradOutput holds int16 values; fractional pooling takes float32 or float64 only$/],
  // Integer gradients of the passes that add.
  ['maxPool2dBackward uint8', () => api.maxPool2dBackward(g2(new Uint8Array(4)), idx4(), { kernelSize: 2, inputShape: [1, 1, 4, 4] }),
    /^maxPool2dBackward: gradOutput\.data is a Uint8Array\(4\) of uint8 values; a pool's gradient adds/],
  ['maxPool2dBackward Uint8ClampedArray', () => api.maxPool2dBackward(g2(new Uint8ClampedArray(4)), idx4(), { kernelSize: 2, inputShape: [1, 1, 4, 4] }),
    /^maxPool2dBackward: gradOutput\.data is a Uint8ClampedArray\(4\) of uint8 values; a pool's gradient adds/],
  ['maxPool1dBackward int64', () => api.maxPool1dBackward({ data: new BigInt64Array(2), shape: [1, 1, 2] }, { data: new Int32Array(2), shape: [1, 1, 2] }, { kernelSize: 2, inputShape: [1, 1, 4] }),
    /^maxPool1dBackward: gradOutput\.data is a BigInt64Array\(2\) of int64 values; a pool's gradient adds/],
  ['adaptiveMaxPool2dBackward int32', () => api.adaptiveMaxPool2dBackward(g2(new Int32Array(4)), idx4(), { inputShape: [1, 1, 4, 4] }),
    /^adaptiveMaxPool2dBackward: gradOutput\.data is an Int32Array\(4\) of int32 values; a pool's gradient adds/],
  ['MaxPool2d.backward int8', () => new unpool.MaxPool2d(2).backward(g2(new Int8Array(4)) as never, idx4(), [1, 1, 4, 4]),
    /^MaxPool2d\.backward: gradOutput\.data is an Int8Array\(4\) of int8 values; a pool's gradient adds/],
  // `out` of another class than the result's (the input's).
  ['maxPool2d uint8, out.output Int8Array', () => api.maxPool2d(x2(new Uint8Array(16)), { kernelSize: 2, out: { output: new Int8Array(4) } }),
    /^maxPool2d: out\.output must be a Uint8Array \(the result's type\), got Int8Array\(4\)$/],
  ['maxPool2d Uint8ClampedArray, out.output Uint8Array', () => api.maxPool2d(x2(new Uint8ClampedArray(16)), { kernelSize: 2, out: { output: new Uint8Array(4) } }),
    /^maxPool2d: out\.output must be a Uint8ClampedArray \(the result's type\), got Uint8Array\(4\)$/],
  ['maxPool2d int32 values, out.output Float32Array', () => api.maxPool2d(x2(new Int32Array(16)), { kernelSize: 2, out: { output: new Float32Array(4) } }),
    /^maxPool2d: out\.output must be an Int32Array \(the result's type\), got Float32Array\(4\)$/],
  ['maxUnpool2d int16, out Float32Array', () => api.maxUnpool2d(g2(new Int16Array(4)), idx4(), { kernelSize: 2, out: new Float32Array(16) }),
    /^maxUnpool2d: out must be an Int16Array \(the result's type\), got Float32Array\(16\)$/],
  ['maxUnpool2dBackward float32 gradOutput, out Int16Array', () => api.maxUnpool2dBackward(x2(new Float32Array(16)), idx4(), { out: new Int16Array(4) }),
    /^maxUnpool2dBackward: out must be a Float32Array \(the result's type\), got Int16Array\(4\)$/],
  ['maxUnpool2dBackward int64 gradOutput, out Int32Array', () => api.maxUnpool2dBackward(x2(new BigInt64Array(16)), idx4(), { out: new Int32Array(4) }),
    /^maxUnpool2dBackward: out must be a BigInt64Array \(the result's type\), got Int32Array\(4\)$/],
  ['adaptiveMaxPool2d int8, out.output Uint8Array', () => api.adaptiveMaxPool2d(x2(new Int8Array(16)), { outputSize: 2, out: { output: new Uint8Array(4) } }),
    /^adaptiveMaxPool2d: out\.output must be an Int8Array \(the result's type\), got Uint8Array\(4\)$/],
  // A dtype that does not fit the class.
  ['maxPool2d Int8Array dtype uint8', () => api.maxPool2d({ ...x2(new Int8Array(16)), dtype: 'uint8' }, { kernelSize: 2 }),
    /^maxPool2d: x\.dtype="uint8" does not fit x\.data, an Int8Array\(16\): uint8 data is a Uint8Array or a Uint8ClampedArray$/],
  ['maxUnpool2d int8 indices', () => api.maxUnpool2d(g2(new Uint8Array(4)), g2(new Int8Array(4)), { kernelSize: 2 }),
    /^maxUnpool2d: indices\.data must be an Int32Array or BigInt64Array, got Int8Array\(4\)$/],
];

describe('hostile integer arguments', () => {
  for (const [name, call, message] of cases) {
    it(name, () => {
      const before = unpool.memoryUsage().inUseBytes;
      let thrown: unknown;
      try {
        call();
      } catch (e) {
        thrown = e;
      }
      expect(thrown, name).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toMatch(message);
      expect(unpool.isUnpoolError(thrown)).toBe(true);
      expect(unpool.memoryUsage().inUseBytes).toBe(before);
    });
  }

  it('an out of the wrong class is left untouched', () => {
    const out = { output: new Int8Array(4).fill(7), indices: new Int32Array(4).fill(7) };
    expect(() => api.maxPool2d(x2(new Uint8Array(16)), { kernelSize: 2, out })).toThrow(TypeError);
    expect(Array.from(out.output)).toEqual([7, 7, 7, 7]);
    expect(Array.from(out.indices)).toEqual([7, 7, 7, 7]);
  });

  it('an index out of range in an integer unpool leaves out untouched', () => {
    const out = new Uint8Array(16).fill(9);
    expect(() => api.maxUnpool2d(g2(Uint8Array.from([1, 2, 3, 4])), { data: Int32Array.from([0, 2, 8, 16]), shape: [1, 1, 2, 2] },
      { kernelSize: 2, out })).toThrow(/^maxUnpool2d: indices\[3\]=16 is out of range for output plane 4x4 \(16 elements\)/);
    expect(out.every((v) => v === 9)).toBe(true);
  });
});
