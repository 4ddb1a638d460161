// The one table of element types: every other place (argument checks, heap
// views, results, resident tensors, `out` checks) reads it, so a new dtype
// is one entry here plus its name in the module's valueTypes()/indexTypes()
// (the core's codes are read from the module at load, never written here).
//
// A dtype has a storage class, the typed array its elements are copied
// through the heap as (Uint16Array for the 16-bit floats: a copy of their
// bits, never a conversion), and the array classes a caller may hold it in.
// A class that holds one dtype implies it (Float16Array: float16); one that
// holds several (Uint16Array: float16 or bfloat16 bits) needs the tensor's
// `dtype`. Results come back in the class of the value input's data.
//
// 'int32' and 'int64' name both a value dtype and an index type (an
// Int32Array of values, or of indices): the value entries are their own
// objects (VALUE_INT32, VALUE_INT64, kind 'float', the kind of values),
// found through the per-kind lists; DTYPES by name holds the index entries,
// whose storage (bytes, views, copies, classes) is the same.

/**
 * The type of a Float16Array where the TypeScript lib in use does not
 * declare one (lib ES2024 and older): a Float32Array's members (methods
 * that make arrays are typed as a Float32Array's) under the Float16Array's
 * `Symbol.toStringTag`, which keeps the other typed arrays from matching it.
 */
export interface Float16ArrayShape extends Omit<Float32Array, typeof Symbol.toStringTag> {
  readonly [Symbol.toStringTag]: 'Float16Array';
}

/**
 * A Float16Array: the lib's own type where the TypeScript lib declares the
 * global (lib ESNext or ES2025), else {@link Float16ArrayShape}. Nothing in
 * the package requires the global to exist at run time.
 */
export type Float16ArrayLike =
    typeof globalThis extends { Float16Array: { prototype: infer P } } ? P : Float16ArrayShape;

/**
 * Arrays of values: Float32Array (float32), Float64Array (float64),
 * Float16Array (float16), or Uint16Array holding raw float16 or bfloat16
 * bits (with the tensor's `dtype`). Results have the class of the input's.
 */
export type FloatArray = Float32Array | Float64Array | Float16ArrayLike | Uint16Array;
/**
 * Arrays of integer values: Uint8Array or Uint8ClampedArray (uint8),
 * Int8Array (int8), Int16Array (int16), Int32Array (int32), BigInt64Array
 * (int64). Max pooling, unpooling and adaptive max pooling take them.
 */
export type IntegerArray =
    Uint8Array | Uint8ClampedArray | Int8Array | Int16Array | Int32Array | BigInt64Array;
/** Arrays of values of any value dtype. */
export type ValueArray = FloatArray | IntegerArray;
/** Arrays of indices: int32 (default) or int64 as in PyTorch. */
export type IndexArray = Int32Array | BigInt64Array;
export type TensorData = ValueArray | IndexArray;
/** The arrays elements are copied through the heap as (each dtype's storage class). */
export type StorageArray = Float32Array | Float64Array | Uint16Array | Int32Array | BigInt64Array |
    Uint8Array | Int8Array | Int16Array;

/** Element type names of float values. */
export type FloatDType = 'float32' | 'float64' | 'float16' | 'bfloat16';
/** Element type names of integer values. */
export type IntegerDType = 'uint8' | 'int8' | 'int16' | 'int32' | 'int64';
/** Element type names of values. */
export type ValueDType = FloatDType | IntegerDType;
/** Element type names of indices. */
export type IndexType = 'int32' | 'int64';
/** Element type names of tensors. */
export type DType = ValueDType | IndexType;

/** The dtype of a typed array type (both 16-bit float names for a Uint16Array). */
export type DTypeOf<T extends TensorData> =
    T extends Float32Array ? 'float32' : T extends Float64Array ? 'float64' :
    T extends Uint16Array ? 'float16' | 'bfloat16' : T extends Int32Array ? 'int32' :
    T extends BigInt64Array ? 'int64' : T extends Uint8Array | Uint8ClampedArray ? 'uint8' :
    T extends Int8Array ? 'int8' : T extends Int16Array ? 'int16' :
    T extends Float16ArrayLike ? 'float16' : DType;

/** Values (of any value dtype: the name is older than the integer ones) or indices. */
export type Kind = 'float' | 'index';

/** An array class a dtype may be held in. */
export interface ArrayClass {
  /** The class name (its Symbol.toStringTag). */
  readonly tag: string;
  /**
   * An array of this class on the memory of `a`, an array of the storage
   * class of a dtype it holds: `a` itself when this is that class.
   */
  readonly wrap: (a: StorageArray) => TensorData;
}

