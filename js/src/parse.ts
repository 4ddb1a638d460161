// Option parsers: what only JavaScript can check of an option (its type,
// integer-ness, lengths, null entries); geometry itself is checked by the
// core. Every op's options become one Geometry record, which the parameter
// block (block.ts) takes whole. Each parser is named by its key, and the op
// table (optable.ts) lists the parsers of each op in the order they check.
import type { DType, FloatArray } from './dtypes.js';
import { layoutCode, layoutNames } from './layout.js';
import { checkInteger, checkShape, describe, MAX_RANK, rangeError, typeError } from './tensor.js';

/**
 * A size argument for the core (unpool::SizeArg): `count` entries of
 * `values` are used; `list` tells an array the user gave from a scalar.
 */
export interface SizeArg {
  count: number;
  list: boolean;
  values: [number, number, number];
}

/** The geometry of any op, as the parameter block holds it. */
export interface Geometry {
  dims: number;
  /** unpool::Layout: 0 channels-first, 1 channels-last. */
  layout: 0 | 1;
  ceilMode: boolean;
  /** -1: the default output size. */
  outputSizeCount: number;
  kernel: SizeArg;
  stride: SizeArg;
  padding: SizeArg;
  dilation: SizeArg;
  outputSize: [number, number, number, number, number];
  /** Adaptive and fractional pools: the output size as a size argument. */
  poolSize: SizeArg;
  /** Adaptive pools: 1 where an outputSize entry is null (keep the input's size). */
  keep: [number, number, number];
  /** Fractional pools: outputRatio as a size argument of ratios. */
  ratio: SizeArg;
}

// Shared defaults, frozen: the block skips writing a field that holds the
// object it held last time (block.ts), which is sound only for values never
// changed once made.
const NOT_GIVEN: SizeArg = Object.freeze({ count: 0, list: false, values: Object.freeze([0, 0, 0]) }) as SizeArg;
const NO_OUTPUT_SIZE = Object.freeze([0, 0, 0, 0, 0]) as [number, number, number, number, number];
const NO_KEEP = Object.freeze([0, 0, 0]) as [number, number, number];

/** How a size option's entries are read. */
interface SizeRule {
  required: boolean;
  /** An entry as a number (`i`: its index in an array), or a throw. */
  entry: (fn: string, name: string, value: unknown, i?: number) => number;
  /** Entries a too-long array is told to have. */
  expected: (dims: number) => string;
  /** Added to "must be a number or an array of numbers". */
  note: string;
}

const INTEGERS: SizeRule = {
  required: false, entry: checkInteger, expected: () => 'at most 3', note: '',
};
const REQUIRED: SizeRule = { ...INTEGERS, required: true };

/**
 * A size option: a number (every spatial dim) or an array (checked by the
 * core: one entry per dim, or one entry for every dim in pools; an empty
 * stride array is the default, as in PyTorch). `undefined` is the default,
 * and so is `null` for a stride. Entries past the third are never used (the
 * core rejects such lengths); holes of a sparse array are undefined, not
 * skipped.
 */
export function sizeArg(fn: string, name: string, value: unknown, dims: number,
                        rule: SizeRule = INTEGERS): SizeArg {
  if (value === undefined || (name === 'stride' && value === null)) {
    if (rule.required) throw typeError(`${fn}: ${name} is required`);
    return NOT_GIVEN;
  }
  if (typeof value === 'number') {
    return { count: 1, list: false, values: [rule.entry(fn, name, value), 0, 0] };
  }
  if (!Array.isArray(value)) {
    throw typeError(`${fn}: ${name} must be a number or an array of numbers${rule.note}, ` +
        `got ${describe(value)}`);
  }
  const count = value.length;
  if (count > 0x7fffffff) {
    throw rangeError(`${fn}: ${name} has ${count} entries; expected ${rule.expected(dims)}`);
  }
  const values: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < Math.min(count, 3); ++i) values[i] = rule.entry(fn, name, value[i], i);
  return { count, list: true, values };
}

/** An adaptive pool's outputSize: integers, or null (keep the input's size; read as 0). */
const ADAPTIVE_SIZE: SizeRule = {
  required: true,
  entry: (fn, name, v, i) => (v === null && i !== undefined ? 0 : checkInteger(fn, name, v, i)),
  expected: (dims) => `${dims}`,
  note: " (null: keep the input's size)",
};

