// Adaptive and fractional max pooling and their gradients, for any number
// of spatial dims: check what only JS can check (options-adaptive.ts), write
// the geometry and shapes into the parameter block (see the comment above
// plan_call in cpp/bindings/bindings.cc), and let the engine run them.
import { checkInput, Input } from './call.js';
import { DTYPES, namesOf } from './dtypes.js';
import { runtimeOf } from './heap.js';
import { layoutCode } from './layout.js';
import { wasm } from './loader.js';
import {
  AdaptiveMaxPoolBackwardOptions, adaptiveGeometry, AdaptiveMaxPoolOptions, channelsFirstOnly,
  checkOptions,
  drawSamples, FractionalMaxPoolBackwardOptions, fractionalGeometry, FractionalMaxPoolOptions,
} from './options-adaptive.js';
import {
  ADAPTIVE_MAX_POOL_KEYS, checkOptionKeys, FRACTIONAL_MAX_POOL_KEYS, indexTypeOf, plainGeometry,
  POOL_BACKWARD_KEYS, poolOut, resultMode,
} from './options.js';
import {
  backwardInputs, float, floatGradient, indexOutput, MaxPoolResult, ResidentMaxPoolResult, run,
  sameShape,
} from './ops.js';
import type { WasmTensor } from './resident.js';
import { checkShape, FloatArray, TensorResult, typeError } from './tensor.js';

export type {
  AdaptiveMaxPoolBackwardOptions, AdaptiveMaxPoolOptions, FractionalMaxPoolBackwardOptions,
  FractionalMaxPoolOptions,
} from './options-adaptive.js';

type PoolResult = MaxPoolResult | ResidentMaxPoolResult;
type Result = TensorResult<FloatArray> | WasmTensor<FloatArray>;

export function adaptiveMaxPoolNd(dims: number, x: unknown,
                                  options: AdaptiveMaxPoolOptions): PoolResult {
  const fn = `adaptiveMaxPool${dims}d`;
  const m = wasm(fn);
  checkOptionKeys(fn, options, ADAPTIVE_MAX_POOL_KEYS);
  const xi = checkInput(fn, 'x', x, 'float');
  checkOptions(fn, options, 'outputSize');
  const indexType = indexTypeOf(fn, options.indexType);
  const g = adaptiveGeometry(fn, dims, options.outputSize, layoutCode(fn, dims, options.layout));
  const mode = resultMode(fn, options);
  const [outY, outI] = poolOut(fn, mode.out);
  const [output, indices] = run(runtimeOf(m), fn, 'adaptiveMaxPool', g, xi.shape, [], xi.dtype,
                                indexType, [xi],
                                [float(xi, outY, undefined, 'out.output'), indexOutput(indexType, outI)],
                                mode.resident);
  return { output, indices } as PoolResult;
}

/**
 * Fractional pooling and its gradient take the value dtypes the table marks
 * (float32 and float64: issue 17), as a TypeError says for any other.
 */
function fractionalValues(fn: string, name: string, i: Input): void {
  if (!DTYPES[i.dtype].fractional) {
    throw typeError(`${fn}: ${name} holds ${i.dtype} values; fractional pooling takes ` +
        `${namesOf('float', (t) => t.fractional)} only`);
  }
}

/** The random samples of a fractional pool: given (x's dtype), or drawn. */
function samplesOf(fn: string, dims: number, xi: Input, value: unknown): Input {
  const si = checkInput(fn, 'randomSamples',
                        value === undefined ? drawSamples(fn, xi.shape, dims, xi.dtype) : value,
                        'float');
  if (si.dtype !== xi.dtype) {
    throw typeError(`${fn}: randomSamples must have the dtype of x (${xi.dtype}), ` +
        `got ${si.dtype}`);
  }
  // A plane's samples: the last dim (the core checks the shape).
  return { ...si, planeDims: 1 };
}

export function fractionalMaxPoolNd(dims: number, x: unknown,
                                    options: FractionalMaxPoolOptions): PoolResult {
  const fn = `fractionalMaxPool${dims}d`;
  const m = wasm(fn);
  checkOptionKeys(fn, options, FRACTIONAL_MAX_POOL_KEYS);
  const xi = checkInput(fn, 'x', x, 'float');
  fractionalValues(fn, 'x', xi);
  checkOptions(fn, options, 'kernelSize');
  const indexType = indexTypeOf(fn, options.indexType);
  const g = fractionalGeometry(fn, dims, options);
  const mode = resultMode(fn, options);
  const [outY, outI] = poolOut(fn, mode.out);
  const si = samplesOf(fn, dims, xi, options.randomSamples);
  const [output, indices] = run(runtimeOf(m), fn, 'fractionalMaxPool', g, xi.shape, si.shape,
                                xi.dtype, indexType, [xi, si],
                                [float(xi, outY, undefined, 'out.output'), indexOutput(indexType, outI)],
                                // Streamed into `out`, every sample is checked first.
                                mode.resident, 1);
  return { output, indices } as PoolResult;
}

/** The inputShape of a backward op's options, checked. */
function inputShapeOf(fn: string, options: { inputShape?: unknown }): number[] {
  checkOptions(fn, options, 'inputShape');
  if (options.inputShape === undefined) throw typeError(`${fn}: inputShape is required`);
  return checkShape(fn, 'inputShape', options.inputShape);
}

export function adaptiveMaxPoolBackwardNd(dims: number, gradOutput: unknown, indices: unknown,
                                          options: AdaptiveMaxPoolBackwardOptions): Result {
  const fn = `adaptiveMaxPool${dims}dBackward`;
  const m = wasm(fn);
  checkOptionKeys(fn, options, POOL_BACKWARD_KEYS);
  const [gi, ii] = backwardInputs(fn, gradOutput, indices, options, POOL_BACKWARD_KEYS);
  floatGradient(fn, gi);
  const inputShape = inputShapeOf(fn, options);
  const g = plainGeometry(dims, layoutCode(fn, dims, options.layout));
  const mode = resultMode(fn, options);
  sameShape(fn, 'indices', ii.shape, 'gradOutput', gi.shape);
  const [r] = run(runtimeOf(m), fn, 'adaptiveMaxPoolBackward', g, inputShape, gi.shape, gi.dtype,
                  ii.dtype, [gi, ii], [float(gi, mode.out, inputShape)], mode.resident, 1);
  return r as Result;
}

export function fractionalMaxPoolBackwardNd(dims: number, gradOutput: unknown, indices: unknown,
                                            options: FractionalMaxPoolBackwardOptions): Result {
  const fn = `fractionalMaxPool${dims}dBackward`;
  const m = wasm(fn);
  checkOptionKeys(fn, options, POOL_BACKWARD_KEYS);
  const [gi, ii] = backwardInputs(fn, gradOutput, indices, options, POOL_BACKWARD_KEYS);
  fractionalValues(fn, 'gradOutput', gi);
  const inputShape = inputShapeOf(fn, options);
  channelsFirstOnly(fn, dims, (options as { layout?: unknown }).layout);
  const g = plainGeometry(dims, 0);
  const mode = resultMode(fn, options);
  sameShape(fn, 'indices', ii.shape, 'gradOutput', gi.shape);
  const [r] = run(runtimeOf(m), fn, 'fractionalMaxPoolBackward', g, inputShape, gi.shape,
                  gi.dtype, ii.dtype, [gi, ii], [float(gi, mode.out, inputShape)],
                  mode.resident, 1);
  return r as Result;
}
