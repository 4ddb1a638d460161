// Option parsing of adaptive and fractional max pooling: what only
// JavaScript can check (types, integer-ness, null entries); sizes, ratios
// and shapes themselves are checked by the core.
import type { DType, FloatArray, IndexArray, ValueArray } from './dtypes.js';
import { Layout, layoutCode, layoutNames } from './layout.js';
import { Geometry, plainGeometry, ResultOptions, SizeArg, sizeArg } from './options.js';
import type { FloatInput } from './resident.js';
import type { IndexType } from './tensor.js';
import { checkInteger, describe, rangeError, typeError } from './tensor.js';

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

const NOT_GIVEN: SizeArg = Object.freeze({ count: 0, list: false, values: Object.freeze([0, 0, 0]) }) as SizeArg;

/** An options object, or a TypeError naming what it must hold. */
export function checkOptions(fn: string, options: unknown, needs: string): void {
  if (options === null || typeof options !== 'object') {
    throw typeError(`${fn}: options must be an object with ${needs}, got ${describe(options)}`);
  }
}

/**
 * The geometry of an adaptive pool: outputSize as a size argument, null
 * entries marked in `keep` (their value is not read by the core).
 */
export function adaptiveGeometry(fn: string, dims: number, value: unknown,
                                 layout: 0 | 1): Geometry {
  const keep: [number, number, number] = [0, 0, 0];
  let poolSize: SizeArg;
  if (value === undefined) throw typeError(`${fn}: outputSize is required`);
  if (Array.isArray(value)) {
    const count = value.length;
    if (count > 0x7fffffff) {
      throw rangeError(`${fn}: outputSize has ${count} entries; expected ${dims}`);
    }
    const values: [number, number, number] = [0, 0, 0];
    for (let i = 0; i < Math.min(count, 3); ++i) {
      // Index by index: holes of a sparse array are undefined, not skipped.
      const v: unknown = value[i];
      if (v === null) {
        keep[i] = 1;
      } else {
        values[i] = checkInteger(fn, 'outputSize', v, i);
      }
    }
    poolSize = { count, list: true, values };
  } else if (typeof value === 'number') {
    poolSize = sizeArg(fn, 'outputSize', value);
  } else {
    throw typeError(`${fn}: outputSize must be a number or an array of numbers ` +
        `(null: keep the input's size), got ${describe(value)}`);
  }
  // Assigned, not spread: a spread costs a small call more than its fields.
  const g = plainGeometry(dims, layout);
  g.poolSize = poolSize;
  g.keep = keep;
  return g;
}

/** outputRatio as a size argument of ratios (not integers; the core checks (0, 1)). */
function ratioArg(fn: string, value: unknown): SizeArg {
  if (value === undefined) return NOT_GIVEN;
  const number = (v: unknown, i?: number): number => {
    if (typeof v === 'number') return v;
    const name = i === undefined ? 'outputRatio' : `outputRatio[${i}]`;
    throw typeError(`${fn}: ${name}=${describe(v)} must be a number`);
  };
  if (typeof value === 'number') return { count: 1, list: false, values: [value, 0, 0] };
  if (!Array.isArray(value)) {
    throw typeError(`${fn}: outputRatio must be a number or an array of numbers, ` +
        `got ${describe(value)}`);
  }
  const count = value.length;
  if (count > 0x7fffffff) {
    throw rangeError(`${fn}: outputRatio has ${count} entries; expected at most 3`);
  }
  const values: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < Math.min(count, 3); ++i) values[i] = number(value[i], i);
  return { count, list: true, values };
}

/**
 * Fractional pools take channels-first tensors only (as PyTorch's): a
 * `layout` option, which they do not declare, must name that layout, so
 * that channels-last data is never pooled as channels-first in silence.
 */
export function channelsFirstOnly(fn: string, dims: number, value: unknown): void {
  if (layoutCode(fn, dims, value) !== 0) {
    throw rangeError(`${fn}: layout=${describe(value)} is not supported; fractional ` +
        `pooling takes channels-first tensors ('${layoutNames(dims)[0]}')`);
  }
}

/** The geometry of a fractional pool (channels-first only). */
export function fractionalGeometry(fn: string, dims: number,
                                   options: FractionalMaxPoolOptions): Geometry {
  channelsFirstOnly(fn, dims, (options as { layout?: unknown }).layout);
  const g = plainGeometry(dims, 0);
  g.kernel = sizeArg(fn, 'kernelSize', options.kernelSize, true);
  g.poolSize = sizeArg(fn, 'outputSize', options.outputSize);
  g.ratio = ratioArg(fn, options.outputRatio);
  return g;
}

/**
 * Samples for an x of shape `shape` drawn with Math.random in `dtype`
 * (values in [0, 1)): N = 1 for unbatched input. A float32 draw is a
 * multiple of 2^-24, so that it can never round up to 1.0. A shape of the
 * wrong rank gets (1, 1, dims) samples: the core rejects the rank first.
 */
export function drawSamples(fn: string, shape: readonly number[], dims: number,
                            dtype: DType): { data: FloatArray; shape: number[] } {
  const rank = shape.length;
  const n = rank === dims + 2 ? shape[0] : 1;
  const c = rank === dims + 2 || rank === dims + 1 ? shape[rank - dims - 1] : 1;
  const count = n * c * dims;
  let data: FloatArray;
  if (dtype === 'float32') {
    data = new Float32Array(count);
    for (let i = 0; i < count; ++i) data[i] = Math.floor(Math.random() * 2 ** 24) / 2 ** 24;
  } else if (dtype === 'float64') {
    data = new Float64Array(count);
    for (let i = 0; i < count; ++i) data[i] = Math.random();
  } else {
    // A new value dtype needs its own grid here (e.g. 2^-11 for float16).
    throw typeError(`${fn}: cannot draw randomSamples for ${dtype} values; pass them`);
  }
  return { data, shape: [n, c, dims] };
}