/** What one element type is to the package. */
export interface DTypeInfo {
  readonly dtype: DType;
  readonly kind: Kind;
  readonly bytes: 1 | 2 | 4 | 8;
  /** The storage class's name (its Symbol.toStringTag). */
  readonly tag: string;
  /** A view of the storage class: one construct site per type, so each stays monomorphic. */
  readonly view: (buffer: ArrayBufferLike, byteOffset: number, length: number) => StorageArray;
  /**
   * A copy of `a` (of the storage class) in a fresh array: the copy
   * constructor, which allocates without zero-filling (faster than new +
   * set, and than slice() of a view of wasm memory in Chromium).
   */
  readonly copy: (a: StorageArray) => StorageArray;
  /** The classes that hold it, its natural one first (the storage class among them). */
  readonly classes: readonly ArrayClass[];
  /** Whether fractional pooling takes it (float32 and float64 only: issue 17). */
  readonly fractional: boolean;
  /** Whether it is an integer type (no fractional pooling, no gradients that add). */
  readonly integer: boolean;
}

type F16Constructor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => Float16ArrayLike;
/** The global Float16Array where the engine has it (Chrome 135+, Node.js 24+, ...), else undefined. */
const F16 = (globalThis as { Float16Array?: F16Constructor }).Float16Array;

const itself = (a: StorageArray): TensorData => a;

/**
 * A storage class: its element size and name, a view and a copy of it, and
 * the ArrayClass of its own arrays (results in it are the copy itself).
 * `view` and `copy` are written out per class, not made by one function of
 * the constructor: one construct site per class keeps each monomorphic.
 */
interface Storage extends Pick<DTypeInfo, 'bytes' | 'tag' | 'view' | 'copy'> {
  readonly cls: ArrayClass;
}

function storage<A extends StorageArray>(
    C: { readonly BYTES_PER_ELEMENT: number; readonly name: string },
    view: (b: ArrayBufferLike, o: number, n: number) => A, copy: (a: A) => A): Storage {
  const tag = C.name;
  return {
    bytes: C.BYTES_PER_ELEMENT as Storage['bytes'], tag, view,
    // Only ever given arrays of this class (DTypeInfo.copy).
    copy: copy as unknown as (a: StorageArray) => StorageArray,
    cls: { tag, wrap: itself },
  };
}

const F32 = storage(Float32Array, (b, o, n) => new Float32Array(b, o, n), (a) => new Float32Array(a));
const F64 = storage(Float64Array, (b, o, n) => new Float64Array(b, o, n), (a) => new Float64Array(a));
const U16 = storage(Uint16Array, (b, o, n) => new Uint16Array(b, o, n), (a) => new Uint16Array(a));
const U8 = storage(Uint8Array, (b, o, n) => new Uint8Array(b, o, n), (a) => new Uint8Array(a));
const I8 = storage(Int8Array, (b, o, n) => new Int8Array(b, o, n), (a) => new Int8Array(a));
const I16 = storage(Int16Array, (b, o, n) => new Int16Array(b, o, n), (a) => new Int16Array(a));
const I32 = storage(Int32Array, (b, o, n) => new Int32Array(b, o, n), (a) => new Int32Array(a));
const I64 = storage(BigInt64Array, (b, o, n) => new BigInt64Array(b, o, n), (a) => new BigInt64Array(a));

// The heap copy is a Uint8Array; a Uint8ClampedArray result (ImageData's
// class) is a view of the same memory.
const UINT8_CLAMPED: ArrayClass = {
  tag: 'Uint8ClampedArray',
  wrap: (a) => new Uint8ClampedArray(a.buffer, a.byteOffset, a.length),
};
const FLOAT16: ArrayClass = {
  tag: 'Float16Array',
  // Only reached for a Float16Array input, which exists only where F16 does.
  wrap: (a) => new F16!(a.buffer, a.byteOffset, a.length) as TensorData,
};

/** What a dtype's values are: fractional pooling takes 'fractional' ones (float32 and float64: issue 17). */
type Numbers = 'fractional' | 'float' | 'integer';

/** A dtype's entry, one hidden class for all: its storage, the classes that hold it, its numbers. */
function entry(dtype: DType, kind: Kind, s: Storage, classes: readonly ArrayClass[], numbers: Numbers): DTypeInfo {
  return {
    dtype, kind, bytes: s.bytes, tag: s.tag, view: s.view, copy: s.copy, classes,
    fractional: numbers === 'fractional', integer: numbers === 'integer',
  };
}

