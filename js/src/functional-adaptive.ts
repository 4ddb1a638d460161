// The public functions of adaptive and fractional max pooling, one per op
// and number of spatial dims, as torch.nn.functional names them (camelCase).
// All need `await init()` first; errors as in functional.ts.
import type { MaxPoolReturn, ResultFor } from './functional.js';
import {
  adaptiveMaxPoolBackwardNd, AdaptiveMaxPoolBackwardOptions, adaptiveMaxPoolNd,
  AdaptiveMaxPoolOptions, fractionalMaxPoolBackwardNd, FractionalMaxPoolBackwardOptions,
  fractionalMaxPoolNd, FractionalMaxPoolOptions,
} from './ops-adaptive.js';
import type { OnlyKnown } from './options.js';
import type { FloatInput, IndexInput } from './resident.js';
import type { FloatArray, ValueArray } from './tensor.js';

/**
 * 1d adaptive max pooling with argmax indices, as
 * `torch.nn.functional.adaptive_max_pool1d(x, output_size, return_indices=True)`.
 * Output `o` of a dim with input size `I` and output size `O` pools
 * `[floor(o*I/O), ceil((o+1)*I/O))` (`O > I` repeats windows). `x` is
 * (N, C, L) or (C, L), or channels-last with `layout: 'NLC'`. Indices, ties and NaN as maxPool1d.
 *
 * @param x - values: a Float32Array, Float64Array or Float16Array tensor, or a Uint16Array
 *   of float16 or bfloat16 bits with its dtype (results come back in its class)
 * @param options - outputSize (required: a number, or 1 entries; null keeps the
 *   input's size; 0 is rejected), indexType, layout, out, resident
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export function adaptiveMaxPool1d<T extends ValueArray, const O extends AdaptiveMaxPoolOptions>(
    x: FloatInput<T>, options: OnlyKnown<O, AdaptiveMaxPoolOptions>): MaxPoolReturn<T, O> {
  return adaptiveMaxPoolNd(1, x, options) as MaxPoolReturn<T, O>;
}

/**
 * Gradient of adaptiveMaxPool1d with respect to its input: zeros of
 * `inputShape`, then `gradOutput` added at the indices in output order (a
 * scatter-add; repeated windows add up).
 *
 * @param gradOutput - gradient of the pooled output
 * @param indices - the indices adaptiveMaxPool1d returned
 * @param options - inputShape (required), layout, out, resident
 * @returns the gradient of the input, shape `inputShape`, dtype of gradOutput
 */
export function adaptiveMaxPool1dBackward<T extends FloatArray,
                                          const O extends AdaptiveMaxPoolBackwardOptions>(
    gradOutput: FloatInput<T>, indices: IndexInput, options: OnlyKnown<O, AdaptiveMaxPoolBackwardOptions>): ResultFor<T, O> {
  return adaptiveMaxPoolBackwardNd(1, gradOutput, indices, options) as ResultFor<T, O>;
}

/**
 * 2d adaptive max pooling with argmax indices, as
 * `torch.nn.functional.adaptive_max_pool2d(x, output_size, return_indices=True)`.
 * Output `o` of a dim with input size `I` and output size `O` pools
 * `[floor(o*I/O), ceil((o+1)*I/O))` (`O > I` repeats windows). `x` is
 * (N, C, H, W) or (C, H, W), or channels-last with `layout: 'NHWC'`. Indices, ties and NaN as maxPool2d.
 *
 * @param x - values: a Float32Array, Float64Array or Float16Array tensor, or a Uint16Array
 *   of float16 or bfloat16 bits with its dtype (results come back in its class)
 * @param options - outputSize (required: a number, or 2 entries; null keeps the
 *   input's size; 0 is rejected), indexType, layout, out, resident
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export function adaptiveMaxPool2d<T extends ValueArray, const O extends AdaptiveMaxPoolOptions>(
    x: FloatInput<T>, options: OnlyKnown<O, AdaptiveMaxPoolOptions>): MaxPoolReturn<T, O> {
  return adaptiveMaxPoolNd(2, x, options) as MaxPoolReturn<T, O>;
}

/**
 * Gradient of adaptiveMaxPool2d with respect to its input: zeros of
 * `inputShape`, then `gradOutput` added at the indices in output order (a
 * scatter-add; repeated windows add up).
 *
 * @param gradOutput - gradient of the pooled output
 * @param indices - the indices adaptiveMaxPool2d returned
 * @param options - inputShape (required), layout, out, resident
 * @returns the gradient of the input, shape `inputShape`, dtype of gradOutput
 */
export function adaptiveMaxPool2dBackward<T extends FloatArray,
                                          const O extends AdaptiveMaxPoolBackwardOptions>(
    gradOutput: FloatInput<T>, indices: IndexInput, options: OnlyKnown<O, AdaptiveMaxPoolBackwardOptions>): ResultFor<T, O> {
  return adaptiveMaxPoolBackwardNd(2, gradOutput, indices, options) as ResultFor<T, O>;
}

