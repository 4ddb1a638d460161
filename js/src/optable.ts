// The op table: every tensor op described once. One generic call
// (invoke.ts) runs any entry on any backend; the functional API (1d/2d/3d
// functions), the module classes, every option-key list (and so the
// did-you-mean hints), the GPU op list and their types come from here.
// A new op family is one entry here (and a module entry if it has a class),
// its C++ plan in the core and, for the GPU, its kernels.
import type { Kind } from './dtypes.js';
import { inOptionOrder } from './keys.js';
import { OptionParser, P } from './parse.js';
import type { OpName } from './runtime.js';

/** A tensor argument of an op: its name in messages and what it holds. */
export interface TensorArg {
  readonly name: string;
  readonly kind: Kind;
}

export interface OpSpec {
  /** The core op (unpool::Op) that plans and runs it. */
  readonly op: OpName;
  /** Its functions: `${stem}${dims}d${suffix}` (maxPool2d, maxPool2dBackward). */
  readonly stem: string;
  readonly suffix: '' | 'Backward';
  readonly dims: readonly number[];
  /** Its tensor arguments, in order; the options object follows them. */
  readonly tensors: readonly TensorArg[];
  /** What its options must hold ("options must be an object with kernelSize"). */
  readonly needs?: string;
  /** Whether its options may be left out. */
  readonly optional?: boolean;
  /** A rule narrowing the dtypes its first tensor takes (invoke.ts: VALUE_RULES). */
  readonly values?: 'gradient' | 'fractional';
  /** Its options' parsers, in the order they check. */
  readonly parsers: readonly OptionParser[];
  /** A fractional pool: `randomSamples` (given, or drawn) is its second input. */
  readonly samples?: boolean;
  /** Whether indices must have the shape of the first tensor. */
  readonly sameShape?: boolean;
  /**
   * The block's shapeA and shapeB: of the op's first or second input, or
   * the option inputShape (none: no shape).
   */
  readonly shapeA: 'first' | 'inputShape';
  readonly shapeB: 'none' | 'first' | 'second';
  /**
   * Its results: a pool's `{ output, indices }` (shapes from the core), or
   * one values result of the core's shape, of `inputShape`, or of the
   * indices' shape.
   */
  readonly result: 'pool' | 'core' | 'inputShape' | 'indices';
  /**
   * The input a call streamed into `out` copies whole and checks (its
   * indices or samples) before the first range is written, so that a bad
   * one leaves `out` as it was (-1: none).
   */
  readonly checkFirst: number;
  /** Its option keys, in OPTION_ORDER (derived from the parsers). */
  readonly keys: readonly string[];
}

type Entry = Omit<OpSpec, 'keys'>;
type Entered<E extends Entry> = E & { readonly keys: readonly string[] };

/** Keys every op with results takes: where they go. */
const RESULT_KEYS = ['out', 'resident'];

/** An entry, with its option keys (literal types kept: functional.ts names the functions from them). */
function entry<const E extends Entry>(e: E): Entered<E> {
  const keys = e.parsers.map((p) => p.key);
  if (e.samples) keys.push('randomSamples');
  // Every entry has every field, in one order: the generic call then reads
  // them from objects of one hidden class (a property read stays monomorphic).
  const full: Required<OpSpec> = {
    op: e.op, stem: e.stem, suffix: e.suffix, dims: e.dims, tensors: e.tensors, needs: e.needs!,
    optional: e.optional ?? false, values: e.values!, parsers: e.parsers, samples: e.samples ?? false,
    sameShape: e.sameShape ?? false, shapeA: e.shapeA, shapeB: e.shapeB, result: e.result,
    checkFirst: e.checkFirst,
    keys: inOptionOrder([...keys, ...RESULT_KEYS]),
  };
  return Object.freeze(full) as unknown as Entered<E>;
}

const X: readonly TensorArg[] = [{ name: 'x', kind: 'float' }];
const X_INDICES: readonly TensorArg[] = [{ name: 'x', kind: 'float' }, { name: 'indices', kind: 'index' }];
const GRADIENT: readonly TensorArg[] = [{ name: 'gradOutput', kind: 'float' }, { name: 'indices', kind: 'index' }];
const ALL_DIMS = [1, 2, 3] as const;

