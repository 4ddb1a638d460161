// Tensors that live in the WebAssembly module's memory (tfjs-style), so that
// chained calls (pool -> unpool -> ...) copy only at their ends.
//
// A WasmTensor holds the heap address of its block, never a typed-array view
// (memory growth detaches every view): each read takes a fresh view. It owns
// its block until dispose(); after that every use throws, so freed memory is
// never read.
import type { UnpoolWasmModule } from './unpool.mjs';
import {
  ArrayClass, classOfTag, DType, DTypeOf, DTYPES, FloatArray, IndexArray, StorageArray, TensorData,
  ValueArray,
} from './dtypes.js';
import { heapMalloc } from './heap.js';
import { wasm } from './loader.js';
import {
  checkTensor, classTagOf, dataOf, describe, numel, TensorLike, TensorResult, typeError, UnpoolError,
  withDispose,
} from './tensor.js';

export type { DType, DTypeOf } from './dtypes.js';

/** Only this module may construct WasmTensors. */
const TOKEN = Symbol('WasmTensor');

/**
 * The heap address of each live WasmTensor (0 once disposed), kept here and
 * not on the object: a property could be overwritten, and an object made
 * with Object.create(WasmTensor.prototype) would pass instanceof; either
 * would let a call read, or dispose() free, any address in the module.
 */
const ADDRESSES = new WeakMap<object, number>();

/** The array class of each WasmTensor's data, as it was given (results come back in it). */
const CLASSES = new WeakMap<object, ArrayClass>();

/** WasmTensors made and not yet disposed (memoryUsage().liveTensors): a leak shows as a count. */
let live = 0;

/**
 * A tensor in the module's memory: the `resident: true` result of every op,
 * or `uploadTensor(t)`. Every op accepts it wherever it takes a tensor, and
 * reads it in place (no copy). Its memory is the caller's to free with
 * `dispose()`; it is not garbage-collected.
 *
 * @example
 * const { output, indices } = maxPool2d(x, { kernelSize: 2, resident: true });
 * const y = maxUnpool2d(output, indices, { kernelSize: 2 });  // no copies in
 * output.dispose(); indices.dispose();
 */
export class WasmTensor<T extends TensorData = TensorData> {
  /** The shape (a frozen copy). */
  readonly shape: readonly number[];
  /** The element type. */
  readonly dtype: DTypeOf<T>;
  /** Number of elements. */
  readonly size: number;
  private readonly module: UnpoolWasmModule;
  /**
   * dispose(), where the engine has Symbol.dispose: `using t =
   * uploadTensor(x);` frees t when its block ends (TypeScript 5.2+).
   */
  declare readonly [Symbol.dispose]: () => void;

  /** @internal Use uploadTensor() or an op's `resident: true`. */
  constructor(token: symbol, module: UnpoolWasmModule, address: number, dtype: DType,
              shape: readonly number[], cls: ArrayClass) {
    if (token !== TOKEN) {
      throw typeError('WasmTensor: use uploadTensor() or an op with resident: true');
    }
    this.module = module;
    ADDRESSES.set(this, address);
    CLASSES.set(this, cls);
    this.dtype = dtype as DTypeOf<T>;
    this.shape = Object.freeze(shape.slice());
    this.size = numel(shape);
    live++;
    Object.freeze(this);  // shape, dtype and size size the reads of every call
  }

  /** 'WasmTensor', also where a bundler minified the class's name (messages name it so). */
  get [Symbol.toStringTag](): string {
    return 'WasmTensor';
  }

  /** True once dispose() has run. */
  get isDisposed(): boolean {
    return !ADDRESSES.get(this);
  }

  /** Bytes of module memory the tensor holds (0 after dispose()). */
  get byteLength(): number {
    return !ADDRESSES.get(this) ? 0 : this.size * DTYPES[this.dtype].bytes;
  }

