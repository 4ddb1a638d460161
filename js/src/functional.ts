// The public functions, one per op and number of spatial dims, as
// torch.nn.functional names them (camelCase). All need `await init()` first.
//
// Errors, thrown before anything runs and leaving nothing allocated:
// - TypeError: a tensor that is not `{ data, shape }`, a `data` of the wrong
//   array type, a size that is not a number, a bad `indexType` or `ceilMode`.
// - RangeError: a size or shape entry that is not an integer, a data length
//   that does not match the shape, shapes that do not match each other.
// - UnpoolError (a RangeError with a `code`): whatever the core rejects, e.g.
//   a kernel < 1, an index out of range or an outputSize outside its range.
import {
  maxPoolBackwardNd, MaxPoolBackwardOptions, maxPoolNd, MaxPoolOptions, MaxPoolResult,
  MaxUnpoolBackwardOptions, maxUnpoolBackwardNd, maxUnpoolNd, MaxUnpoolOptions, maxUnpoolOutputRangeNd, SizeRange,
} from './ops.js';
import type { FloatArray, IndexArray, Tensor, TensorLike } from './tensor.js';

/**
 * 1d max pooling with argmax indices, as `torch.nn.functional.max_pool1d(...,
 * return_indices=True)`. `x` is (N, C, L) or (C, L). Each index is the flat offset of the
 * maximum inside its (n, c) plane of the unpadded input. The first maximum
 * wins ties; NaN wins over numbers.
 *
 * @param x - values, a Float32Array or Float64Array tensor
 * @param options - kernelSize (required), stride (default kernelSize), padding (0),
 *   dilation (1), ceilMode (false), indexType ('int32' or 'int64')
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export function maxPool1d<T extends FloatArray>(
    x: TensorLike<T>, options: MaxPoolOptions & { indexType: 'int64' }): MaxPoolResult<T, BigInt64Array>;
export function maxPool1d<T extends FloatArray>(
    x: TensorLike<T>, options: MaxPoolOptions & { indexType?: 'int32' }): MaxPoolResult<T, Int32Array>;
export function maxPool1d<T extends FloatArray>(
    x: TensorLike<T>, options: MaxPoolOptions): MaxPoolResult<T, IndexArray>;
export function maxPool1d(x: TensorLike<FloatArray>, options: MaxPoolOptions): MaxPoolResult {
  return maxPoolNd(1, x, options);
}

/**
 * 1d max unpooling, as `torch.nn.functional.max_unpool1d`: zeros, then each
 * value of `x` written at its index in its (n, c) plane of the output (the
 * later of duplicate indices wins).
 *
 * @param x - values (N, C, L) or (C, L)
 * @param indices - Int32Array or BigInt64Array tensor of the shape of `x`
 * @param options - kernelSize (required), stride (default kernelSize), padding (0),
 *   outputSize: 1 spatial sizes, optionally preceded by N and C (3 entries,
 *   ignored as in PyTorch) or, for unbatched input, by C (2 entries)
 * @returns the unpooled tensor, dtype of x
 */
