// Bad input throws before anything runs: TypeError for wrong types,
// RangeError (UnpoolError with a code, when the core decides) for bad values.
// Messages name the function, the parameter and the value; a failed call
// leaves the module's heap as it was.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  init, maxPool1d, maxPool2d, maxPool2dBackward, maxPool3d, maxUnpool1d, maxUnpool2d,
  maxUnpool2dBackward, memoryUsage, MaxPool2d, MaxUnpool2d, UnpoolError, UnpoolTypeError,
} from '../../dist/index.js';

const x = () => ({ data: new Float32Array(16), shape: [1, 1, 4, 4] });
const idx = (values = [0, 1, 2, 3]) => ({ data: Int32Array.from(values), shape: [1, 1, 2, 2] });
const y = () => ({ data: Float32Array.from([1, 2, 3, 4]), shape: [1, 1, 2, 2] });

beforeAll(async () => {
  await init();
});

type Case = [string, () => unknown, ErrorConstructor | typeof UnpoolError, RegExp, string?];
const any = (v: unknown) => v as never;

const cases: Case[] = [
  // Wrong types: TypeError.
  ['x is null', () => maxPool2d(any(null), { kernelSize: 2 }), TypeError, /^maxPool2d: x must be a tensor .*null/],
  ['x is a number', () => maxPool2d(any(5), { kernelSize: 2 }), TypeError, /^maxPool2d: x must be a tensor .*5/],
  ['x.data is a Uint32Array', () => maxPool2d(any({ data: new Uint32Array(16), shape: [1, 1, 4, 4] }), { kernelSize: 2 }),
    TypeError, /^maxPool2d: x\.data must be a Float32Array, Float64Array, Float16Array, Uint16Array, Uint8Array, Uint8ClampedArray, Int8Array, Int16Array, Int32Array or BigInt64Array \(Uint16Array with dtype 'float16' or 'bfloat16'\), got Uint32Array\(16\)$/],
  ['gradOutput.data is an Int32Array', () => maxPool2dBackward(any({ data: new Int32Array(4), shape: [1, 1, 2, 2] }), idx(), { kernelSize: 2, inputShape: [1, 1, 4, 4] }),
    TypeError, /^maxPool2dBackward: gradOutput\.data is an Int32Array\(4\) of int32 values; a pool's gradient adds, and takes float32, float64, float16 or bfloat16 values only$/],
  ['x.data is a plain array', () => maxPool1d(any({ data: [1, 2], shape: [1, 2] }), { kernelSize: 2 }),
    TypeError, /^maxPool1d: x\.data must be .*\[1, 2\]/],
  ['indices are floats', () => maxUnpool2d(y(), any({ data: new Float32Array(4), shape: [1, 1, 2, 2] }), { kernelSize: 2 }),
    TypeError, /^maxUnpool2d: indices\.data must be an Int32Array or BigInt64Array, got Float32Array\(4\)/],
  ['indices are an array of BigInt', () => maxUnpool2d(y(), any({ data: [0n, 1n, 2n, 3n], shape: [1, 1, 2, 2] }), { kernelSize: 2 }),
    TypeError, /^maxUnpool2d: indices\.data must be .*\[0n, 1n/],
  ['shape is a string', () => maxPool2d(any({ data: new Float32Array(4), shape: '2x2' }), { kernelSize: 2 }),
    TypeError, /^maxPool2d: x\.shape must be an array of integers, got "2x2"/],
  ['kernelSize is a string', () => maxPool2d(x(), any({ kernelSize: '2' })), TypeError, /^maxPool2d: kernelSize must be a number .*"2"/],
  ['kernelSize is missing', () => maxPool2d(x(), any({})), TypeError, /^maxPool2d: kernelSize is required/],
  ['options missing', () => maxPool2d(x(), any(undefined)), TypeError, /^maxPool2d: options must be an object/],
  ['indexType is int16', () => maxPool2d(x(), any({ kernelSize: 2, indexType: 'int16' })), TypeError, /^maxPool2d: indexType="int16"/],
  ['ceilMode is a string', () => maxPool2d(x(), any({ kernelSize: 2, ceilMode: 'yes' })), TypeError, /^maxPool2d: ceilMode="yes" must be a boolean/],
  ['inputShape missing', () => maxPool2dBackward(y(), idx(), any({})), TypeError, /^maxPool2dBackward: inputShape is required/],
  // Bad JS values: RangeError.
  ['kernelSize 2.5', () => maxPool2d(x(), { kernelSize: 2.5 }), RangeError, /^maxPool2d: kernelSize=2\.5 must be an integer$/],
  ['kernelSize NaN', () => maxPool2d(x(), { kernelSize: NaN }), RangeError, /^maxPool2d: kernelSize=NaN must be an integer$/],
  ['stride Infinity', () => maxPool2d(x(), { kernelSize: 2, stride: [1, Infinity] }), RangeError, /^maxPool2d: stride\[1\]=Infinity must be an integer$/],
  ['padding -0.5', () => maxPool3d({ data: new Float32Array(8), shape: [1, 2, 2, 2] }, { kernelSize: 1, padding: -0.5 }), RangeError, /^maxPool3d: padding=-0\.5 must be an integer$/],
  ['negative shape entry', () => maxPool2d({ data: new Float32Array(4), shape: [1, -1, 2, 2] }, { kernelSize: 2 }), RangeError, /^maxPool2d: x\.shape\[1\]=-1 must be >= 0$/],
  ['fractional shape entry', () => maxPool2d({ data: new Float32Array(4), shape: [1, 1.5, 2, 2] }, { kernelSize: 2 }), RangeError, /^maxPool2d: x\.shape\[1\]=1\.5 must be an integer$/],
  ['data length', () => maxPool2d({ data: new Float32Array(15), shape: [1, 1, 4, 4] }, { kernelSize: 2 }), RangeError,
    /^maxPool2d: x\.data has length 15 but x\.shape=\[1, 1, 4, 4\] holds 16 elements$/],
  ['dims data length', () => maxPool2d(any({ data: new Float32Array(15), dims: [1, 1, 4, 4] }), { kernelSize: 2 }), RangeError,
    /^maxPool2d: x\.data has length 15 but x\.dims=\[1, 1, 4, 4\]/],
  ['rank 6', () => maxPool2d({ data: new Float32Array(1), shape: [1, 1, 1, 1, 1, 1] }, { kernelSize: 1 }), RangeError, /^maxPool2d: x\.shape=\[1, 1, 1, 1, 1, 1\] has 6 dims/],
  ['outputSize 4.5', () => maxUnpool2d(y(), idx(), { kernelSize: 2, outputSize: [4.5, 4] }), RangeError, /^maxUnpool2d: outputSize\[0\]=4\.5 must be an integer$/],
  ['indices shape', () => maxUnpool2d(y(), { data: Int32Array.from([0, 1, 2, 3]), shape: [1, 1, 4] }, { kernelSize: 2 }), RangeError,
    /^maxUnpool2d: indices\.shape=\[1, 1, 4\] must equal x\.shape=\[1, 1, 2, 2\]$/],
  // What the core rejects: UnpoolError (a RangeError) with a code.
  ['kernelSize 0', () => maxPool2d(x(), { kernelSize: 0 }), UnpoolError, /^maxPool2d: kernelSize.*0/, 'invalid_argument'],
  ['rank 2 for 2d', () => maxPool2d({ data: new Float32Array(16), shape: [4, 4] }, { kernelSize: 2 }), UnpoolError, /^maxPool2d: x must have rank 3 .* got rank 2 \[4, 4\]$/, 'invalid_shape'],
  ['index out of range', () => maxUnpool2d(y(), idx([0, 1, 2, 17]), { kernelSize: 2 }), UnpoolError,
    /^maxUnpool2d: indices\[3\]=17 is out of range for output plane 4x4 \(16 elements\)$/, 'invalid_index'],
  ['negative BigInt index', () => maxUnpool1d({ data: new Float32Array(2), shape: [1, 2] }, { data: BigInt64Array.from([0n, -1n]), shape: [1, 2] }, { kernelSize: 2 }),
    UnpoolError, /^maxUnpool1d: indices\[1\]=-1 is out of range/, 'invalid_index'],
  ['outputSize out of range', () => maxUnpool2d(y(), idx(), { kernelSize: 3, stride: 2, outputSize: [9, 9] }), UnpoolError,
    /^maxUnpool2d: outputSize\[0\]=9 is outside/, 'output_size_out_of_range'],
  ['unpool backward index', () => maxUnpool2dBackward(x(), idx([0, 1, 2, 16])), UnpoolError, /^maxUnpool2dBackward: indices\[3\]=16/, 'invalid_index'],
  ['pool backward shapes', () => maxPool2dBackward(y(), idx(), { inputShape: [1, 1, 4, 4], kernelSize: 3 }), UnpoolError,
    /^maxPool2dBackward: gradOutput shape \[1, 1, 2, 2\] does not match the expected \[1, 1, 1, 1\]$/, 'invalid_shape'],
  ['kernelSize with 4 entries', () => maxPool2d(x(), { kernelSize: [2, 2, 2, 2] }), UnpoolError,
    /^maxPool2d: kernelSize must have 2 entries \(or 1\), got 4$/, 'invalid_argument'],
  ['unpool kernelSize [2] in 2d', () => maxUnpool2d(y(), idx(), { kernelSize: [2] }), UnpoolError,
    /^maxUnpool2d: kernelSize must have 2 entries, got 1$/, 'invalid_argument'],
  ['module class', () => new MaxPool2d(2, { stride: 0 }).forward(x()), UnpoolError, /^MaxPool2d\.forward: stride.*0/, 'invalid_argument'],
  ['too large for the heap', () => maxUnpool2d(y(), idx(), { kernelSize: 2, outputSize: [40000, 40000] }), UnpoolError,
    /^maxUnpool2d: outputSize\[0\]=40000 is outside/],
  ['more than 4 GiB', () => maxUnpool1d({ data: new Float64Array(1), shape: [1, 1] }, { data: new Int32Array(1), shape: [1, 1] }, { kernelSize: 1e9 }),
    UnpoolError, /^maxUnpool1d: the WebAssembly module cannot allocate 8000000016 bytes/, 'out_of_memory'],
  ['malloc fails', () => maxUnpool1d({ data: new Float32Array(1), shape: [1, 1] }, { data: new Int32Array(1), shape: [1, 1] }, { kernelSize: 1073700000 }),
    UnpoolError, /^maxUnpool1d: the WebAssembly module cannot allocate 4294800016 bytes/, 'out_of_memory'],
];

describe('errors', () => {
  // A module method renames its function's errors (maxPool2d: -> MaxPool2d.forward:).
  // The renamed error must stay structurally what a fresh one is: the same
  // own enumerable properties, the same JSON, deep-equal. In Firefox a plain
  // `e.stack = ...` added an enumerable own `stack`, and these failed there.
  const renamed: [string, () => unknown, () => Error][] = [
    ['UnpoolTypeError', () => new MaxUnpool2d(undefined as never).forward(y(), idx(), [1, 1, 4, 4]),
      () => new UnpoolTypeError('MaxUnpool2d.forward: kernelSize is required')],
    ['UnpoolError', () => new MaxPool2d(2, { stride: 0 }).forward(x()),
      () => new UnpoolError('MaxPool2d.forward: stride=0 must be >= 1', 'invalid_argument')],
  ];
  for (const [kind, call, fresh] of renamed) {
    it(`a module method's renamed ${kind} has the own enumerable properties of a fresh one`, () => {
      let thrown: Error | undefined;
      try {
        call();
      } catch (error) {
        thrown = error as Error;
      }
      const want = fresh();
      expect(thrown).toBeInstanceOf(want.constructor);
      expect(thrown!.message).toBe(want.message);
      expect(Object.keys(thrown!)).toEqual(Object.keys(want));
      expect(Object.keys(thrown!)).toEqual(['name', 'code']);
      expect(JSON.stringify(thrown)).toBe(JSON.stringify(want));
      expect(Object.getOwnPropertyDescriptor(thrown, 'stack')?.enumerable ?? false).toBe(false);
      expect({ ...thrown }).toEqual({ ...want });
      expect(thrown).toStrictEqual(want);
      expect(call).toThrow(want);
      // The stack, where it repeats the message, has the method's name too.
      expect(String(thrown!.stack)).not.toMatch(/^\w+Error: (maxUnpool2d|maxPool2d): /);
    });
  }

  for (const [name, call, type, message, code] of cases) {
    it(`${name}: ${type.name}`, () => {
      let thrown: unknown;
      try {
        call();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(type);
      expect((thrown as Error).message).toMatch(message);
      if (type === UnpoolError) {
        expect(thrown).toBeInstanceOf(RangeError);
        expect(typeof (thrown as UnpoolError).code).toBe('string');
        if (code) expect((thrown as UnpoolError).code).toBe(code);
      }
    });
  }

  it('a failed call leaves no memory allocated in the module', () => {
    maxPool2d(x(), { kernelSize: 2 });  // warm up
    const before = memoryUsage();
    expect(before.inUseBytes).toBeGreaterThan(0);
    for (const [, call] of cases) {
      expect(call).toThrow();
      expect(memoryUsage().inUseBytes).toBe(before.inUseBytes);
    }
    maxPool2d(x(), { kernelSize: 2 });
    expect(memoryUsage().inUseBytes).toBe(before.inUseBytes);
  });

  it('results survive heap growth (views are taken after allocating)', () => {
    const before = memoryUsage().heapBytes;
    const n = 1 << 22;  // 16 MiB of float32: the heap must grow
    const big = { data: Float32Array.from({ length: n }, (_, i) => i % 1000), shape: [1, 1, n] };
    const { output, indices } = maxPool1d(big, { kernelSize: 1000 });
    expect(memoryUsage().heapBytes).toBeGreaterThan(before);
    expect(output.data.every((v) => v === 999)).toBe(true);
    expect(Array.from(indices.data.slice(0, 3))).toEqual([999, 1999, 2999]);
  });

  it('small calls after heap growth copy through the grown memory, not cached views of the old', () => {
    const small = { data: Float32Array.from([1, 5, 3, 2, 0, 9, 4, 8]), shape: [2, 1, 2, 2] };
    const run = () => {
      const p = maxPool2d(small, { kernelSize: 2 });
      const out = { output: new Float32Array(2), indices: new Int32Array(2) };
      maxPool2d(small, { kernelSize: 2, out });
      const u = maxUnpool2d(p.output, p.indices, { kernelSize: 2 });
      const uOut = new Float32Array(8);
      maxUnpool2d(p.output, p.indices, { kernelSize: 2, out: uOut });
      return [Array.from(p.output.data), Array.from(p.indices.data), Array.from(out.output),
              Array.from(out.indices), Array.from(u.data), Array.from(uOut)];
    };
    const expected = [[5, 9], [1, 1], [5, 9], [1, 1], [0, 5, 0, 0, 0, 9, 0, 0], [0, 5, 0, 0, 0, 9, 0, 0]];
    expect(run()).toEqual(expected);  // the runtime's heap views follow the grown memory
    const heap = memoryUsage().heapBytes;
    const n = Math.ceil(heap / 4);  // a call larger than the heap: it must grow
    maxPool1d({ data: new Float32Array(n), shape: [1, 1, n] }, { kernelSize: n });
    expect(memoryUsage().heapBytes).toBeGreaterThan(heap);
    expect(run()).toEqual(expected);
  });
});
