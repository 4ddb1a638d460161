// Module classes mirroring torch.nn.MaxPool{1,2,3}d and MaxUnpool{1,2,3}d:
// the geometry is fixed at construction, forward() takes the tensors.
// Arguments are checked when forward() runs, as in PyTorch; an unknown
// option key is refused at construction, as PyTorch refuses an unknown
// keyword argument.
import {
  maxPoolBackwardNd, maxPoolNd, MaxPoolReturn, maxUnpoolBackwardNd, maxUnpoolNd, ResultFor,
} from './ops.js';
import type { Layout } from './layout.js';
import {
  checkOptionKeys, MAX_POOL_MODULE_KEYS, MAX_UNPOOL_MODULE_KEYS, MODULE_CALL_KEYS, OnlyKnown,
  ResultOptions,
} from './options.js';
import { describe, typeError } from './tensor.js';
import type { FloatInput, IndexInput } from './resident.js';
import type { FloatArray, IndexArray, IndexType, Size, ValueArray } from './tensor.js';

/**
 * The options object of a module class, checked: an object whose keys are
 * all in `known` (its values are checked by forward(): only a missing value
 * takes the default, a null is refused there, as in the functions).
 */
export function moduleOptions<T>(cls: string, options: T | undefined,
                                 known: readonly string[], first = 'kernelSize'): Partial<T> {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') {
    throw typeError(`${cls}: options must be an object, got ${describe(options)}`);
  }
  if (first in options) {
    throw typeError(`${cls}: options.${first}=${describe((options as Record<string, unknown>)[first])}` +
        ` is not an option; ${first} is the first argument: new ${cls}(${first}, options)`,
        'unknown_option');
  }
  checkOptionKeys(cls, options, known);
  return options;
}

/**
 * Runs `run` as method `method` of a module class (`MaxPool2d.forward`):
 * its errors, which name the function that ran (`maxPool2d: ...`), name the
 * method instead, keeping their class and code. `call` is the method's own
 * options (out, resident), whose keys are checked first.
 */
export function asMethod<R>(method: string, op: string, call: unknown, run: () => R): R {
  if (call !== undefined && (call === null || typeof call !== 'object')) {
    throw typeError(`${method}: options must be an object { out?, resident? }, got ` +
        `${describe(call)}`);
  }
  checkOptionKeys(method, call, MODULE_CALL_KEYS);
  try {
    return run();
  } catch (e) {
    const prefix = `${op}: `;
    if (e instanceof Error && e.message.startsWith(prefix)) {
      const message = `${method}: ${e.message.slice(prefix.length)}`;
      // The stack's first line repeats the message: renamed too, so a logged
      // error names the method. Not by `e.stack = ...`: in SpiderMonkey
      // `stack` is an accessor on Error.prototype and that assignment makes
      // an own *enumerable* property, so the error would no longer equal a
      // fresh one structurally (Object.keys, JSON.stringify, deep equality).
      // V8 and JavaScriptCore keep `stack` own and non-enumerable; so does
      // this, in every engine.
      if (typeof e.stack === 'string') {
        Object.defineProperty(e, 'stack', {
          value: e.stack.replace(e.message, message), writable: true, configurable: true, enumerable: false,
        });
      }
      e.message = message;
    }
    throw e;
  }
}

/** The index array of an index type: Int32Array for 'int32', BigInt64Array for 'int64'. */
export type IndexArrayFor<X extends IndexType> =
    [X] extends ['int32'] ? Int32Array : [X] extends ['int64'] ? BigInt64Array : IndexArray;

/** The options of a pool module's forward(): where its results go. */
export type ModulePoolCallOptions = ResultOptions<{ output?: ValueArray; indices?: IndexArray }>;
/** The options of the other module methods: where the result goes. */
export type ModuleCallOptions = ResultOptions<ValueArray>;

/** Constructor options of MaxPool1d/2d/3d. */
export interface MaxPoolModuleOptions<X extends IndexType = IndexType> {
  stride?: Size | null;
  padding?: Size;
  dilation?: Size;
  ceilMode?: boolean;
  /** Index dtype of forward's indices; 'int32' by default. */
  indexType?: X;
  /** Channels-first ('NCHW', default) or channels-last ('NHWC'); 1d/3d likewise. */
  layout?: Layout;
}

/** Constructor options of MaxUnpool1d/2d/3d. */
export interface MaxUnpoolModuleOptions {
  stride?: Size | null;
  padding?: Size;
  /** Channels-first ('NCHW', default) or channels-last ('NHWC'); 1d/3d likewise. */
  layout?: Layout;
}

abstract class MaxPoolNd<X extends IndexType> {
  readonly kernelSize: Size;
  readonly stride: Size | null;
  readonly padding: Size;
  readonly dilation: Size;
  readonly ceilMode: boolean;
  readonly indexType: X;
  readonly layout: Layout | undefined;

  protected constructor(private readonly dims: number, kernelSize: Size,
                        opts?: MaxPoolModuleOptions<X>) {
    const options = moduleOptions(`MaxPool${dims}d`, opts, MAX_POOL_MODULE_KEYS);
    this.kernelSize = kernelSize;
    this.stride = options.stride ?? null;
    this.padding = options.padding === undefined ? 0 : options.padding;
    this.dilation = options.dilation === undefined ? 1 : options.dilation;
    this.ceilMode = options.ceilMode === undefined ? false : options.ceilMode;
    this.indexType = options.indexType === undefined ? 'int32' as X : options.indexType;
    this.layout = options.layout;
  }

