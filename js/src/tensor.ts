// Tensor types and the checks that only JavaScript can make: array kinds,
// integer-ness of sizes, data length against shape. Everything about
// geometry (ranks, kernel >= 1, index ranges, ...) is checked in C++.
import {
  ArrayClass, classOfTag, DType, DTypeInfo, DTypeOf, dtypesOf, Kind, listed, StorageArray,
  tagsOf, TensorData, typeNamed,
} from './dtypes.js';

export type {
  DType, DTypeOf, Float16ArrayLike, Float16ArrayShape, FloatArray, FloatDType, IndexArray,
  IndexType, IntegerArray, IntegerDType, TensorData, ValueArray, ValueDType,
} from './dtypes.js';

/**
 * A dense row-major tensor: NC + spatial dims, or C + spatial (unbatched).
 * `dtype` may be left out of a tensor the caller writes, except for a
 * Uint16Array of 16-bit float bits; every result sets it ({@link TensorResult}).
 */
export interface Tensor<T extends TensorData = TensorData> {
  data: T;
  shape: number[];
  dtype?: DTypeOf<T>;
}

/** A tensor as every function returns it: `data` of the class of the input's data, and its dtype. */
export interface TensorResult<T extends TensorData = TensorData> extends Tensor<T> {
  dtype: DTypeOf<T>;
}

/**
 * What the functions accept as a tensor: `{ data, shape, dtype? }`, or
 * `{ data, dims, type? }` as ONNX Runtime Web tensors have it. `data` may be
 * a subarray view. `dtype` (`type`) may be left out except for a Uint16Array
 * of 16-bit float bits ('float16' or 'bfloat16'); given, it must fit `data`.
 */
export type TensorLike<T extends TensorData = TensorData> =
    | { data: T; shape: readonly number[]; dtype?: DType }
    | { data: T; dims: readonly number[]; type?: string };

/** A size argument: one number for every spatial dim, or one per dim. */
export type Size = number | readonly number[];

/**
 * The code of an {@link UnpoolError} (a RangeError): the core's status
 * names, which the JavaScript checks use too.
 * - 'invalid_argument': a size, option or value outside what the op takes
 *   (kernel < 1, a non-integer size, padding > kernel / 2, an unknown layout);
 * - 'invalid_shape': a rank, a shape or a length that does not fit
 *   (data length against shape, indices of another shape than the values);
 * - 'invalid_index': an index outside its plane;
 * - 'output_size_out_of_range': an unpool outputSize outside its range;
 * - 'too_large': a size beyond 2^31 - 1, or int32 indices that cannot hold a plane's offsets;
 * - 'out_of_memory': the module cannot allocate the call's buffers (4 GiB heap).
 */
export type UnpoolRangeErrorCode =
    | 'invalid_argument' | 'invalid_shape' | 'invalid_index' | 'output_size_out_of_range'
    | 'too_large' | 'out_of_memory'
    // unpool/webgpu: no WebGPU (or an op not on it), a lost GPUDevice
    | 'unsupported' | 'device_lost';

/**
 * The code of an {@link UnpoolTypeError} (a TypeError):
 * - 'invalid_type': a value of the wrong JavaScript type (not a tensor, a
 *   typed array of the wrong class, a dtype that does not fit, a missing
 *   required option, a disposed WasmTensor);
 * - 'unknown_option': an options object with a key the function does not take.
 */
export type UnpoolTypeErrorCode = 'invalid_type' | 'unknown_option';

/** Every code an error of this package carries. */
export type UnpoolErrorCode = UnpoolRangeErrorCode | UnpoolTypeErrorCode;

/**
 * A bad value: what the WebAssembly core rejects, and the range checks of
 * the JavaScript layer (non-integers, lengths, shapes). It is a RangeError
 * with a `code`. Recognise every error of this package, this one and
 * {@link UnpoolTypeError}, with {@link isUnpoolError}.
 */
export class UnpoolError extends RangeError {
  readonly code: UnpoolRangeErrorCode;
  /** `code`: one of UnpoolRangeErrorCode (the core's status names arrive as strings). */
  constructor(message: string, code: UnpoolRangeErrorCode | (string & {})) {
    super(message);
    this.name = 'UnpoolError';
    this.code = code as UnpoolRangeErrorCode;
  }
}

/**
 * A value of the wrong type, or an unknown option: a TypeError with a
 * `code` ('invalid_type' or 'unknown_option').
 */
