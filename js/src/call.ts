// What a call is, as the ops describe it to the engine: its inputs (host
// data or resident tensors, checked here), its outputs, and how their
// results leave it.
import { ArrayClass, DType, Kind, namesOf, StorageArray, typeNamed } from './dtypes.js';
import type { OpName } from './heap.js';
import type { OutSink } from './options.js';
import { addressOf, classOf, WasmTensor } from './resident.js';
import { checkTensor, typeError } from './tensor.js';

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
 * The WebGPU entry's check of its tensors, set when that entry loads (the
 * main entry never loads it): an Input for a tensor it owns, undefined for
 * anything else, or a throw (a host tensor passed to a GPU call).
 * @internal
 */
let foreignInput: ((fn: string, name: string, value: unknown, kind: Kind) => Input | undefined) |
    undefined;

/** @internal */
export function setForeignInput(
    check: (fn: string, name: string, value: unknown, kind: Kind) => Input | undefined): void {
  foreignInput = check;
}

export function checkInput(fn: string, name: string, value: unknown, kind: Kind): Input {
  if (foreignInput !== undefined) {
    const f = foreignInput(fn, name, value, kind);
    if (f !== undefined) return f;
  }
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
