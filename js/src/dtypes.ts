// The one table of element types: every other place (argument checks, heap
// views, results, resident tensors, `out` checks) reads it, so a new dtype
// is one entry here plus its name in the module's valueTypes()/indexTypes()
// (the core's codes are read from the module at load, never written here).

/** Element types of values. Results have the dtype of their input. */
export type FloatArray = Float32Array | Float64Array;
/** Element types of indices: int32 (default) or int64 as in PyTorch. */
export type IndexArray = Int32Array | BigInt64Array;
export type TensorData = FloatArray | IndexArray;

/** Element type names of tensors. */
export type DType = 'float32' | 'float64' | 'int32' | 'int64';

/** Values or indices. */
export type Kind = 'float' | 'index';

/** What one element type is to the package. */
export interface DTypeInfo {
  readonly dtype: DType;
  readonly kind: Kind;
  readonly bytes: 4 | 8;
  /** The typed array's class name (its Symbol.toStringTag). */
  readonly tag: string;
  /** A view of this type: one construct site per type, so each stays monomorphic. */
  readonly view: (buffer: ArrayBufferLike, byteOffset: number, length: number) => TensorData;
  /**
   * A copy of `a` (of this type) in a fresh array: the copy constructor,
   * which allocates without zero-filling (faster than new + set, and than
   * slice() of a view of wasm memory in Chromium).
   */
  readonly copy: (a: TensorData) => TensorData;
}

/** Every dtype, by name. */
export const DTYPES: Readonly<Record<DType, DTypeInfo>> = {
  float32: {
    dtype: 'float32', kind: 'float', bytes: 4, tag: 'Float32Array',
    view: (b, o, n) => new Float32Array(b, o, n),
    copy: (a) => new Float32Array(a as Float32Array),
  },
  float64: {
    dtype: 'float64', kind: 'float', bytes: 8, tag: 'Float64Array',
    view: (b, o, n) => new Float64Array(b, o, n),
    copy: (a) => new Float64Array(a as Float64Array),
  },
  int32: {
    dtype: 'int32', kind: 'index', bytes: 4, tag: 'Int32Array',
    view: (b, o, n) => new Int32Array(b, o, n),
    copy: (a) => new Int32Array(a as Int32Array),
  },
  int64: {
    dtype: 'int64', kind: 'index', bytes: 8, tag: 'BigInt64Array',
    view: (b, o, n) => new BigInt64Array(b, o, n),
    copy: (a) => new BigInt64Array(a as BigInt64Array),
  },
};

const BY_TAG: ReadonlyMap<string, DTypeInfo> =
    new Map(Object.values(DTYPES).map((t) => [t.tag, t]));

/** The dtype of a typed array class name (its Symbol.toStringTag), else undefined. */
export function dtypeOfTag(tag: unknown): DTypeInfo | undefined {
  return typeof tag === 'string' ? BY_TAG.get(tag) : undefined;
}

/** The dtypes of a kind, as a message names them: 'Float32Array or Float64Array'. */
export function tagsOf(kind: Kind): string {
  return Object.values(DTYPES).filter((t) => t.kind === kind).map((t) => t.tag).join(' or ');
}

/** The dtype names of a kind: 'float32 or float64'. */
export function namesOf(kind: Kind): string {
  return Object.values(DTYPES).filter((t) => t.kind === kind).map((t) => t.dtype).join(' or ');
}
