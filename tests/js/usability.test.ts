// What a new user tripped on (issue 32), each through the public API:
// unknown option keys (with PyTorch's and ONNX's spellings), one way to
// recognise every validation error (a code on each), the module classes'
// out and resident, convertIndices on indices that are PyTorch's already,
// and the smaller messages. The types of the same mistakes are in
// types.node.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import * as typed from '../../dist/index.js';

// Mistakes break the declared types on purpose: called as JavaScript would.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const u = typed as any;

beforeAll(async () => {
  await u.init();
});

const x4 = () => ({ data: Float32Array.from({ length: 16 }, (_, i) => i + 1), shape: [1, 1, 4, 4] });
const x5 = () => ({ data: Float32Array.from({ length: 25 }, (_, i) => i), shape: [1, 1, 5, 5] });

/** What `call` threw (it must throw). */
function thrown(call: () => unknown): Error & { code?: string } {
  try {
    call();
  } catch (e) {
    return e as Error & { code?: string };
  }
  throw new Error('expected a throw');
}

/** `call` throws an UnpoolTypeError 'unknown_option' (a TypeError) with exactly `message`. */
function unknownOption(call: () => unknown, message: string): void {
  const e = thrown(call);
  expect(e).toBeInstanceOf(TypeError);
  expect(e).toBeInstanceOf(u.UnpoolTypeError);
  expect(u.isUnpoolError(e)).toBe(true);
  expect(e.code).toBe('unknown_option');
  expect(e.message).toBe(message);
}

const POOL_TAKES = 'kernelSize, stride, padding, dilation, ceilMode, indexType, layout, out, resident';