  /**
   * Pools `x`; returns the output and the argmax indices (Int32Array, or
   * BigInt64Array with `indexType: 'int64'`). `options.out` and
   * `options.resident` as in maxPoolNd.
   */
  forward<T extends ValueArray, const O extends ModulePoolCallOptions = {}>(
      x: FloatInput<T>, options?: OnlyKnown<O, ModulePoolCallOptions>):
      MaxPoolReturn<T, O & { indexType: X }> {
    const d = this.dims;
    return asMethod(`MaxPool${d}d.forward`, `maxPool${d}d`, options, () => maxPoolNd(d, x, {
      ...this.geometry(), indexType: this.indexType, out: options?.out, resident: options?.resident,
    })) as MaxPoolReturn<T, O & { indexType: X }>;
  }

  /** Gradient of forward() w.r.t. its input (scatter-add), geometry checked. */
  backward<T extends FloatArray, const O extends ModuleCallOptions = {}>(
      gradOutput: FloatInput<T>, indices: IndexInput, inputShape: readonly number[],
      options?: OnlyKnown<O, ModuleCallOptions>): ResultFor<T, O> {
    const d = this.dims;
    return asMethod(`MaxPool${d}d.backward`, `maxPool${d}dBackward`, options, () =>
      maxPoolBackwardNd(d, gradOutput, indices, {
        ...this.geometry(), inputShape, out: options?.out as FloatArray | undefined, resident: options?.resident,
      })) as ResultFor<T, O>;
  }

  private geometry() {
    return {
      kernelSize: this.kernelSize, stride: this.stride, padding: this.padding,
      dilation: this.dilation, ceilMode: this.ceilMode, layout: this.layout,
    };
  }
}

abstract class MaxUnpoolNd {
  readonly kernelSize: Size;
  readonly stride: Size | null;
  readonly padding: Size;
  readonly layout: Layout | undefined;

  protected constructor(private readonly dims: number, kernelSize: Size,
                        opts?: MaxUnpoolModuleOptions) {
    const options = moduleOptions(`MaxUnpool${dims}d`, opts, MAX_UNPOOL_MODULE_KEYS);
    this.kernelSize = kernelSize;
    this.stride = options.stride ?? null;
    this.padding = options.padding === undefined ? 0 : options.padding;
    this.layout = options.layout;
  }

  /**
   * Unpools `x` with `indices`. `outputSize` is optional: spatial sizes, maybe
   * preceded by N and C as in PyTorch (e.g. a previous input's shape).
   * `options.out` and `options.resident` as in maxUnpoolNd.
   */
  forward<T extends ValueArray, const O extends ModuleCallOptions = {}>(
      x: FloatInput<T>, indices: IndexInput, outputSize?: readonly number[] | null,
      options?: OnlyKnown<O, ModuleCallOptions>): ResultFor<T, O> {
    const d = this.dims;
    return asMethod(`MaxUnpool${d}d.forward`, `maxUnpool${d}d`, options, () => {
      // The functions' kernel-free form is not a module's: a module has a kernel.
      if (this.kernelSize === undefined) throw typeError(`maxUnpool${d}d: kernelSize is required`);
      return maxUnpoolNd(d, x, indices, {
        kernelSize: this.kernelSize, stride: this.stride, padding: this.padding, outputSize,
        layout: this.layout, out: options?.out, resident: options?.resident,
      });
    }) as ResultFor<T, O>;
  }

  /** Gradient of forward() w.r.t. `x` (a gather); shape of `indices`. */
  backward<T extends ValueArray, const O extends ModuleCallOptions = {}>(
      gradOutput: FloatInput<T>, indices: IndexInput,
      options?: OnlyKnown<O, ModuleCallOptions>): ResultFor<T, O> {
    const d = this.dims;
    return asMethod(`MaxUnpool${d}d.backward`, `maxUnpool${d}dBackward`, options, () =>
      maxUnpoolBackwardNd(d, gradOutput, indices, {
        layout: this.layout, out: options?.out, resident: options?.resident,
      })) as ResultFor<T, O>;
  }
}

/** As torch.nn.MaxPool1d(kernel_size, stride, padding, dilation, return_indices=True, ceil_mode). */
export class MaxPool1d<X extends IndexType = 'int32'> extends MaxPoolNd<X> {
  constructor(kernelSize: Size, options?: MaxPoolModuleOptions<X>) { super(1, kernelSize, options); }
}
/** As torch.nn.MaxPool2d(kernel_size, stride, padding, dilation, return_indices=True, ceil_mode). */
export class MaxPool2d<X extends IndexType = 'int32'> extends MaxPoolNd<X> {
  constructor(kernelSize: Size, options?: MaxPoolModuleOptions<X>) { super(2, kernelSize, options); }
}
/** As torch.nn.MaxPool3d(kernel_size, stride, padding, dilation, return_indices=True, ceil_mode). */
export class MaxPool3d<X extends IndexType = 'int32'> extends MaxPoolNd<X> {
  constructor(kernelSize: Size, options?: MaxPoolModuleOptions<X>) { super(3, kernelSize, options); }
}
/** As torch.nn.MaxUnpool1d(kernel_size, stride, padding). */
export class MaxUnpool1d extends MaxUnpoolNd {
  constructor(kernelSize: Size, options?: MaxUnpoolModuleOptions) { super(1, kernelSize, options); }
}
/** As torch.nn.MaxUnpool2d(kernel_size, stride, padding). */
export class MaxUnpool2d extends MaxUnpoolNd {
  constructor(kernelSize: Size, options?: MaxUnpoolModuleOptions) { super(2, kernelSize, options); }
}
/** As torch.nn.MaxUnpool3d(kernel_size, stride, padding). */
export class MaxUnpool3d extends MaxUnpoolNd {
  constructor(kernelSize: Size, options?: MaxUnpoolModuleOptions) { super(3, kernelSize, options); }
}