export const OPS = {
  maxPool: entry({
    op: 'maxPool', stem: 'maxPool', suffix: '', dims: ALL_DIMS, tensors: X, needs: 'kernelSize',
    parsers: [P.indexType, P.ceilMode, P.kernelRequired, P.stride, P.padding, P.dilation, P.layout],
    shapeA: 'first', shapeB: 'none', result: 'pool', checkFirst: -1,
  }),
  maxUnpool: entry({
    op: 'maxUnpool', stem: 'maxUnpool', suffix: '', dims: ALL_DIMS, tensors: X_INDICES,
    // kernelSize omitted: outputSize alone is the output's spatial size.
    parsers: [P.unpoolSize, P.kernelSize, P.stride, P.padding, P.layout], sameShape: true,
    shapeA: 'first', shapeB: 'none', result: 'core', checkFirst: 1,
  }),
  maxPoolBackward: entry({
    op: 'maxPoolBackward', stem: 'maxPool', suffix: 'Backward', dims: ALL_DIMS, tensors: GRADIENT,
    needs: 'inputShape', values: 'gradient',
    parsers: [P.inputShape, P.ceilMode, P.kernelSize, P.stride, P.padding, P.dilation, P.layout],
    sameShape: true, shapeA: 'inputShape', shapeB: 'first', result: 'inputShape', checkFirst: 1,
  }),
  maxUnpoolBackward: entry({
    op: 'maxUnpoolBackward', stem: 'maxUnpool', suffix: 'Backward', dims: ALL_DIMS, tensors: GRADIENT,
    optional: true, parsers: [P.layout],
    shapeA: 'first', shapeB: 'second', result: 'indices', checkFirst: 1,
  }),
  adaptiveMaxPool: entry({
    op: 'adaptiveMaxPool', stem: 'adaptiveMaxPool', suffix: '', dims: ALL_DIMS, tensors: X,
    needs: 'outputSize', parsers: [P.indexType, P.layout, P.adaptiveSize],
    shapeA: 'first', shapeB: 'none', result: 'pool', checkFirst: -1,
  }),
  adaptiveMaxPoolBackward: entry({
    op: 'adaptiveMaxPoolBackward', stem: 'adaptiveMaxPool', suffix: 'Backward', dims: ALL_DIMS,
    tensors: GRADIENT, needs: 'inputShape', values: 'gradient', parsers: [P.inputShape, P.layout],
    sameShape: true, shapeA: 'inputShape', shapeB: 'first', result: 'inputShape', checkFirst: 1,
  }),
  fractionalMaxPool: entry({
    op: 'fractionalMaxPool', stem: 'fractionalMaxPool', suffix: '', dims: [2, 3] as const, tensors: X,
    needs: 'kernelSize', values: 'fractional',
    parsers: [P.indexType, P.channelsFirst, P.kernelRequired, P.poolSize, P.outputRatio],
    samples: true, shapeA: 'first', shapeB: 'second', result: 'pool', checkFirst: 1,
  }),
  fractionalMaxPoolBackward: entry({
    op: 'fractionalMaxPoolBackward', stem: 'fractionalMaxPool', suffix: 'Backward', dims: [2, 3],
    tensors: GRADIENT, needs: 'inputShape', values: 'fractional',
    parsers: [P.inputShape, P.channelsFirst],
    sameShape: true, shapeA: 'inputShape', shapeB: 'first', result: 'inputShape', checkFirst: 1,
  }),
} as const satisfies Record<OpName, OpSpec>;

/** The public name of `spec` in `dims` spatial dims. */
export const opName = (spec: OpSpec, dims: number) => `${spec.stem}${dims}d${spec.suffix}`;

/** maxUnpool{1,2,3}dOutputRange: an unpool's geometry, kernelSize required. */
export const RANGE_PARSERS: readonly OptionParser[] =
    [P.rangeSize, P.kernelRequired, P.stride, P.padding, P.layout];
export const RANGE_KEYS = inOptionOrder(RANGE_PARSERS.map((p) => p.key));

/**
 * A module class (torch.nn's): its constructor's first argument and
 * options, and the ops its forward() and backward() run. Its option keys
 * are the forward op's but its first argument, forward's positional
 * arguments, `out`/`resident` (each call's) and `hidden` ones.
 */
export interface ModuleSpec {
  /** The class name before the dims: MaxPool (MaxPool2d). */
  readonly cls: string;
  readonly forward: OpSpec;
  readonly backward: OpSpec;
  /** The constructor's first argument (an option of forward's op). */
  readonly first: string;
  /** Options forward() takes as positional arguments after its tensors. */
  readonly forwardArgs: readonly string[];
  /** Options backward() takes as positional arguments after its tensors. */
  readonly backwardArgs: readonly string[];
  /** Keys forward's op takes that the class does not. */
  readonly hidden?: readonly string[];
  /** Whether forward() refuses a missing first argument itself (the op would not). */
  readonly firstRequired?: boolean;
  /** Its constructor's option keys (derived). */
  readonly keys: readonly string[];
}

function moduleEntry(e: Omit<ModuleSpec, 'keys'>): ModuleSpec {
  const not = new Set([e.first, ...e.forwardArgs, ...RESULT_KEYS, ...(e.hidden ?? [])]);
  return Object.freeze({ ...e, keys: e.forward.keys.filter((k) => !not.has(k)) });
}

export const MODULES = {
  MaxPool: moduleEntry({
    cls: 'MaxPool', forward: OPS.maxPool, backward: OPS.maxPoolBackward, first: 'kernelSize',
    forwardArgs: [], backwardArgs: ['inputShape'],
  }),
  MaxUnpool: moduleEntry({
    cls: 'MaxUnpool', forward: OPS.maxUnpool, backward: OPS.maxUnpoolBackward, first: 'kernelSize',
    forwardArgs: ['outputSize'], backwardArgs: [], firstRequired: true,
  }),
  AdaptiveMaxPool: moduleEntry({
    cls: 'AdaptiveMaxPool', forward: OPS.adaptiveMaxPool, backward: OPS.adaptiveMaxPoolBackward,
    first: 'outputSize', forwardArgs: [], backwardArgs: ['inputShape'],
  }),
  FractionalMaxPool: moduleEntry({
    cls: 'FractionalMaxPool', forward: OPS.fractionalMaxPool, backward: OPS.fractionalMaxPoolBackward,
    first: 'kernelSize', forwardArgs: ['randomSamples'], backwardArgs: ['inputShape'], hidden: ['layout'],
  }),
} as const;