export class UnpoolTypeError extends TypeError {
  readonly code: UnpoolTypeErrorCode;
  constructor(message: string, code: UnpoolTypeErrorCode = 'invalid_type') {
    super(message);
    this.name = 'UnpoolTypeError';
    this.code = code;
  }
}

/**
 * True for every error this package throws for a bad argument or bad tensor
 * contents: an {@link UnpoolError} (a RangeError) or an
 * {@link UnpoolTypeError} (a TypeError), both with a `code`.
 *
 * @example
 * try { maxUnpool2d(x, indices, options); }
 * catch (e) { if (isUnpoolError(e) && e.code === 'invalid_index') { ... } else throw e; }
 */
export function isUnpoolError(e: unknown): e is UnpoolError | UnpoolTypeError {
  return e instanceof UnpoolError || e instanceof UnpoolTypeError;
}

/** A RangeError of the JavaScript checks: an UnpoolError with `code`. */
export const rangeError = (message: string, code: UnpoolRangeErrorCode = 'invalid_argument') =>
  new UnpoolError(message, code);

/** A TypeError of the JavaScript checks: an UnpoolTypeError with `code`. */
export const typeError = (message: string, code: UnpoolTypeErrorCode = 'invalid_type') =>
  new UnpoolTypeError(message, code);

/** Largest rank the core handles: N, C and three spatial dims. */
export const MAX_RANK = 5;

/**
 * The name of a class as messages may print it: a global's (Map, GPUBuffer,
 * Float32Array), or a name of three characters or more. Minifiers rename
 * classes to one or two characters (ONNX Runtime Web's bundles make its
 * Tensor `ze` or `ce`): such a name says nothing, and is never printed.
 */
export function readableName(ctor: unknown): string | undefined {
  if (typeof ctor !== 'function') return undefined;
  const name: unknown = (ctor as { name?: unknown }).name;
  if (typeof name !== 'string' || name === '') return undefined;
  if ((globalThis as Record<string, unknown>)[name] === ctor || name.length >= 3) return name;
  return undefined;
}

/** What the package recognises of another library's tensor (describe, and the hints built on it). */
export interface ForeignTensor {
  kind: 'ort' | 'tf';
  /** 'an ort.Tensor (float32, dims [1, 4, 16, 16], on gpu-buffer)', 'a TF.js tensor (...)'. */
  text: string;
  /** An ort.Tensor's location: 'cpu', 'gpu-buffer', ... */
  location?: string;
}

/** A library's short name as it is ('float32'), anything else as a string literal. */
const word = (s: string) => (/^[\w-]{1,20}$/.test(s) ? s : describe(s));

/**
 * An ONNX Runtime tensor (onnxruntime-common's Tensor: `location`, `type`,
 * `dims`) or a TF.js tensor (`dataId`, `shape`, `dtype`, `dataSync()`),
 * known by what it has, not by its class's name (minified in the
 * libraries' bundles); undefined for anything else.
 */
export function foreignTensor(value: unknown): ForeignTensor | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  try {
    const v = value as Record<string, unknown>;
    if (typeof v.location === 'string' && typeof v.type === 'string' && Array.isArray(v.dims)) {
      return {
        kind: 'ort', location: v.location,
        text: `an ort.Tensor (${word(v.type)}, dims ${describe(v.dims)}, on ${word(v.location)})`,
      };
    }
    if (v.dataId !== null && typeof v.dataId === 'object' && Array.isArray(v.shape) &&
        typeof v.dtype === 'string' && typeof v.dataSync === 'function') {
      return { kind: 'tf', text: `a TF.js tensor (${word(v.dtype)}, shape ${describe(v.shape)})` };
    }
  } catch {
    // A getter that throws: not a tensor of theirs.
  }
  return undefined;
}

/**
 * An object as messages describe it: another library's tensor by what it
 * is, else its class's name when that is a global's (Map, GPUDevice), else
 * the tag its class gives itself (unpool's tensors, platform objects), else
 * its class's readable name, else its keys; never a minified class name.
 */
