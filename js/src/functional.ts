// The public functions, one per op and number of spatial dims, as
// torch.nn.functional names them (camelCase), made from the op table by
// bindFunctions() over a backend; their types come from the same table. All
// need `await init()` first.
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
import type { Backend } from './call.js';
import { wasmBackend } from './engine.js';
import { invoke, outputRange, Returned, SizeRange } from './invoke.js';
import { wasm } from './loader.js';
import { opName, OPS } from './optable.js';
import type {
  AdaptiveMaxPoolBackwardOptions, AdaptiveMaxPoolOptions, FractionalMaxPoolBackwardOptions,
  FractionalMaxPoolOptions, MaxPoolBackwardOptions, MaxPoolOptions, MaxUnpoolBackwardOptions,
  MaxUnpoolOptions, OnlyKnown,
} from './options.js';
import type { FloatInput, IndexInput, WasmTensor } from './resident.js';
import { runtimeOf } from './runtime.js';
import type { FloatArray, IndexArray, TensorResult, ValueArray } from './tensor.js';

export type { SizeRange } from './invoke.js';

/** The result of max pooling. */
export interface MaxPoolResult<T extends ValueArray = ValueArray, I extends IndexArray = IndexArray> {
  output: TensorResult<T>;
  indices: TensorResult<I>;
}

/** The result of max pooling with `resident: true`. */
export interface ResidentMaxPoolResult<T extends ValueArray = ValueArray,
                                       I extends IndexArray = IndexArray> {
  output: WasmTensor<T>;
  indices: WasmTensor<I>;
}

/** The type of option `K` in `O` (undefined when `O` has no such key). */
export type OptionOf<O, K extends string> = K extends keyof O ? O[K] : undefined;

/** The index array type `indexType` selects (Int32Array by default). */
export type IndexArrayOf<O> =
    [OptionOf<O, 'indexType'>] extends ['int64'] ? BigInt64Array :
    [OptionOf<O, 'indexType'>] extends ['int32' | undefined] ? Int32Array : IndexArray;

/**
 * What a pool returns for options `O`: resident tensors with `resident:
 * true`, copies without (either, when `resident` is only known as a boolean).
 */
export type MaxPoolReturn<T extends ValueArray, O> =
    [OptionOf<O, 'resident'>] extends [true] ? ResidentMaxPoolResult<T, IndexArrayOf<O>> :
    [OptionOf<O, 'resident'>] extends [false | undefined] ? MaxPoolResult<T, IndexArrayOf<O>> :
    MaxPoolResult<T, IndexArrayOf<O>> | ResidentMaxPoolResult<T, IndexArrayOf<O>>;

/** What the other ops return for options `O`: a WasmTensor with `resident: true`. */
export type ResultFor<T extends ValueArray, O> =
    [OptionOf<O, 'resident'>] extends [true] ? WasmTensor<T> :
    [OptionOf<O, 'resident'>] extends [false | undefined] ? TensorResult<T> : TensorResult<T> | WasmTensor<T>;

/** A pool: values of class `V`, options `Opts`. */
type PoolFn<V extends ValueArray, Opts> = <T extends V, const O extends Opts>(
    x: FloatInput<T>, options: OnlyKnown<O, Opts>) => MaxPoolReturn<T, O>;
/** An op of values and indices. */
type OfIndicesFn<V extends ValueArray, Opts> = <T extends V, const O extends Opts>(
    x: FloatInput<T>, indices: IndexInput, options: OnlyKnown<O, Opts>) => ResultFor<T, O>;
/** maxUnpoolBackward's: options may be left out. */
type UnpoolBackwardFn = <T extends ValueArray, const O extends MaxUnpoolBackwardOptions = {}>(
    x: FloatInput<T>, indices: IndexInput, options?: OnlyKnown<O, MaxUnpoolBackwardOptions>) => ResultFor<T, O>;

