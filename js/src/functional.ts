// The public functions, one per op and number of spatial dims, as
// torch.nn.functional names them (camelCase). All need `await init()` first.
//
// Errors, thrown before anything runs and leaving nothing allocated, all
// with a `code` (isUnpoolError tells them):
// - UnpoolTypeError (a TypeError): a tensor that is not `{ data, shape }`, a
//   `data` of the wrong array type, a size that is not a number, a bad
//   `indexType` or `ceilMode` ('invalid_type'); an unknown option key
//   ('unknown_option').
// - UnpoolError (a RangeError): a size or shape entry that is not an
//   integer, a data length that does not match the shape, shapes that do
//   not match each other, and whatever the core rejects, e.g. a kernel < 1,
//   an index out of range or an outputSize outside its range.
import {
  maxPoolBackwardNd, MaxPoolBackwardOptions, maxPoolNd, MaxPoolOptions, MaxPoolReturn,
  MaxUnpoolBackwardOptions, maxUnpoolBackwardNd, maxUnpoolNd, MaxUnpoolOptions, maxUnpoolOutputRangeNd,
  ResultFor, SizeRange,
} from './ops.js';
import type { OnlyKnown } from './options.js';
import type { FloatInput, IndexInput } from './resident.js';
import type { FloatArray, ValueArray } from './tensor.js';

export type { IndexArrayOf, MaxPoolReturn, ResultFor } from './ops.js';

/** Options of maxUnpool1d/2d/3dOutputRange: the unpool's geometry (outputSize is ignored). */
export type MaxUnpoolRangeOptions = Omit<MaxUnpoolOptions, 'out' | 'resident'>;

/**
 * 1d max pooling with argmax indices, as `torch.nn.functional.max_pool1d(...,
 * return_indices=True)`. `x` is (N, C, L) or (C, L), or (N, L, C) with `layout: 'NLC'`. Each index is the flat offset of the
 * maximum inside its (n, c) plane of the unpadded input. The first maximum
 * wins ties; NaN wins over numbers.
 *
 * @param x - values: a Float32Array, Float64Array or Float16Array tensor, or a Uint16Array
 *   of float16 or bfloat16 bits with its dtype (results come back in its class)
 * @param options - kernelSize (required), stride (default kernelSize), padding (0),
 *   dilation (1), ceilMode (false), indexType ('int32' or 'int64'), layout (channels-first)
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export function maxPool1d<T extends ValueArray, const O extends MaxPoolOptions>(
    x: FloatInput<T>, options: OnlyKnown<O, MaxPoolOptions>): MaxPoolReturn<T, O> {
  return maxPoolNd(1, x, options) as MaxPoolReturn<T, O>;
}

/**
 * 1d max unpooling, as `torch.nn.functional.max_unpool1d`: zeros, then each
 * value of `x` written at its index in its (n, c) plane of the output (the
 * later of duplicate indices wins).
 *
 * @param x - values (N, C, L) or (C, L); channels-last with `layout: 'NLC'`
 * @param indices - Int32Array or BigInt64Array tensor of the shape of `x`
 * @param options - kernelSize, stride (default kernelSize), padding (0),
 *   outputSize: 1 spatial sizes, optionally preceded by N and C (3 entries,
 *   ignored as in PyTorch) or, for unbatched input, by C (2 entries).
 *   Without kernelSize (PyTorch's kernel-free form), outputSize is required with
 *   exactly 1 entries, the output's spatial size; no stride, padding 0
 * @returns the unpooled tensor, dtype of x
 */
export function maxUnpool1d<T extends ValueArray, const O extends MaxUnpoolOptions>(
    x: FloatInput<T>, indices: IndexInput, options: OnlyKnown<O, MaxUnpoolOptions>): ResultFor<T, O> {
  return maxUnpoolNd(1, x, indices, options) as ResultFor<T, O>;
}

/**
 * Gradient of maxPool1d with respect to its input: zeros of `inputShape`,
 * then `gradOutput` added at the indices (a scatter-add). Give the pool's
 * geometry (kernelSize, ...) to have shapes checked against it and windows
 * lying wholly in padding skipped; without it every index must be in range.
 *
 * @param gradOutput - gradient of the pooled output
 * @param indices - the indices maxPool1d returned
 * @param options - inputShape (required), and optionally the pool's geometry
 * @returns the gradient of the input, shape `inputShape`, dtype of gradOutput
 */
export function maxPool1dBackward<T extends FloatArray,
                                  const O extends MaxPoolBackwardOptions>(
    gradOutput: FloatInput<T>, indices: IndexInput, options: OnlyKnown<O, MaxPoolBackwardOptions>): ResultFor<T, O> {
  return maxPoolBackwardNd(1, gradOutput, indices, options) as ResultFor<T, O>;
}

/**
 * Gradient of maxUnpool1d with respect to its input values: a gather,
 * `gradInput[i] = gradOutput[plane][indices[i]]`.
 *
 * @param gradOutput - gradient of the unpooled output
 * @param indices - the indices given to maxUnpool1d
 * @param options - layout of both tensors (default channels-first)
 * @returns the gradient of the unpool's `x`: shape of `indices`, dtype of gradOutput
 */
