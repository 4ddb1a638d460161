// Hostile values at the JS boundary, for every public function and module
// class and every parameter: each must throw a TypeError or RangeError whose
// message names the function, the parameter and the value; afterwards the
// module must still compute a known result and hold no more heap than before.
import { afterAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import { moduleStillWorks, pooled, prod, rep } from './hostile-suite.js';

type Fn = (...args: unknown[]) => any;
type Ctor = new (...args: unknown[]) => any;
const api = unpool as unknown as Record<string, Fn & Ctor>;
type Args = Record<string, any>;

// Top-level: the cases are built (from real pool results) when the file is collected.
await unpool.init();


// ---------------------------------------------------------------------------
// Valid calls, one per public entry point, built fresh for every case.


interface Entry {
  /** What the user calls, e.g. maxPool2d or MaxPool2d.forward. */
  label: string;
  /** Function names the messages may start with (the class or the functional op). */
  names: string[];
  base: () => Args;
  run: (a: Args) => unknown;
  /** Mutable paths: tensors, size options, shapes. */
  tensors: { path: string; kind: 'float' | 'index' }[];
  sizes: string[];
  shapes: string[];
  objects: string[];
}

const entries: Entry[] = [];
for (const d of [1, 2, 3]) {
  const size = (v: number) => rep(v, d);
  entries.push({
    label: `maxPool${d}d`, names: [`maxPool${d}d`],
    base: () => ({
      x: pooled(d).x,
      options: { kernelSize: size(2), stride: size(2), padding: size(0), dilation: size(1), ceilMode: false, indexType: 'int32' },
    }),
    run: (a) => api[`maxPool${d}d`](a.x, a.options),
    tensors: [{ path: 'x', kind: 'float' }],
    sizes: ['options.kernelSize', 'options.stride', 'options.padding', 'options.dilation'],
    shapes: ['x.shape'], objects: ['options'],
  });
  entries.push({
    label: `maxUnpool${d}d`, names: [`maxUnpool${d}d`],
    base: () => {
      const p = pooled(d);
      return { x: p.output, indices: p.indices, options: { kernelSize: size(2), stride: size(2), padding: size(0), outputSize: size(4) } };
    },
    run: (a) => api[`maxUnpool${d}d`](a.x, a.indices, a.options),
    tensors: [{ path: 'x', kind: 'float' }, { path: 'indices', kind: 'index' }],
    sizes: ['options.kernelSize', 'options.stride', 'options.padding'],
    shapes: ['x.shape', 'indices.shape', 'options.outputSize'], objects: ['options'],
  });
  entries.push({
    label: `maxPool${d}dBackward`, names: [`maxPool${d}dBackward`],
    base: () => {
      const p = pooled(d);
      return {
        gradOutput: { data: new Float32Array(prod(p.outShape)).fill(1), shape: p.outShape }, indices: p.indices,
        options: { inputShape: p.inShape, kernelSize: size(2), stride: size(2), padding: size(0), dilation: size(1), ceilMode: false },
      };
    },
    run: (a) => api[`maxPool${d}dBackward`](a.gradOutput, a.indices, a.options),
    tensors: [{ path: 'gradOutput', kind: 'float' }, { path: 'indices', kind: 'index' }],
    sizes: ['options.kernelSize', 'options.stride', 'options.padding', 'options.dilation'],
    shapes: ['gradOutput.shape', 'indices.shape', 'options.inputShape'], objects: ['options'],
  });
  entries.push({
    label: `maxUnpool${d}dBackward`, names: [`maxUnpool${d}dBackward`],
    base: () => {
      const p = pooled(d);
      return { gradOutput: p.x, indices: p.indices };
    },
    run: (a) => api[`maxUnpool${d}dBackward`](a.gradOutput, a.indices),
    tensors: [{ path: 'gradOutput', kind: 'float' }, { path: 'indices', kind: 'index' }],
    sizes: [], shapes: ['gradOutput.shape', 'indices.shape'], objects: [],
  });
  entries.push({
    label: `maxUnpool${d}dOutputRange`, names: [`maxUnpool${d}dOutputRange`],
    base: () => ({ inputShape: [1, 1, ...size(2)], options: { kernelSize: size(2), stride: size(2), padding: size(0) } }),
    run: (a) => api[`maxUnpool${d}dOutputRange`](a.inputShape, a.options),
    tensors: [], sizes: ['options.kernelSize', 'options.stride', 'options.padding'],
    shapes: ['inputShape'], objects: ['options'],
  });
  const geometry = () => ({ stride: size(2), padding: size(0), dilation: size(1), ceilMode: false, indexType: 'int32' });
  entries.push({
    label: `MaxPool${d}d.forward`, names: [`MaxPool${d}d`, `MaxPool${d}d.forward`],
    base: () => ({ kernelSize: size(2), options: geometry(), x: pooled(d).x }),
    run: (a) => new api[`MaxPool${d}d`](a.kernelSize, a.options).forward(a.x),
    tensors: [{ path: 'x', kind: 'float' }],
    sizes: ['kernelSize', 'options.stride', 'options.padding', 'options.dilation'],
    shapes: ['x.shape'], objects: ['options'],
  });
  entries.push({
    label: `MaxPool${d}d.backward`, names: [`MaxPool${d}d`, `MaxPool${d}d.backward`],
    base: () => {
      const p = pooled(d);
      return {
        kernelSize: size(2), options: geometry(),
        gradOutput: { data: new Float32Array(prod(p.outShape)).fill(1), shape: p.outShape }, indices: p.indices, inputShape: p.inShape,
      };
    },
    run: (a) => new api[`MaxPool${d}d`](a.kernelSize, a.options).backward(a.gradOutput, a.indices, a.inputShape),
    tensors: [{ path: 'gradOutput', kind: 'float' }, { path: 'indices', kind: 'index' }],
    sizes: ['kernelSize', 'options.stride', 'options.padding', 'options.dilation'],
    shapes: ['gradOutput.shape', 'indices.shape', 'inputShape'], objects: ['options'],
  });
  entries.push({
    label: `MaxUnpool${d}d.forward`, names: [`MaxUnpool${d}d`, `MaxUnpool${d}d.forward`],
    base: () => {
      const p = pooled(d);
      return { kernelSize: size(2), options: { stride: size(2), padding: size(0) }, x: p.output, indices: p.indices, outputSize: p.inShape };
    },
    run: (a) => new api[`MaxUnpool${d}d`](a.kernelSize, a.options).forward(a.x, a.indices, a.outputSize),
    tensors: [{ path: 'x', kind: 'float' }, { path: 'indices', kind: 'index' }],
    sizes: ['kernelSize', 'options.stride', 'options.padding'],
    shapes: ['x.shape', 'indices.shape', 'outputSize'], objects: ['options'],
  });
  entries.push({
    label: `MaxUnpool${d}d.backward`, names: [`MaxUnpool${d}d`, `MaxUnpool${d}d.backward`],
    base: () => {
      const p = pooled(d);
      return { kernelSize: size(2), options: {}, gradOutput: p.x, indices: p.indices };
    },
    run: (a) => new api[`MaxUnpool${d}d`](a.kernelSize, a.options).backward(a.gradOutput, a.indices),
    tensors: [{ path: 'gradOutput', kind: 'float' }, { path: 'indices', kind: 'index' }],
    sizes: [], shapes: ['gradOutput.shape', 'indices.shape'], objects: ['options'],
  });
}

// ---------------------------------------------------------------------------
// Hostile values.

/** How a hostile value must be reported: its class and the text of the value. */
interface Hostile {
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
function sizeValues(path: string, dims: number): Hostile[] {
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
const shapeEntries: Hostile[] = [
  ...notIntegers, num(-1), num(2 ** 31), num(2 ** 32 + 1), num(2 ** 53 - 1),
  { value: '4', text: '"4"', type: TypeError },
  { value: undefined, text: 'undefined', type: TypeError },
  { value: null, text: 'null', type: TypeError },
  { value: 4n, text: '4n', type: TypeError },
];

/** Hostile whole shapes. */
function shapeValues(dims: number): Hostile[] {
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

function detached<T extends ArrayBufferView>(a: T): T {
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
function dataValues(kind: 'float' | 'index', n: number, integers: boolean): Hostile[] {
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
    { value: new Proxy(new Good(n), {}), text: `posing as a ${Good.name}`, type: TypeError },
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
function dtypeValues(kind: 'float' | 'index'): Hostile[] {
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
function indexValues(plane: number): Hostile[] {
  const int32 = [-1, plane, plane + 1, 2 ** 31 - 1, -(2 ** 31)];
  const int64 = [-1n, BigInt(plane), 2n ** 32n, 2n ** 32n + 1n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)];
  return [
    ...int32.map((v) => ({ value: v, text: String(v), type: RangeError, code: 'invalid_index' })),
    ...int64.map((v) => ({ value: v, text: String(v), type: RangeError, code: 'invalid_index' })),
  ];
}

const notObjects: Hostile[] = [
  { value: null, text: 'null', type: TypeError },
  { value: 5, text: '5', type: TypeError },
  { value: 'kernelSize=2', text: '"kernelSize=2"', type: TypeError },
  { value: true, text: 'true', type: TypeError },
  { value: 2n, text: '2n', type: TypeError },
  { value: Symbol('options'), text: 'Symbol(options)', type: TypeError },
];

// ---------------------------------------------------------------------------
// Cases: one hostile value at one path of one entry's valid call.

interface Case {
  entry: Entry;
  path: string;
  hostile: Hostile;
  /** Parameter names the message may use for this path. */
  params: string[];
  /** For index contents: the position in the indices that is set. */
  at?: number;
}

function setPath(args: Args, path: string, value: unknown): void {
  const keys = path.split('.');
  let o = args;
  for (const k of keys.slice(0, -1)) o = o[k];
  o[keys[keys.length - 1]] = value;
}

function getPath(args: Args, path: string): any {
  return path.split('.').reduce((o, k) => o[k], args);
}

/** The names a message may use for a path: 'options.kernelSize' -> kernelSize; 'x.shape' -> x.shape, x. */
function paramNames(path: string): string[] {
  const parts = path.split('.');
  if (parts[0] === 'options' && parts.length > 1) return [parts[1]];
  if (parts.length === 1) return [parts[0]];
  return [parts.slice(0, 2).join('.'), parts[0]];
}

function buildCases(): Case[] {
  const cases: Case[] = [];
  for (const entry of entries) {
    const dims = Number(/(\d)d/.exec(entry.label)![1]);
    const base = entry.base();
    for (const path of entry.sizes) {
      for (const hostile of sizeValues(path, dims)) cases.push({ entry, path, hostile, params: paramNames(path) });
    }
    for (const path of entry.shapes) {
      const shape = getPath(base, path) as number[];
      const isOutputSize = path.endsWith('outputSize');
      const params = paramNames(path);
      for (let i = 0; i < shape.length; ++i) {
        for (const hostile of shapeEntries) {
          // The N and C of a dims + 2 outputSize are ignored, as in PyTorch: any integer goes.
          if (isOutputSize && i < shape.length - dims && Number.isSafeInteger(hostile.value)) continue;
          cases.push({ entry, path: `${path}.${i}`, hostile, params });
        }
      }
      for (const hostile of shapeValues(dims)) {
        if (isOutputSize && (hostile.value === undefined || hostile.value === null)) continue;  // the default
        cases.push({ entry, path, hostile, params });
      }
    }
    for (const { path, kind } of entry.tensors) {
      const t = getPath(base, path) as { data: ArrayLike<unknown> };
      const integers = !/MaxPool\dd\.backward|maxPool\ddBackward/.test(entry.label);
      for (const hostile of dataValues(kind, t.data.length, integers)) {
        cases.push({ entry, path: `${path}.data`, hostile, params: [path] });
      }
      for (const hostile of dtypeValues(kind)) {
        cases.push({ entry, path: `${path}.dtype`, hostile, params: [`${path}.dtype`] });
      }
      for (const hostile of [...notObjects, { value: undefined, text: 'undefined', type: TypeError },
        { value: { shape: [1, 1, 4] }, text: 'undefined', type: TypeError }, { value: [], text: 'undefined', type: TypeError }]) {
        cases.push({ entry, path, hostile, params: [path] });
      }
      if (kind === 'index') {
        // Out of range or negative indices: the plane the indices address.
        const plane = 4 ** dims;  // every base call's indices address a plane of 4 per dim
        for (const hostile of indexValues(plane)) {
          for (const at of [0, t.data.length - 1]) cases.push({ entry, path: `${path}.data`, hostile, params: [path], at });
        }
      }
    }
    for (const path of entry.objects) {
      for (const hostile of notObjects) cases.push({ entry, path, hostile, params: [path] });
    }
    if (entry.label.startsWith('maxPool') && !entry.label.endsWith('Backward') || entry.label.startsWith('MaxPool') && entry.label.endsWith('forward')) {
      for (const v of ['int16', 'INT32', 'int', 32, null, true, Int32Array]) {
        cases.push({ entry, path: 'options.indexType', hostile: { value: v, type: TypeError, text: typeof v === 'string' ? `"${v}"` : undefined }, params: ['indexType'] });
      }
    }
    if (entry.label.startsWith('maxPool') || entry.label.startsWith('MaxPool')) {
      for (const v of ['yes', 1, 0, null, 'false']) {
        cases.push({ entry, path: 'options.ceilMode', hostile: { value: v, type: TypeError, text: typeof v === 'string' ? `"${v}"` : String(v) }, params: ['ceilMode'] });
      }
    }
  }
  return cases;
}

function applyCase(c: Case): Args {
  const args = c.entry.base();
  if (c.path.endsWith('.data')) {
    // Other data in a result object: its dtype would not fit (a case of its own).
    delete (getPath(args, c.path.replace(/\.data$/, '')) as { dtype?: string }).dtype;
  }
  if (c.at !== undefined) {
    // Same type as the valid indices: Int32Array for numbers, BigInt64Array for bigints.
    const t = getPath(args, c.path.replace(/\.data$/, '')) as { data: Int32Array };
    const data = typeof c.hostile.value === 'bigint' ? BigInt64Array.from(t.data, BigInt) : Int32Array.from(t.data);
    (data as unknown as unknown[])[c.at] = c.hostile.value;
    setPath(args, c.path, data);
    return args;
  }
  setPath(args, c.path, c.hostile.value);
  return args;
}

const cases = buildCases();
// UNPOOL_HOSTILE_LOG=1 prints every input and the error it gave.
const LOG = (globalThis as { process?: { env: Record<string, string> } }).process?.env.UNPOOL_HOSTILE_LOG === '1';
const tried = { count: 0 };

describe('hostile values at the JS boundary', () => {
  it('every valid base call works', () => {
    for (const e of entries) expect(() => e.run(e.base()), e.label).not.toThrow();
  });

  it(`${cases.length} hostile inputs: a clear TypeError or RangeError, then a working module with its heap as before`, () => {
    moduleStillWorks();
    const before = unpool.memoryUsage().inUseBytes;
    const problems: string[] = [];
    for (const c of cases) {
      const what = `${c.entry.label} ${c.path}${c.at !== undefined ? `[${c.at}]` : ''} = ${c.hostile.text ?? typeof c.hostile.value}`;
      let thrown: unknown;
      try {
        c.entry.run(applyCase(c));
      } catch (e) {
        thrown = e;
      }
      tried.count += 1;
      const err = thrown as Error & { code?: string };
      if (LOG) console.log(`${what} -> ${err?.constructor?.name}${err?.code ? `(${err.code})` : ''}: ${err?.message}`);
      if (!(thrown instanceof c.hostile.type)) {
        problems.push(`${what}: expected ${c.hostile.type.name}, got ${thrown === undefined ? 'no error' : `${err?.constructor?.name}: ${err?.message}`}`);
      } else {
        const m = err.message;
        const okName = c.entry.names.some((n) => m.startsWith(`${n}: `));
        const okParam = c.params.some((p) => m.includes(p)) || /cannot allocate \d+ bytes/.test(m);
        const okValue = c.hostile.text === undefined || m.includes(c.hostile.text) || /cannot allocate \d+ bytes/.test(m);
        // Every error has a code (issue 32): the case's when it names one.
        const okCode = unpool.isUnpoolError(thrown) && (c.hostile.code === undefined || err.code === c.hostile.code);
        if (!(okName && okParam && okValue && okCode)) {
          problems.push(`${what}: ${okName ? '' : '[function] '}${okParam ? '' : '[parameter] '}${okValue ? '' : '[value] '}` +
            `${okCode ? '' : `[code ${err.code}] `}${err.constructor.name}: ${m}`);
        }
      }
      if (unpool.memoryUsage().inUseBytes !== before) problems.push(`${what}: leaked ${unpool.memoryUsage().inUseBytes - before} bytes`);
      moduleStillWorks();
    }
    expect(problems).toEqual([]);
    expect(unpool.memoryUsage().inUseBytes).toBe(before);
  });
});

describe('hostile layout, out, resident and WasmTensor arguments', () => {
  it('each throws a TypeError or RangeError naming function, parameter and value; out is untouched; nothing leaks', () => {
    const p = pooled(2);
    const genuineInt = unpool.uploadTensor(p.indices);
    const genuineFloat = unpool.uploadTensor(p.output);
    const disposed = unpool.uploadTensor(p.output);
    disposed.dispose();
    disposed.dispose();  // idempotent
    const WasmTensor = (unpool as unknown as { WasmTensor: { prototype: object } }).WasmTensor;
    const forged = Object.create(WasmTensor.prototype, {
      address: { value: 2 ** 32 - 8 }, dtype: { value: 'float32' }, shape: { value: [1, 1, 2, 2] }, size: { value: 4 },
    });
    const detachedOut = detached(new Float32Array(16));
    const badIndices = unpool.uploadTensor({ data: Int32Array.from([0, 1, 2, 16]), shape: [1, 1, 2, 2] });
    const u = { kernelSize: 2 };
    type C = [string, () => unknown, typeof TypeError | typeof RangeError, RegExp];
    const cases: C[] = [];
    for (const layout of ['NLC', 'NCDHW', 'nchw', 'NCHW ', '', 5, null, {}, true]) {
      const text = typeof layout === 'string' ? JSON.stringify(layout) : String(layout === null ? 'null' : typeof layout === 'object' ? 'Object' : layout);
      const re = new RegExp(`layout.*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
      // A string that is no layout of this op is a bad value (RangeError); anything else a bad type.
      const type = typeof layout === 'string' ? RangeError : TypeError;
      cases.push(
        [`maxPool2d layout ${text}`, () => unpool.maxPool2d(p.x, { kernelSize: 2, layout } as never), type, re],
        [`maxUnpool2d layout ${text}`, () => unpool.maxUnpool2d(p.output, p.indices, { ...u, layout } as never), type, re],
        [`maxPool2dBackward layout ${text}`, () => unpool.maxPool2dBackward(p.output, p.indices, { inputShape: p.inShape, layout } as never), type, re],
        [`maxUnpool2dBackward layout ${text}`, () => unpool.maxUnpool2dBackward(p.x, p.indices, { layout } as never), type, re],
        [`MaxPool2d layout ${text}`, () => new unpool.MaxPool2d(2, { layout } as never).forward(p.x), type, re],
      );
    }
    for (const resident of ['yes', 1, null, {}]) {
      const text = resident === null ? 'null' : typeof resident === 'object' ? 'Object' : JSON.stringify(resident);
      cases.push([`maxPool2d resident ${text}`, () => unpool.maxPool2d(p.x, { kernelSize: 2, resident } as never), TypeError,
        new RegExp(`^maxPool2d: resident=.*${text}`)]);
      cases.push([`maxUnpool2d resident ${text}`, () => unpool.maxUnpool2d(p.output, p.indices, { ...u, resident } as never), TypeError,
        new RegExp(`^maxUnpool2d: resident=.*${text}`)]);
    }
    const out16 = () => new Float32Array(16).fill(-7);
    cases.push(
      ['out with resident', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: out16(), resident: true }), TypeError, /^maxUnpool2d: out and resident/],
      ['pool out a number', () => unpool.maxPool2d(p.x, { kernelSize: 2, out: 5 } as never), TypeError, /^maxPool2d: out must be an object .*5/],
      ['pool out a typed array', () => unpool.maxPool2d(p.x, { kernelSize: 2, out: new Float32Array(4) } as never), TypeError, /^maxPool2d: out must be an object .*Float32Array\(4\)/],
      ['pool out.output Float64Array', () => unpool.maxPool2d(p.x, { kernelSize: 2, out: { output: new Float64Array(4) } } as never), TypeError, /^maxPool2d: out\.output must be a Float32Array .*Float64Array\(4\)/],
      ['pool out.output length 3', () => unpool.maxPool2d(p.x, { kernelSize: 2, out: { output: new Float32Array(3) } }), RangeError, /^maxPool2d: out\.output has length 3/],
      ['pool out.indices BigInt64Array for int32', () => unpool.maxPool2d(p.x, { kernelSize: 2, out: { indices: new BigInt64Array(4) } } as never), TypeError, /^maxPool2d: out\.indices must be an Int32Array .*BigInt64Array\(4\)/],
      ['pool out.indices plain array', () => unpool.maxPool2d(p.x, { kernelSize: 2, out: { indices: [0, 0, 0, 0] } } as never), TypeError, /^maxPool2d: out\.indices must be .*\[0, 0/],
      ['unpool out Float64Array', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: new Float64Array(16) } as never), TypeError, /^maxUnpool2d: out must be a Float32Array .*Float64Array\(16\)/],
      ['unpool out length 15', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: new Float32Array(15) }), RangeError, /^maxUnpool2d: out has length 15/],
      ['unpool out length 17', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: new Float32Array(17) }), RangeError, /^maxUnpool2d: out has length 17/],
      ['unpool out detached', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: detachedOut }), RangeError, /^maxUnpool2d: out has length 0/],
      ['unpool out Proxy', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: new Proxy(new Float32Array(16), {}) } as never), TypeError, /^maxUnpool2d: out must be a Float32Array .*posing as a Float32Array/],
      ['unpool out DataView', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: new DataView(new ArrayBuffer(64)) } as never), TypeError, /^maxUnpool2d: out must be a Float32Array .*DataView/],
      ['pool backward out Float64Array', () => unpool.maxPool2dBackward(p.output, p.indices, { inputShape: p.inShape, out: new Float64Array(16) } as never), TypeError, /^maxPool2dBackward: out must be a Float32Array/],
      ['unpool backward out length 5', () => unpool.maxUnpool2dBackward(p.x, p.indices, { out: new Float32Array(5) }), RangeError, /^maxUnpool2dBackward: out has length 5/],
      ['forged WasmTensor as x', () => unpool.maxPool2d(forged, { kernelSize: 2 }), TypeError, /^maxPool2d: x is not a WasmTensor made by uploadTensor\(\) or an op$/],
      ['forged WasmTensor as indices', () => unpool.maxUnpool2d(p.output, forged, u), TypeError, /^maxUnpool2d: indices is not a WasmTensor made by/],
      ['disposed WasmTensor as x', () => unpool.maxUnpool2d(disposed, p.indices, u), TypeError, /^maxUnpool2d: x is a WasmTensor that was disposed$/],
      ['int32 WasmTensor as gradOutput', () => unpool.maxPool2dBackward(genuineInt as never, p.indices, { inputShape: p.inShape }), TypeError, /^maxPool2dBackward: gradOutput is a WasmTensor of int32 values; a pool's gradient adds/],
      ['float WasmTensor as indices', () => unpool.maxUnpool2d(p.output, genuineFloat as never, u), TypeError, /^maxUnpool2d: indices must hold int32 or int64 data, got a WasmTensor of float32$/],
      ['WasmTensor with an out-of-range index', () => unpool.maxUnpool2d(genuineFloat, badIndices, { ...u, out: out16() }),
        RangeError, /^maxUnpool2d: indices\[3\]=16 is out of range/],
      ['new WasmTensor()', () => new (WasmTensor as unknown as new (...a: unknown[]) => unknown)(Symbol('WasmTensor'), {}, 8, 'float32', [2]), TypeError, /^WasmTensor: use uploadTensor\(\)/],
      ['uploadTensor(null)', () => unpool.uploadTensor(null as never), TypeError, /^uploadTensor: t must be a tensor .*null/],
      ['uploadTensor(Uint32Array data)', () => unpool.uploadTensor({ data: new Uint32Array(4), shape: [4] } as never), TypeError, /^uploadTensor: t\.data must be .*Uint32Array\(4\)/],
      ['uploadTensor(detached)', () => unpool.uploadTensor({ data: detached(new Float64Array(4)), shape: [4] }), TypeError, /^uploadTensor: t\.data is a view of a detached ArrayBuffer$/],
      ['uploadTensor(WasmTensor)', () => unpool.uploadTensor(genuineFloat as never), TypeError, /^uploadTensor: t is already a WasmTensor$/],
      ['uploadTensor(length mismatch)', () => unpool.uploadTensor({ data: new Int32Array(3), shape: [2, 2] }), RangeError, /^uploadTensor: t\.data has length 3/],
    );
    moduleStillWorks();
    const before = unpool.memoryUsage().inUseBytes;
    const problems: string[] = [];
    for (const [name, call, type, message] of cases) {
      let thrown: unknown;
      try {
        call();
      } catch (e) {
        thrown = e;
      }
      tried.count += 1;
      if (!(thrown instanceof type) || !message.test((thrown as Error).message)) {
        problems.push(`${name}: expected ${type.name} ${message}, got ${thrown === undefined ? 'no error' : `${(thrown as Error).constructor.name}: ${(thrown as Error).message}`}`);
      }
      expect(unpool.memoryUsage().inUseBytes, name).toBe(before);
      moduleStillWorks();
    }
    expect(problems).toEqual([]);
    // Mutating a WasmTensor's shape, dtype or size (which size every read) is refused.
    for (const key of ['shape', 'dtype', 'size', 'address']) {
      expect(() => { (genuineFloat as unknown as Record<string, unknown>)[key] = 1; }, key).toThrow(TypeError);
    }
    (forged as { dispose(): void }).dispose();  // frees nothing: not a tensor of this module
    expect(unpool.memoryUsage().inUseBytes).toBe(before);
    // An out array is written only by a successful call.
    const out = out16();
    expect(() => unpool.maxUnpool2d(p.output, { data: Int32Array.from([0, 1, 2, 99]), shape: [1, 1, 2, 2] }, { ...u, out })).toThrow(RangeError);
    expect(out.every((v) => v === -7)).toBe(true);
    const ok = unpool.maxUnpool2d(genuineFloat, genuineInt, { ...u, out });
    expect(ok.data).toBe(out);
    expect(Array.from(out)).toEqual(Array.from(unpool.maxUnpool2d(p.output, p.indices, u).data));
    const held = unpool.memoryUsage().inUseBytes;
    for (const t of [genuineInt, genuineFloat, badIndices]) t.dispose();
    expect(unpool.memoryUsage().inUseBytes).toBeLessThan(held);
    moduleStillWorks();
  });
});

afterAll(() => {
  // The count for the issue's closing note.
  console.log(`hostile.test.ts: ${tried.count} hostile inputs tried`);
});
