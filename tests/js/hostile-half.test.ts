// Hostile arguments of the 16-bit dtypes: a Uint16Array without its dtype,
// dtypes that do not fit their data (in `{ data, shape, dtype }` and in
// ONNX Runtime's `{ data, dims, type }`), mismatched dtypes of the values,
// gradients, `out` arrays and random samples, and 16-bit values where they
// are refused. Each call must throw the exact error (class and message
// naming the function, the parameter and the value), leave `out` and the
// heap as they were, and leave the module working. (Every bad `dtype` value
// of every tensor of every function is in hostile.test.ts.)
import { describe, expect, it } from 'vitest';
import * as typed from '../../dist/index.js';
import { HostileCase, hostileCases } from './hostile-suite.js';

// Hostile calls break the declared types on purpose: the API is called as
// untyped JavaScript would call it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const unpool = typed as any;
await unpool.init();

const F16 = (globalThis as { Float16Array?: new (n: number) => Float32Array }).Float16Array;
const U16 = "a Uint16Array(16) of raw 16-bit floats; give x.dtype 'float16' or 'bfloat16' to say which " +
  '(an ONNX Runtime tensor { data, dims, type } says it with type)';
const raw = (name: string, n: number) => U16.replace('x.dtype', `${name}.dtype`).replace('(16)', `(${n})`);
const NOT_VALUE = "is not a value dtype; expected 'float32', 'float64', 'float16', 'bfloat16', 'uint8', 'int8', 'int16', 'int32' or 'int64'";

const x16 = (dtype?: string) => ({ data: new Uint16Array(16).fill(0x3c00), shape: [1, 1, 4, 4], dtype });
const g16 = (dtype?: string) => ({ data: new Uint16Array(4).fill(0x3c00), shape: [1, 1, 2, 2], dtype });
const x32 = () => ({ data: Float32Array.from({ length: 16 }, (_, i) => i), shape: [1, 1, 4, 4] });
const idx = () => ({ data: Int32Array.from([5, 7, 13, 15]), shape: [1, 1, 2, 2] });
const ort = (data: unknown, type?: unknown) => ({ data, dims: [1, 1, 4, 4], type, size: 16, location: 'cpu' });