function describeObject(value: object): string {
  const foreign = foreignTensor(value);
  if (foreign !== undefined) return foreign.text;
  const backend = (value as { [BACKEND_TENSOR]?: unknown })[BACKEND_TENSOR];
  if (typeof backend === 'string') return withArticle(backend);
  let tag: unknown;
  let ctor: unknown;
  let keys: string[] = [];
  try {
    tag = (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag];
    ctor = (value as { constructor?: unknown }).constructor;
    keys = Object.keys(value);
  } catch {
    // A Proxy that throws: described by what is left.
  }
  // A global's class by its name first: a tag may be inherited (Deno's
  // GPUDevice has only EventTarget's).
  const name = readableName(ctor);
  if (name !== undefined && (globalThis as Record<string, unknown>)[name] === ctor) return withArticle(name);
  if (typeof tag === 'string' && tag !== '') return withArticle(tag);
  if (name !== undefined) return withArticle(name);
  if (keys.length === 0) return 'an object';
  return `an object { ${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ', ...' : ''} }`;
}

/** A short rendering of any value for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const items = value.slice(0, 6).map(describe).join(', ');
    return `[${items}${value.length > 6 ? ', ...' : ''}]`;
  }
  if (ArrayBuffer.isView(value)) {
    // The class a typed array's memory is (its internal slot), not its
    // constructor's name: a subclass of a minified bundle stays readable.
    const tag = classTagOf(value) ?? 'DataView';
    return `${tag}(${tag === 'DataView' ? value.byteLength : typedArrayLength.call(value) as number})`;
  }
  if (typeof value === 'object' && Object.prototype.isPrototypeOf.call(TypedArrayPrototype, value)) {
    // E.g. a Proxy of a typed array: it inherits the methods, not the memory.
    // Float16Array polyfills are such Proxies (of a Uint16Array of the bits).
    let name: string | undefined;
    try {
      name = readableName((value as { constructor?: unknown }).constructor);
    } catch {
      name = undefined;
    }
    return `an object posing as ${name === undefined ? 'a typed array' : withArticle(name)} (not itself a typed array` +
        (name === 'Float16Array' ? `; a Float16Array polyfill? pass its bits as a Uint16Array ` +
            `with dtype: 'float16'` : '') + ')';
  }
  switch (typeof value) {
    case 'string': return JSON.stringify(value);
    case 'bigint': return `${value}n`;
    case 'function': return 'a function';
    case 'object': return describeObject(value as object);
    default: return String(value);
  }
}

/**
 * Checks that `value` is a safe integer (any sign: C++ checks ranges).
 * `index`, when given, is appended to the name in messages: `name[index]`
 * (built only on failure: calls check shapes and sizes on every call).
 */
export function checkInteger(fn: string, name: string, value: unknown, index?: number): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (index !== undefined) name = `${name}[${index}]`;
  if (typeof value !== 'number') {
    throw typeError(`${fn}: ${name}=${describe(value)} must be a number`);
  }
  if (!Number.isSafeInteger(value)) {
    throw rangeError(`${fn}: ${name}=${describe(value)} must be an integer` +
        (Number.isInteger(value) ? ' of magnitude below 2^53' : ''));
  }
  return value;
}

/** Reads a shape: an array of non-negative safe integers, at most rank 5. */
export function checkShape(fn: string, name: string, value: unknown): number[] {
  if (!Array.isArray(value)) {
    throw typeError(`${fn}: ${name} must be an array of integers, got ${describe(value)}`);
  }
  const rank = value.length;
  if (rank > MAX_RANK) {
    throw rangeError(
        `${fn}: ${name}=${describe(value)} has ${rank} dims; at most ${MAX_RANK} are supported`,
        'invalid_shape');
  }
  // Index by index: holes of a sparse array are undefined, not skipped.
  const shape: number[] = [];
  for (let i = 0; i < rank; ++i) shape.push(checkInteger(fn, name, value[i], i));
  for (let i = 0; i < rank; ++i) {
    if (shape[i] < 0) throw rangeError(`${fn}: ${name}[${i}]=${shape[i]} must be >= 0`, 'invalid_shape');
  }
  return shape;
}

export function numel(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

// The element type, length and buffer of a typed array are read through the
// intrinsic getters, which see its internal slots: a subclass, a Proxy or an
// own `length`/`byteLength`/`constructor` property cannot make a call copy
// more bytes into the module than it allocated, or read them as another type.
const TypedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype) as object;
function intrinsicGetter(key: PropertyKey): (this: unknown) => unknown {
  return Object.getOwnPropertyDescriptor(TypedArrayPrototype, key)!.get!;
}
const typedArrayName = intrinsicGetter(Symbol.toStringTag);
const typedArrayBuffer = intrinsicGetter('buffer');
const typedArrayByteOffset = intrinsicGetter('byteOffset');
const typedArrayLength = intrinsicGetter('length');

