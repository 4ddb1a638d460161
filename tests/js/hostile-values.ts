// The hostile values of hostile.test.ts, by kind of argument: numbers and
// sizes, shapes, tensor data, dtypes, index contents and option objects;
// each with the error class (and core code) it must give and the text of
// the value the message must print.
import { expect } from 'vitest';
import { rep } from './hostile-suite.js';

/** How a hostile value must be reported: its class and the text of the value. */
export interface Hostile {
  value: unknown;
  /** The value as the message prints it (undefined: not checked, e.g. a derived byte count). */
  text?: string;
  type: typeof TypeError | typeof RangeError;
  /** An UnpoolError code, when the core decides. */
  code?: string;
}

const num = (v: number, type: typeof TypeError | typeof RangeError = RangeError): Hostile => ({ value: v, text: String(v), type });

/** Non-numbers in a number's place: TypeError. */
const notNumbers: Hostile[] = [
  { value: '2', text: '"2"', type: TypeError },
  { value: true, text: 'true', type: TypeError },
  { value: 2n, text: '2n', type: TypeError },
  { value: {}, text: 'Object', type: TypeError },
  { value: Symbol('two'), text: 'Symbol(two)', type: TypeError },
  { value: () => 2, text: 'function', type: TypeError },
  // eslint-disable-next-line no-new-wrappers
  { value: new Number(2), text: 'Number', type: TypeError },
];

/** Numbers that are not integers, or beyond 2^53: RangeError from the JS checks. */
const notIntegers: Hostile[] = [NaN, Infinity, -Infinity, 2.5, -0.5, Number.MIN_VALUE, 2 ** 53, 2 ** 53 + 2, 2 ** 64, 1e300]
  .map((v) => num(v));

/** Integers out of range: the core says so (UnpoolError), and nothing wraps around at 2^31 or 2^32. */
const badIntegers: Hostile[] = [-1, -(2 ** 31), 2 ** 31, 2 ** 32, 2 ** 32 + 2, 2 ** 53 - 1].map((v) => num(v));

/** Hostile values of a size option (kernelSize, stride, ...). */
export function sizeValues(path: string, dims: number): Hostile[] {
  const name = path.split('.').pop()!;
  const zeroOk = name === 'padding';
  const out = [...notNumbers, ...notIntegers, ...badIntegers];
  if (!zeroOk) out.push(num(0));
  if (name !== 'stride') out.push({ value: null, text: 'null', type: TypeError });
  // As arrays: a bad entry, a wrong length.
  out.push({ value: [...rep(2, dims - 1), NaN], text: 'NaN', type: RangeError });
  out.push({ value: [...rep(2, dims - 1), '2'], text: '"2"', type: TypeError });
  out.push({ value: [...rep(2, dims - 1), 2 ** 40], text: String(2 ** 40), type: RangeError });
  out.push({ value: [...rep(2, dims - 1), undefined], text: 'undefined', type: TypeError });
  const sparse = new Array(dims);  // holes are undefined, not skipped
  out.push({ value: sparse, text: 'undefined', type: TypeError });
  out.push({ value: [2, 2, 2, 2], text: '4', type: RangeError, code: 'invalid_argument' });
  return out;
}

/** Hostile entries of a shape (x.shape, inputShape, outputSize). */
export const shapeEntries: Hostile[] = [
  ...notIntegers, num(-1), num(2 ** 31), num(2 ** 32 + 1), num(2 ** 53 - 1),
  { value: '4', text: '"4"', type: TypeError },
  { value: undefined, text: 'undefined', type: TypeError },
  { value: null, text: 'null', type: TypeError },
  { value: 4n, text: '4n', type: TypeError },
];

/** Hostile whole shapes. */
export function shapeValues(dims: number): Hostile[] {
  return [
    { value: undefined, type: TypeError },
    { value: null, text: 'null', type: TypeError },
    { value: '1x1x4', text: '"1x1x4"', type: TypeError },
    { value: Int32Array.from([1, 1, ...rep(4, dims)]), text: 'Int32Array', type: TypeError },
    { value: { length: dims + 2 }, text: 'Object', type: TypeError },
    { value: [1, 1, 1, 1, 1, 1], text: '[1, 1, 1, 1, 1, 1]', type: RangeError },
    { value: new Array(dims + 2), text: 'undefined', type: TypeError },
    { value: [1, 1, ...rep(-4, dims)], text: '-4', type: RangeError },
  ];
}

const hasFloat16 = typeof (globalThis as { Float16Array?: unknown }).Float16Array === 'function';

export function detached<T extends ArrayBufferView>(a: T): T {
  structuredClone(a.buffer, { transfer: [a.buffer as ArrayBuffer] });
  expect(a.byteLength).toBe(0);
  return a;
}

/**
 * Hostile `data` of a tensor with `n` elements. `integers`: the argument
 * takes integer values (max pool, unpool and its gradient: issue 31), so
 * only the classes no op pools are wrong; the gradients that add refuse
 * every integer class.
 */