  /**
   * A copy of the data as a fresh typed array of the class it was given in
   * (Float32Array for 'float32'; Float16Array or Uint16Array for 'float16').
   */
  toArray(): T {
    return CLASSES.get(this)!.wrap(DTYPES[this.dtype].copy(this.view('toArray'))) as T;
  }

  /** A copy as a plain `{ data, shape, dtype }` tensor. */
  read(): TensorResult<T> {
    return { data: this.toArray(), shape: this.shape.slice(), dtype: this.dtype };
  }

  /** Frees the module memory. Idempotent; every later use throws. */
  dispose(): void {
    const address = ADDRESSES.get(this);
    if (!address) return;
    this.module._free(address);
    ADDRESSES.set(this, 0);
    live--;
  }

  private view(what: string): StorageArray {
    const address = ADDRESSES.get(this);
    if (!address) {
      throw new Error(`WasmTensor.${what}: the tensor was disposed`);
    }
    return DTYPES[this.dtype].view(this.module.HEAPU8.buffer, address, this.size);
  }
}

withDispose(WasmTensor, (t) => t.dispose());

/** How many WasmTensors are made and not yet disposed. */
export function liveTensors(): number {
  return live;
}

/** The array class of a WasmTensor's data (of a genuine one: see addressOf). */
export function classOf(t: WasmTensor): ArrayClass {
  return CLASSES.get(t)!;
}

/** A value-tensor argument that may be resident (integer values where the op takes them). */
export type FloatInput<T extends ValueArray = FloatArray> = TensorLike<T> | WasmTensor<T>;
/** An index-tensor argument that may be resident. */
export type IndexInput<I extends IndexArray = IndexArray> = TensorLike<I> | WasmTensor<I>;

/**
 * Allocates an uninitialised resident tensor. Throws an UnpoolError
 * ('out_of_memory') when the module cannot allocate it.
 */
export function allocTensor(m: UnpoolWasmModule, fn: string, dtype: DType,
                            shape: readonly number[], cls: ArrayClass): WasmTensor {
  const bytes = numel(shape) * DTYPES[dtype].bytes;
  const address = heapMalloc(m, bytes);
  if (address === 0) {
    throw new UnpoolError(`${fn}: the WebAssembly module cannot allocate ${bytes} bytes ` +
        `for a resident tensor (its heap is limited to 4 GiB)`, 'out_of_memory');
  }
  return new WasmTensor(TOKEN, m, address, dtype, shape, cls);
}

/** The heap address of a live resident tensor (an error naming `fn` once disposed). */
export function addressOf(fn: string, name: string, t: WasmTensor): number {
  const address = ADDRESSES.get(t);
  if (address === undefined) {
    throw typeError(`${fn}: ${name} is not a WasmTensor made by uploadTensor() or an op`);
  }
  if (address === 0) {
    throw typeError(`${fn}: ${name} is a WasmTensor that was disposed`);
  }
  return address;
}

/**
 * Copies a tensor into the module's memory, for chained calls that should
 * not copy it again. Dispose it when done.
 */
export function uploadTensor<T extends TensorData>(t: TensorLike<T>): WasmTensor<T> {
  const fn = 'uploadTensor';
  const m = wasm(fn);
  if (t instanceof WasmTensor) {
    throw typeError(`${fn}: t is already a WasmTensor`);
  }
  if (t === null || typeof t !== 'object') {
    throw typeError(`${fn}: t must be a tensor { data, shape }, got ${describe(t)}`);
  }
  const kind = classOfTag(classTagOf(dataOf(t)))?.kind === 'float'
    ? 'float' : 'index';
  const checked = checkTensor(fn, 't', t, kind);
  const type = checked.type;
  const r = allocTensor(m, fn, type.dtype, checked.shape, checked.cls);
  const address = addressOf(fn, 't', r);
  (type.view(m.HEAPU8.buffer, address, checked.data.length) as { set(a: StorageArray): void })
      .set(checked.data);
  return r as WasmTensor<T>;
}