describe('unknown options are refused by name', () => {
  it('maxPool2d: strides (ONNX) would have pooled 2x2 where 3x3 was meant', () => {
    unknownOption(() => u.maxPool2d(x5(), { kernelSize: 2, strides: 1 }),
                  "maxPool2d: options.strides=1 is not an option; did you mean stride? (ONNX's strides)");
    // The intended call, for contrast: stride 1 gives 4x4.
    expect(u.maxPool2d(x5(), { kernelSize: 2, stride: 1 }).output.shape).toEqual([1, 1, 4, 4]);
  });

  it('PyTorch and ONNX spellings get a hint', () => {
    unknownOption(() => u.maxPool2d(x4(), { kernel_shape: [2, 2] }),
                  "maxPool2d: options.kernel_shape=[2, 2] is not an option; did you mean kernelSize? (ONNX's kernel_shape)");
    unknownOption(() => u.maxPool2d(x4(), { kernelSize: 2, pads: [0, 0, 0, 0] }),
                  "maxPool2d: options.pads=[0, 0, 0, 0] is not an option; did you mean padding? (ONNX's pads hold " +
                  '[begin..., end...]; padding is one entry per dim, the same at both ends)');
    unknownOption(() => u.maxPool2d(x4(), { kernelSize: 2, ceil_mode: true }),
                  'maxPool2d: options.ceil_mode=true is not an option; did you mean ceilMode?');
    unknownOption(() => u.maxPool2d(x4(), { kernelSize: 2, return_indices: true }),
                  'maxPool2d: options.return_indices=true is not an option; indices are always returned: the result is { output, indices }');
    unknownOption(() => u.maxPool2d(x4(), { kernelSize: 2, storage_order: 1 }),
                  "maxPool2d: options.storage_order=1 is not an option; indices are always per-plane row-major offsets " +
                  "(PyTorch's); convert ONNX's column-major ones with convertIndices(indices, { from: 'onnx-column-major', " +
                  "to: 'pytorch', inputShape })");
    unknownOption(() => u.maxPool2d(x4(), { kernelSize: 2, dtype: 'float16' }),
                  "maxPool2d: options.dtype=\"float16\" is not an option; a tensor's dtype goes in the tensor: { data, shape, dtype }");
    unknownOption(() => u.maxPool2d(x4(), { kernelSize: 2, output_size: [2, 2] }),
                  `maxPool2d: options.output_size=[2, 2] is not an option; maxPool2d has no outputSize option (it takes ${POOL_TAKES})`);
    unknownOption(() => u.maxPool2d(x4(), { kernelSize: 2, foo: 1 }),
                  `maxPool2d: options.foo=1 is not an option; maxPool2d takes ${POOL_TAKES}`);
  });

  it('maxUnpool2d: output_size would have unpooled to the default size', () => {
    const { output, indices } = u.maxPool2d(x5(), { kernelSize: 2 });
    unknownOption(() => u.maxUnpool2d(output, indices, { kernelSize: 2, output_size: [5, 5] }),
                  'maxUnpool2d: options.output_size=[5, 5] is not an option; did you mean outputSize?');
    expect(u.maxUnpool2d(output, indices, { kernelSize: 2, outputSize: [5, 5] }).shape).toEqual([1, 1, 5, 5]);
  });

  it('module classes refuse unknown keys at construction, as PyTorch refuses unknown keyword arguments', () => {
    unknownOption(() => new u.MaxPool2d(2, { ceil_mode: true, strides: 1 }),
                  'MaxPool2d: options.ceil_mode=true is not an option; did you mean ceilMode?');
    unknownOption(() => new u.MaxUnpool2d(2, { output_size: [4, 4] }),
                  'MaxUnpool2d: options.output_size=[4, 4] is not an option; MaxUnpool2d has no outputSize option ' +
                  '(it takes stride, padding, layout)');
    unknownOption(() => new u.AdaptiveMaxPool2d(2, { return_indices: true }),
                  'AdaptiveMaxPool2d: options.return_indices=true is not an option; indices are always returned: the result is { output, indices }');
    unknownOption(() => new u.FractionalMaxPool2d(2, { output_ratio: 0.5 }),
                  'FractionalMaxPool2d: options.output_ratio=0.5 is not an option; did you mean outputRatio?');
    unknownOption(() => new u.MaxPool2d(2, { kernelSize: 2, stride: 1 }),
                  'MaxPool2d: options.kernelSize=2 is not an option; kernelSize is the first argument: new MaxPool2d(kernelSize, options)');
    unknownOption(() => new u.AdaptiveMaxPool2d(2, { outputSize: 2 }),
                  'AdaptiveMaxPool2d: options.outputSize=2 is not an option; outputSize is the first argument: new AdaptiveMaxPool2d(outputSize, options)');
    unknownOption(() => new u.MaxPool2d(2).forward(x4(), { indexType: 'int64' }),
                  'MaxPool2d.forward: options.indexType="int64" is not an option; MaxPool2d.forward has no indexType ' +
                  'option (it takes out, resident)');
  });

  it('every function checks its options\' keys', () => {
    const { output, indices } = u.maxPool2d(x4(), { kernelSize: 2 });
    const calls: [string, (o: object) => unknown][] = [
      ['maxPool1d', (o) => u.maxPool1d({ data: new Float32Array(4), shape: [1, 1, 4] }, { kernelSize: 2, ...o })],
      ['maxPool3d', (o) => u.maxPool3d({ data: new Float32Array(8), shape: [1, 1, 2, 2, 2] }, { kernelSize: 2, ...o })],
      ['maxUnpool2d', (o) => u.maxUnpool2d(output, indices, { kernelSize: 2, ...o })],
      ['maxPool2dBackward', (o) => u.maxPool2dBackward(output, indices, { inputShape: [1, 1, 4, 4], ...o })],
      ['maxUnpool2dBackward', (o) => u.maxUnpool2dBackward(x4(), indices, o)],
      ['maxUnpool2dOutputRange', (o) => u.maxUnpool2dOutputRange([1, 1, 2, 2], { kernelSize: 2, ...o })],
      ['adaptiveMaxPool2d', (o) => u.adaptiveMaxPool2d(x4(), { outputSize: 2, ...o })],
      ['adaptiveMaxPool2dBackward', (o) => u.adaptiveMaxPool2dBackward(output, indices, { inputShape: [1, 1, 4, 4], ...o })],
      ['fractionalMaxPool2d', (o) => u.fractionalMaxPool2d(x4(), { kernelSize: 2, outputSize: 2, ...o })],
      ['fractionalMaxPool2dBackward', (o) => u.fractionalMaxPool2dBackward(output, indices, { inputShape: [1, 1, 4, 4], ...o })],
      ['convertIndices', (o) => u.convertIndices(indices, { from: 'pytorch', to: 'onnx', inputShape: [1, 1, 4, 4], ...o })],
      ['outputSizeRange', (o) => u.outputSizeRange([1, 1, 2, 2], { kernelSize: 2, ...o })],
    ];
    for (const [fn, call] of calls) {
      expect(() => call({}), fn).not.toThrow();
      const e = thrown(() => call({ kernelsize: 2 }));
      expect(e, fn).toBeInstanceOf(u.UnpoolTypeError);
      expect(e.code, fn).toBe('unknown_option');
      expect(e.message, fn).toMatch(new RegExp(`^${fn}: options\\.kernelsize=2 is not an option; `));
    }
    // Inherited enumerable keys are read by the parsers, so they are checked too.
    unknownOption(() => u.maxPool2d(x4(), Object.assign(Object.create({ strides: 1 }), { kernelSize: 2 })),
                  "maxPool2d: options.strides=1 is not an option; did you mean stride? (ONNX's strides)");
  });
});