const cases: HostileCase[] = [
  // A Uint16Array needs a dtype, wherever values are taken.
  ['maxPool2d x Uint16Array', () => unpool.maxPool2d(x16(), { kernelSize: 2 }), TypeError, `maxPool2d: x.data is ${U16}`],
  ['maxUnpool2d x Uint16Array', () => unpool.maxUnpool2d(g16(), idx(), { kernelSize: 2 }), TypeError,
   `maxUnpool2d: x.data is ${raw('x', 4)}`],
  ['maxPool2dBackward gradOutput Uint16Array', () => unpool.maxPool2dBackward(g16(), idx(), { inputShape: [1, 1, 4, 4] }),
   TypeError, `maxPool2dBackward: gradOutput.data is ${raw('gradOutput', 4)}`],
  ['maxUnpool2dBackward gradOutput Uint16Array', () => unpool.maxUnpool2dBackward(x16(), idx()), TypeError,
   `maxUnpool2dBackward: gradOutput.data is ${raw('gradOutput', 16)}`],
  ['adaptiveMaxPool1d x Uint16Array', () => unpool.adaptiveMaxPool1d({ data: new Uint16Array(4), shape: [1, 4] }, { outputSize: 2 }),
   TypeError, `adaptiveMaxPool1d: x.data is ${raw('x', 4)}`],
  ['adaptiveMaxPool2dBackward gradOutput Uint16Array', () => unpool.adaptiveMaxPool2dBackward(g16(), idx(), { inputShape: [1, 1, 4, 4] }),
   TypeError, `adaptiveMaxPool2dBackward: gradOutput.data is ${raw('gradOutput', 4)}`],
  ['fractionalMaxPool2d randomSamples Uint16Array', () => unpool.fractionalMaxPool2d(x32(), { kernelSize: 2, outputSize: 2,
    randomSamples: { data: new Uint16Array(2), shape: [1, 1, 2] } }), TypeError,
   `fractionalMaxPool2d: randomSamples.data is ${raw('randomSamples', 2)}`],
  ['MaxPool3d forward Uint16Array', () => new unpool.MaxPool3d(2).forward({ data: new Uint16Array(8), shape: [1, 2, 2, 2] }),
   TypeError, `MaxPool3d.forward: x.data is ${raw('x', 8)}`],
  ['uploadTensor Uint16Array', () => unpool.uploadTensor({ data: new Uint16Array(16), shape: [16] }), TypeError,
   `uploadTensor: t.data is ${raw('t', 16)}`],
  ['maxPool2d ONNX Runtime tensor without type', () => unpool.maxPool2d(ort(new Uint16Array(16)), { kernelSize: 2 }),
   TypeError, `maxPool2d: x.data is ${U16}`],
  // ONNX Runtime types that are not value dtypes, or do not fit the data.
  ['maxPool2d ONNX Runtime uint16', () => unpool.maxPool2d(ort(new Uint16Array(16), 'uint16'), { kernelSize: 2 }),
   TypeError, `maxPool2d: x.type="uint16" ${NOT_VALUE}`],
  ['maxPool2d ONNX Runtime int64', () => unpool.maxPool2d(ort(new Uint16Array(16), 'int64'), { kernelSize: 2 }),
   TypeError, 'maxPool2d: x.type="int64" does not fit x.data, a Uint16Array(16): int64 data is a BigInt64Array'],
  ['maxPool2d ONNX Runtime float16 of floats', () => unpool.maxPool2d(ort(new Float32Array(16), 'float16'), { kernelSize: 2 }),
   TypeError, 'maxPool2d: x.type="float16" does not fit x.data, a Float32Array(16): float16 data is a Float16Array or a Uint16Array'],
  ['maxPool2d ONNX Runtime float32 of bits', () => unpool.maxPool2d(ort(new Uint16Array(16), 'float32'), { kernelSize: 2 }),
   TypeError, 'maxPool2d: x.type="float32" does not fit x.data, a Uint16Array(16): float32 data is a Float32Array'],
  ['maxPool2d ONNX Runtime type 10', () => unpool.maxPool2d(ort(new Uint16Array(16), 10), { kernelSize: 2 }),
   TypeError, `maxPool2d: x.type=10 ${NOT_VALUE}`],
  ['maxUnpool2d ONNX Runtime indices int32 of int64', () => unpool.maxUnpool2d(x32(), { data: new BigInt64Array(16), dims: [1, 1, 4, 4], type: 'int32' },
    { kernelSize: 1 }), TypeError,
   'maxUnpool2d: indices.type="int32" does not fit indices.data, a BigInt64Array(16): int32 data is an Int32Array'],
  ['convertIndices ONNX Runtime float indices', () => unpool.convertIndices({ data: new BigInt64Array(4), dims: [1, 1, 2, 2], type: 'float32' },
    { from: 'onnx', to: 'pytorch', inputShape: [1, 1, 4, 4] }), TypeError,
   "convertIndices: indices.type=\"float32\" is not an index dtype; expected 'int32' or 'int64'"],
  // dtype against data class.
  ['maxPool2d Float32Array as float16', () => unpool.maxPool2d({ ...x32(), dtype: 'float16' }, { kernelSize: 2 }), TypeError,
   'maxPool2d: x.dtype="float16" does not fit x.data, a Float32Array(16): float16 data is a Float16Array or a Uint16Array'],
  ['maxPool2d Float32Array as bfloat16', () => unpool.maxPool2d({ ...x32(), dtype: 'bfloat16' }, { kernelSize: 2 }), TypeError,
   'maxPool2d: x.dtype="bfloat16" does not fit x.data, a Float32Array(16): bfloat16 data is a Uint16Array'],
  ['maxPool2d Float64Array as float32', () => unpool.maxPool2d({ data: new Float64Array(16), shape: [1, 1, 4, 4], dtype: 'float32' },
    { kernelSize: 2 }), TypeError,
   'maxPool2d: x.dtype="float32" does not fit x.data, a Float64Array(16): float32 data is a Float32Array'],
  ['maxPool2d Uint16Array as float32', () => unpool.maxPool2d(x16('float32'), { kernelSize: 2 }), TypeError,
   'maxPool2d: x.dtype="float32" does not fit x.data, a Uint16Array(16): float32 data is a Float32Array'],
  ['maxPool2d Uint16Array as int32', () => unpool.maxPool2d(x16('int32'), { kernelSize: 2 }), TypeError,
   'maxPool2d: x.dtype="int32" does not fit x.data, a Uint16Array(16): int32 data is an Int32Array'],
  ['maxUnpool2d Int32Array indices as int64', () => unpool.maxUnpool2d(g16('float16'), { ...idx(), dtype: 'int64' },
    { kernelSize: 2 }), TypeError,
   'maxUnpool2d: indices.dtype="int64" does not fit indices.data, an Int32Array(4): int64 data is a BigInt64Array'],
  ['maxUnpool2d indices as float16', () => unpool.maxUnpool2d(g16('float16'), { ...idx(), dtype: 'float16' },
    { kernelSize: 2 }), TypeError,
   "maxUnpool2d: indices.dtype=\"float16\" is not an index dtype; expected 'int32' or 'int64'"],
  ['maxPool2d dtype "Float16"', () => unpool.maxPool2d(x16('Float16'), { kernelSize: 2 }), TypeError,
   `maxPool2d: x.dtype="Float16" ${NOT_VALUE}`],
  ['maxPool2d dtype 2 (the core\'s code)', () => unpool.maxPool2d(x16(2 as never), { kernelSize: 2 }), TypeError,
   `maxPool2d: x.dtype=2 ${NOT_VALUE}`],
  // Values, gradients, out arrays and samples of different dtypes.
  ['maxPool2d float16 x, Float32Array out.output', () => unpool.maxPool2d(x16('float16'), { kernelSize: 2,
    out: { output: new Float32Array(4) } }), TypeError,
   "maxPool2d: out.output must be a Uint16Array of float16 (the result's type), got Float32Array(4)"],
  ['maxPool2d float32 x, Uint16Array out.output', () => unpool.maxPool2d(x32(), { kernelSize: 2,
    out: { output: new Uint16Array(4) } }), TypeError,
   "maxPool2d: out.output must be a Float32Array (the result's type), got Uint16Array(4)"],
  ['maxUnpool2d bfloat16 x, Float64Array out', () => unpool.maxUnpool2d(g16('bfloat16'), idx(), { kernelSize: 2,
    out: new Float64Array(16) }), TypeError,
   "maxUnpool2d: out must be a Uint16Array of bfloat16 (the result's type), got Float64Array(16)"],
  ['maxPool2dBackward float16 gradOutput, Float32Array out', () => unpool.maxPool2dBackward(g16('float16'), idx(),
    { inputShape: [1, 1, 4, 4], out: new Float32Array(16) }), TypeError,
   "maxPool2dBackward: out must be a Uint16Array of float16 (the result's type), got Float32Array(16)"],
  ['maxUnpool2dBackward float32 gradOutput, Uint16Array out', () => unpool.maxUnpool2dBackward(x32(), idx(),
    { out: new Uint16Array(4) }), TypeError,
   "maxUnpool2dBackward: out must be a Float32Array (the result's type), got Uint16Array(4)"],
  ['adaptiveMaxPool2dBackward bfloat16 gradOutput, Float32Array out', () => unpool.adaptiveMaxPool2dBackward(g16('bfloat16'), idx(),
    { inputShape: [1, 1, 4, 4], out: new Float32Array(16) }), TypeError,
   "adaptiveMaxPool2dBackward: out must be a Uint16Array of bfloat16 (the result's type), got Float32Array(16)"],
  ['maxPool2d float16 out.output length 5', () => unpool.maxPool2d(x16('float16'), { kernelSize: 2,
    out: { output: new Uint16Array(5) } }), RangeError, 'maxPool2d: out.output has length 5; the result has 4 elements'],
  ['fractionalMaxPool2d float32 x, float16 samples', () => unpool.fractionalMaxPool2d(x32(), { kernelSize: 2, outputSize: 2,
    randomSamples: { data: new Uint16Array(2), shape: [1, 1, 2], dtype: 'float16' } }), TypeError,
   'fractionalMaxPool2d: randomSamples must have the dtype of x (float32), got float16'],
  ['fractionalMaxPool2d float16 x', () => unpool.fractionalMaxPool2d(x16('float16'), { kernelSize: 2, outputSize: 2 }),
   TypeError, 'fractionalMaxPool2d: x holds float16 values; fractional pooling takes float32 or float64 only'],
  ['fractionalMaxPool3dBackward bfloat16 gradOutput', () => unpool.fractionalMaxPool3dBackward(
    { data: new Uint16Array(8), shape: [1, 1, 2, 2, 2], dtype: 'bfloat16' },
    { data: new Int32Array(8), shape: [1, 1, 2, 2, 2] }, { inputShape: [1, 1, 4, 4, 4] }), TypeError,
   'fractionalMaxPool3dBackward: gradOutput holds bfloat16 values; fractional pooling takes float32 or float64 only'],
  ...(F16 ? [
    ['maxPool2d Float16Array as bfloat16', () => unpool.maxPool2d({ data: new F16(16), shape: [1, 1, 4, 4], dtype: 'bfloat16' },
      { kernelSize: 2 }), TypeError,
     'maxPool2d: x.dtype="bfloat16" does not fit x.data, a Float16Array(16): bfloat16 data is a Uint16Array'],
    ['maxPool2d Float16Array x, Uint16Array out.output', () => unpool.maxPool2d({ data: new F16(16), shape: [1, 1, 4, 4] },
      { kernelSize: 2, out: { output: new Uint16Array(4) } }), TypeError,
     "maxPool2d: out.output must be a Float16Array (the result's type), got Uint16Array(4)"],
    ['maxUnpool2d float16 Uint16Array x, Float16Array out', () => unpool.maxUnpool2d(g16('float16'), idx(),
      { kernelSize: 2, out: new F16(16) }), TypeError,
     "maxUnpool2d: out must be a Uint16Array of float16 (the result's type), got Float16Array(16)"],
    ['maxPool2d Float16Array indices', () => unpool.maxUnpool2d(g16('float16'), { data: new F16(4), shape: [1, 1, 2, 2] },
      { kernelSize: 2 }), TypeError,
     'maxUnpool2d: indices.data must be an Int32Array or BigInt64Array, got Float16Array(4)'],
  ] as HostileCase[] : []),
];