export function dataValues(kind: 'float' | 'index', n: number, integers: boolean): Hostile[] {
  const ints = [new Uint8Array(n), new Int8Array(n), new Uint8ClampedArray(n), new Int16Array(n)];
  const wrongTypes: unknown[] = [
    ...(kind === 'index' || !integers ? ints : []), new Uint16Array(n), new Uint32Array(n), new BigUint64Array(n),
    ...(kind === 'float' ? (integers ? [] : [new Int32Array(n), new BigInt64Array(n)])
      : [new Float32Array(n), new Float64Array(n)]),
    // A Float16Array holds float16 values (where the engine has it).
    ...(hasFloat16 && kind === 'index'
      ? [new (globalThis as unknown as { Float16Array: new (n: number) => unknown }).Float16Array(n)] : []),
  ];
  const Good = kind === 'float' ? Float32Array : Int32Array;
  const out: Hostile[] = wrongTypes.map((v) => ({ value: v, text: `${(v as object).constructor.name}(${n})`, type: TypeError }));
  out.push(
    { value: Array.from({ length: n }, () => 0), text: '[0, 0', type: TypeError },
    { value: Array.from({ length: n }, () => 0n), text: '[0n, 0n', type: TypeError },
    { value: new DataView(new ArrayBuffer(4 * n)), text: 'DataView', type: TypeError },
    { value: new ArrayBuffer(4 * n), text: 'ArrayBuffer', type: TypeError },
    { value: null, text: 'null', type: TypeError },
    { value: undefined, text: 'undefined', type: TypeError },
    { value: 'data', text: '"data"', type: TypeError },
    { value: { length: n, 0: 1 }, text: 'Object', type: TypeError },
    { value: new Proxy(new Good(n), {}), text: `posing as ${kind === 'float' ? 'a' : 'an'} ${Good.name}`, type: TypeError },
    { value: new Good(n - 1), text: `length ${n - 1}`, type: RangeError },
    { value: new Good(n + 1), text: `length ${n + 1}`, type: RangeError },
    { value: new Good(0), text: 'length 0', type: RangeError },
    { value: detached(new Good(n)), text: 'detached', type: TypeError },
    { value: detached(kind === 'float' ? new Float64Array(n) : new BigInt64Array(n)), text: 'detached', type: TypeError },
  );
  return out;
}

/**
 * Hostile `dtype` of a tensor whose data is a Float32Array (values) or an
 * Int32Array (indices): unknown names, names of the other kind, names that
 * do not fit the data, and non-strings. Every one is a TypeError.
 */
export function dtypeValues(kind: 'float' | 'index'): Hostile[] {
  const names = ['float8', 'half', 'fp16', 'bf16', 'Float16', 'FLOAT32', 'float', '', 'uint16', 'float32 ',
    'uint32', 'uint64', 'bool',
    ...(kind === 'float' ? ['int32', 'int64', 'float64', 'float16', 'bfloat16', 'uint8', 'int8', 'int16']
      : ['float32', 'float16', 'bfloat16', 'int64', 'uint8'])];
  return [
    ...names.map((v) => ({ value: v, text: JSON.stringify(v), type: TypeError })),
    { value: 2, text: '=2 ', type: TypeError },
    { value: 0, text: '=0 ', type: TypeError },
    { value: null, text: 'null', type: TypeError },
    { value: true, text: 'true', type: TypeError },
    { value: {}, text: 'Object', type: TypeError },
    { value: ['float32'], text: '["float32"]', type: TypeError },
    { value: Symbol('float32'), text: 'Symbol(float32)', type: TypeError },
    { value: Float32Array, text: 'function', type: TypeError },
    { value: 32n, text: '32n', type: TypeError },
    // eslint-disable-next-line no-new-wrappers
    { value: new String('float32'), text: 'String', type: TypeError },
  ];
}

/** Indices of the right type holding values outside the plane (`plane` elements). */
export function indexValues(plane: number): Hostile[] {
  const int32 = [-1, plane, plane + 1, 2 ** 31 - 1, -(2 ** 31)];
  const int64 = [-1n, BigInt(plane), 2n ** 32n, 2n ** 32n + 1n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)];
  return [
    ...int32.map((v) => ({ value: v, text: String(v), type: RangeError, code: 'invalid_index' })),
    ...int64.map((v) => ({ value: v, text: String(v), type: RangeError, code: 'invalid_index' })),
  ];
}

export const notObjects: Hostile[] = [
  { value: null, text: 'null', type: TypeError },
  { value: 5, text: '5', type: TypeError },
  { value: 'kernelSize=2', text: '"kernelSize=2"', type: TypeError },
  { value: true, text: 'true', type: TypeError },
  { value: 2n, text: '2n', type: TypeError },
  { value: Symbol('options'), text: 'Symbol(options)', type: TypeError },
];