describe('one way to recognise validation errors', () => {
  const idx = (shape: number[]) => ({ data: new Int32Array(shape.reduce((a, b) => a * b, 1)), shape });
  const y = () => ({ data: Float32Array.from([1, 2, 3, 4]), shape: [1, 1, 2, 2] });
  /** [call, class, exact message, code] */
  const cases: [string, () => unknown, typeof RangeError | typeof TypeError, string, string][] = [
    ['data length against shape', () => u.maxPool2d({ data: new Float32Array(15), shape: [1, 1, 4, 4] }, { kernelSize: 2 }),
      RangeError, 'maxPool2d: x.data has length 15 but x.shape=[1, 1, 4, 4] holds 16 elements', 'invalid_shape'],
    ['indices data length against shape', () => u.maxUnpool2d(y(), { data: new Int32Array(3), shape: [1, 1, 2, 2] }, { kernelSize: 2 }),
      RangeError, 'maxUnpool2d: indices.data has length 3 but indices.shape=[1, 1, 2, 2] holds 4 elements', 'invalid_shape'],
    ['a rank the core refuses', () => u.maxPool2d({ data: new Float32Array(16), shape: [4, 4] }, { kernelSize: 2 }),
      RangeError, 'maxPool2d: x must have rank 3 (C, H, W) or 4 (N, C, H, W), got rank 2 [4, 4]', 'invalid_shape'],
    ['a non-integer size', () => u.maxPool2d(x4(), { kernelSize: 2.5 }), RangeError,
      'maxPool2d: kernelSize=2.5 must be an integer', 'invalid_argument'],
    ['an index out of range', () => u.maxUnpool2d(y(), { data: Int32Array.from([0, 1, 2, 17]), shape: [1, 1, 2, 2] }, { kernelSize: 2 }),
      RangeError, 'maxUnpool2d: indices[3]=17 is out of range for output plane 4x4 (16 elements)', 'invalid_index'],
    ['not a tensor', () => u.maxPool2d(5, { kernelSize: 2 }), TypeError,
      'maxPool2d: x must be a tensor { data, shape }, got 5', 'invalid_type'],
    ['a required option missing', () => u.maxPool2d(x4(), {}), TypeError, 'maxPool2d: kernelSize is required', 'invalid_type'],
    ['an unknown option', () => u.maxPool2d(x4(), { kernelSize: 2, sride: 7 }), TypeError,
      'maxPool2d: options.sride=7 is not an option; did you mean stride?', 'unknown_option'],
    ['an unknown option, not a typo', () => u.maxPool2d(x4(), { kernelSize: 2, foo: 1 }), TypeError,
      `maxPool2d: options.foo=1 is not an option; maxPool2d takes ${POOL_TAKES}`, 'unknown_option'],
  ];
  for (const [label, call, cls, message, code] of cases) {
    it(`${label}: a ${cls.name} with code ${code}, told by isUnpoolError`, () => {
      const e = thrown(call);
      expect(e).toBeInstanceOf(cls);
      expect(e).toBeInstanceOf(cls === RangeError ? u.UnpoolError : u.UnpoolTypeError);
      expect(u.isUnpoolError(e)).toBe(true);
      expect(e.message).toBe(message);
      expect(e.code).toBe(code);
    });
  }

  it('the issue\'s mismatched shapes: indices whose shape differs from the values\' are an UnpoolError invalid_shape', () => {
    const e = thrown(() => u.maxUnpool2d(y(), idx([1, 2, 2, 1]), { kernelSize: 2 }));
    expect(e).toBeInstanceOf(u.UnpoolError);
    expect(e.code).toBe('invalid_shape');
    expect(e.message).toBe('maxUnpool2d: indices.shape=[1, 2, 2, 1] must equal x.shape=[1, 1, 2, 2]');
  });

  it('isUnpoolError is false for anything else', () => {
    for (const v of [new TypeError('x'), new RangeError('x'), new Error('x'), 'invalid_shape', { code: 'invalid_shape' }, undefined]) {
      expect(u.isUnpoolError(v)).toBe(false);
    }
  });
});