export function maxUnpool1d<T extends FloatArray>(
    x: TensorLike<T>, indices: TensorLike<IndexArray>, options: MaxUnpoolOptions): Tensor<T> {
  return maxUnpoolNd(1, x, indices, options) as Tensor<T>;
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
export function maxPool1dBackward<T extends FloatArray>(
    gradOutput: TensorLike<T>, indices: TensorLike<IndexArray>,
    options: MaxPoolBackwardOptions): Tensor<T> {
  return maxPoolBackwardNd(1, gradOutput, indices, options) as Tensor<T>;
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
export function maxUnpool1dBackward<T extends FloatArray>(
    gradOutput: TensorLike<T>, indices: TensorLike<IndexArray>,
    options?: MaxUnpoolBackwardOptions): Tensor<T> {
  return maxUnpoolBackwardNd(1, gradOutput, indices, options) as Tensor<T>;
}

/**
 * 2d max pooling with argmax indices, as `torch.nn.functional.max_pool2d(...,
 * return_indices=True)`. `x` is (N, C, H, W) or (C, H, W). Each index is the flat offset of the
 * maximum inside its (n, c) plane of the unpadded input. The first maximum
 * wins ties; NaN wins over numbers.
 *
 * @param x - values, a Float32Array or Float64Array tensor
 * @param options - kernelSize (required), stride (default kernelSize), padding (0),
 *   dilation (1), ceilMode (false), indexType ('int32' or 'int64')
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export function maxPool2d<T extends FloatArray>(
    x: TensorLike<T>, options: MaxPoolOptions & { indexType: 'int64' }): MaxPoolResult<T, BigInt64Array>;
export function maxPool2d<T extends FloatArray>(
    x: TensorLike<T>, options: MaxPoolOptions & { indexType?: 'int32' }): MaxPoolResult<T, Int32Array>;
export function maxPool2d<T extends FloatArray>(
    x: TensorLike<T>, options: MaxPoolOptions): MaxPoolResult<T, IndexArray>;
export function maxPool2d(x: TensorLike<FloatArray>, options: MaxPoolOptions): MaxPoolResult {
  return maxPoolNd(2, x, options);
}

/**
 * 2d max unpooling, as `torch.nn.functional.max_unpool2d`: zeros, then each
 * value of `x` written at its index in its (n, c) plane of the output (the
 * later of duplicate indices wins).
 *
 * @param x - values (N, C, H, W) or (C, H, W)
 * @param indices - Int32Array or BigInt64Array tensor of the shape of `x`
 * @param options - kernelSize (required), stride (default kernelSize), padding (0),
 *   outputSize: 2 spatial sizes, optionally preceded by N and C (4 entries,
 *   ignored as in PyTorch) or, for unbatched input, by C (3 entries)
 * @returns the unpooled tensor, dtype of x
 */
export function maxUnpool2d<T extends FloatArray>(
    x: TensorLike<T>, indices: TensorLike<IndexArray>, options: MaxUnpoolOptions): Tensor<T> {
  return maxUnpoolNd(2, x, indices, options) as Tensor<T>;
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
export function maxPool2dBackward<T extends FloatArray>(
    gradOutput: TensorLike<T>, indices: TensorLike<IndexArray>,
    options: MaxPoolBackwardOptions): Tensor<T> {
  return maxPoolBackwardNd(2, gradOutput, indices, options) as Tensor<T>;
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
export function maxUnpool2dBackward<T extends FloatArray>(
    gradOutput: TensorLike<T>, indices: TensorLike<IndexArray>,
    options?: MaxUnpoolBackwardOptions): Tensor<T> {
  return maxUnpoolBackwardNd(2, gradOutput, indices, options) as Tensor<T>;
}

/**
 * 3d max pooling with argmax indices, as `torch.nn.functional.max_pool3d(...,
 * return_indices=True)`. `x` is (N, C, D, H, W) or (C, D, H, W). Each index is the flat offset of the
 * maximum inside its (n, c) plane of the unpadded input. The first maximum
 * wins ties; NaN wins over numbers.
 *
 * @param x - values, a Float32Array or Float64Array tensor
 * @param options - kernelSize (required), stride (default kernelSize), padding (0),
 *   dilation (1), ceilMode (false), indexType ('int32' or 'int64')
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export function maxPool3d<T extends FloatArray>(
    x: TensorLike<T>, options: MaxPoolOptions & { indexType: 'int64' }): MaxPoolResult<T, BigInt64Array>;
export function maxPool3d<T extends FloatArray>(
    x: TensorLike<T>, options: MaxPoolOptions & { indexType?: 'int32' }): MaxPoolResult<T, Int32Array>;
export function maxPool3d<T extends FloatArray>(
    x: TensorLike<T>, options: MaxPoolOptions): MaxPoolResult<T, IndexArray>;
export function maxPool3d(x: TensorLike<FloatArray>, options: MaxPoolOptions): MaxPoolResult {
  return maxPoolNd(3, x, options);
}

/**
 * 3d max unpooling, as `torch.nn.functional.max_unpool3d`: zeros, then each
 * value of `x` written at its index in its (n, c) plane of the output (the
 * later of duplicate indices wins).
 *
 * @param x - values (N, C, D, H, W) or (C, D, H, W)
 * @param indices - Int32Array or BigInt64Array tensor of the shape of `x`
 * @param options - kernelSize (required), stride (default kernelSize), padding (0),
 *   outputSize: 3 spatial sizes, optionally preceded by N and C (5 entries,
 *   ignored as in PyTorch) or, for unbatched input, by C (4 entries)
 * @returns the unpooled tensor, dtype of x
 */
export function maxUnpool3d<T extends FloatArray>(
    x: TensorLike<T>, indices: TensorLike<IndexArray>, options: MaxUnpoolOptions): Tensor<T> {
  return maxUnpoolNd(3, x, indices, options) as Tensor<T>;
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
export function maxPool3dBackward<T extends FloatArray>(
    gradOutput: TensorLike<T>, indices: TensorLike<IndexArray>,
    options: MaxPoolBackwardOptions): Tensor<T> {
  return maxPoolBackwardNd(3, gradOutput, indices, options) as Tensor<T>;
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
export function maxUnpool3dBackward<T extends FloatArray>(
    gradOutput: TensorLike<T>, indices: TensorLike<IndexArray>,
    options?: MaxUnpoolBackwardOptions): Tensor<T> {
  return maxUnpoolBackwardNd(3, gradOutput, indices, options) as Tensor<T>;
}

/**
 * The valid `outputSize` of maxUnpool1d for an input of shape `inputShape`:
 * one inclusive `{ min, max }` per spatial dim (`default - stride < size <
 * default + stride`, and >= 1). `outputSize` in the options is ignored.
 */
export function maxUnpool1dOutputRange(inputShape: readonly number[],
                                      options: MaxUnpoolOptions): SizeRange[] {
  return maxUnpoolOutputRangeNd(1, inputShape, options);
}

/**
 * The valid `outputSize` of maxUnpool2d for an input of shape `inputShape`:
 * one inclusive `{ min, max }` per spatial dim (`default - stride < size <
 * default + stride`, and >= 1). `outputSize` in the options is ignored.
 */
export function maxUnpool2dOutputRange(inputShape: readonly number[],
                                      options: MaxUnpoolOptions): SizeRange[] {
  return maxUnpoolOutputRangeNd(2, inputShape, options);
}

/**
 * The valid `outputSize` of maxUnpool3d for an input of shape `inputShape`:
 * one inclusive `{ min, max }` per spatial dim (`default - stride < size <
 * default + stride`, and >= 1). `outputSize` in the options is ignored.
 */
export function maxUnpool3dOutputRange(inputShape: readonly number[],
                                      options: MaxUnpoolOptions): SizeRange[] {
  return maxUnpoolOutputRangeNd(3, inputShape, options);
}