/** The signature of each op of the table. */
interface Signatures {
  maxPool: PoolFn<ValueArray, MaxPoolOptions>;
  maxUnpool: OfIndicesFn<ValueArray, MaxUnpoolOptions>;
  maxPoolBackward: OfIndicesFn<FloatArray, MaxPoolBackwardOptions>;
  maxUnpoolBackward: UnpoolBackwardFn;
  adaptiveMaxPool: PoolFn<ValueArray, AdaptiveMaxPoolOptions>;
  adaptiveMaxPoolBackward: OfIndicesFn<FloatArray, AdaptiveMaxPoolBackwardOptions>;
  fractionalMaxPool: PoolFn<FloatArray, FractionalMaxPoolOptions>;
  fractionalMaxPoolBackward: OfIndicesFn<FloatArray, FractionalMaxPoolBackwardOptions>;
}

type Spec<K extends keyof typeof OPS> = typeof OPS[K];

/** Every function of the table, by name (maxPool1d, ..., fractionalMaxPool3dBackward). */
export type Functions = {
  readonly [K in keyof Signatures as `${Spec<K>['stem']}${Spec<K>['dims'][number]}d${Spec<K>['suffix']}`]:
    Signatures[K];
};

/** The functions of every op and dims over backend `b`, by name. */
export function bindFunctions<R>(b: Backend<R>): Record<string, (...args: unknown[]) => Returned<R>> {
  const fns: Record<string, (...args: unknown[]) => Returned<R>> = {};
  for (const spec of Object.values(OPS)) {
    for (const d of spec.dims) {
      const fn = opName(spec, d);
      const f = spec.tensors.length === 1
        ? (x: unknown, options?: unknown) => invoke(b, spec, d, fn, x, undefined, options)
        : (x: unknown, indices: unknown, options?: unknown) => invoke(b, spec, d, fn, x, indices, options);
      // Named as exported: stack traces and the console show maxPool2d.
      fns[fn] = Object.defineProperty(f, 'name', { value: fn });
    }
  }
  return fns;
}

// The API's one seam between the generic call and the typed signatures.
const F = Object.freeze(bindFunctions(wasmBackend)) as unknown as Functions;

/**
 * 2d max pooling with argmax indices, as `torch.nn.functional.max_pool2d(...,
 * return_indices=True)`. `x` is (N, C, H, W) or (C, H, W), or (N, H, W, C)
 * with `layout: 'NHWC'`. Each index is the flat offset of the maximum inside
 * its (n, c) plane of the unpadded input. The first maximum wins ties; NaN
 * wins over numbers.
 *
 * @param x - values: a typed array of any value dtype, or a Uint16Array of
 *   float16 or bfloat16 bits with its dtype (results come back in its class)
 * @param options - kernelSize (required), stride (default kernelSize), padding (0),
 *   dilation (1), ceilMode (false), indexType ('int32' or 'int64'), layout, out, resident
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export const maxPool2d = F.maxPool2d;
/** 1d max pooling with argmax indices: maxPool2d's rules, x (N, C, L) or (C, L) ('NLC': channels-last). */
export const maxPool1d = F.maxPool1d;
/** 3d max pooling with argmax indices: maxPool2d's rules, x (N, C, D, H, W) or (C, D, H, W) ('NDHWC'). */
export const maxPool3d = F.maxPool3d;

/**
 * 2d max unpooling, as `torch.nn.functional.max_unpool2d`: zeros, then each
 * value of `x` written at its index in its (n, c) plane of the output (the
 * later of duplicate indices wins).
 *
 * @param x - values (N, C, H, W) or (C, H, W); channels-last with `layout: 'NHWC'`
 * @param indices - Int32Array or BigInt64Array tensor of the shape of `x`
 * @param options - kernelSize, stride (default kernelSize), padding (0),
 *   outputSize: 2 spatial sizes, optionally preceded by N and C (ignored, as in
 *   PyTorch). Without kernelSize (PyTorch's kernel-free form) outputSize is
 *   required, exactly the output's spatial size; no stride, padding 0
 * @returns the unpooled tensor, dtype of x
 */