/** The class name of a genuine typed array (its internal slot), else undefined. */
export function classTagOf(data: unknown): string | undefined {
  return typedArrayName.call(data) as string | undefined;
}

/**
 * A fresh view of this realm's storage class of `type` on the same memory
 * as `data` (a genuine typed array of a class that holds `type`): for a
 * Float16Array, a Uint16Array of its bits. Throws a TypeError naming
 * `what` when its ArrayBuffer is detached.
 */
export function storageView(fn: string, what: string, data: unknown, type: DTypeInfo): StorageArray {
  const buffer = typedArrayBuffer.call(data) as ArrayBuffer;  // or a SharedArrayBuffer
  const offset = typedArrayByteOffset.call(data) as number;
  const length = typedArrayLength.call(data) as number;
  try {
    return type.view(buffer, offset, length);
  } catch {
    throw typeError(`${fn}: ${what} is a view of a detached ArrayBuffer`);
  }
}

/** 'a Float32Array', 'an Int32Array', 'a Uint16Array'. */
export const withArticle = (s: string) => `${/^(?:[AEIO]|U(?!i))/.test(s) ? 'an' : 'a'} ${s}`;
const KIND_NAMES: Record<Kind, string> = {
  float: withArticle(tagsOf('float')),
  index: withArticle(tagsOf('index')),
};
const KIND_DTYPES: Record<Kind, string> = {
  float: `a value dtype; expected ${listed(dtypesOf('float').map((t) => `'${t.dtype}'`))}`,
  index: `an index dtype; expected ${listed(dtypesOf('index').map((t) => `'${t.dtype}'`))}`,
};

/**
 * A checked tensor argument: a view of its data in the storage class of its
 * dtype, its shape, its dtype and the class of its data.
 */
export interface CheckedTensor {
  data: StorageArray;
  shape: number[];
  type: DTypeInfo;
  cls: ArrayClass;
}

/**
 * The dtype of a tensor argument whose data's class holds the dtypes
 * `holds`: its `dtype` (or, in an ONNX Runtime tensor `{ data, dims, type }`,
 * its `type`) when given, which must be one of them; else the one the class
 * implies (none for a Uint16Array: float16 or bfloat16 bits).
 */
function dtypeOf(fn: string, name: string, value: object, ort: boolean, data: unknown,
                 kind: Kind, implied: DTypeInfo | undefined,
                 holds: readonly DTypeInfo[]): DTypeInfo {
  const v = value as { dtype?: unknown; type?: unknown };
  let field = 'dtype';
  let given = v.dtype;
  if (given === undefined && ort) {
    field = 'type';
    given = v.type;
  }
  // Results carry their dtype, and are often the next call's input: the
  // dtype the class implies is the common case, told by one comparison.
  if (implied !== undefined && (given === undefined || given === implied.dtype)) return implied;
  if (given === undefined) {
    const names = listed(holds.map((t) => `'${t.dtype}'`));
    throw typeError(`${fn}: ${name}.data is ${withArticle(describe(data))} of raw 16-bit ` +
        `floats; give ${name}.dtype ${names} to say which (an ONNX Runtime tensor ` +
        `{ data, dims, type } says it with type)`);
  }
  const type = typeNamed(given, kind);
  if (type === undefined) {
    throw typeError(`${fn}: ${name}.${field}=${describe(given)} is not ${KIND_DTYPES[kind]}`);
  }
  if (!holds.includes(type)) {
    throw typeError(`${fn}: ${name}.${field}=${describe(given)} does not fit ${name}.data, ` +
        `${withArticle(describe(data))}: ${type.dtype} data is ` +
        `${listed(type.classes.map((c) => withArticle(c.tag)))}`);
  }
  return type;
}

/**
 * The shape of `value` (an array) when it is valid and holds `length`
 * elements; otherwise undefined, and the caller's explicit checks throw.
 * Every call checks its tensors: this is their fast path, which builds no
 * names.
 */
function quickShape(value: unknown, length: number): number[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_RANK) return undefined;
  const rank = value.length;
  const shape: number[] = [];
  let n = 1;
  for (let i = 0; i < rank; ++i) {
    const d: unknown = value[i];
    if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) return undefined;
    shape.push(d);
    n *= d;
  }
  return n === length ? shape : undefined;
}

declare global {
  interface SymbolConstructor {
    /**
     * Explicit resource management's symbol (`using`), declared as
     * TypeScript's lib esnext.disposable does, so that the package's types
     * name it under any lib; WasmTensor and GpuTensor have it where the
     * engine does (withDispose).
     */
    readonly dispose: unique symbol;
  }
}