export function maxUnpool1dBackward<T extends ValueArray,
                                    const O extends MaxUnpoolBackwardOptions = {}>(
    gradOutput: FloatInput<T>, indices: IndexInput, options?: OnlyKnown<O, MaxUnpoolBackwardOptions>): ResultFor<T, O> {
  return maxUnpoolBackwardNd(1, gradOutput, indices, options) as ResultFor<T, O>;
}

/**
 * 2d max pooling with argmax indices, as `torch.nn.functional.max_pool2d(...,
 * return_indices=True)`. `x` is (N, C, H, W) or (C, H, W), or (N, H, W, C) with `layout: 'NHWC'`. Each index is the flat offset of the
 * maximum inside its (n, c) plane of the unpadded input. The first maximum
 * wins ties; NaN wins over numbers.
 *
 * @param x - values: a Float32Array, Float64Array or Float16Array tensor, or a Uint16Array
 *   of float16 or bfloat16 bits with its dtype (results come back in its class)
 * @param options - kernelSize (required), stride (default kernelSize), padding (0),
 *   dilation (1), ceilMode (false), indexType ('int32' or 'int64'), layout (channels-first)
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export function maxPool2d<T extends ValueArray, const O extends MaxPoolOptions>(
    x: FloatInput<T>, options: OnlyKnown<O, MaxPoolOptions>): MaxPoolReturn<T, O> {
  return maxPoolNd(2, x, options) as MaxPoolReturn<T, O>;
}

/**
 * 2d max unpooling, as `torch.nn.functional.max_unpool2d`: zeros, then each
 * value of `x` written at its index in its (n, c) plane of the output (the
 * later of duplicate indices wins).
 *
 * @param x - values (N, C, H, W) or (C, H, W); channels-last with `layout: 'NHWC'`
 * @param indices - Int32Array or BigInt64Array tensor of the shape of `x`
 * @param options - kernelSize, stride (default kernelSize), padding (0),
 *   outputSize: 2 spatial sizes, optionally preceded by N and C (4 entries,
 *   ignored as in PyTorch) or, for unbatched input, by C (3 entries).
 *   Without kernelSize (PyTorch's kernel-free form), outputSize is required with
 *   exactly 2 entries, the output's spatial size; no stride, padding 0
 * @returns the unpooled tensor, dtype of x
 */
export function maxUnpool2d<T extends ValueArray, const O extends MaxUnpoolOptions>(
    x: FloatInput<T>, indices: IndexInput, options: OnlyKnown<O, MaxUnpoolOptions>): ResultFor<T, O> {
  return maxUnpoolNd(2, x, indices, options) as ResultFor<T, O>;
}

/**
 * Gradient of maxPool2d with respect to its input: zeros of `inputShape`,
 * then `gradOutput` added at the indices (a scatter-add). Give the pool's
 * geometry (kernelSize, ...) to have shapes checked against it and windows
 * lying wholly in padding skipped; without it every index must be in range.
 *
 * @param gradOutput - gradient of the pooled output
 * @param indices - the indices maxPool2d returned
 * @param options - inputShape (required), and optionally the pool's geometry
 * @returns the gradient of the input, shape `inputShape`, dtype of gradOutput
 */
export function maxPool2dBackward<T extends FloatArray,
                                  const O extends MaxPoolBackwardOptions>(
    gradOutput: FloatInput<T>, indices: IndexInput, options: OnlyKnown<O, MaxPoolBackwardOptions>): ResultFor<T, O> {
  return maxPoolBackwardNd(2, gradOutput, indices, options) as ResultFor<T, O>;
}

/**
 * Gradient of maxUnpool2d with respect to its input values: a gather,
 * `gradInput[i] = gradOutput[plane][indices[i]]`.
 *
 * @param gradOutput - gradient of the unpooled output
 * @param indices - the indices given to maxUnpool2d
 * @param options - layout of both tensors (default channels-first)
 * @returns the gradient of the unpool's `x`: shape of `indices`, dtype of gradOutput
 */
export function maxUnpool2dBackward<T extends ValueArray,
                                    const O extends MaxUnpoolBackwardOptions = {}>(
    gradOutput: FloatInput<T>, indices: IndexInput, options?: OnlyKnown<O, MaxUnpoolBackwardOptions>): ResultFor<T, O> {
  return maxUnpoolBackwardNd(2, gradOutput, indices, options) as ResultFor<T, O>;
}