describe('module classes take out and resident', () => {
  it('forward and backward write into out, or keep the result resident', () => {
    const pool = new u.MaxPool2d(2);
    const unpool = new u.MaxUnpool2d(2);
    const copy = pool.forward(x4());
    const outY = new Float32Array(4), outI = new Int32Array(4);
    const into = pool.forward(x4(), { out: { output: outY, indices: outI } });
    expect(into.output.data).toBe(outY);
    expect(into.indices.data).toBe(outI);
    expect(Array.from(outI)).toEqual([5, 7, 13, 15]);
    const before = u.memoryUsage().inUseBytes;
    const xr = u.uploadTensor(x4());
    const r = pool.forward(xr, { resident: true });
    expect(r.output).toBeInstanceOf(u.WasmTensor);
    expect(r.indices.read()).toEqual(copy.indices);
    const back = unpool.forward(r.output, r.indices, null, { resident: true });
    expect(back).toBeInstanceOf(u.WasmTensor);
    const y = new Float32Array(16);
    expect(unpool.forward(r.output, r.indices, [4, 4], { out: y }).data).toBe(y);
    expect(Array.from(y)).toEqual([0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 14, 0, 16]);
    expect(Array.from(back.toArray())).toEqual(Array.from(y));
    const g = new Float32Array(16);
    pool.backward(copy.output, copy.indices, [1, 1, 4, 4], { out: g });
    expect(Array.from(g)).toEqual([0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 14, 0, 16]);
    const gu = unpool.backward({ data: y, shape: [1, 1, 4, 4] }, copy.indices, { resident: true });
    expect(Array.from(gu.toArray())).toEqual([6, 8, 14, 16]);
    for (const t of [xr, r.output, r.indices, back, gu]) t.dispose();
    expect(u.memoryUsage().inUseBytes).toBe(before);
  });

  it('adaptive and fractional modules too', () => {
    const a = new u.AdaptiveMaxPool2d(2, { indexType: 'int64' }).forward(x4(), { resident: true });
    expect(a.indices.dtype).toBe('int64');
    expect(a.indices.toArray()).toEqual(BigInt64Array.from([5n, 7n, 13n, 15n]));
    a.output.dispose();
    a.indices.dispose();
    const samples = { data: new Float32Array(2).fill(0.5), shape: [1, 1, 2] };
    const outI = new Int32Array(4);
    new u.FractionalMaxPool2d(2, { outputSize: 2 }).forward(x4(), samples, { out: { indices: outI } });
    expect(Array.from(outI)).toEqual([5, 7, 13, 15]);
  });

  it('errors of a module method name the method, with the class and code of the function\'s', () => {
    const e = thrown(() => new u.MaxUnpool2d(2).forward(x4(), { data: Int32Array.from([0, 1, 2, 99]), shape: [1, 1, 2, 2] }));
    expect(e.message).toBe('MaxUnpool2d.forward: indices.shape=[1, 1, 2, 2] must equal x.shape=[1, 1, 4, 4]');
    expect(e).toBeInstanceOf(u.UnpoolError);
    const f = thrown(() => new u.MaxPool2d(2).forward(x4(), { resident: true, out: {} }));
    expect(f.message).toBe('MaxPool2d.forward: out and resident: true exclude each other');
    expect(f.code).toBe('invalid_type');
    expect(thrown(() => new u.MaxPool2d(2).forward(x4(), 5)).message)
      .toBe('MaxPool2d.forward: options must be an object { out?, resident? }, got 5');
    expect(thrown(() => new u.MaxPool2d(0).backward(x4(), x4(), [1, 1, 4, 4])).message)
      .toMatch(/^MaxPool2d\.backward: indices\.data must be an Int32Array or BigInt64Array/);
  });
});

