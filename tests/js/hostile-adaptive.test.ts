// Hostile values for every option of adaptive and fractional max pooling
// and of the kernel-free unpool: each call must throw the exact error (class,
// message naming the function, the parameter and the value, and the core's
// code when the core decides), leave the heap as it was, and leave the
// module working.
import { afterAll, describe, expect, it } from 'vitest';
import * as typed from '../../dist/index.js';

// Hostile calls break the declared types on purpose: the API is called as
// untyped JavaScript would call it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const unpool = typed as any;
await unpool.init();

const x2 = () => ({ data: Float32Array.from({ length: 16 }, (_, i) => (i * 7) % 23), shape: [1, 1, 4, 4] });
const s2 = () => ({ data: Float32Array.from([0.25, 0.5]), shape: [1, 1, 2] });
const go = () => ({ data: new Float32Array(4).fill(1), shape: [1, 1, 2, 2] });
const idx = () => ({ data: Int32Array.from([5, 7, 13, 15]), shape: [1, 1, 2, 2] });

type Case = [label: string, call: () => unknown, type: typeof TypeError | typeof RangeError,
  message: string, code?: string];

const cases: Case[] = [
  ['adaptiveMaxPool2d outputSize missing', () => unpool.adaptiveMaxPool2d(x2(), {}),
   TypeError, 'adaptiveMaxPool2d: outputSize is required'],
  ['adaptiveMaxPool2d options null', () => unpool.adaptiveMaxPool2d(x2(), null),
   TypeError, 'adaptiveMaxPool2d: options must be an object with outputSize, got null'],
  ['adaptiveMaxPool2d outputSize "2"', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: '2' }),
   TypeError, 'adaptiveMaxPool2d: outputSize must be a number or an array of numbers (null: keep the input\'s size), got "2"'],
  ['adaptiveMaxPool2d outputSize null', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: null }),
   TypeError, "adaptiveMaxPool2d: outputSize must be a number or an array of numbers (null: keep the input's size), got null"],
  ['adaptiveMaxPool2d outputSize 0', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: 0 }),
   RangeError, 'adaptiveMaxPool2d: outputSize=0 must be >= 1', 'invalid_argument'],
  ['adaptiveMaxPool2d outputSize -1', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: -1 }),
   RangeError, 'adaptiveMaxPool2d: outputSize=-1 must be >= 1', 'invalid_argument'],
  ['adaptiveMaxPool2d outputSize 2.5', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: 2.5 }),
   RangeError, 'adaptiveMaxPool2d: outputSize=2.5 must be an integer'],
  ['adaptiveMaxPool2d outputSize [2,NaN]', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: [2, NaN] }),
   RangeError, 'adaptiveMaxPool2d: outputSize[1]=NaN must be an integer'],
  ['adaptiveMaxPool2d outputSize [2,"2"]', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: [2, '2'] }),
   TypeError, 'adaptiveMaxPool2d: outputSize[1]="2" must be a number'],
  ['adaptiveMaxPool2d outputSize [2,undefined]', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: [2, undefined] }),
   TypeError, 'adaptiveMaxPool2d: outputSize[1]=undefined must be a number'],
  ['adaptiveMaxPool2d outputSize [2]', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: [2] }),
   RangeError, 'adaptiveMaxPool2d: outputSize must have 2 entries, got 1', 'invalid_argument'],
  ['adaptiveMaxPool2d outputSize [2,2,2]', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: [2, 2, 2] }),
   RangeError, 'adaptiveMaxPool2d: outputSize must have 2 entries, got 3', 'invalid_argument'],
  ['adaptiveMaxPool2d outputSize [null]', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: [null] }),
   RangeError, 'adaptiveMaxPool2d: outputSize must have 2 entries, got 1', 'invalid_argument'],
  ['adaptiveMaxPool2d outputSize [2,0]', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: [2, 0] }),
   RangeError, 'adaptiveMaxPool2d: outputSize[1]=0 must be >= 1', 'invalid_argument'],
  ['adaptiveMaxPool2d outputSize 2**40', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: 2 ** 40 }),
   RangeError, 'adaptiveMaxPool2d: outputSize=1099511627776 exceeds the limit 2147483647', 'too_large'],
  ['adaptiveMaxPool2d outputSize 2**31', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: [2, 2 ** 31] }),
   RangeError, 'adaptiveMaxPool2d: outputSize[1]=2147483648 exceeds the limit 2147483647', 'too_large'],
  ['adaptiveMaxPool2d indexType', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: 2, indexType: 'int16' }),
   TypeError, 'adaptiveMaxPool2d: indexType="int16" must be \'int32\' or \'int64\''],
  ['adaptiveMaxPool2d layout', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: 2, layout: 'NLC' }),
   RangeError, 'adaptiveMaxPool2d: layout="NLC" is a 1d layout; a 2d op takes \'NCHW\' or \'NHWC\''],
  ['adaptiveMaxPool2d rank', () => unpool.adaptiveMaxPool2d({ data: new Float32Array(4), shape: [4] }, { outputSize: 2 }),
   RangeError, 'adaptiveMaxPool2d: x must have rank 3 (C, H, W) or 4 (N, C, H, W), got rank 1 [4]', 'invalid_shape'],
  ['adaptiveMaxPool2d empty', () => unpool.adaptiveMaxPool2d({ data: new Float32Array(0), shape: [1, 0, 4] }, { outputSize: 2 }),
   RangeError, 'adaptiveMaxPool2d: x shape [1, 0, 4] has an empty dimension 1 (only the batch dimension may be 0)', 'invalid_shape'],
  ['adaptiveMaxPool2d out', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: 2, out: { output: new Float32Array(3) } }),
   RangeError, 'adaptiveMaxPool2d: out.output has length 3; the result has 4 elements'],
  ['adaptiveMaxPool2d out type', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: 2, out: { indices: new Float32Array(4) } }),
   TypeError, "adaptiveMaxPool2d: out.indices must be an Int32Array (the result's type), got Float32Array(4)"],
  ['adaptiveMaxPool2d out+resident', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: 2, out: {}, resident: true }),
   TypeError, 'adaptiveMaxPool2d: out and resident: true exclude each other'],
  ['adaptiveMaxPool2d resident', () => unpool.adaptiveMaxPool2d(x2(), { outputSize: 2, resident: 1 }),
   TypeError, 'adaptiveMaxPool2d: resident=1 must be a boolean'],
  ['adaptiveMaxPool2dBackward inputShape missing', () => unpool.adaptiveMaxPool2dBackward(go(), idx(), {}),
   TypeError, 'adaptiveMaxPool2dBackward: inputShape is required'],
  ['adaptiveMaxPool2dBackward options', () => unpool.adaptiveMaxPool2dBackward(go(), idx()),
   TypeError, 'adaptiveMaxPool2dBackward: options must be an object with inputShape, got undefined'],
  ['adaptiveMaxPool2dBackward inputShape bad', () => unpool.adaptiveMaxPool2dBackward(go(), idx(), { inputShape: [1, 1, 4, -4] }),
   RangeError, 'adaptiveMaxPool2dBackward: inputShape[3]=-4 must be >= 0'],
  ['adaptiveMaxPool2dBackward index', () => unpool.adaptiveMaxPool2dBackward(go(), { data: Int32Array.from([5, 7, 13, 16]), shape: [1, 1, 2, 2] }, { inputShape: [1, 1, 4, 4] }),
   RangeError, 'adaptiveMaxPool2dBackward: indices[3]=16 is out of range for input plane 4x4 (16 elements)', 'invalid_index'],
  ['adaptiveMaxPool2dBackward shape mismatch', () => unpool.adaptiveMaxPool2dBackward(go(), idx(), { inputShape: [1, 2, 4, 4] }),
   RangeError, 'adaptiveMaxPool2dBackward: inputShape [1, 2, 4, 4] and gradOutput [1, 1, 2, 2] must have the same rank and the same N and C', 'invalid_shape'],
  ['adaptiveMaxPool2dBackward layout', () => unpool.adaptiveMaxPool2dBackward(go(), idx(), { inputShape: [1, 1, 4, 4], layout: 'xx' }),
   RangeError, 'adaptiveMaxPool2dBackward: layout="xx" is not a layout; a 2d op takes \'NCHW\' or \'NHWC\''],
  ['adaptiveMaxPool2dBackward out', () => unpool.adaptiveMaxPool2dBackward(go(), idx(), { inputShape: [1, 1, 4, 4], out: new Float32Array(15) }),
   RangeError, 'adaptiveMaxPool2dBackward: out has length 15; the result has 16 elements'],
  ['fractionalMaxPool2d kernel missing', () => unpool.fractionalMaxPool2d(x2(), { outputSize: 2, randomSamples: s2() }),
   TypeError, 'fractionalMaxPool2d: kernelSize is required'],
  ['fractionalMaxPool2d kernel 0', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 0, outputSize: 2, randomSamples: s2() }),
   RangeError, 'fractionalMaxPool2d: kernelSize=0 must be >= 1', 'invalid_argument'],
  ['fractionalMaxPool2d kernel "2"', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: '2', outputSize: 2, randomSamples: s2() }),
   TypeError, 'fractionalMaxPool2d: kernelSize must be a number or an array of numbers, got "2"'],
  ['fractionalMaxPool2d both', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputSize: 2, outputRatio: 0.5, randomSamples: s2() }),
   RangeError, 'fractionalMaxPool2d: give exactly one of outputSize and outputRatio', 'invalid_argument'],
  ['fractionalMaxPool2d neither', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, randomSamples: s2() }),
   RangeError, 'fractionalMaxPool2d: give exactly one of outputSize and outputRatio', 'invalid_argument'],
  ['fractionalMaxPool2d outputSize 0', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputSize: 0, randomSamples: s2() }),
   RangeError, 'fractionalMaxPool2d: outputSize=0 must be >= 1', 'invalid_argument'],
  ['fractionalMaxPool2d outputSize [2]', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputSize: [2], randomSamples: s2() }),
   RangeError, 'fractionalMaxPool2d: outputSize must have 2 entries, got 1', 'invalid_argument'],
  ['fractionalMaxPool2d outputSize too big', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputSize: 4, randomSamples: s2() }),
   RangeError, 'fractionalMaxPool2d: output size 4 plus kernelSize 2 - 1 in spatial dim 0 must be at most the input size 4', 'invalid_shape'],
  ['fractionalMaxPool3d: the 3d size rule is strict', () => unpool.fractionalMaxPool3d({ data: new Float32Array(64), shape: [1, 4, 4, 4] }, { kernelSize: 2, outputSize: 3, randomSamples: { data: new Float32Array(3), shape: [1, 1, 3] } }),
   RangeError, 'fractionalMaxPool3d: output size 3 plus kernelSize 2 - 1 in spatial dim 0 must be less than the input size 4', 'invalid_shape'],
  ['fractionalMaxPool2d ratio 1', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputRatio: 1, randomSamples: s2() }),
   RangeError, 'fractionalMaxPool2d: outputRatio=1 must be in (0, 1)', 'invalid_argument'],
  ['fractionalMaxPool2d ratio 0', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputRatio: [0.5, 0], randomSamples: s2() }),
   RangeError, 'fractionalMaxPool2d: outputRatio[1]=0 must be in (0, 1)', 'invalid_argument'],
  ['fractionalMaxPool2d ratio NaN', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputRatio: NaN, randomSamples: s2() }),
   RangeError, 'fractionalMaxPool2d: outputRatio=nan must be in (0, 1)', 'invalid_argument'],
  ['fractionalMaxPool2d ratio "0.5"', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputRatio: '0.5', randomSamples: s2() }),
   TypeError, 'fractionalMaxPool2d: outputRatio must be a number or an array of numbers, got "0.5"'],
  ['fractionalMaxPool2d ratio [0.5,"0.5"]', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputRatio: [0.5, '0.5'], randomSamples: s2() }),
   TypeError, 'fractionalMaxPool2d: outputRatio[1]="0.5" must be a number'],
  ['fractionalMaxPool2d ratio [0.5]', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputRatio: [0.5], randomSamples: s2() }),
   RangeError, 'fractionalMaxPool2d: outputRatio must have 2 entries, got 1', 'invalid_argument'],
  ['fractionalMaxPool2d ratio tiny', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 1, outputRatio: 0.1, randomSamples: s2() }),
   RangeError, 'fractionalMaxPool2d: outputRatio gives output size 0 in spatial dim 0 (input 4)', 'invalid_shape'],
  ['fractionalMaxPool2d samples shape', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputSize: 2, randomSamples: { data: new Float32Array(3), shape: [1, 1, 3] } }),
   RangeError, 'fractionalMaxPool2d: randomSamples shape [1, 1, 3] does not match the expected [1, 1, 2]', 'invalid_shape'],
  ['fractionalMaxPool2d samples dtype', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputSize: 2, randomSamples: { data: new Float64Array(2), shape: [1, 1, 2] } }),
   TypeError, 'fractionalMaxPool2d: randomSamples must have the dtype of x (float32), got float64'],
  ['fractionalMaxPool2d samples int', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputSize: 2, randomSamples: { data: new Int32Array(2), shape: [1, 1, 2] } }),
   TypeError, 'fractionalMaxPool2d: randomSamples.data must be a Float32Array, Float64Array, Float16Array or Uint16Array (Uint16Array with dtype \'float16\' or \'bfloat16\'), got Int32Array(2)'],
  ['fractionalMaxPool2d samples null', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputSize: 2, randomSamples: null }),
   TypeError, 'fractionalMaxPool2d: randomSamples must be a tensor { data, shape }, got null'],
  ['fractionalMaxPool2d samples 1.5', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputSize: 2, randomSamples: { data: Float32Array.from([0.5, 1.5]), shape: [1, 1, 2] } }),
   RangeError, 'fractionalMaxPool2d: randomSamples[1]=1.5 is outside [0, 1]', 'invalid_argument'],
  ['fractionalMaxPool2d samples NaN', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputSize: 2, randomSamples: { data: Float32Array.from([NaN, 0.5]), shape: [1, 1, 2] } }),
   RangeError, 'fractionalMaxPool2d: randomSamples[0]=nan is outside [0, 1]', 'invalid_argument'],
  ['fractionalMaxPool2d samples -0.1', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputSize: 2, randomSamples: { data: Float32Array.from([0.5, -0.1]), shape: [1, 1, 2] } }),
   RangeError, 'fractionalMaxPool2d: randomSamples[1]=-0.100000001 is outside [0, 1]', 'invalid_argument'],
  ['fractionalMaxPool2d x int', () => unpool.fractionalMaxPool2d({ data: new Int32Array(16), shape: [1, 1, 4, 4] }, { kernelSize: 2, outputSize: 2 }),
   TypeError, 'fractionalMaxPool2d: x.data must be a Float32Array, Float64Array, Float16Array or Uint16Array (Uint16Array with dtype \'float16\' or \'bfloat16\'), got Int32Array(16)'],
  ['fractionalMaxPool2d layout', () => unpool.fractionalMaxPool2d(x2(), { kernelSize: 2, outputSize: 2, layout: 'NHWC' }),
   RangeError, 'fractionalMaxPool2d: layout="NHWC" is not supported; fractional pooling takes channels-first tensors (\'NCHW\')'],
  ['fractionalMaxPool2d rank', () => unpool.fractionalMaxPool2d({ data: new Float32Array(4), shape: [4, 1] }, { kernelSize: 1, outputSize: 1 }),
   RangeError, 'fractionalMaxPool2d: x must have rank 3 (C, H, W) or 4 (N, C, H, W), got rank 2 [4, 1]', 'invalid_shape'],
  ['fractionalMaxPool2dBackward inputShape', () => unpool.fractionalMaxPool2dBackward(go(), idx(), { inputShape: null }),
   TypeError, 'fractionalMaxPool2dBackward: inputShape must be an array of integers, got null'],
  ['fractionalMaxPool2dBackward index', () => unpool.fractionalMaxPool2dBackward(go(), { data: Int32Array.from([-1, 7, 13, 15]), shape: [1, 1, 2, 2] }, { inputShape: [1, 1, 4, 4] }),
   RangeError, 'fractionalMaxPool2dBackward: indices[0]=-1 is out of range for input plane 4x4 (16 elements)', 'invalid_index'],
  ['maxUnpool2d kernel-free 3 entries', () => unpool.maxUnpool2d(go(), idx(), { outputSize: [1, 4, 4] }),
   RangeError, "maxUnpool2d: outputSize must have 2 entries (the output's spatial size) when kernelSize is omitted, got 3", 'invalid_argument'],
  ['maxUnpool2d kernel-free 7 entries', () => unpool.maxUnpool2d(go(), idx(), { outputSize: [1, 1, 1, 1, 4, 4, 4] }),
   RangeError, 'maxUnpool2d: outputSize=[1, 1, 1, 1, 4, 4, ...] has 7 entries; expected 2'],
  ['maxUnpool2d kernel-free padding', () => unpool.maxUnpool2d(go(), idx(), { outputSize: [4, 4], padding: 1 }),
   RangeError, 'maxUnpool2d: padding needs kernelSize (an unpool without kernel takes outputSize and no stride or padding)', 'invalid_argument'],
  ['maxUnpool2d kernel-free stride []', () => unpool.maxUnpool2d(go(), idx(), { outputSize: [4, 4], stride: [] }),
   RangeError, 'maxUnpool2d: stride needs kernelSize (an unpool without kernel takes outputSize and no stride or padding)', 'invalid_argument'],
  ['maxUnpool2d kernel-free index', () => unpool.maxUnpool2d(go(), idx(), { outputSize: [4, 3] }),
   RangeError, 'maxUnpool2d: indices[2]=13 is out of range for output plane 4x3 (12 elements)', 'invalid_index'],
  ['maxUnpool2d kernel-free 0', () => unpool.maxUnpool2d(go(), idx(), { outputSize: [4, 0] }),
   RangeError, 'maxUnpool2d: outputSize[1]=0 must be >= 1', 'invalid_argument'],
  ['maxUnpool2d kernel-free kernel null', () => unpool.maxUnpool2d(go(), idx(), { kernelSize: null, outputSize: [4, 4] }),
   TypeError, 'maxUnpool2d: kernelSize must be a number or an array of numbers, got null'],
  ['maxUnpool2d range kernel', () => unpool.maxUnpool2dOutputRange([1, 1, 2, 2], {}),
   TypeError, 'maxUnpool2dOutputRange: kernelSize is required'],
  ['AdaptiveMaxPool2d forward', () => new unpool.AdaptiveMaxPool2d([2, 0]).forward(x2()),
   RangeError, 'adaptiveMaxPool2d: outputSize[1]=0 must be >= 1', 'invalid_argument'],
  ['AdaptiveMaxPool2d options', () => new unpool.AdaptiveMaxPool2d(2, 5),
   TypeError, 'AdaptiveMaxPool2d: options must be an object, got 5'],
  ['FractionalMaxPool2d forward', () => new unpool.FractionalMaxPool2d(2).forward(x2()),
   RangeError, 'fractionalMaxPool2d: give exactly one of outputSize and outputRatio', 'invalid_argument'],
  ['FractionalMaxPool2d samples', () => new unpool.FractionalMaxPool2d(2, { outputSize: 2 }).forward(x2(), { data: new Float64Array(2), shape: [1, 1, 2] }),
   TypeError, 'fractionalMaxPool2d: randomSamples must have the dtype of x (float32), got float64'],
];

function moduleStillWorks(): void {
  const r = unpool.adaptiveMaxPool2d(x2(), { outputSize: 2 });
  expect(Array.from(r.output.data)).toEqual([12, 21, 22, 13]);
  expect(Array.from(r.indices.data)).toEqual([5, 3, 13, 15]);
}

describe('hostile values of the adaptive and fractional options', () => {
  const before = { bytes: 0 };
  it('the module works before', () => {
    moduleStillWorks();
    before.bytes = unpool.memoryUsage().inUseBytes;
  });

  for (const [label, call, type, message, code] of cases) {
    it(label, () => {
      let thrown: unknown;
      try {
        call();
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(type);
      expect((thrown as Error).message).toBe(message);
      if (code === undefined) {
        expect(thrown).not.toBeInstanceOf(unpool.UnpoolError);
      } else {
        expect(thrown).toBeInstanceOf(unpool.UnpoolError);
        expect((thrown as typed.UnpoolError).code).toBe(code);
      }
    });
  }

  afterAll(() => {
    moduleStillWorks();
    expect(unpool.memoryUsage().inUseBytes).toBe(before.bytes);
  });
});