/** Every dtype, by name; the values first, in the order messages list them. */
export const DTYPES: Readonly<Record<DType, DTypeInfo>> = {
  float32: entry('float32', 'float', F32, [F32.cls], 'fractional'),
  float64: entry('float64', 'float', F64, [F64.cls], 'fractional'),
  // IEEE binary16 and bfloat16 (the top half of a float32), as their bits.
  float16: entry('float16', 'float', U16, [FLOAT16, U16.cls], 'float'),
  bfloat16: entry('bfloat16', 'float', U16, [U16.cls], 'float'),
  uint8: entry('uint8', 'float', U8, [U8.cls, UINT8_CLAMPED], 'integer'),
  int8: entry('int8', 'float', I8, [I8.cls], 'integer'),
  int16: entry('int16', 'float', I16, [I16.cls], 'integer'),
  int32: entry('int32', 'index', I32, [I32.cls], 'integer'),
  int64: entry('int64', 'index', I64, [I64.cls], 'integer'),
};

/** int32 values: DTYPES.int32's storage, of the value kind. */
const VALUE_INT32 = entry('int32', 'float', I32, DTYPES.int32.classes, 'integer');
/** int64 values: DTYPES.int64's storage, of the value kind. */
const VALUE_INT64 = entry('int64', 'float', I64, DTYPES.int64.classes, 'integer');

/** Every dtype of each kind, values in the core's order (UNPOOL_DTYPE_LIST). */
const BY_KIND: Readonly<Record<Kind, readonly DTypeInfo[]>> = {
  float: [DTYPES.float32, DTYPES.float64, DTYPES.float16, DTYPES.bfloat16, DTYPES.uint8,
    DTYPES.int8, DTYPES.int16, VALUE_INT32, VALUE_INT64],
  index: [DTYPES.int32, DTYPES.int64],
};

/** An array class, with the kind and dtypes it holds. */
export interface ClassInfo {
  readonly cls: ArrayClass;
  readonly kind: Kind;
  /** The dtypes it holds. */
  readonly holds: readonly DTypeInfo[];
  /** The dtype an array of it holds without a `dtype` given (undefined: it needs one). */
  readonly implied: DTypeInfo | undefined;
}

function classTable(kind: Kind): ReadonlyMap<string, ClassInfo> {
  const holds = new Map<string, { cls: ArrayClass; holds: DTypeInfo[] }>();
  for (const t of BY_KIND[kind]) {
    for (const cls of t.classes) {
      if (cls === FLOAT16 && F16 === undefined) continue;
      const e = holds.get(cls.tag) ?? { cls, holds: [] };
      e.holds.push(t);
      holds.set(cls.tag, e);
    }
  }
  const table = new Map<string, ClassInfo>();
  for (const [tag, e] of holds) {
    table.set(tag, {
      cls: e.cls, kind: e.holds[0].kind, holds: e.holds,
      implied: e.holds.length === 1 ? e.holds[0] : undefined,
    });
  }
  return table;
}

const BY_TAG: Readonly<Record<Kind, ReadonlyMap<string, ClassInfo>>> = {
  float: classTable('float'), index: classTable('index'),
};

/**
 * The class of a typed array class name (its Symbol.toStringTag) as kind
 * `kind` holds it (default: values, else indices), else undefined.
 */
export function classOfTag(tag: unknown, kind?: Kind): ClassInfo | undefined {
  if (typeof tag !== 'string') return undefined;
  return kind !== undefined ? BY_TAG[kind].get(tag) : BY_TAG.float.get(tag) ?? BY_TAG.index.get(tag);
}

/** The dtype named `name` when it is one of kind `kind` (values: every value dtype), else undefined. */
export function typeNamed(name: unknown, kind: Kind): DTypeInfo | undefined {
  return typeof name === 'string' ? BY_KIND[kind].find((t) => t.dtype === name) : undefined;
}

/** 'a, b or c'. */
export function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('')
    : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** The dtypes of a kind (optionally filtered). */
export function dtypesOf(kind: Kind, keep: (t: DTypeInfo) => boolean = () => true): DTypeInfo[] {
  return BY_KIND[kind].filter(keep);
}

/**
 * The classes of a kind, as a message names them: 'Float32Array,
 * Float64Array, Float16Array or Uint16Array (with dtype 'float16' or
 * 'bfloat16')'. Float16Array is named also where the engine lacks it.
 */
export function tagsOf(kind: Kind): string {
  const tags: string[] = [];
  const needs = new Map<string, string[]>();
  for (const t of dtypesOf(kind)) {
    for (const c of t.classes) {
      if (!tags.includes(c.tag)) tags.push(c.tag);
      needs.set(c.tag, [...(needs.get(c.tag) ?? []), t.dtype]);
    }
  }
  const ambiguous = [...needs].filter(([, names]) => names.length > 1);
  return listed(tags) + ambiguous.map(([tag, names]) =>
    ` (${tag} with dtype ${listed(names.map((n) => `'${n}'`))})`).join('');
}

/** The dtype names of a kind: 'float32, float64, float16 or bfloat16'. */
export function namesOf(kind: Kind, keep?: (t: DTypeInfo) => boolean): string {
  return listed(dtypesOf(kind, keep).map((t) => t.dtype));
}