describe('convertIndices', () => {
  it('indices that are PyTorch\'s already: "an onnx index", and a hint', () => {
    // PyTorch's ONNX exporter emits per-plane (PyTorch-format) indices.
    const x = { data: Float32Array.from({ length: 2 * 16 }, (_, i) => (i * 7) % 32), shape: [1, 2, 4, 4] };
    const { indices } = u.maxPool2d(x, { kernelSize: 2 });
    const e = thrown(() => u.convertIndices(indices, { from: 'onnx', to: 'pytorch', inputShape: x.shape }));
    expect(e).toBeInstanceOf(u.UnpoolError);
    expect(e.code).toBe('invalid_index');
    expect(e.message).toMatch(/^convertIndices: indices\[4\]=\d+ is not an onnx index into its own plane \(n=0, c=1\) of input \[1, 2, 4, 4\] \(16 elements per plane\); every index lies in \[0, 16\): they may already be PyTorch's per-plane indices \(from: 'pytorch'\)$/);
    // Without the hint when some index is no per-plane index either.
    const onnx = u.convertIndices(indices, { from: 'pytorch', to: 'onnx', inputShape: x.shape });
    onnx.data[0] = 40n;
    expect(thrown(() => u.convertIndices(onnx, { from: 'onnx', to: 'pytorch', inputShape: x.shape })).message)
      .toBe('convertIndices: indices[0]=40 is not an onnx index into its own plane (n=0, c=0) of input [1, 2, 4, 4] (16 elements per plane)');
  });
});

describe('the smaller messages', () => {
  it('a Float16Array polyfill (an object posing as one) is told to pass its bits as a Uint16Array', () => {
    // Polyfills make objects that inherit the typed array methods but are not typed arrays.
    const Float16Array = function Float16Array() {} as unknown as { prototype: object };
    Object.setPrototypeOf(Float16Array.prototype, Object.getPrototypeOf(Uint8Array.prototype));
    const fake = Object.create(Float16Array.prototype);
    const e = thrown(() => u.maxPool2d({ data: fake, shape: [1, 1, 4, 4] }, { kernelSize: 2 }));
    expect(e).toBeInstanceOf(u.UnpoolTypeError);
    // (The list of the array classes taken, between the two, is the API's.)
    expect(e.message).toMatch(/^maxPool2d: x\.data must be a Float32Array, /);
    expect(e.message.endsWith(', got an object posing as a Float16Array (not itself a typed array; a ' +
      "Float16Array polyfill? pass its bits as a Uint16Array with dtype: 'float16')")).toBe(true);
  });

  it('options where the indices go: the indices were left out', () => {
    const { output } = u.maxPool2d(x4(), { kernelSize: 2 });
    const e = thrown(() => u.maxUnpool2d(output, { kernelSize: 2 }));
    expect(e).toBeInstanceOf(u.UnpoolTypeError);
    expect(e.message).toBe('maxUnpool2d: indices must be a tensor { data, shape }, got the options object ' +
      '{ kernelSize }: were the indices left out? The call is maxUnpool2d(x, indices, options)');
    expect(thrown(() => u.maxPool2dBackward(output, { inputShape: [1, 1, 4, 4] })).message)
      .toBe('maxPool2dBackward: indices must be a tensor { data, shape }, got the options object ' +
        '{ inputShape }: were the indices left out? The call is maxPool2dBackward(gradOutput, indices, options)');
  });
});