/** The engine's Symbol.dispose (Node.js 20 and later, current browsers, Deno, Bun), else undefined. */
const DISPOSE = (Symbol as { dispose?: unknown }).dispose;

/**
 * Gives `cls`'s instances `[Symbol.dispose]()`, which calls `release` on
 * them, where the engine has the symbol: `using t = ...` (TypeScript 5.2+,
 * or an engine with explicit resource management) releases t when its block
 * ends. Elsewhere the classes have no such method, and `using` is not there.
 */
export function withDispose<C>(cls: { prototype: C }, release: (t: C) => void): void {
  if (typeof DISPOSE !== 'symbol') return;
  Object.defineProperty(cls.prototype, DISPOSE, {
    configurable: true, writable: true,
    value: function dispose(this: C) {
      release(this);
    },
  });
}

/**
 * A tensor of another backend carries this key, whose value is its class's
 * name (a GpuTensor of `unpool/webgpu`): checkTensor then names it instead
 * of describing it as a tensor without data.
 */
export const BACKEND_TENSOR: unique symbol = Symbol.for('unpool.backendTensor');

/**
 * `value.data`, or undefined where reading it throws: ONNX Runtime's
 * tensors throw for data that is not on the CPU (their messages name them).
 */
export function dataOf(value: object): unknown {
  try {
    return (value as { data?: unknown }).data;
  } catch {
    return undefined;
  }
}

/**
 * What to pass instead of another library's tensor that holds no host data
 * in `data` (an ort.Tensor on the GPU, a TF.js tensor), for the WebAssembly
 * API's message about argument `name`; undefined for anything else.
 */
function hostHint(name: string, value: unknown): string | undefined {
  const f = foreignTensor(value);
  if (f === undefined || (f.kind === 'ort' && f.location === 'cpu')) return undefined;
  if (f.kind === 'ort') {
    return `${name} is ${f.text}, whose data is not on the CPU: pass ` +
        `{ data: await ${name}.getData(), dims: ${name}.dims }, or run the op on the GPU, on its buffer, ` +
        `with unpool/webgpu: gpu.wrap(${name})`;
  }
  return `${name} is ${f.text}, whose data is not a typed array: pass ` +
      `{ data: await ${name}.data(), shape: ${name}.shape }, or, on TF.js's WebGPU backend, run the op on ` +
      `its buffer with unpool/webgpu: gpu.wrap(${name}.dataToGPU(), { shape: ${name}.shape, dtype: ${name}.dtype })`;
}

/**
 * Reads a tensor argument, checking its array kind, dtype and data length.
 */
export function checkTensor(fn: string, name: string, value: unknown, kind: Kind): CheckedTensor {
  if (value === null || typeof value !== 'object') {
    throw typeError(`${fn}: ${name} must be a tensor { data, shape }, got ${describe(value)}`);
  }
  const data = dataOf(value);
  const c = classOfTag(classTagOf(data), kind);
  if (c === undefined) {
    const other = (value as { [BACKEND_TENSOR]?: unknown })[BACKEND_TENSOR];
    if (typeof other === 'string') {
      throw typeError(`${fn}: ${name} is a ${other}; ` + (fn === 'uploadTensor'
        ? 'it is on the GPU: its read() gives host data'
        : `call gpu.${fn}() of the object initWebGPU() returned`));
    }
    const hint = hostHint(name, value);
    if (hint !== undefined) throw typeError(`${fn}: ${hint}`);
    throw typeError(`${fn}: ${name}.data must be ${KIND_NAMES[kind]}, got ${describe(data)}`);
  }
  const v = value as { shape?: unknown; dims?: unknown };
  const field = v.shape !== undefined ? 'shape' : v.dims !== undefined ? 'dims' : 'shape';
  const type = dtypeOf(fn, name, value, field === 'dims', data, kind, c.implied, c.holds);
  const view = storageView(fn, `${name}.data`, data, type);
  const length = view.length;
  let shape = quickShape(v[field], length);
  if (shape === undefined) {
    shape = checkShape(fn, `${name}.${field}`, v[field]);
    if (length !== numel(shape)) {
      throw rangeError(`${fn}: ${name}.data has length ${length} but ${name}.${field}=` +
          `${describe(shape)} holds ${numel(shape)} elements`, 'invalid_shape');
    }
  }
  return { data: view, shape, type, cls: c.cls };
}

