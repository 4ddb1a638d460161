// Module classes mirroring torch.nn.MaxPool{1,2,3}d and MaxUnpool{1,2,3}d:
// the geometry is fixed at construction, forward() takes the tensors.
// Arguments are checked when forward() runs, as in PyTorch.
import {
  maxPoolBackwardNd, maxPoolNd, MaxPoolResult, maxUnpoolBackwardNd, maxUnpoolNd,
} from './ops.js';
import type { Layout } from './layout.js';
import { describe } from './tensor.js';
import type { FloatInput, IndexInput } from './resident.js';
import type { FloatArray, IndexArray, IndexType, Size, TensorResult } from './tensor.js';

// The options argument must be an object (its values are checked by forward():
// only a missing value takes the default, a null is refused there, as in the
// functions).
export function moduleOptions<T>(cls: string, options: T | undefined): Partial<T> {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${cls}: options must be an object, got ${describe(options)}`);
  }
  return options;
}

/** Constructor options of MaxPool1d/2d/3d. */
export interface MaxPoolModuleOptions {
  stride?: Size | null;
  padding?: Size;
  dilation?: Size;
  ceilMode?: boolean;
  /** Index dtype of forward's indices; 'int32' by default. */
  indexType?: IndexType;
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

abstract class MaxPoolNd {
  readonly kernelSize: Size;
  readonly stride: Size | null;
  readonly padding: Size;
  readonly dilation: Size;
  readonly ceilMode: boolean;
  readonly indexType: IndexType;
  readonly layout: Layout | undefined;

  protected constructor(private readonly dims: number, kernelSize: Size,
                        opts?: MaxPoolModuleOptions) {
    const options = moduleOptions(`MaxPool${dims}d`, opts);
    this.kernelSize = kernelSize;
    this.stride = options.stride ?? null;
    this.padding = options.padding === undefined ? 0 : options.padding;
    this.dilation = options.dilation === undefined ? 1 : options.dilation;
    this.ceilMode = options.ceilMode === undefined ? false : options.ceilMode;
    this.indexType = options.indexType === undefined ? 'int32' : options.indexType;
    this.layout = options.layout;
  }

  /** Pools `x`; returns the output and the argmax indices. */
  forward<T extends FloatArray>(x: FloatInput<T>): MaxPoolResult<T, IndexArray> {
    return maxPoolNd(this.dims, x, { ...this.geometry(), indexType: this.indexType }) as
        MaxPoolResult<T, IndexArray>;
  }

  /** Gradient of forward() w.r.t. its input (scatter-add), geometry checked. */
  backward<T extends FloatArray>(gradOutput: FloatInput<T>, indices: IndexInput,
                                 inputShape: readonly number[]): TensorResult<T> {
    return maxPoolBackwardNd(this.dims, gradOutput, indices,
                             { ...this.geometry(), inputShape }) as TensorResult<T>;
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
    const options = moduleOptions(`MaxUnpool${dims}d`, opts);
    this.kernelSize = kernelSize;
    this.stride = options.stride ?? null;
    this.padding = options.padding === undefined ? 0 : options.padding;
    this.layout = options.layout;
  }

  /**
   * Unpools `x` with `indices`. `outputSize` is optional: spatial sizes, maybe
   * preceded by N and C as in PyTorch (e.g. a previous input's shape).
   */
  forward<T extends FloatArray>(x: FloatInput<T>, indices: IndexInput,
                                outputSize?: readonly number[] | null): TensorResult<T> {
    // The functions' kernel-free form is not a module's: a module has a kernel.
    if (this.kernelSize === undefined) {
      throw new TypeError(`maxUnpool${this.dims}d: kernelSize is required`);
    }
    return maxUnpoolNd(this.dims, x, indices, {
      kernelSize: this.kernelSize, stride: this.stride, padding: this.padding, outputSize,
      layout: this.layout,
    }) as TensorResult<T>;
  }

  /** Gradient of forward() w.r.t. `x` (a gather); shape of `indices`. */
  backward<T extends FloatArray>(gradOutput: FloatInput<T>,
                                 indices: IndexInput): TensorResult<T> {
    return maxUnpoolBackwardNd(this.dims, gradOutput, indices, { layout: this.layout }) as TensorResult<T>;
  }
}

/** As torch.nn.MaxPool1d(kernel_size, stride, padding, dilation, return_indices=True, ceil_mode). */
export class MaxPool1d extends MaxPoolNd {
  constructor(kernelSize: Size, options?: MaxPoolModuleOptions) { super(1, kernelSize, options); }
}
/** As torch.nn.MaxPool2d(kernel_size, stride, padding, dilation, return_indices=True, ceil_mode). */
export class MaxPool2d extends MaxPoolNd {
  constructor(kernelSize: Size, options?: MaxPoolModuleOptions) { super(2, kernelSize, options); }
}
/** As torch.nn.MaxPool3d(kernel_size, stride, padding, dilation, return_indices=True, ceil_mode). */
export class MaxPool3d extends MaxPoolNd {
  constructor(kernelSize: Size, options?: MaxPoolModuleOptions) { super(3, kernelSize, options); }
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