/**
 * 3d adaptive max pooling with argmax indices, as
 * `torch.nn.functional.adaptive_max_pool3d(x, output_size, return_indices=True)`.
 * Output `o` of a dim with input size `I` and output size `O` pools
 * `[floor(o*I/O), ceil((o+1)*I/O))` (`O > I` repeats windows). `x` is
 * (N, C, D, H, W) or (C, D, H, W), or channels-last with `layout: 'NDHWC'`. Indices, ties and NaN as maxPool3d.
 *
 * @param x - values: a Float32Array, Float64Array or Float16Array tensor, or a Uint16Array
 *   of float16 or bfloat16 bits with its dtype (results come back in its class)
 * @param options - outputSize (required: a number, or 3 entries; null keeps the
 *   input's size; 0 is rejected), indexType, layout, out, resident
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export function adaptiveMaxPool3d<T extends ValueArray, const O extends AdaptiveMaxPoolOptions>(
    x: FloatInput<T>, options: OnlyKnown<O, AdaptiveMaxPoolOptions>): MaxPoolReturn<T, O> {
  return adaptiveMaxPoolNd(3, x, options) as MaxPoolReturn<T, O>;
}

/**
 * Gradient of adaptiveMaxPool3d with respect to its input: zeros of
 * `inputShape`, then `gradOutput` added at the indices in output order (a
 * scatter-add; repeated windows add up).
 *
 * @param gradOutput - gradient of the pooled output
 * @param indices - the indices adaptiveMaxPool3d returned
 * @param options - inputShape (required), layout, out, resident
 * @returns the gradient of the input, shape `inputShape`, dtype of gradOutput
 */
export function adaptiveMaxPool3dBackward<T extends FloatArray,
                                          const O extends AdaptiveMaxPoolBackwardOptions>(
    gradOutput: FloatInput<T>, indices: IndexInput, options: OnlyKnown<O, AdaptiveMaxPoolBackwardOptions>): ResultFor<T, O> {
  return adaptiveMaxPoolBackwardNd(3, gradOutput, indices, options) as ResultFor<T, O>;
}

/**
 * 2d fractional max pooling with argmax indices, as
 * `torch.nn.functional.fractional_max_pool2d(x, kernel_size, output_size |
 * output_ratio, return_indices=True, _random_samples)`. `x` is (N, C, H, W) or (C, H, W)
 * (channels-first only). Windows `[seq[i], seq[i] + kernelSize)` per dim, as
 * PyTorch's generate_intervals in x's dtype; sample 0 drives W and 1 drives H. Each dim needs
 * `outputSize + kernelSize - 1 <= inputSize`.
 *
 * @param x - values, a Float32Array or Float64Array tensor (not 16-bit)
 * @param options - kernelSize (required), exactly one of outputSize and outputRatio,
 *   randomSamples ((N, C, 2), dtype of x, values in [0, 1]; omitted: drawn with
 *   Math.random, and the result is not reproducible), indexType, out, resident
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export function fractionalMaxPool2d<T extends FloatArray, const O extends FractionalMaxPoolOptions>(
    x: FloatInput<T>, options: OnlyKnown<O, FractionalMaxPoolOptions>): MaxPoolReturn<T, O> {
  return fractionalMaxPoolNd(2, x, options) as MaxPoolReturn<T, O>;
}

/**
 * Gradient of fractionalMaxPool2d with respect to its input: zeros of
 * `inputShape`, then `gradOutput` added at the indices (a scatter-add).
 *
 * @param gradOutput - gradient of the pooled output
 * @param indices - the indices fractionalMaxPool2d returned
 * @param options - inputShape (required), out, resident
 * @returns the gradient of the input, shape `inputShape`, dtype of gradOutput
 */
export function fractionalMaxPool2dBackward<T extends FloatArray,
                                            const O extends FractionalMaxPoolBackwardOptions>(
    gradOutput: FloatInput<T>, indices: IndexInput, options: OnlyKnown<O, FractionalMaxPoolBackwardOptions>): ResultFor<T, O> {
  return fractionalMaxPoolBackwardNd(2, gradOutput, indices, options) as ResultFor<T, O>;
}

/**
 * 3d fractional max pooling with argmax indices, as
 * `torch.nn.functional.fractional_max_pool3d(x, kernel_size, output_size |
 * output_ratio, return_indices=True, _random_samples)`. `x` is (N, C, D, H, W) or (C, D, H, W)
 * (channels-first only). Windows `[seq[i], seq[i] + kernelSize)` per dim, as
 * PyTorch's generate_intervals in x's dtype; sample 0 drives D, 1 H and 2 W. Each dim needs
 * `outputSize + kernelSize - 1 < inputSize` (strict, as PyTorch checks 3d).
 *
 * @param x - values, a Float32Array or Float64Array tensor (not 16-bit)
 * @param options - kernelSize (required), exactly one of outputSize and outputRatio,
 *   randomSamples ((N, C, 3), dtype of x, values in [0, 1]; omitted: drawn with
 *   Math.random, and the result is not reproducible), indexType, out, resident
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export function fractionalMaxPool3d<T extends FloatArray, const O extends FractionalMaxPoolOptions>(
    x: FloatInput<T>, options: OnlyKnown<O, FractionalMaxPoolOptions>): MaxPoolReturn<T, O> {
  return fractionalMaxPoolNd(3, x, options) as MaxPoolReturn<T, O>;
}

/**
 * Gradient of fractionalMaxPool3d with respect to its input: zeros of
 * `inputShape`, then `gradOutput` added at the indices (a scatter-add).
 *
 * @param gradOutput - gradient of the pooled output
 * @param indices - the indices fractionalMaxPool3d returned
 * @param options - inputShape (required), out, resident
 * @returns the gradient of the input, shape `inputShape`, dtype of gradOutput
 */
export function fractionalMaxPool3dBackward<T extends FloatArray,
                                            const O extends FractionalMaxPoolBackwardOptions>(
    gradOutput: FloatInput<T>, indices: IndexInput, options: OnlyKnown<O, FractionalMaxPoolBackwardOptions>): ResultFor<T, O> {
  return fractionalMaxPoolBackwardNd(3, gradOutput, indices, options) as ResultFor<T, O>;
}
