// Layout names: where the channel dim sits. The core takes a code
// (unpool::Layout: 0 channels-first, 1 channels-last); the names say it
// with the tensor's letters, as PyTorch, ONNX and TensorFlow write them.
import { describe, rangeError, typeError } from './tensor.js';

/**
 * Memory layout of a tensor. Channels-first (PyTorch, ONNX): `NCL`, `NCHW`,
 * `NCDHW`. Channels-last (TensorFlow, XNNPACK, image data): `NLC`, `NHWC`,
 * `NDHWC`. An unbatched tensor (one dim fewer) uses the same names for
 * (C, spatial...) and (spatial..., C). Indices are per-(n, c) spatial
 * offsets (PyTorch's) in both.
 */
export type Layout = 'NCL' | 'NLC' | 'NCHW' | 'NHWC' | 'NCDHW' | 'NDHWC';

/** Layout names by number of spatial dims: [channels-first, channels-last]. */
const NAMES: Record<number, readonly [Layout, Layout]> = {
  1: ['NCL', 'NLC'],
  2: ['NCHW', 'NHWC'],
  3: ['NCDHW', 'NDHWC'],
};

/**
 * The core's code of `value` (undefined: channels-first). A name of another
 * dimensionality or an unknown name is a RangeError, a non-string a TypeError.
 */
export function layoutCode(fn: string, dims: number, value: unknown, name = 'layout'): 0 | 1 {
  if (value === undefined) return 0;
  const [first, last] = NAMES[dims];
  if (value === first) return 0;
  if (value === last) return 1;
  if (typeof value !== 'string') {
    throw typeError(`${fn}: ${name}=${describe(value)} must be '${first}' or '${last}'`);
  }
  const other = Object.entries(NAMES).find(([, names]) => names.includes(value as Layout));
  throw rangeError(`${fn}: ${name}=${describe(value)} ` +
      (other ? `is a ${other[0]}d layout; ` : 'is not a layout; ') +
      `a ${dims}d op takes '${first}' or '${last}'`);
}

/** The layout names of `dims` spatial dims. */
export function layoutNames(dims: number): readonly [Layout, Layout] {
  return NAMES[dims];
}
