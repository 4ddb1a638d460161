// Option parsing of every op: what only JavaScript can check (types,
// integer-ness, lengths); geometry itself is checked by the core. Every op's
// geometry becomes one Geometry record, which heap.ts writes into the
// parameter block whole (fields an op does not use at their defaults).
import {
  ArrayClass, classOfTag, DType, DTYPES, FloatArray, IndexArray, StorageArray, TensorData,
  ValueArray,
} from './dtypes.js';
import { Layout, layoutCode } from './layout.js';
import type { IndexType } from './tensor.js';
import {
  checkInteger, classTagOf, describe, MAX_RANK, rangeError, storageView, typeError, withArticle,
} from './tensor.js';

/** Pool geometry as the user gives it. */
export interface PoolGeometry {
  kernelSize?: number | readonly number[];
  stride?: number | readonly number[] | null;
  padding?: number | readonly number[];
  dilation?: number | readonly number[];
  ceilMode?: boolean;
  /** Channels-first ('NCHW', default) or channels-last ('NHWC'); 1d/3d likewise. */
  layout?: Layout;
}

/** Unpool geometry as the user gives it. */
export interface UnpoolGeometry {
  /**
   * Size of the window. Omitted (functions only): an unpool without kernel,
   * where `outputSize` (one entry per spatial dim) is the output's spatial
   * size and stride and padding are not given.
   */
  kernelSize?: number | readonly number[];
  stride?: number | readonly number[] | null;
  padding?: number | readonly number[];
  outputSize?: readonly number[] | null;
  /** Channels-first ('NCHW', default) or channels-last ('NHWC'); 1d/3d likewise. */
  layout?: Layout;
}

/** Where results go: fresh arrays (default), caller arrays, or module memory. */
export interface ResultOptions<O> {
  /**
   * Arrays to write the result into instead of fresh ones: of the result's
   * type and exactly its length (a subarray is fine). The result's `data` is
   * this array.
   */
  out?: O;
  /**
   * Keep the result in the module's memory as WasmTensor(s) (no copy out),
   * for chaining into the next op. Dispose them when done. Not with `out`.
   */
  resident?: boolean;
}

/**
 * `O` with every key that `T` does not declare typed `never`: a parameter
 * typed `OnlyKnown<O, T>` (O inferred from the argument) keeps the exact
 * type of the options for the result type, and still makes a misspelled
 * option a compile error, as the excess-property check does for a
 * parameter typed `T`.
 */
export type OnlyKnown<O, T> = O & { [K in Exclude<keyof O, keyof T>]: never };

/** Options of maxPool1d/2d/3d. */
export interface MaxPoolOptions extends PoolGeometry,
    ResultOptions<{ output?: ValueArray; indices?: IndexArray }> {
  /** Size of the window: a number for every spatial dim, or one per dim. */
  kernelSize: number | readonly number[];
  /** Index dtype of the result: 'int32' (Int32Array, default) or 'int64' (BigInt64Array). */
  indexType?: IndexType;
}

/** Options of maxPool1d/2d/3dBackward. */
export interface MaxPoolBackwardOptions extends PoolGeometry, ResultOptions<FloatArray> {
  /** Shape of the pooled input, which is also the shape of the result. */
  inputShape: readonly number[];
}

/** Options of maxUnpool1d/2d/3d. */
export interface MaxUnpoolOptions extends UnpoolGeometry, ResultOptions<ValueArray> {}

/** Options of maxUnpool1d/2d/3dBackward. */
export interface MaxUnpoolBackwardOptions extends ResultOptions<ValueArray> {
  /** Layout of gradOutput and indices: channels-first (default) or channels-last. */
  layout?: Layout;
}

/**
 * A size argument for the core (unpool::SizeArg): `count` entries of
 * `values` are used; `list` tells an array the user gave from a scalar.
 */
export interface SizeArg {
  count: number;
  list: boolean;
  values: [number, number, number];
}

/** The geometry of any op, as the parameter block holds it. */
export interface Geometry {
  dims: number;
  /** unpool::Layout: 0 channels-first, 1 channels-last. */
  layout: 0 | 1;
  ceilMode: boolean;
  /** -1: the default output size. */
  outputSizeCount: number;
  kernel: SizeArg;
  stride: SizeArg;
  padding: SizeArg;
  dilation: SizeArg;
  outputSize: [number, number, number, number, number];
  /** Adaptive and fractional pools: the output size as a size argument. */
  poolSize: SizeArg;
  /** Adaptive pools: 1 where an outputSize entry is null (keep the input's size). */
  keep: [number, number, number];
  /** Fractional pools: outputRatio as a size argument of ratios. */
  ratio: SizeArg;
}