/** outputRatio: ratios, not integers (the core checks (0, 1)). */
const RATIOS: SizeRule = {
  required: false,
  entry: (fn, name, v, i) => {
    if (typeof v === 'number') return v;
    throw typeError(`${fn}: ${i === undefined ? name : `${name}[${i}]`}=${describe(v)} must be a number`);
  },
  expected: () => 'at most 3',
  note: '',
};

/** What the parsers of one call fill in: the geometry, and what else the call takes. */
export interface Parsed extends Geometry {
  indexType: DType;
  /** Backward pools: the pooled input's shape. */
  inputShape: number[] | undefined;
}

/** The geometry of an op given no options: dims and a layout, the rest at defaults. */
export function plainGeometry(dims: number, layout: 0 | 1): Geometry {
  const p = parsed(dims);
  p.layout = layout;
  return p;
}

/** A call's parse, before its parsers: the geometry's defaults, int32 indices. */
export function parsed(dims: number): Parsed {
  return {
    dims, layout: 0, ceilMode: false, outputSizeCount: -1, kernel: NOT_GIVEN, stride: NOT_GIVEN,
    padding: NOT_GIVEN, dilation: NOT_GIVEN, outputSize: NO_OUTPUT_SIZE, poolSize: NOT_GIVEN,
    keep: NO_KEEP, ratio: NOT_GIVEN, indexType: 'int32', inputShape: undefined,
  };
}

/** Reads the option `key` of `o` into `p` (fn, dims: the call's). */
export type Parse = (fn: string, dims: number, o: Record<string, unknown>, p: Parsed) => void;

/** An option: its key and its parser. */
export interface OptionParser {
  readonly key: string;
  readonly parse: Parse;
}

const option = (key: string, parse: Parse): OptionParser => Object.freeze({ key, parse });

/**
 * An unpool's outputSize parser. Without kernelSize (allowed unless
 * `kernelRequired`) outputSize alone is the output's spatial size: one entry
 * per dim, which a too-long array's message says.
 */
function unpoolSize(kernelRequired: boolean): OptionParser {
  return option('outputSize', (fn, dims, o, p) => {
    const os = o.outputSize;
    if (os === undefined || os === null) return;
    if (!Array.isArray(os)) {
      throw typeError(`${fn}: outputSize must be an array of integers, got ${describe(os)}`);
    }
    const count = os.length;
    if (count > MAX_RANK) {
      const kernelFree = o.kernelSize === undefined && !kernelRequired;
      throw rangeError(`${fn}: outputSize=${describe(os)} has ${count} entries; ` +
          (kernelFree ? `expected ${dims}` : `expected ${dims}, ${dims + 1} or ${dims + 2}`));
    }
    const outputSize: [number, number, number, number, number] = [0, 0, 0, 0, 0];
    // Index by index: holes of a sparse array are undefined, not skipped.
    for (let i = 0; i < count; ++i) outputSize[i] = checkInteger(fn, 'outputSize', os[i], i);
    p.outputSize = outputSize;
    p.outputSizeCount = count;
  });
}

