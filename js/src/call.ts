// What a call is, as the ops describe it to a backend: its inputs, its
// outputs, and how their results leave it; what a backend is; and the
// WebAssembly backend's checks of its arguments (host data or resident
// tensors) and of a caller's `out` arrays.
import {
  ArrayClass, classOfTag, DType, DTYPES, FloatArray, Kind, namesOf, StorageArray, TensorData,
  typeNamed,
} from './dtypes.js';
import { addressOf, classOf, WasmTensor } from './resident.js';
import type { OpName, Runtime } from './runtime.js';
import {
  checkTensor, classTagOf, describe, rangeError, storageView, typeError, withArticle,
} from './tensor.js';

/** A tensor argument: host data to copy in, or a resident tensor read in place. */
export interface Input {
  shape: number[];
  /** Host data, in its dtype's storage class (undefined for a resident tensor). */
  data: StorageArray | undefined;
  /** Heap address of a resident tensor (0 for host data). */
  address: number;
  dtype: DType;
  /** The class of the data the caller gave: results of its dtype come back in it. */
  cls: ArrayClass;
  byteLength: number;
  /**
   * How many trailing dims hold one (n, c) plane's elements, when not the
   * op's spatial dims (a fractional pool's samples: 1, their last dim).
   */
  planeDims?: number;
  /** A tensor of another backend (a GpuTensor of `unpool/webgpu`): data and address unused. */
  foreign?: unknown;
}

/**
 * A backend: how a call takes its tensor arguments, how a planned call runs,
 * and what its results are (`R`). The ops are one generic call (invoke.ts)
 * over a backend passed in: the WebAssembly functions bind wasmBackend
 * (engine.ts), `unpool/webgpu` binds its own per device.
 */
export interface Backend<R> {
  /** The runtime of the module that plans the calls (a throw before init()). */
  runtime(fn: string): Runtime;
  /** Argument `name` of `fn`, checked (`kind`: values or indices). */
  input(fn: string, name: string, value: unknown, kind: Kind): Input;
  /**
   * Host data the op made (a fractional pool's drawn samples) as argument
   * `name`, of the dtype and class of input `like`.
   */
  drawn(fn: string, name: string, tensor: { data: FloatArray; shape: number[] }, like: Input): Input;
  /** Runs a call whose block the op has written; its results in op order. */
  execute(rt: Runtime, c: Call): R[];
}

/** A host tensor or WasmTensor argument, checked (the WebAssembly backend's inputs). */
export function hostInput(fn: string, name: string, value: unknown, kind: Kind): Input {
  if (value instanceof WasmTensor) {
    const address = addressOf(fn, name, value);
    // An int32 or int64 WasmTensor holds values or indices: the argument says which.
    const type = typeNamed(value.dtype, kind);
    if (type === undefined) {
      throw typeError(`${fn}: ${name} must hold ${namesOf(kind)} data, got a ` +
          `WasmTensor of ${value.dtype}`);
    }
    // The shape is frozen: read, never written, so no copy.
    return {
      shape: value.shape as number[], data: undefined, address, dtype: type.dtype,
      cls: classOf(value), byteLength: value.size * type.bytes,
    };
  }
  const t = checkTensor(fn, name, value, kind);
  return {
    shape: t.shape, data: t.data, address: 0, dtype: t.type.dtype, cls: t.cls,
    byteLength: t.data.length * t.type.bytes,
  };
}

/** One result of a call, as the op describes it. */
export interface OutputSpec {
  dtype: DType;
  /** The class of the result's data. */
  cls: ArrayClass;
  /** Its `out` option's name in messages ('out', 'out.output', ...). */
  name: string;
  /** The caller's array for it (undefined: none), checked against the result. */
  out: unknown;
  /**
   * Its shape when known before the core runs (its `out` is then checked
   * before the core's checks); otherwise the core's result shape.
   */
  shape: number[] | undefined;
}

/** A call: the op, its element types, inputs and outputs in op order. */
export interface Call {
  fn: string;
  op: OpName;
  dtype: DType;
  indexType: DType;
  inputs: Input[];
  outputs: OutputSpec[];
  /** Results stay in module memory (WasmTensors). */
  resident: boolean;
  dims: number;
  layout: 0 | 1;
  /**
   * Streamed into `out`: the input copied whole and checked (checkIndices:
   * indices, or a fractional pool's samples) before the first range is
   * written, so that a bad index or sample leaves `out` as it was (-1: none).
   */
  checkFirst: number;
}

/**
 * How a result leaves the call. Into `out`: the results are copied into
 * `array` (a storage-class view of `user`'s memory) and `user` is returned.
 */
export type Sink = { kind: 'fresh' } | OutSink | { kind: 'resident' };

export interface Output {
  dtype: DType;
  cls: ArrayClass;
  shape: number[];
  sink: Sink;
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
