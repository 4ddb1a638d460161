// Module classes mirroring torch.nn's MaxPool{1,2,3}d, MaxUnpool{1,2,3}d,
// AdaptiveMaxPool{1,2,3}d and FractionalMaxPool{2,3}d (return_indices=True),
// made from the op table's module entries (optable.ts): the geometry is
// fixed at construction, forward() and backward() take the tensors and run
// the table's ops. Arguments are checked when they run, as in PyTorch; an
// unknown option key is refused at construction, as PyTorch refuses an
// unknown keyword argument.
import { wasmBackend } from './engine.js';
import type { MaxPoolReturn, ResultFor } from './functional.js';
import { invoke, Returned } from './invoke.js';
import { checkOptionKeys } from './keys.js';
import type { Layout } from './layout.js';
import { ModuleSpec, MODULES, opName } from './optable.js';
import type { OnlyKnown, ResultOptions } from './options.js';
import type { FloatInput, IndexInput, WasmTensor } from './resident.js';
import { describe, readableName, typeError } from './tensor.js';
import type { FloatArray, IndexArray, IndexType, Size, TensorResult, ValueArray } from './tensor.js';

/** The options of a module class's forward() and backward(). */
const CALL_KEYS = Object.freeze(['out', 'resident'] as const);

/**
 * The options object of a module class, checked: an object whose keys are
 * all in `known` (its values are checked by forward(): only a missing value
 * takes the default, a null is refused there, as in the functions).
 */