export const maxUnpool2d = F.maxUnpool2d;
/** 1d max unpooling: maxUnpool2d's rules with one spatial dim (outputSize: 1 spatial size). */
export const maxUnpool1d = F.maxUnpool1d;
/** 3d max unpooling: maxUnpool2d's rules with three spatial dims (outputSize: 3 spatial sizes). */
export const maxUnpool3d = F.maxUnpool3d;

/**
 * Gradient of maxPool2d with respect to its input: zeros of `inputShape`,
 * then `gradOutput` added at the indices (a scatter-add). Give the pool's
 * geometry (kernelSize, ...) to have shapes checked against it and windows
 * lying wholly in padding skipped; without it every index must be in range.
 *
 * @param gradOutput - gradient of the pooled output (a float dtype)
 * @param indices - the indices maxPool2d returned
 * @param options - inputShape (required), and optionally the pool's geometry
 * @returns the gradient of the input, shape `inputShape`, dtype of gradOutput
 */
export const maxPool2dBackward = F.maxPool2dBackward;
/** Gradient of maxPool1d: maxPool2dBackward's rules with one spatial dim. */
export const maxPool1dBackward = F.maxPool1dBackward;
/** Gradient of maxPool3d: maxPool2dBackward's rules with three spatial dims. */
export const maxPool3dBackward = F.maxPool3dBackward;

/**
 * Gradient of maxUnpool2d with respect to its input values: a gather,
 * `gradInput[i] = gradOutput[plane][indices[i]]`.
 *
 * @param gradOutput - gradient of the unpooled output
 * @param indices - the indices given to maxUnpool2d
 * @param options - layout of both tensors (default channels-first), out, resident
 * @returns the gradient of the unpool's `x`: shape of `indices`, dtype of gradOutput
 */
export const maxUnpool2dBackward = F.maxUnpool2dBackward;
/** Gradient of maxUnpool1d: maxUnpool2dBackward's rules with one spatial dim. */
export const maxUnpool1dBackward = F.maxUnpool1dBackward;
/** Gradient of maxUnpool3d: maxUnpool2dBackward's rules with three spatial dims. */
export const maxUnpool3dBackward = F.maxUnpool3dBackward;

/**
 * 2d adaptive max pooling with argmax indices, as
 * `torch.nn.functional.adaptive_max_pool2d(x, output_size, return_indices=True)`.
 * Output `o` of a dim with input size `I` and output size `O` pools
 * `[floor(o*I/O), ceil((o+1)*I/O))` (`O > I` repeats windows). `x` is
 * (N, C, H, W) or (C, H, W), or channels-last with `layout: 'NHWC'`.
 * Indices, ties and NaN as maxPool2d.
 *
 * @param x - values of any value dtype (results come back in its class)
 * @param options - outputSize (required: a number, or 2 entries; null keeps the
 *   input's size; 0 is rejected), indexType, layout, out, resident
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export const adaptiveMaxPool2d = F.adaptiveMaxPool2d;
/** 1d adaptive max pooling: adaptiveMaxPool2d's rules, x (N, C, L) or (C, L) ('NLC'). */
export const adaptiveMaxPool1d = F.adaptiveMaxPool1d;
/** 3d adaptive max pooling: adaptiveMaxPool2d's rules, x (N, C, D, H, W) or (C, D, H, W) ('NDHWC'). */
export const adaptiveMaxPool3d = F.adaptiveMaxPool3d;

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
export const adaptiveMaxPool2dBackward = F.adaptiveMaxPool2dBackward;
/** Gradient of adaptiveMaxPool1d: adaptiveMaxPool2dBackward's rules with one spatial dim. */
export const adaptiveMaxPool1dBackward = F.adaptiveMaxPool1dBackward;
/** Gradient of adaptiveMaxPool3d: adaptiveMaxPool2dBackward's rules with three spatial dims. */
export const adaptiveMaxPool3dBackward = F.adaptiveMaxPool3dBackward;

