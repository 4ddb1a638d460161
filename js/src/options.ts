// The options of every op as the user gives them: the public option types.
// Parsing them (what only JavaScript can check) is parse.ts's; which op takes
// which is the op table's (optable.ts).
import type { FloatArray, IndexArray, ValueArray } from './dtypes.js';
import type { Layout } from './layout.js';
import type { FloatInput } from './resident.js';
import type { IndexType } from './tensor.js';

/** Pool geometry as the user gives it. */
export interface PoolGeometry {
  kernelSize?: number | readonly number[];
  stride?: number | readonly number[] | null;
  padding?: number | readonly number[];
  dilation?: number | readonly number[];
  ceilMode?: boolean;
  /** Channels-first ('NCHW', default) or channels-last ('NHWC'); 1d/3d likewise. */
  layout?: Layout;
}

/** Unpool geometry as the user gives it. */
export interface UnpoolGeometry {
  /**
   * Size of the window. Omitted (functions only): an unpool without kernel,
   * where `outputSize` (one entry per spatial dim) is the output's spatial
   * size and stride and padding are not given.
   */
  kernelSize?: number | readonly number[];
  stride?: number | readonly number[] | null;
  padding?: number | readonly number[];
  outputSize?: readonly number[] | null;
  /** Channels-first ('NCHW', default) or channels-last ('NHWC'); 1d/3d likewise. */
  layout?: Layout;
}

/** Where results go: fresh arrays (default), caller arrays, or module memory. */
export interface ResultOptions<O> {
  /**
   * Arrays to write the result into instead of fresh ones: of the result's
   * type and exactly its length (a subarray is fine). The result's `data` is
   * this array.
   */
  out?: O;
  /**
   * Keep the result in the module's memory as WasmTensor(s) (no copy out),
   * for chaining into the next op. Dispose them when done. Not with `out`.
   */
  resident?: boolean;
}

/**
 * `O` with every key that `T` does not declare typed `never`: a parameter
 * typed `OnlyKnown<O, T>` (O inferred from the argument) keeps the exact
 * type of the options for the result type, and still makes a misspelled
 * option a compile error, as the excess-property check does for a
 * parameter typed `T`.
 */
export type OnlyKnown<O, T> = O & { [K in Exclude<keyof O, keyof T>]: never };

/** Options of maxPool1d/2d/3d. */
export interface MaxPoolOptions extends PoolGeometry,
    ResultOptions<{ output?: ValueArray; indices?: IndexArray }> {
  /** Size of the window: a number for every spatial dim, or one per dim. */
  kernelSize: number | readonly number[];
  /** Index dtype of the result: 'int32' (Int32Array, default) or 'int64' (BigInt64Array). */
  indexType?: IndexType;
}

/** Options of maxPool1d/2d/3dBackward. */
export interface MaxPoolBackwardOptions extends PoolGeometry, ResultOptions<FloatArray> {
  /** Shape of the pooled input, which is also the shape of the result. */
  inputShape: readonly number[];
}

/** Options of maxUnpool1d/2d/3d. */
export interface MaxUnpoolOptions extends UnpoolGeometry, ResultOptions<ValueArray> {}

/** Options of maxUnpool1d/2d/3dBackward. */
export interface MaxUnpoolBackwardOptions extends ResultOptions<ValueArray> {
  /** Layout of gradOutput and indices: channels-first (default) or channels-last. */
  layout?: Layout;
}

/** Options of adaptiveMaxPool1d/2d/3d. */
export interface AdaptiveMaxPoolOptions
    extends ResultOptions<{ output?: ValueArray; indices?: IndexArray }> {
  /**
   * The output's spatial size: a number for every spatial dim, or one entry
   * per dim; an entry `null` keeps that dim's input size. Every entry >= 1
   * (PyTorch returns an empty tensor for 0; unpool throws).
   */
  outputSize: number | readonly (number | null)[];
  /** Index dtype of the result: 'int32' (Int32Array, default) or 'int64' (BigInt64Array). */
  indexType?: IndexType;
  /** Channels-first ('NCHW', default) or channels-last ('NHWC'); 1d/3d likewise. */
  layout?: Layout;
}

/** Options of adaptiveMaxPool1d/2d/3dBackward. */
export interface AdaptiveMaxPoolBackwardOptions extends ResultOptions<FloatArray> {
  /** Shape of the pooled input, which is also the shape of the result. */
  inputShape: readonly number[];
  /** Layout of the tensors: channels-first (default) or channels-last. */
  layout?: Layout;
}

/** Options of fractionalMaxPool2d/3d. */
export interface FractionalMaxPoolOptions
    extends ResultOptions<{ output?: FloatArray; indices?: IndexArray }> {
  /** Size of the window: a number for every spatial dim, or one per dim (each >= 1). */
  kernelSize: number | readonly number[];
  /** The output's spatial size (a number for every dim, or one per dim). Not with outputRatio. */
  outputSize?: number | readonly number[];
  /**
   * The output size as a fraction of the input's, in (0, 1): a number for
   * every dim, or one per dim; the size is `floor(in * ratio)`. Not with outputSize.
   */
  outputRatio?: number | readonly number[];
  /**
   * The samples that place the windows: shape (N, C, 2) in 2d and (N, C, 3)
   * in 3d (N = 1 for unbatched input), the dtype of `x`, values in [0, 1].
   * In 2d sample 0 drives W and 1 drives H; in 3d 0 drives D, 1 H, 2 W (as
   * PyTorch's `_random_samples`). Omitted: drawn with Math.random, so the
   * result is not reproducible.
   */
  randomSamples?: FloatInput<FloatArray>;
  /** Index dtype of the result: 'int32' (Int32Array, default) or 'int64' (BigInt64Array). */
  indexType?: IndexType;
}

/** Options of fractionalMaxPool2d/3dBackward. */
export interface FractionalMaxPoolBackwardOptions extends ResultOptions<FloatArray> {
  /** Shape of the pooled input, which is also the shape of the result. */
  inputShape: readonly number[];
}