/**
 * The geometry's fields in the parameter block, as the module names them,
 * with the slots each takes (a size: count, list, three values). A new op
 * parameter is a field of Geometry, a line here and a line in
 * writeGeometry; the C++ side declares it once in cpp/bindings/param_block.h.
 */
export const GEOMETRY_SLOTS = {
  dims: 1, layout: 1, ceilMode: 1, outputSizeCount: 1, kernel: 5, stride: 5, padding: 5,
  dilation: 5, outputSize: 5, poolSize: 5, keep: 3, ratio: 5,
} as const;

export type GeometryField = keyof typeof GEOMETRY_SLOTS;

function writeSize(f: Float64Array, at: number, s: SizeArg): void {
  f[at] = s.count;
  f[at + 1] = s.list ? 1 : 0;
  f[at + 2] = s.values[0];
  f[at + 3] = s.values[1];
  f[at + 4] = s.values[2];
}

/**
 * The object-valued fields of the geometry last written into a block. Size
 * arguments and arrays are never changed once made, and the defaults are
 * shared objects (an option not given), so a field holding the object it
 * held last time holds the same values: writeGeometry skips it. Most of a
 * call's fields are such defaults (a pool has no outputSize, poolSize, keep
 * or ratio), and on a small call the stores are not free.
 */
export type Written = { -readonly [K in keyof Geometry]?: Geometry[K] };

/**
 * Writes `g` into the parameter block `f`, whose field offsets are `at`;
 * `last` is what was last written into that block (updated here).
 */
export function writeGeometry(f: Float64Array, at: Readonly<Record<GeometryField, number>>,
                              g: Geometry, last: Written): void {
  f[at.dims] = g.dims;
  f[at.layout] = g.layout;
  f[at.ceilMode] = g.ceilMode ? 1 : 0;
  f[at.outputSizeCount] = g.outputSizeCount;
  if (g.kernel !== last.kernel) writeSize(f, at.kernel, last.kernel = g.kernel);
  if (g.stride !== last.stride) writeSize(f, at.stride, last.stride = g.stride);
  if (g.padding !== last.padding) writeSize(f, at.padding, last.padding = g.padding);
  if (g.dilation !== last.dilation) writeSize(f, at.dilation, last.dilation = g.dilation);
  if (g.outputSize !== last.outputSize) {
    const os = at.outputSize;
    for (let i = 0; i < MAX_RANK; ++i) f[os + i] = g.outputSize[i];
    last.outputSize = g.outputSize;
  }
  if (g.poolSize !== last.poolSize) writeSize(f, at.poolSize, last.poolSize = g.poolSize);
  if (g.keep !== last.keep) {
    const k = at.keep;
    f[k] = g.keep[0];
    f[k + 1] = g.keep[1];
    f[k + 2] = g.keep[2];
    last.keep = g.keep;
  }
  if (g.ratio !== last.ratio) writeSize(f, at.ratio, last.ratio = g.ratio);
}

// Shared defaults, frozen: writeGeometry trusts that a field holding the
// same object holds the same values.
const NOT_GIVEN: SizeArg = Object.freeze({ count: 0, list: false, values: Object.freeze([0, 0, 0]) }) as SizeArg;
const NO_OUTPUT_SIZE = Object.freeze([0, 0, 0, 0, 0]) as [number, number, number, number, number];
const NO_KEEP = Object.freeze([0, 0, 0]) as [number, number, number];


/**
 * The option names of each op, for checkOptionKeys. The GPU ops check their
 * own lists (the same names, `out` of GPU tensors, no `resident`).
 */