function moduleOptions<T>(cls: string, options: T | undefined,
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
function asMethod<R>(method: string, op: string, call: unknown, run: () => R): R {
  if (call !== undefined && (call === null || typeof call !== 'object')) {
    throw typeError(`${method}: options must be an object { out?, resident? }, got ` +
        `${describe(call)}`);
  }
  checkOptionKeys(method, call, CALL_KEYS);
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

/** An adaptive pool's output size: a number, or one entry per dim (null: the input's size). */
export type AdaptiveOutputSize = number | readonly (number | null)[];

/** Constructor options of AdaptiveMaxPool1d/2d/3d. */
export interface AdaptiveMaxPoolModuleOptions<X extends IndexType = IndexType> {
  /** Index dtype of forward's indices; 'int32' by default. */
  indexType?: X;
  /** Channels-first ('NCHW', default) or channels-last ('NHWC'); 1d/3d likewise. */
  layout?: Layout;
}

/** Constructor options of FractionalMaxPool2d/3d: exactly one of outputSize and outputRatio. */
export interface FractionalMaxPoolModuleOptions<X extends IndexType = IndexType> {
  outputSize?: Size;
  outputRatio?: number | readonly number[];
  /** Index dtype of forward's indices; 'int32' by default. */
  indexType?: X;
}

/** A constructor option's value when not given (a null is kept: forward() refuses it, as the functions do). */
const DEFAULTS: Readonly<Record<string, unknown>> = { stride: null, padding: 0, dilation: 1, ceilMode: false, indexType: 'int32' };

/**
 * A module instance: its entry, dims, and its fixed options as own fields
 * (`pool.kernelSize`, `pool.stride`, ...), every one the constructor takes.
 */
abstract class Module {
  private readonly dims: number;

  protected constructor(private readonly spec: ModuleSpec, first: unknown, opts: unknown) {
    // The class's own number of spatial dims (MaxPool2d.dims): the one thing
    // a torch-style class adds to its family's.
    const dims = (new.target as unknown as { readonly dims: unknown }).dims;
    if (typeof dims !== 'number' || !spec.forward.dims.includes(dims)) {
      // Only a subclass that changed its static dims gets here.
      const cls = readableName(new.target) ?? `a subclass of ${spec.cls}`;
      throw typeError(`${cls}: static dims=${describe(dims)} must be one of ` +
          `${spec.forward.dims.join(', ')} (a ${spec.cls} class's spatial dims)`);
    }
    this.dims = dims;
    const options = moduleOptions(`${spec.cls}${dims}d`, opts, spec.keys, spec.first) as Record<string, unknown>;
    const self = this as unknown as Record<string, unknown>;
    self[spec.first] = first;
    for (const k of spec.keys) self[k] = options[k] === undefined ? DEFAULTS[k] : options[k];
  }

  /**
   * Runs `method`'s op on tensors `a0`, `a1` with the fixed options it takes,
   * `positional` (the method's arguments that are options: forwardArgs,
   * backwardArgs) and the call's `out` and `resident`.
   */
  protected run(method: 'forward' | 'backward', a0: unknown, a1: unknown, positional: readonly unknown[],
                call: ResultOptions<unknown> | undefined): Returned<TensorResult | WasmTensor> {
    const { spec, dims } = this;
    const op = method === 'forward' ? spec.forward : spec.backward;
    const fn = opName(op, dims);
    return asMethod(`${spec.cls}${dims}d.${method}`, fn, call, () => {
      const self = this as unknown as Record<string, unknown>;
      // The functions' kernel-free unpool is not a module's: a module has a kernel.
      if (method === 'forward' && spec.firstRequired && self[spec.first] === undefined) {
        throw typeError(`${fn}: ${spec.first} is required`);
      }
      const o: Record<string, unknown> = {};
      for (const k of [spec.first, ...spec.keys]) if (op.keys.includes(k)) o[k] = self[k];
      const names = method === 'forward' ? spec.forwardArgs : spec.backwardArgs;
      names.forEach((k, i) => { o[k] = positional[i]; });
      o.out = call?.out;
      o.resident = call?.resident;
      return invoke(wasmBackend, op, dims, fn, a0, a1, o);
    });
  }
}

/** A pool's class: backward() is the scatter-add of gradOutput, shape `inputShape`. */
abstract class PoolModule<X extends IndexType> extends Module {
  declare readonly indexType: X;

  /** Gradient of forward() w.r.t. its input (scatter-add), shape `inputShape`, geometry checked. */
  backward<T extends FloatArray, const O extends ModuleCallOptions = {}>(
      gradOutput: FloatInput<T>, indices: IndexInput, inputShape: readonly number[],
      options?: OnlyKnown<O, ModuleCallOptions>): ResultFor<T, O> {
    return this.run('backward', gradOutput, indices, [inputShape], options) as ResultFor<T, O>;
  }
}

/** A pool whose forward() takes `x` alone (max and adaptive pools). */
abstract class XPoolModule<X extends IndexType> extends PoolModule<X> {
  /**
   * Pools `x`; returns the output and the argmax indices (Int32Array, or
   * BigInt64Array with `indexType: 'int64'`). `options.out` and
   * `options.resident` as in the functions.
   */
  forward<T extends ValueArray, const O extends ModulePoolCallOptions = {}>(
      x: FloatInput<T>, options?: OnlyKnown<O, ModulePoolCallOptions>): MaxPoolReturn<T, O & { indexType: X }> {
    return this.run('forward', x, undefined, [], options) as MaxPoolReturn<T, O & { indexType: X }>;
  }
}

abstract class MaxPoolNd<X extends IndexType> extends XPoolModule<X> {
  declare readonly kernelSize: Size;
  declare readonly stride: Size | null;
  declare readonly padding: Size;
  declare readonly dilation: Size;
  declare readonly ceilMode: boolean;
  declare readonly layout: Layout | undefined;

  constructor(kernelSize: Size, options?: MaxPoolModuleOptions<X>) {
    super(MODULES.MaxPool, kernelSize, options);
  }
}

abstract class AdaptiveMaxPoolNd<X extends IndexType> extends XPoolModule<X> {
  declare readonly outputSize: AdaptiveOutputSize;
  declare readonly layout: Layout | undefined;

  constructor(outputSize: AdaptiveOutputSize, options?: AdaptiveMaxPoolModuleOptions<X>) {
    super(MODULES.AdaptiveMaxPool, outputSize, options);
  }
}

abstract class FractionalMaxPoolNd<X extends IndexType> extends PoolModule<X> {
  declare readonly kernelSize: Size;
  declare readonly outputSize: Size | undefined;
  declare readonly outputRatio: number | readonly number[] | undefined;

  constructor(kernelSize: Size, options?: FractionalMaxPoolModuleOptions<X>) {
    super(MODULES.FractionalMaxPool, kernelSize, options);
  }

  /**
   * Pools `x` with windows placed by `randomSamples` ((N, C, dims), dtype of
   * x); omitted, they are drawn with Math.random (not reproducible).
   * `options`: out, resident.
   */
  forward<T extends FloatArray, const O extends ModulePoolCallOptions = {}>(
      x: FloatInput<T>, randomSamples?: FloatInput<T>, options?: OnlyKnown<O, ModulePoolCallOptions>):
      MaxPoolReturn<T, O & { indexType: X }> {
    return this.run('forward', x, undefined, [randomSamples], options) as MaxPoolReturn<T, O & { indexType: X }>;
  }
}

abstract class MaxUnpoolNd extends Module {
  declare readonly kernelSize: Size;
  declare readonly stride: Size | null;
  declare readonly padding: Size;
  declare readonly layout: Layout | undefined;

  constructor(kernelSize: Size, options?: MaxUnpoolModuleOptions) {
    super(MODULES.MaxUnpool, kernelSize, options);
  }

  /**
   * Unpools `x` with `indices`. `outputSize` is optional: spatial sizes, maybe
   * preceded by N and C as in PyTorch (e.g. a previous input's shape).
   * `options.out` and `options.resident` as in maxUnpool2d.
   */
  forward<T extends ValueArray, const O extends ModuleCallOptions = {}>(
      x: FloatInput<T>, indices: IndexInput, outputSize?: readonly number[] | null,
      options?: OnlyKnown<O, ModuleCallOptions>): ResultFor<T, O> {
    return this.run('forward', x, indices, [outputSize], options) as ResultFor<T, O>;
  }

  /** Gradient of forward() w.r.t. `x` (a gather); shape of `indices`. */
  backward<T extends ValueArray, const O extends ModuleCallOptions = {}>(
      gradOutput: FloatInput<T>, indices: IndexInput, options?: OnlyKnown<O, ModuleCallOptions>): ResultFor<T, O> {
    return this.run('backward', gradOutput, indices, [], options) as ResultFor<T, O>;
  }
}

// The torch-style classes: each is its family's class with its number of
// spatial dims (the family's constructor reads it from the class).

/** As torch.nn.MaxPool1d(kernel_size, stride, padding, dilation, return_indices=True, ceil_mode). */
export class MaxPool1d<X extends IndexType = 'int32'> extends MaxPoolNd<X> { static readonly dims = 1; }
/** As torch.nn.MaxPool2d(kernel_size, stride, padding, dilation, return_indices=True, ceil_mode). */
export class MaxPool2d<X extends IndexType = 'int32'> extends MaxPoolNd<X> { static readonly dims = 2; }
/** As torch.nn.MaxPool3d(kernel_size, stride, padding, dilation, return_indices=True, ceil_mode). */
export class MaxPool3d<X extends IndexType = 'int32'> extends MaxPoolNd<X> { static readonly dims = 3; }
/** As torch.nn.MaxUnpool1d(kernel_size, stride, padding). */
export class MaxUnpool1d extends MaxUnpoolNd { static readonly dims = 1; }
/** As torch.nn.MaxUnpool2d(kernel_size, stride, padding). */
export class MaxUnpool2d extends MaxUnpoolNd { static readonly dims = 2; }
/** As torch.nn.MaxUnpool3d(kernel_size, stride, padding). */
export class MaxUnpool3d extends MaxUnpoolNd { static readonly dims = 3; }
/** As torch.nn.AdaptiveMaxPool1d(output_size, return_indices=True). */
export class AdaptiveMaxPool1d<X extends IndexType = 'int32'> extends AdaptiveMaxPoolNd<X> {
  static readonly dims = 1;
}
/** As torch.nn.AdaptiveMaxPool2d(output_size, return_indices=True). */
export class AdaptiveMaxPool2d<X extends IndexType = 'int32'> extends AdaptiveMaxPoolNd<X> {
  static readonly dims = 2;
}
/** As torch.nn.AdaptiveMaxPool3d(output_size, return_indices=True). */
export class AdaptiveMaxPool3d<X extends IndexType = 'int32'> extends AdaptiveMaxPoolNd<X> {
  static readonly dims = 3;
}
/** As torch.nn.FractionalMaxPool2d(kernel_size, output_size, output_ratio, return_indices=True). */
export class FractionalMaxPool2d<X extends IndexType = 'int32'> extends FractionalMaxPoolNd<X> {
  static readonly dims = 2;
}
/** As torch.nn.FractionalMaxPool3d(kernel_size, output_size, output_ratio, return_indices=True). */
export class FractionalMaxPool3d<X extends IndexType = 'int32'> extends FractionalMaxPoolNd<X> {
  static readonly dims = 3;
}
