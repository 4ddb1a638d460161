// The four operations for any number of spatial dims, and the unpool output
// range. Each: check what only JS can check (options.ts), write the geometry
// and shapes into the parameter block, describe inputs and outputs, and let
// the engine run it.
import { DType, DTYPES, namesOf } from './dtypes.js';
import { Call, checkInput, Input, OutputSpec } from './call.js';
import { execute } from './engine.js';
import { OpName, Runtime, runtimeOf } from './heap.js';
import { layoutCode } from './layout.js';
import { wasm } from './loader.js';
import {
  checkOptionKeys, Geometry, indexTypeOf, MAX_POOL_BACKWARD_KEYS, MAX_POOL_KEYS,
  MAX_UNPOOL_BACKWARD_KEYS, MAX_UNPOOL_KEYS, MAX_UNPOOL_RANGE_KEYS, MaxPoolBackwardOptions,
  MaxPoolOptions, MaxUnpoolBackwardOptions, MaxUnpoolOptions, plainGeometry, poolGeometry, poolOut,
  resultMode, unpoolGeometry,
} from './options.js';
import type { WasmTensor } from './resident.js';
import {
  checkShape, describe, FloatArray, IndexArray, rangeError, TensorResult, typeError, ValueArray,
  withArticle,
} from './tensor.js';

export type {
  MaxPoolBackwardOptions, MaxPoolOptions, MaxUnpoolBackwardOptions, MaxUnpoolOptions,
} from './options.js';

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

/** The inclusive range of valid unpool output sizes of one spatial dim. */
export interface SizeRange {
  min: number;
  max: number;
}

// The core takes one shape for a values tensor and its indices.
export function sameShape(fn: string, a: string, sa: readonly number[], b: string,
                   sb: readonly number[]): void {
  if (sa.length !== sb.length || sa.some((d, i) => d !== sb[i])) {
    throw rangeError(`${fn}: ${a}.shape=${describe(sa)} must equal ${b}.shape=${describe(sb)}`,
                     'invalid_shape');
  }
}

/**
 * Writes the block (geometry, shapeA, shapeB) and runs `op` on the engine.
 * The Call is one literal here, so that every op's has the same shape.
 */
export function run(rt: Runtime, fn: string, op: OpName, g: Geometry, shapeA: readonly number[],
             shapeB: readonly number[], dtype: DType, indexType: DType, inputs: Input[],
             outputs: OutputSpec[], resident: boolean, checkFirst = -1): (TensorResult | WasmTensor)[] {
  rt.writeGeometry(g);
  rt.writeShape('shapeA', shapeA);
  rt.writeShape('shapeB', shapeB);
  const c: Call = {
    fn, op, dtype, indexType, inputs, outputs, resident, dims: g.dims, layout: g.layout,
    checkFirst,
  };
  return execute(rt, c);
}

/** A values result (`out` named 'out'): of the dtype and array class of input `like`. */
export const float = (like: Input, out: unknown, shape?: number[], name = 'out'): OutputSpec =>
  ({ dtype: like.dtype, cls: like.cls, name, out, shape });

/** An indices result ('out.indices'), of the index dtype's class. */
export const indexOutput = (indexType: DType, out: unknown): OutputSpec =>
  ({ dtype: indexType, cls: DTYPES[indexType].classes[0], name: 'out.indices', out, shape: undefined });

export function maxPoolNd(dims: number, x: unknown,
                          options: MaxPoolOptions): MaxPoolResult | ResidentMaxPoolResult {
  const fn = `maxPool${dims}d`;
  const m = wasm(fn);
  checkOptionKeys(fn, options, MAX_POOL_KEYS);
  const xi = checkInput(fn, 'x', x, 'float');
  if (options === null || typeof options !== 'object') {
    throw typeError(`${fn}: options must be an object with kernelSize, got ${describe(options)}`);
  }
  const indexType = indexTypeOf(fn, options.indexType);
  const g = poolGeometry(fn, dims, options, true);
  const mode = resultMode(fn, options);
  const [outY, outI] = poolOut(fn, mode.out);
  const [output, indices] = run(runtimeOf(m), fn, 'maxPool', g, xi.shape, [], xi.dtype, indexType,
                                [xi], [float(xi, outY, undefined, 'out.output'), indexOutput(indexType, outI)],
                                mode.resident);
  return { output, indices } as MaxPoolResult | ResidentMaxPoolResult;
}

export function maxUnpoolNd(dims: number, x: unknown, indices: unknown,
                            options: MaxUnpoolOptions): TensorResult<FloatArray> | WasmTensor<FloatArray> {
  const fn = `maxUnpool${dims}d`;
  const m = wasm(fn);
  checkOptionKeys(fn, options, MAX_UNPOOL_KEYS);
  const xi = checkInput(fn, 'x', x, 'float');
  forgottenIndices(fn, indices, options, MAX_UNPOOL_KEYS);
  const ii = checkInput(fn, 'indices', indices, 'index');
  // kernelSize omitted: outputSize alone is the output's spatial size.
  const g = unpoolGeometry(fn, dims, options, false);
  const mode = resultMode(fn, options);
  sameShape(fn, 'indices', ii.shape, 'x', xi.shape);
  // Streamed into `out`, every index (input 1) is checked before the first
  // range is written.
  const [y] = run(runtimeOf(m), fn, 'maxUnpool', g, xi.shape, [], xi.dtype, ii.dtype, [xi, ii],
                  [float(xi, mode.out)], mode.resident, 1);
  return y as TensorResult<FloatArray> | WasmTensor<FloatArray>;
}

