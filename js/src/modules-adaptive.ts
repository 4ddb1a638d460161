// Module classes mirroring torch.nn.AdaptiveMaxPool{1,2,3}d and
// FractionalMaxPool{2,3}d (return_indices=True): the geometry is fixed at
// construction, forward() takes the tensors. Arguments are checked when
// forward() runs, as in PyTorch.
import type { Layout } from './layout.js';
import { moduleOptions } from './modules.js';
import {
  adaptiveMaxPoolBackwardNd, adaptiveMaxPoolNd, fractionalMaxPoolBackwardNd, fractionalMaxPoolNd,
} from './ops-adaptive.js';
import type { MaxPoolResult } from './ops.js';
import type { FloatInput, IndexInput } from './resident.js';
import type { FloatArray, IndexArray, IndexType, Size, TensorResult } from './tensor.js';

/** An adaptive pool's output size: a number, or one entry per dim (null: the input's size). */
export type AdaptiveOutputSize = number | readonly (number | null)[];

/** Constructor options of AdaptiveMaxPool1d/2d/3d. */
export interface AdaptiveMaxPoolModuleOptions {
  /** Index dtype of forward's indices; 'int32' by default. */
  indexType?: IndexType;
  /** Channels-first ('NCHW', default) or channels-last ('NHWC'); 1d/3d likewise. */
  layout?: Layout;
}

/** Constructor options of FractionalMaxPool2d/3d: exactly one of outputSize and outputRatio. */
export interface FractionalMaxPoolModuleOptions {
  outputSize?: Size;
  outputRatio?: number | readonly number[];
  /** Index dtype of forward's indices; 'int32' by default. */
  indexType?: IndexType;
}

abstract class AdaptiveMaxPoolNd {
  readonly outputSize: AdaptiveOutputSize;
  readonly indexType: IndexType;
  readonly layout: Layout | undefined;

  protected constructor(private readonly dims: number, outputSize: AdaptiveOutputSize,
                        opts?: AdaptiveMaxPoolModuleOptions) {
    const options = moduleOptions(`AdaptiveMaxPool${dims}d`, opts);
    this.outputSize = outputSize;
    this.indexType = options.indexType === undefined ? 'int32' : options.indexType;
    this.layout = options.layout;
  }

  /** Pools `x`; returns the output and the argmax indices. */
  forward<T extends FloatArray>(x: FloatInput<T>): MaxPoolResult<T, IndexArray> {
    return adaptiveMaxPoolNd(this.dims, x, {
      outputSize: this.outputSize, indexType: this.indexType, layout: this.layout,
    }) as MaxPoolResult<T, IndexArray>;
  }

  /** Gradient of forward() w.r.t. its input (scatter-add), shape `inputShape`. */
  backward<T extends FloatArray>(gradOutput: FloatInput<T>, indices: IndexInput,
                                 inputShape: readonly number[]): TensorResult<T> {
    return adaptiveMaxPoolBackwardNd(this.dims, gradOutput, indices,
                                     { inputShape, layout: this.layout }) as TensorResult<T>;
  }
}

abstract class FractionalMaxPoolNd {
  readonly kernelSize: Size;
  readonly outputSize: Size | undefined;
  readonly outputRatio: number | readonly number[] | undefined;
  readonly indexType: IndexType;

  protected constructor(private readonly dims: number, kernelSize: Size,
                        opts?: FractionalMaxPoolModuleOptions) {
    const options = moduleOptions(`FractionalMaxPool${dims}d`, opts);
    this.kernelSize = kernelSize;
    this.outputSize = options.outputSize;
    this.outputRatio = options.outputRatio;
    this.indexType = options.indexType === undefined ? 'int32' : options.indexType;
  }

  /**
   * Pools `x` with windows placed by `randomSamples` ((N, C, dims), dtype of
   * x); omitted, they are drawn with Math.random (not reproducible).
   */
  forward<T extends FloatArray>(x: FloatInput<T>,
                                randomSamples?: FloatInput<T>): MaxPoolResult<T, IndexArray> {
    return fractionalMaxPoolNd(this.dims, x, {
      kernelSize: this.kernelSize, outputSize: this.outputSize, outputRatio: this.outputRatio,
      randomSamples, indexType: this.indexType,
    }) as MaxPoolResult<T, IndexArray>;
  }

  /** Gradient of forward() w.r.t. its input (scatter-add), shape `inputShape`. */
  backward<T extends FloatArray>(gradOutput: FloatInput<T>, indices: IndexInput,
                                 inputShape: readonly number[]): TensorResult<T> {
    return fractionalMaxPoolBackwardNd(this.dims, gradOutput, indices, { inputShape }) as TensorResult<T>;
  }
}

/** As torch.nn.AdaptiveMaxPool1d(output_size, return_indices=True). */
export class AdaptiveMaxPool1d extends AdaptiveMaxPoolNd {
  constructor(outputSize: AdaptiveOutputSize, options?: AdaptiveMaxPoolModuleOptions) {
    super(1, outputSize, options);
  }
}
/** As torch.nn.AdaptiveMaxPool2d(output_size, return_indices=True). */
export class AdaptiveMaxPool2d extends AdaptiveMaxPoolNd {
  constructor(outputSize: AdaptiveOutputSize, options?: AdaptiveMaxPoolModuleOptions) {
    super(2, outputSize, options);
  }
}
/** As torch.nn.AdaptiveMaxPool3d(output_size, return_indices=True). */
export class AdaptiveMaxPool3d extends AdaptiveMaxPoolNd {
  constructor(outputSize: AdaptiveOutputSize, options?: AdaptiveMaxPoolModuleOptions) {
    super(3, outputSize, options);
  }
}
/** As torch.nn.FractionalMaxPool2d(kernel_size, output_size, output_ratio, return_indices=True). */
export class FractionalMaxPool2d extends FractionalMaxPoolNd {
  constructor(kernelSize: Size, options?: FractionalMaxPoolModuleOptions) {
    super(2, kernelSize, options);
  }
}
/** As torch.nn.FractionalMaxPool3d(kernel_size, output_size, output_ratio, return_indices=True). */
export class FractionalMaxPool3d extends FractionalMaxPoolNd {
  constructor(kernelSize: Size, options?: FractionalMaxPoolModuleOptions) {
    super(3, kernelSize, options);
  }
}
