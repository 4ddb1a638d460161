// The four operations for any number of spatial dims, and the unpool output
// range. Each: check what only JS can check (options.ts), write the geometry
// and shapes into the parameter block, describe inputs and outputs, and let
// the engine run it.
import { DType, DTYPES } from './dtypes.js';
import { Call, checkInput, Input, OutputSpec } from './call.js';
import { execute } from './engine.js';
import { OpName, Runtime, runtimeOf } from './heap.js';
import { layoutCode } from './layout.js';
import { wasm } from './loader.js';
import {
  Geometry, indexTypeOf, MaxPoolBackwardOptions, MaxPoolOptions, MaxUnpoolBackwardOptions,
  MaxUnpoolOptions, plainGeometry, poolGeometry, poolOut, resultMode, unpoolGeometry,
} from './options.js';
import type { WasmTensor } from './resident.js';
import { checkShape, describe, FloatArray, IndexArray, TensorResult } from './tensor.js';

export type {
  MaxPoolBackwardOptions, MaxPoolOptions, MaxUnpoolBackwardOptions, MaxUnpoolOptions,
} from './options.js';

/** The result of max pooling. */
export interface MaxPoolResult<T extends FloatArray = FloatArray, I extends IndexArray = IndexArray> {
  output: TensorResult<T>;
  indices: TensorResult<I>;
}

/** The result of max pooling with `resident: true`. */
export interface ResidentMaxPoolResult<T extends FloatArray = FloatArray,
                                       I extends IndexArray = IndexArray> {
  output: WasmTensor<T>;
  indices: WasmTensor<I>;
}

/** The inclusive range of valid unpool output sizes of one spatial dim. */
export interface SizeRange {
  min: number;
  max: number;
}

// The core takes one shape for a values tensor and its indices.
export function sameShape(fn: string, a: string, sa: readonly number[], b: string,
                   sb: readonly number[]): void {
  if (sa.length !== sb.length || sa.some((d, i) => d !== sb[i])) {
    throw new RangeError(`${fn}: ${a}.shape=${describe(sa)} must equal ${b}.shape=${describe(sb)}`);
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
  const xi = checkInput(fn, 'x', x, 'float');
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${fn}: options must be an object with kernelSize, got ${describe(options)}`);
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
  const xi = checkInput(fn, 'x', x, 'float');
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

/** The tensors of a backward op, checked in the order of today's messages. */
export function backwardInputs(fn: string, gradOutput: unknown, indices: unknown): [Input, Input] {
  return [checkInput(fn, 'gradOutput', gradOutput, 'float'),
    checkInput(fn, 'indices', indices, 'index')];
}

export function maxPoolBackwardNd(dims: number, gradOutput: unknown, indices: unknown,
                                  options: MaxPoolBackwardOptions): TensorResult<FloatArray> | WasmTensor<FloatArray> {
  const fn = `maxPool${dims}dBackward`;
  const m = wasm(fn);
  const [gi, ii] = backwardInputs(fn, gradOutput, indices);
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${fn}: options must be an object with inputShape, got ${describe(options)}`);
  }
  if (options.inputShape === undefined) throw new TypeError(`${fn}: inputShape is required`);
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
  const [gi, ii] = backwardInputs(fn, gradOutput, indices);
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
  }
  const g = plainGeometry(dims, layoutCode(fn, dims, options?.layout));
  const mode = resultMode(fn, options);
  const [r] = run(runtimeOf(m), fn, 'maxUnpoolBackward', g, gi.shape, ii.shape, gi.dtype, ii.dtype,
                  [gi, ii], [float(gi, mode.out, ii.shape)], mode.resident, 1);
  return r as TensorResult<FloatArray> | WasmTensor<FloatArray>;
}