export const MAX_POOL_KEYS = Object.freeze([
  'kernelSize', 'stride', 'padding', 'dilation', 'ceilMode', 'indexType', 'layout', 'out',
  'resident',
] as const);
export const MAX_POOL_BACKWARD_KEYS = Object.freeze([
  'inputShape', 'kernelSize', 'stride', 'padding', 'dilation', 'ceilMode', 'layout', 'out',
  'resident',
] as const);
export const MAX_UNPOOL_KEYS = Object.freeze([
  'kernelSize', 'stride', 'padding', 'outputSize', 'layout', 'out', 'resident',
] as const);
export const MAX_UNPOOL_BACKWARD_KEYS = Object.freeze(['layout', 'out', 'resident'] as const);
export const MAX_UNPOOL_RANGE_KEYS = Object.freeze([
  'kernelSize', 'stride', 'padding', 'outputSize', 'layout',
] as const);
export const ADAPTIVE_MAX_POOL_KEYS = Object.freeze([
  'outputSize', 'indexType', 'layout', 'out', 'resident',
] as const);
/** Fractional pools also take `layout`, which may only name the channels-first layout. */
export const FRACTIONAL_MAX_POOL_KEYS = Object.freeze([
  'kernelSize', 'outputSize', 'outputRatio', 'randomSamples', 'indexType', 'layout', 'out',
  'resident',
] as const);
/** adaptiveMaxPoolNdBackward and fractionalMaxPoolNdBackward. */
export const POOL_BACKWARD_KEYS = Object.freeze(['inputShape', 'layout', 'out', 'resident'] as const);
export const CONVERT_INDICES_KEYS = Object.freeze([
  'from', 'to', 'inputShape', 'layout', 'dims', 'indexType',
] as const);
export const OUTPUT_SIZE_RANGE_KEYS = Object.freeze([
  'kernelSize', 'stride', 'padding', 'layout', 'dims',
] as const);
/** Constructor options of the module classes (the first argument is their size). */
export const MAX_POOL_MODULE_KEYS = Object.freeze([
  'stride', 'padding', 'dilation', 'ceilMode', 'indexType', 'layout',
] as const);
export const MAX_UNPOOL_MODULE_KEYS = Object.freeze(['stride', 'padding', 'layout'] as const);
export const ADAPTIVE_MAX_POOL_MODULE_KEYS = Object.freeze(['indexType', 'layout'] as const);
export const FRACTIONAL_MAX_POOL_MODULE_KEYS = Object.freeze([
  'outputSize', 'outputRatio', 'indexType',
] as const);
/** The options of a module class's forward() and backward(). */
export const MODULE_CALL_KEYS = Object.freeze(['out', 'resident'] as const);

/**
 * Keys people bring from PyTorch (snake_case) and ONNX that are not a
 * camelCase spelling of an option: the option they mean ('' for none) and
 * a word on it. snake_case spellings of options (kernel_size, ceil_mode,
 * output_size, ...) are recognised without a line here.
 */
const FOREIGN_KEYS: Readonly<Record<string, readonly [means: string, note: string]>> = {
  strides: ['stride', "ONNX's strides"],
  kernel_shape: ['kernelSize', "ONNX's kernel_shape"],
  pads: ['padding', "ONNX's pads hold [begin..., end...]; padding is one entry per dim, the " +
      'same at both ends'],
  dilations: ['dilation', "ONNX's dilations"],
  return_indices: ['', 'indices are always returned: the result is { output, indices }'],
  storage_order: ['', 'indices are always per-plane row-major offsets (PyTorch\'s); convert ' +
      "ONNX's column-major ones with convertIndices(indices, { from: 'onnx-column-major', " +
      "to: 'pytorch', inputShape })"],
  auto_pad: ['', 'give padding explicitly'],
  count_include_pad: ['', 'that is an average-pooling option'],
  dtype: ['', "a tensor's dtype goes in the tensor: { data, shape, dtype }"],
  _random_samples: ['randomSamples', "PyTorch's _random_samples"],
};

/** A key folded for comparison: lower case, without '_' and '-'. */
const fold = (key: string) => key.toLowerCase().replace(/[_-]/g, '');

/**
 * Whether `a` becomes `b` by one edit (a letter inserted, dropped, changed,
 * or two neighbours swapped): a typo of a key ('stide', 'devce').
 */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const tail = (x: string, y: string) => a.slice(i + x.length) === b.slice(i + y.length);
  return tail('x', '') || tail('', 'x') || tail('x', 'x') ||
      (a[i] === b[i + 1] && a[i + 1] === b[i] && tail('xx', 'xx'));
}

