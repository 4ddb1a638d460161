// The one generic call: any op of the table (optable.ts) on any backend
// (call.ts's Backend). It checks what only JavaScript can check, in one
// order for every op (option keys, the tensors, their dtypes, the options,
// where results go, shapes), writes the parameter block and has the backend
// run the call; the core plans it, and checks everything else.
import type { Backend, Call, Input, OutputSpec } from './call.js';
import { DTYPES, namesOf } from './dtypes.js';
import { checkOptionKeys } from './keys.js';
import { OpSpec, RANGE_KEYS, RANGE_PARSERS } from './optable.js';
import {
  drawSamples, OptionParser, optionsObject, Parsed, parsed, poolOut, resultMode,
} from './parse.js';
import type { Runtime } from './runtime.js';
import { checkShape, describe, rangeError, typeError, withArticle } from './tensor.js';

/** What an op returns on a backend of results `R`. */
export type Returned<R> = R | { output: R; indices: R };

/** The inclusive range of valid unpool output sizes of one spatial dim. */
export interface SizeRange {
  min: number;
  max: number;
}

const NO_OPTIONS: Record<string, unknown> = Object.freeze({});
const NO_SHAPE: readonly number[] = Object.freeze([]);

/**
 * 'x.data is a Uint8Array(4) of uint8 values', or 'x is a WasmTensor of uint8
 * values' (a GpuTensor's: 'x is a GpuTensor of uint8 values').
 */
export function holding(name: string, i: Input): string {
  if (i.data === undefined) {
    return `${name} is a ${i.foreign === undefined ? 'WasmTensor' : 'GpuTensor'} of ${i.dtype} values`;
  }
  return `${name}.data is ${withArticle(`${i.cls.tag}(${i.data.length})`)} of ${i.dtype} values`;
}

/** The dtypes an op's first tensor takes beyond its kind's (OpSpec.values). */
const VALUE_RULES = {
  /**
   * The gradient of a pool adds: it takes float gradients only, and an
   * integer gradOutput is a TypeError (PyTorch refuses them too).
   */
  gradient(fn: string, name: string, i: Input): void {
    if (DTYPES[i.dtype].integer) {
      throw typeError(`${fn}: ${holding(name, i)}; a pool's gradient adds, and takes ` +
          `${namesOf('float', (t) => !t.integer)} values only`);
    }
  },
  /** Fractional pooling takes the value dtypes the table marks (float32 and float64: issue 17). */
  fractional(fn: string, name: string, i: Input): void {
    if (!DTYPES[i.dtype].fractional) {
      throw typeError(`${fn}: ${name} holds ${i.dtype} values; fractional pooling takes ` +
          `${namesOf('float', (t) => t.fractional)} only`);
    }
  },
} as const;

/**
 * An options object passed where the indices go (`maxUnpool2d(y, { kernelSize: 2 })`,
 * indices forgotten) is named as such, instead of as a tensor without data.
 */
function forgottenIndices(fn: string, indices: unknown, options: unknown, known: readonly string[],
                          first: string): void {
  if (options !== undefined || indices === null || typeof indices !== 'object' || 'data' in indices) {
    return;
  }
  const keys = Object.keys(indices);
  if (keys.length > 0 && keys.some((k) => known.includes(k))) {
    throw typeError(`${fn}: indices must be a tensor { data, shape }, got the options object ` +
        `{ ${keys.join(', ')} }: were the indices left out? The call is ${fn}(${first}, indices, options)`);
  }
}

/** The core takes one shape for a values tensor and its indices. */
function sameShape(fn: string, a: string, sa: readonly number[], b: string, sb: readonly number[]): void {
  if (sa.length !== sb.length || sa.some((d, i) => d !== sb[i])) {
    throw rangeError(`${fn}: ${a}.shape=${describe(sa)} must equal ${b}.shape=${describe(sb)}`,
                     'invalid_shape');
  }
}

/** The random samples of a fractional pool: given (x's dtype), or drawn. */
function samplesOf<R>(b: Backend<R>, fn: string, dims: number, xi: Input, value: unknown): Input {
  const name = 'randomSamples';
  const si = value === undefined ? b.drawn(fn, name, drawSamples(fn, xi.shape, dims, xi.dtype), xi)
    : b.input(fn, name, value, 'float');
  if (si.dtype !== xi.dtype) {
    throw typeError(`${fn}: randomSamples must have the dtype of x (${xi.dtype}), got ${si.dtype}`);
  }
  // A plane's samples: the last dim (the core checks the shape).
  return { ...si, planeDims: 1 };
}

/**
 * Runs `parsers` in order. A call site per position, not one in a loop: a
 * loop's one site would see every parser of every op and V8 would call
 * them all out of line; ops differ little per position, and a small call
 * spent 3% more time in the loop (bench --ab, unpool into `out`).
 */