/** The parsers, one per option (and variant); the op table picks them. */
export const P = {
  indexType: option('indexType', (fn, _d, o, p) => { p.indexType = indexTypeOf(fn, o.indexType); }),
  ceilMode: option('ceilMode', (fn, _d, o, p) => {
    if (o.ceilMode !== undefined && typeof o.ceilMode !== 'boolean') {
      throw typeError(`${fn}: ceilMode=${describe(o.ceilMode)} must be a boolean`);
    }
    p.ceilMode = o.ceilMode ?? false;
  }),
  kernelSize: option('kernelSize', (fn, d, o, p) => { p.kernel = sizeArg(fn, 'kernelSize', o.kernelSize, d); }),
  kernelRequired: option('kernelSize', (fn, d, o, p) => {
    p.kernel = sizeArg(fn, 'kernelSize', o.kernelSize, d, REQUIRED);
  }),
  stride: option('stride', (fn, d, o, p) => { p.stride = sizeArg(fn, 'stride', o.stride, d); }),
  padding: option('padding', (fn, d, o, p) => { p.padding = sizeArg(fn, 'padding', o.padding, d); }),
  dilation: option('dilation', (fn, d, o, p) => { p.dilation = sizeArg(fn, 'dilation', o.dilation, d); }),
  layout: option('layout', (fn, d, o, p) => { p.layout = layoutCode(fn, d, o.layout); }),
  /**
   * Fractional pools take channels-first tensors only (as PyTorch's): a
   * `layout` option, which they do not declare, must name that layout, so
   * that channels-last data is never pooled as channels-first in silence.
   */
  channelsFirst: option('layout', (fn, d, o) => channelsFirstOnly(fn, d, o.layout)),
  /** An unpool's outputSize: spatial sizes, maybe preceded by N and C. */
  unpoolSize: unpoolSize(false),
  /** The same where kernelSize is required (the unpool output range). */
  rangeSize: unpoolSize(true),
  /** An adaptive pool's outputSize: null entries marked in `keep`. */
  adaptiveSize: option('outputSize', (fn, d, o, p) => {
    const value = o.outputSize;
    p.poolSize = sizeArg(fn, 'outputSize', value, d, ADAPTIVE_SIZE);
    if (Array.isArray(value)) {
      const keep: [number, number, number] = [0, 0, 0];
      for (let i = 0; i < Math.min(value.length, 3); ++i) keep[i] = value[i] === null ? 1 : 0;
      p.keep = keep;
    }
  }),
  /** A fractional pool's outputSize (exactly one of it and outputRatio: the core checks). */
  poolSize: option('outputSize', (fn, d, o, p) => { p.poolSize = sizeArg(fn, 'outputSize', o.outputSize, d); }),
  outputRatio: option('outputRatio', (fn, d, o, p) => {
    p.ratio = sizeArg(fn, 'outputRatio', o.outputRatio, d, RATIOS);
  }),
  inputShape: option('inputShape', (fn, _d, o, p) => {
    if (o.inputShape === undefined) throw typeError(`${fn}: inputShape is required`);
    p.inputShape = checkShape(fn, 'inputShape', o.inputShape);
  }),
} as const;

/** Throws unless `options` is an object (`needs`: what it must hold, for the message). */
export function optionsObject(fn: string, options: unknown, needs?: string): void {
  if (options === null || typeof options !== 'object') {
    throw typeError(`${fn}: options must be an object${needs === undefined ? '' : ` with ${needs}`}, ` +
        `got ${describe(options)}`);
  }
}

/** The index dtype an `indexType` option names. */
export function indexTypeOf(fn: string, value: unknown): DType {
  if (value === undefined || value === 'int32') return 'int32';
  if (value === 'int64') return 'int64';
  throw typeError(`${fn}: indexType=${describe(value)} must be 'int32' or 'int64'`);
}

function channelsFirstOnly(fn: string, dims: number, value: unknown): void {
  if (layoutCode(fn, dims, value) !== 0) {
    throw rangeError(`${fn}: layout=${describe(value)} is not supported; fractional ` +
        `pooling takes channels-first tensors ('${layoutNames(dims)[0]}')`);
  }
}

/** Reads `resident` and `out` of an options object (not yet checking `out`'s arrays). */
export function resultMode(fn: string, options: { resident?: unknown; out?: unknown } | undefined):
    { resident: boolean; out: unknown } {
  if (options === undefined) return { resident: false, out: undefined };
  const { resident, out } = options;
  if (resident !== undefined && typeof resident !== 'boolean') {
    throw typeError(`${fn}: resident=${describe(resident)} must be a boolean`);
  }
  if (resident === true && out !== undefined) {
    throw typeError(`${fn}: out and resident: true exclude each other`);
  }
  return { resident: resident === true, out };
}

/** The `out` arrays of a pool: `{ output?, indices? }`. */
export function poolOut(fn: string, out: unknown): [unknown, unknown] {
  if (out === undefined) return [undefined, undefined];
  if (out === null || typeof out !== 'object' || ArrayBuffer.isView(out)) {
    throw typeError(`${fn}: out must be an object { output?, indices? }, got ${describe(out)}`);
  }
  const { output, indices } = out as { output?: unknown; indices?: unknown };
  return [output, indices];
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