/**
 * 3d max pooling with argmax indices, as `torch.nn.functional.max_pool3d(...,
 * return_indices=True)`. `x` is (N, C, D, H, W) or (C, D, H, W), or (N, D, H, W, C) with `layout: 'NDHWC'`. Each index is the flat offset of the
 * maximum inside its (n, c) plane of the unpadded input. The first maximum
 * wins ties; NaN wins over numbers.
 *
 * @param x - values: a Float32Array, Float64Array or Float16Array tensor, or a Uint16Array
 *   of float16 or bfloat16 bits with its dtype (results come back in its class)
 * @param options - kernelSize (required), stride (default kernelSize), padding (0),
 *   dilation (1), ceilMode (false), indexType ('int32' or 'int64'), layout (channels-first)
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export function maxPool3d<T extends ValueArray, const O extends MaxPoolOptions>(
    x: FloatInput<T>, options: OnlyKnown<O, MaxPoolOptions>): MaxPoolReturn<T, O> {
  return maxPoolNd(3, x, options) as MaxPoolReturn<T, O>;
}

/**
 * 3d max unpooling, as `torch.nn.functional.max_unpool3d`: zeros, then each
 * value of `x` written at its index in its (n, c) plane of the output (the
 * later of duplicate indices wins).
 *
 * @param x - values (N, C, D, H, W) or (C, D, H, W); channels-last with `layout: 'NDHWC'`
 * @param indices - Int32Array or BigInt64Array tensor of the shape of `x`
 * @param options - kernelSize, stride (default kernelSize), padding (0),
 *   outputSize: 3 spatial sizes, optionally preceded by N and C (5 entries,
 *   ignored as in PyTorch) or, for unbatched input, by C (4 entries).
 *   Without kernelSize (PyTorch's kernel-free form), outputSize is required with
 *   exactly 3 entries, the output's spatial size; no stride, padding 0
 * @returns the unpooled tensor, dtype of x
 */
export function maxUnpool3d<T extends ValueArray, const O extends MaxUnpoolOptions>(
    x: FloatInput<T>, indices: IndexInput, options: OnlyKnown<O, MaxUnpoolOptions>): ResultFor<T, O> {
  return maxUnpoolNd(3, x, indices, options) as ResultFor<T, O>;
}

/**
 * Gradient of maxPool3d with respect to its input: zeros of `inputShape`,
 * then `gradOutput` added at the indices (a scatter-add). Give the pool's
 * geometry (kernelSize, ...) to have shapes checked against it and windows
 * lying wholly in padding skipped; without it every index must be in range.
 *
 * @param gradOutput - gradient of the pooled output
 * @param indices - the indices maxPool3d returned
 * @param options - inputShape (required), and optionally the pool's geometry
 * @returns the gradient of the input, shape `inputShape`, dtype of gradOutput
 */
export function maxPool3dBackward<T extends FloatArray,
                                  const O extends MaxPoolBackwardOptions>(
    gradOutput: FloatInput<T>, indices: IndexInput, options: OnlyKnown<O, MaxPoolBackwardOptions>): ResultFor<T, O> {
  return maxPoolBackwardNd(3, gradOutput, indices, options) as ResultFor<T, O>;
}

/**
 * Gradient of maxUnpool3d with respect to its input values: a gather,
 * `gradInput[i] = gradOutput[plane][indices[i]]`.
 *
 * @param gradOutput - gradient of the unpooled output
 * @param indices - the indices given to maxUnpool3d
 * @param options - layout of both tensors (default channels-first)
 * @returns the gradient of the unpool's `x`: shape of `indices`, dtype of gradOutput
 */
export function maxUnpool3dBackward<T extends ValueArray,
                                    const O extends MaxUnpoolBackwardOptions = {}>(
    gradOutput: FloatInput<T>, indices: IndexInput, options?: OnlyKnown<O, MaxUnpoolBackwardOptions>): ResultFor<T, O> {
  return maxUnpoolBackwardNd(3, gradOutput, indices, options) as ResultFor<T, O>;
}

/**
 * The valid `outputSize` of maxUnpool1d for an input of shape `inputShape`:
 * one inclusive `{ min, max }` per spatial dim (`default - stride < size <
 * default + stride`, and >= 1). `outputSize` in the options is ignored.
 */
export function maxUnpool1dOutputRange(inputShape: readonly number[],
                                      options: MaxUnpoolRangeOptions): SizeRange[] {
  return maxUnpoolOutputRangeNd(1, inputShape, options);
}

/**
 * The valid `outputSize` of maxUnpool2d for an input of shape `inputShape`:
 * one inclusive `{ min, max }` per spatial dim (`default - stride < size <
 * default + stride`, and >= 1). `outputSize` in the options is ignored.
 */
export function maxUnpool2dOutputRange(inputShape: readonly number[],
                                      options: MaxUnpoolRangeOptions): SizeRange[] {
  return maxUnpoolOutputRangeNd(2, inputShape, options);
}

/**
 * The valid `outputSize` of maxUnpool3d for an input of shape `inputShape`:
 * one inclusive `{ min, max }` per spatial dim (`default - stride < size <
 * default + stride`, and >= 1). `outputSize` in the options is ignored.
 */
export function maxUnpool3dOutputRange(inputShape: readonly number[],
                                      options: MaxUnpoolRangeOptions): SizeRange[] {
  return maxUnpoolOutputRangeNd(3, inputShape, options);
}