function parseOptions(ps: readonly OptionParser[], fn: string, dims: number, o: Record<string, unknown>,
                      p: Parsed): void {
  const n = ps.length;
  if (n > 0) ps[0].parse(fn, dims, o, p);
  if (n > 1) ps[1].parse(fn, dims, o, p);
  if (n > 2) ps[2].parse(fn, dims, o, p);
  if (n > 3) ps[3].parse(fn, dims, o, p);
  if (n > 4) ps[4].parse(fn, dims, o, p);
  if (n > 5) ps[5].parse(fn, dims, o, p);
  if (n > 6) ps[6].parse(fn, dims, o, p);
  for (let i = 7; i < n; ++i) ps[i].parse(fn, dims, o, p);
}

/**
 * Runs op `spec` in `dims` spatial dims, named `fn`, on its tensors `a0`
 * (and `a1`, for an op of two) and `given` options.
 */
export function invoke<R>(b: Backend<R>, spec: OpSpec, dims: number, fn: string, a0: unknown,
                          a1: unknown, given: unknown): Returned<R> {
  const rt = b.runtime(fn);
  const { tensors, keys } = spec;
  const options = given as Record<string, unknown> | undefined;
  checkOptionKeys(fn, options, keys);
  const first = b.input(fn, tensors[0].name, a0, tensors[0].kind);
  // One literal of the final length: a push onto [first] would grow (copy)
  // the array's store on every unpool, 1-2% of a small call (bench --ab).
  let inputs: Input[];
  if (tensors.length > 1) {
    forgottenIndices(fn, a1, options, keys, tensors[0].name);
    inputs = [first, b.input(fn, tensors[1].name, a1, tensors[1].kind)];
  } else {
    inputs = [first];
  }
  if (spec.values !== undefined) VALUE_RULES[spec.values](fn, tensors[0].name, first);
  if (options !== undefined || !spec.optional) optionsObject(fn, options, spec.needs);
  const o = options ?? NO_OPTIONS;
  const p = parsed(dims);
  parseOptions(spec.parsers, fn, dims, o, p);
  const mode = resultMode(fn, options);
  const pool = spec.result === 'pool';
  let out = mode.out;
  let outIndices: unknown;
  if (pool) [out, outIndices] = poolOut(fn, mode.out);
  // A fractional pool (one tensor argument): its samples are its second input.
  if (spec.samples) inputs = [first, samplesOf(b, fn, dims, first, o.randomSamples)];
  if (spec.sameShape) sameShape(fn, 'indices', inputs[1].shape, tensors[0].name, first.shape);
  const shapeA = spec.shapeA === 'first' ? first.shape : p.inputShape!;
  const shapeB = spec.shapeB === 'none' ? NO_SHAPE : spec.shapeB === 'first' ? first.shape : inputs[1].shape;
  const outputs: OutputSpec[] = pool
    ? [{ dtype: first.dtype, cls: first.cls, name: 'out.output', out, shape: undefined },
      { dtype: p.indexType, cls: DTYPES[p.indexType].classes[0], name: 'out.indices', out: outIndices,
        shape: undefined }]
    : [{
      dtype: first.dtype, cls: first.cls, name: 'out', out,
      shape: spec.result === 'inputShape' ? p.inputShape : spec.result === 'indices' ? inputs[1].shape : undefined,
    }];
  write(rt, p, shapeA, shapeB);
  const c: Call = {
    fn, op: spec.op, dtype: first.dtype, indexType: pool ? p.indexType : inputs[1].dtype, inputs,
    outputs, resident: mode.resident, dims, layout: p.layout, checkFirst: spec.checkFirst,
  };
  const r = b.execute(rt, c);
  return pool ? { output: r[0], indices: r[1] } : r[0];
}

function write(rt: Runtime, p: Parsed, shapeA: readonly number[], shapeB: readonly number[]): void {
  rt.params.writeGeometry(p);
  rt.params.writeShape('shapeA', shapeA);
  rt.params.writeShape('shapeB', shapeB);
}

/**
 * The valid unpool output sizes for an input of shape `inputShape` (its
 * argument `shapeName`), one range per spatial dim; `rt` is the loaded
 * module's runtime.
 */
export function outputRange(rt: Runtime, dims: number, inputShape: unknown, options: unknown,
                            fn: string, shapeName: string): SizeRange[] {
  checkOptionKeys(fn, options, RANGE_KEYS);
  const shape = checkShape(fn, shapeName, inputShape);
  optionsObject(fn, options);
  const p = parsed(dims);
  parseOptions(RANGE_PARSERS, fn, dims, options as Record<string, unknown>, p);
  write(rt, p, shape, []);
  rt.check(rt.m.unpoolOutputRange(rt.block));
  return rt.params.readRanges(dims);
}