function moduleStillWorks(): void {
  const r = unpool.maxPool2d({ data: Uint16Array.from({ length: 16 }, (_, i) => 0x3c00 + i), shape: [1, 1, 4, 4],
    dtype: 'float16' }, { kernelSize: 2 });
  expect(Array.from(r.output.data)).toEqual([0x3c05, 0x3c07, 0x3c0d, 0x3c0f]);
  expect(Array.from(r.indices.data)).toEqual([5, 7, 13, 15]);
}

describe('hostile 16-bit arguments', () => {
  hostileCases(cases, moduleStillWorks);

  it('a WasmTensor of 16-bit values is not indices; an out array is written only by a call that succeeds', () => {
    const t = unpool.uploadTensor(g16('bfloat16'));
    expect(() => unpool.maxUnpool2d(g16('bfloat16'), t, { kernelSize: 2 }))
      .toThrow(new unpool.UnpoolTypeError('maxUnpool2d: indices must hold int32 or int64 data, got a WasmTensor of bfloat16'));
    const out = new Uint16Array(16).fill(0x1234);
    expect(() => unpool.maxUnpool2d(t, { data: Int32Array.from([0, 1, 2, 16]), shape: [1, 1, 2, 2] },
      { kernelSize: 2, out })).toThrow(/^maxUnpool2d: indices\[3\]=16 is out of range/);
    expect(out.every((v) => v === 0x1234)).toBe(true);
    const y = unpool.maxUnpool2d(t, idx(), { kernelSize: 2, out });
    expect(y.data).toBe(out);
    expect(y.dtype).toBe('bfloat16');
    t.dispose();
  });
});