/** What the message adds for an unknown `key`: a hint, or the options `fn` takes. */
function unknownKeyHint(fn: string, key: string, known: readonly string[]): string {
  const foreign = Object.prototype.hasOwnProperty.call(FOREIGN_KEYS, key) ? FOREIGN_KEYS[key]
                                                                            : undefined;
  let means = foreign?.[0] ?? '';
  const note = foreign?.[1] ?? '';
  if (foreign === undefined) {
    means = known.find((k) => fold(k) === fold(key)) ??
        (fold(key).length >= 3 ? known.find((k) => oneEditApart(fold(key), fold(k))) : undefined) ?? '';
    if (means === '' && fold(key) !== '') {
      // A known name in another spelling that this function does not take.
      const all = ['kernelSize', 'stride', 'padding', 'dilation', 'ceilMode', 'indexType',
        'layout', 'out', 'resident', 'outputSize', 'outputRatio', 'randomSamples', 'inputShape',
        'from', 'to', 'dims'];
      const other = all.find((k) => fold(k) === fold(key));
      if (other !== undefined && other !== key) means = other;
      else if (other === key) return `; ${fn} has no ${key} option (it takes ${known.join(', ')})`;
    }
  }
  if (means !== '' && known.includes(means)) {
    return `; did you mean ${means}?${note ? ` (${note})` : ''}`;
  }
  if (means !== '') {
    return `; ${fn} has no ${means} option${note ? ` (${note})` : ''} (it takes ${known.join(', ')})`;
  }
  return note ? `; ${note}` : `; ${fn} takes ${known.join(', ')}`;
}

/**
 * Throws an UnpoolTypeError ('unknown_option') naming `fn`, the key and its
 * value when `options` (an object) has an enumerable key not in `known`
 * (own or inherited: the parsers read inherited keys too),
 * with a hint for PyTorch's and ONNX's spellings. Every op calls it first
 * on its options, with its own list (the *_KEYS above). Anything but an
 * object passes: the parsers say what the options must be.
 */
export function checkOptionKeys(fn: string, options: unknown, known: readonly string[],
                                name = 'options'): void {
  if (options === null || typeof options !== 'object') return;
  for (const key in options) {
    if (!known.includes(key)) {
      const value = (options as Record<string, unknown>)[key];
      throw typeError(`${fn}: ${name}.${key}=${describe(value)} is not an option` +
          unknownKeyHint(fn, key, known), 'unknown_option');
    }
  }
}

function checkObject(fn: string, g: unknown): void {
  if (g === null || typeof g !== 'object') {
    throw typeError(`${fn}: options must be an object, got ${describe(g)}`);
  }
}

/**
 * A size option: a number (every spatial dim) or an array (checked by the
 * core: one entry per dim, or one entry for every dim in pools; an empty
 * stride array is the default, as in PyTorch). `undefined` is the default,
 * and so is `null` for a stride.
 */
export function sizeArg(fn: string, name: string, value: unknown, required = false): SizeArg {
  if (value === undefined || (name === 'stride' && value === null)) {
    if (required) throw typeError(`${fn}: ${name} is required`);
    return NOT_GIVEN;
  }
  if (typeof value === 'number') {
    return { count: 1, list: false, values: [checkInteger(fn, name, value), 0, 0] };
  }
  if (!Array.isArray(value)) {
    throw typeError(`${fn}: ${name} must be a number or an array of numbers, got ${describe(value)}`);
  }
  // Entries past the third are never used (the core rejects such lengths);
  // holes of a sparse array are undefined, not skipped.
  const count = value.length;
  if (count > 0x7fffffff) {
    throw rangeError(`${fn}: ${name} has ${count} entries; expected at most 3`);
  }
  const values: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < Math.min(count, 3); ++i) {
    values[i] = checkInteger(fn, name, value[i], i);
  }
  return { count, list: true, values };
}

export function poolGeometry(fn: string, dims: number, g: PoolGeometry,
                             kernelRequired: boolean): Geometry {
  checkObject(fn, g);
  if (g.ceilMode !== undefined && typeof g.ceilMode !== 'boolean') {
    throw typeError(`${fn}: ceilMode=${describe(g.ceilMode)} must be a boolean`);
  }
  return {
    dims,
    kernel: sizeArg(fn, 'kernelSize', g.kernelSize, kernelRequired),
    stride: sizeArg(fn, 'stride', g.stride),
    padding: sizeArg(fn, 'padding', g.padding),
    dilation: sizeArg(fn, 'dilation', g.dilation),
    ceilMode: g.ceilMode ?? false,
    layout: layoutCode(fn, dims, g.layout),
    outputSizeCount: -1,
    outputSize: NO_OUTPUT_SIZE,
    poolSize: NOT_GIVEN,
    keep: NO_KEEP,
    ratio: NOT_GIVEN,
  };
}

