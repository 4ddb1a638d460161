// Module classes mirroring torch.nn.AdaptiveMaxPool{1,2,3}d and
// FractionalMaxPool{2,3}d (return_indices=True): the geometry is fixed at
// construction, forward() takes the tensors. Arguments are checked when
// forward() runs, as in PyTorch.
import type { Layout } from './layout.js';
import { asMethod, ModuleCallOptions, moduleOptions, ModulePoolCallOptions } from './modules.js';
import {
  adaptiveMaxPoolBackwardNd, adaptiveMaxPoolNd, fractionalMaxPoolBackwardNd, fractionalMaxPoolNd,
} from './ops-adaptive.js';
import {
  ADAPTIVE_MAX_POOL_MODULE_KEYS, FRACTIONAL_MAX_POOL_MODULE_KEYS, OnlyKnown,
} from './options.js';
import type { MaxPoolReturn, ResultFor } from './ops.js';
import type { FloatInput, IndexInput } from './resident.js';
import type { FloatArray, IndexType, Size, ValueArray } from './tensor.js';

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

abstract class AdaptiveMaxPoolNd<X extends IndexType> {
  readonly outputSize: AdaptiveOutputSize;
  readonly indexType: X;
  readonly layout: Layout | undefined;

  protected constructor(private readonly dims: number, outputSize: AdaptiveOutputSize,
                        opts?: AdaptiveMaxPoolModuleOptions<X>) {
    const options = moduleOptions(`AdaptiveMaxPool${dims}d`, opts, ADAPTIVE_MAX_POOL_MODULE_KEYS,
                                  'outputSize');
    this.outputSize = outputSize;
    this.indexType = options.indexType === undefined ? 'int32' as X : options.indexType;
    this.layout = options.layout;
  }

  /** Pools `x`; returns the output and the argmax indices (`options`: out, resident). */
  forward<T extends ValueArray, const O extends ModulePoolCallOptions = {}>(
      x: FloatInput<T>, options?: OnlyKnown<O, ModulePoolCallOptions>):
      MaxPoolReturn<T, O & { indexType: X }> {
    const d = this.dims;
    return asMethod(`AdaptiveMaxPool${d}d.forward`, `adaptiveMaxPool${d}d`, options, () =>
      adaptiveMaxPoolNd(d, x, {
        outputSize: this.outputSize, indexType: this.indexType, layout: this.layout,
        out: options?.out, resident: options?.resident,
      })) as MaxPoolReturn<T, O & { indexType: X }>;
  }

  /** Gradient of forward() w.r.t. its input (scatter-add), shape `inputShape`. */
  backward<T extends FloatArray, const O extends ModuleCallOptions = {}>(
      gradOutput: FloatInput<T>, indices: IndexInput, inputShape: readonly number[],
      options?: OnlyKnown<O, ModuleCallOptions>): ResultFor<T, O> {
    const d = this.dims;
    return asMethod(`AdaptiveMaxPool${d}d.backward`, `adaptiveMaxPool${d}dBackward`, options, () =>
      adaptiveMaxPoolBackwardNd(d, gradOutput, indices, {
        inputShape, layout: this.layout, out: options?.out as FloatArray | undefined, resident: options?.resident,
      })) as ResultFor<T, O>;
  }
}

abstract class FractionalMaxPoolNd<X extends IndexType> {
  readonly kernelSize: Size;
  readonly outputSize: Size | undefined;
  readonly outputRatio: number | readonly number[] | undefined;
  readonly indexType: X;

  protected constructor(private readonly dims: number, kernelSize: Size,
                        opts?: FractionalMaxPoolModuleOptions<X>) {
    const options = moduleOptions(`FractionalMaxPool${dims}d`, opts,
                                  FRACTIONAL_MAX_POOL_MODULE_KEYS);
    this.kernelSize = kernelSize;
    this.outputSize = options.outputSize;
    this.outputRatio = options.outputRatio;
    this.indexType = options.indexType === undefined ? 'int32' as X : options.indexType;
  }

  /**
   * Pools `x` with windows placed by `randomSamples` ((N, C, dims), dtype of
   * x); omitted, they are drawn with Math.random (not reproducible).
   * `options`: out, resident.
   */
  forward<T extends FloatArray, const O extends ModulePoolCallOptions = {}>(
      x: FloatInput<T>, randomSamples?: FloatInput<T>, options?: OnlyKnown<O, ModulePoolCallOptions>):
      MaxPoolReturn<T, O & { indexType: X }> {
    const d = this.dims;
    return asMethod(`FractionalMaxPool${d}d.forward`, `fractionalMaxPool${d}d`, options, () =>
      fractionalMaxPoolNd(d, x, {
        kernelSize: this.kernelSize, outputSize: this.outputSize, outputRatio: this.outputRatio,
        randomSamples, indexType: this.indexType, out: options?.out as { output?: FloatArray } | undefined, resident: options?.resident,
      })) as MaxPoolReturn<T, O & { indexType: X }>;
  }

  /** Gradient of forward() w.r.t. its input (scatter-add), shape `inputShape`. */
  backward<T extends FloatArray, const O extends ModuleCallOptions = {}>(
      gradOutput: FloatInput<T>, indices: IndexInput, inputShape: readonly number[],
      options?: OnlyKnown<O, ModuleCallOptions>): ResultFor<T, O> {
    const d = this.dims;
    return asMethod(`FractionalMaxPool${d}d.backward`, `fractionalMaxPool${d}dBackward`, options,
                    () => fractionalMaxPoolBackwardNd(d, gradOutput, indices, {
                      inputShape, out: options?.out as FloatArray | undefined, resident: options?.resident,
                    })) as ResultFor<T, O>;
  }
}

/** As torch.nn.AdaptiveMaxPool1d(output_size, return_indices=True). */
export class AdaptiveMaxPool1d<X extends IndexType = 'int32'> extends AdaptiveMaxPoolNd<X> {
  constructor(outputSize: AdaptiveOutputSize, options?: AdaptiveMaxPoolModuleOptions<X>) {
    super(1, outputSize, options);
  }
}
/** As torch.nn.AdaptiveMaxPool2d(output_size, return_indices=True). */
export class AdaptiveMaxPool2d<X extends IndexType = 'int32'> extends AdaptiveMaxPoolNd<X> {
  constructor(outputSize: AdaptiveOutputSize, options?: AdaptiveMaxPoolModuleOptions<X>) {
    super(2, outputSize, options);
  }
}
/** As torch.nn.AdaptiveMaxPool3d(output_size, return_indices=True). */
export class AdaptiveMaxPool3d<X extends IndexType = 'int32'> extends AdaptiveMaxPoolNd<X> {
  constructor(outputSize: AdaptiveOutputSize, options?: AdaptiveMaxPoolModuleOptions<X>) {
    super(3, outputSize, options);
  }
}
/** As torch.nn.FractionalMaxPool2d(kernel_size, output_size, output_ratio, return_indices=True). */
export class FractionalMaxPool2d<X extends IndexType = 'int32'> extends FractionalMaxPoolNd<X> {
  constructor(kernelSize: Size, options?: FractionalMaxPoolModuleOptions<X>) {
    super(2, kernelSize, options);
  }
}
/** As torch.nn.FractionalMaxPool3d(kernel_size, output_size, output_ratio, return_indices=True). */
export class FractionalMaxPool3d<X extends IndexType = 'int32'> extends FractionalMaxPoolNd<X> {
  constructor(kernelSize: Size, options?: FractionalMaxPoolModuleOptions<X>) {
    super(3, kernelSize, options);
  }
}