export function maxUnpoolOutputRangeNd(dims: number, inputShape: unknown,
                                       options: MaxUnpoolOptions,
                                       fn = `maxUnpool${dims}dOutputRange`,
                                       shapeName = 'inputShape'): SizeRange[] {
  const m = wasm(fn);
  checkOptionKeys(fn, options, MAX_UNPOOL_RANGE_KEYS);
  const shape = checkShape(fn, shapeName, inputShape);
  const g = unpoolGeometry(fn, dims, options, true);
  const rt = runtimeOf(m);
  rt.writeGeometry(g);
  rt.writeShape('shapeA', shape);
  rt.check(m.unpoolOutputRange(rt.block));
  const f = rt.f;
  const { rangeMin, rangeMax } = rt.layout;
  const ranges: SizeRange[] = [];
  for (let i = 0; i < dims; ++i) ranges.push({ min: f[rangeMin + i], max: f[rangeMax + i] });
  return ranges;
}

/**
 * An options object passed where the indices go (`maxUnpool2d(y, { kernelSize: 2 })`,
 * indices forgotten) is named as such, instead of as a tensor without data.
 */
export function forgottenIndices(fn: string, indices: unknown, options: unknown,
                                 known: readonly string[], first = 'x'): void {
  if (options !== undefined || indices === null || typeof indices !== 'object' ||
      'data' in indices) {
    return;
  }
  const keys = Object.keys(indices);
  if (keys.length > 0 && keys.some((k) => known.includes(k))) {
    throw typeError(`${fn}: indices must be a tensor { data, shape }, got the options object ` +
        `{ ${keys.join(', ')} }: were the indices left out? The call is ${fn}(${first}, indices, options)`);
  }
}

/**
 * The tensors of a backward op, checked in the order of today's messages
 * (given the op's options and their keys, an options object in the place
 * of the indices is named as such).
 */
export function backwardInputs(fn: string, gradOutput: unknown, indices: unknown,
                               options?: unknown, known?: readonly string[]): [Input, Input] {
  const gi = checkInput(fn, 'gradOutput', gradOutput, 'float');
  if (known !== undefined) forgottenIndices(fn, indices, options, known, 'gradOutput');
  return [gi, checkInput(fn, 'indices', indices, 'index')];
}

/**
 * The gradient of a pool adds: it takes float gradients only, and an
 * integer gradOutput is a TypeError (PyTorch refuses them too).
 */
export function floatGradient(fn: string, gi: Input): void {
  if (DTYPES[gi.dtype].integer) {
    throw typeError(`${fn}: ${holding('gradOutput', gi)}; a pool's gradient adds, and takes ` +
        `${namesOf('float', (t) => !t.integer)} values only`);
  }
}

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

export function maxPoolBackwardNd(dims: number, gradOutput: unknown, indices: unknown,
                                  options: MaxPoolBackwardOptions): TensorResult<FloatArray> | WasmTensor<FloatArray> {
  const fn = `maxPool${dims}dBackward`;
  const m = wasm(fn);
  checkOptionKeys(fn, options, MAX_POOL_BACKWARD_KEYS);
  const [gi, ii] = backwardInputs(fn, gradOutput, indices, options, MAX_POOL_BACKWARD_KEYS);
  floatGradient(fn, gi);
  if (options === null || typeof options !== 'object') {
    throw typeError(`${fn}: options must be an object with inputShape, got ${describe(options)}`);
  }
  if (options.inputShape === undefined) throw typeError(`${fn}: inputShape is required`);
  const inputShape = checkShape(fn, 'inputShape', options.inputShape);
  const g = poolGeometry(fn, dims, options, false);
  const mode = resultMode(fn, options);
  sameShape(fn, 'indices', ii.shape, 'gradOutput', gi.shape);
  const [r] = run(runtimeOf(m), fn, 'maxPoolBackward', g, inputShape, gi.shape, gi.dtype, ii.dtype,
                  [gi, ii], [float(gi, mode.out, inputShape)], mode.resident, 1);
  return r as TensorResult<FloatArray> | WasmTensor<FloatArray>;
}

export function maxUnpoolBackwardNd(dims: number, gradOutput: unknown, indices: unknown,
                                    options?: MaxUnpoolBackwardOptions):
    TensorResult<FloatArray> | WasmTensor<FloatArray> {
  const fn = `maxUnpool${dims}dBackward`;
  const m = wasm(fn);
  checkOptionKeys(fn, options, MAX_UNPOOL_BACKWARD_KEYS);
  const [gi, ii] = backwardInputs(fn, gradOutput, indices, options, MAX_UNPOOL_BACKWARD_KEYS);
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw typeError(`${fn}: options must be an object, got ${describe(options)}`);
  }
  const g = plainGeometry(dims, layoutCode(fn, dims, options?.layout));
  const mode = resultMode(fn, options);
  const [r] = run(runtimeOf(m), fn, 'maxUnpoolBackward', g, gi.shape, ii.shape, gi.dtype, ii.dtype,
                  [gi, ii], [float(gi, mode.out, ii.shape)], mode.resident, 1);
  return r as TensorResult<FloatArray> | WasmTensor<FloatArray>;
}