export function unpoolGeometry(fn: string, dims: number, g: UnpoolGeometry,
                               kernelRequired: boolean): Geometry {
  checkObject(fn, g);
  const kernelFree = g.kernelSize === undefined && !kernelRequired;
  const outputSize: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  let outputSizeCount = -1;
  const os: unknown = g.outputSize;
  if (os !== undefined && os !== null) {
    if (!Array.isArray(os)) {
      throw typeError(`${fn}: outputSize must be an array of integers, got ${describe(os)}`);
    }
    const count = os.length;
    if (count > MAX_RANK) {
      throw rangeError(`${fn}: outputSize=${describe(os)} has ${count} entries; ` +
          (kernelFree ? `expected ${dims}` : `expected ${dims}, ${dims + 1} or ${dims + 2}`));
    }
    // Index by index: holes of a sparse array are undefined, not skipped.
    for (let i = 0; i < count; ++i) outputSize[i] = checkInteger(fn, 'outputSize', os[i], i);
    outputSizeCount = count;
  }
  return {
    dims,
    kernel: sizeArg(fn, 'kernelSize', g.kernelSize, kernelRequired),
    stride: sizeArg(fn, 'stride', g.stride),
    padding: sizeArg(fn, 'padding', g.padding),
    dilation: NOT_GIVEN,
    ceilMode: false,
    outputSizeCount,
    outputSize,
    layout: layoutCode(fn, dims, g.layout),
    poolSize: NOT_GIVEN,
    keep: NO_KEEP,
    ratio: NOT_GIVEN,
  };
}

/** The geometry of an op that has only dims and a layout (unpool backward). */
export function plainGeometry(dims: number, layout: 0 | 1): Geometry {
  return {
    dims, layout, ceilMode: false, outputSizeCount: -1, kernel: NOT_GIVEN, stride: NOT_GIVEN,
    padding: NOT_GIVEN, dilation: NOT_GIVEN, outputSize: NO_OUTPUT_SIZE, poolSize: NOT_GIVEN,
    keep: NO_KEEP, ratio: NOT_GIVEN,
  };
}

/** The index dtype an `indexType` option names. */
export function indexTypeOf(fn: string, value: unknown): DType {
  if (value === undefined || value === 'int32') return 'int32';
  if (value === 'int64') return 'int64';
  throw typeError(`${fn}: indexType=${describe(value)} must be 'int32' or 'int64'`);
}

/** Reads `resident` and `out` of an options object (not yet checking `out`'s arrays). */
export function resultMode(fn: string, options: ResultOptions<unknown> | undefined):
    { resident: boolean; out: unknown } {
  if (options === undefined) return { resident: false, out: undefined };
  const { resident, out } = options;
  if (resident !== undefined && typeof resident !== 'boolean') {
    throw typeError(`${fn}: resident=${describe(resident)} must be a boolean`);
  }
  if (resident === true && out !== undefined) {
    throw typeError(`${fn}: out and resident: true exclude each other`);
  }
  return { resident: resident === true, out };
}

/** The `out` arrays of a pool: `{ output?, indices? }`. */
export function poolOut(fn: string, out: unknown): [unknown, unknown] {
  if (out === undefined) return [undefined, undefined];
  if (out === null || typeof out !== 'object' || ArrayBuffer.isView(out)) {
    throw typeError(`${fn}: out must be an object { output?, indices? }, got ${describe(out)}`);
  }
  const { output, indices } = out as { output?: unknown; indices?: unknown };
  return [output, indices];
}

/**
 * A caller's `out` array, checked: results are copied into `array`, a view
 * of its memory in the dtype's storage class (the array itself when it is
 * of that class), and `user` is returned.
 */
export interface OutSink {
  kind: 'out';
  array: StorageArray;
  user: TensorData;
}

const LENGTH = Object.getOwnPropertyDescriptor(
    Object.getPrototypeOf(Int8Array.prototype) as object, 'length')!.get!;

/**
 * Checks a caller-supplied `out` array: of class `cls` (the result's, which
 * is that of the input's data) and of length `n`. A Float16Array's bits are
 * then copied through a Uint16Array view, never converted.
 */
export function checkOut(fn: string, name: string, value: unknown, dtype: DType, cls: ArrayClass,
                         n: number): OutSink {
  const type = DTYPES[dtype];
  if (classTagOf(value) !== cls.tag) {
    // A Uint16Array holds either 16-bit dtype: the message says which.
    const of = classOfTag(cls.tag)?.implied === undefined ? ` of ${dtype}` : '';
    throw typeError(`${fn}: ${name} must be ${withArticle(cls.tag)}${of} (the result's ` +
        `type), got ${describe(value)}`);
  }
  const array = cls.tag === type.tag ? value as StorageArray : storageView(fn, name, value, type);
  const length = LENGTH.call(array) as number;
  if (length !== n) {
    throw rangeError(`${fn}: ${name} has length ${length}; the result has ${n} elements`,
                     'invalid_shape');
  }
  return { kind: 'out', array, user: value as TensorData };
}