/**
 * 2d fractional max pooling with argmax indices, as
 * `torch.nn.functional.fractional_max_pool2d(x, kernel_size, output_size |
 * output_ratio, return_indices=True, _random_samples)`. `x` is (N, C, H, W) or
 * (C, H, W) (channels-first only). Windows `[seq[i], seq[i] + kernelSize)` per
 * dim, as PyTorch's generate_intervals in x's dtype; sample 0 drives W and 1
 * drives H. Each dim needs `outputSize + kernelSize - 1 <= inputSize`.
 *
 * @param x - values, a Float32Array or Float64Array tensor (not 16-bit)
 * @param options - kernelSize (required), exactly one of outputSize and outputRatio,
 *   randomSamples ((N, C, 2), dtype of x, values in [0, 1]; omitted: drawn with
 *   Math.random, and the result is not reproducible), indexType, out, resident
 * @returns output values (dtype of x) and indices, both of the pooled shape
 */
export const fractionalMaxPool2d = F.fractionalMaxPool2d;
/**
 * 3d fractional max pooling: fractionalMaxPool2d's rules, x (N, C, D, H, W) or
 * (C, D, H, W), randomSamples (N, C, 3) (0 drives D, 1 H, 2 W); each dim needs
 * `outputSize + kernelSize - 1 < inputSize` (strict, as PyTorch checks 3d).
 */
export const fractionalMaxPool3d = F.fractionalMaxPool3d;

/**
 * Gradient of fractionalMaxPool2d with respect to its input: zeros of
 * `inputShape`, then `gradOutput` added at the indices (a scatter-add).
 *
 * @param options - inputShape (required), out, resident
 */
export const fractionalMaxPool2dBackward = F.fractionalMaxPool2dBackward;
/** Gradient of fractionalMaxPool3d: fractionalMaxPool2dBackward's rules with three spatial dims. */
export const fractionalMaxPool3dBackward = F.fractionalMaxPool3dBackward;

/** Options of maxUnpool1d/2d/3dOutputRange: the unpool's geometry (outputSize is ignored). */
export type MaxUnpoolRangeOptions = Omit<MaxUnpoolOptions, 'out' | 'resident'>;

/** The valid outputSize of a `dims`d unpool for input `inputShape` (functions below, interop.ts). */
export function unpoolOutputRange(dims: number, inputShape: unknown, options: unknown,
                                  fn = `maxUnpool${dims}dOutputRange`, shapeName = 'inputShape'): SizeRange[] {
  return outputRange(runtimeOf(wasm(fn)), dims, inputShape, options, fn, shapeName);
}

/**
 * The valid `outputSize` of maxUnpool2d for an input of shape `inputShape`:
 * one inclusive `{ min, max }` per spatial dim (`default - stride < size <
 * default + stride`, and >= 1). `outputSize` in the options is ignored.
 */
export function maxUnpool2dOutputRange(inputShape: readonly number[], options: MaxUnpoolRangeOptions): SizeRange[] {
  return unpoolOutputRange(2, inputShape, options);
}
/** The valid `outputSize` of maxUnpool1d (see maxUnpool2dOutputRange). */
export function maxUnpool1dOutputRange(inputShape: readonly number[], options: MaxUnpoolRangeOptions): SizeRange[] {
  return unpoolOutputRange(1, inputShape, options);
}
/** The valid `outputSize` of maxUnpool3d (see maxUnpool2dOutputRange). */
export function maxUnpool3dOutputRange(inputShape: readonly number[], options: MaxUnpoolRangeOptions): SizeRange[] {
  return unpoolOutputRange(3, inputShape, options);
}
