// The four operations for any number of spatial dims. Each call: check what
// only JS can check, ask the core for the output shape, allocate one heap
// block, copy the inputs in, run, copy the outputs out, free.
import {
  check, dtypeCode, HeapBlock, jsShape, poolParams, PoolGeometry, unpoolParams,
  UnpoolGeometry, wasmShape,
} from './core.js';
import { wasm } from './loader.js';
import {
  checkShape, checkTensor, describe, FloatArray, IndexArray, IndexType, numel, Tensor,
} from './tensor.js';

/** Options of maxPool1d/2d/3d. */
export interface MaxPoolOptions extends PoolGeometry {
  /** Size of the window: a number for every spatial dim, or one per dim. */
  kernelSize: number | readonly number[];
  /** Index dtype of the result: 'int32' (Int32Array, default) or 'int64' (BigInt64Array). */
  indexType?: IndexType;
}

/** Options of maxPool1d/2d/3dBackward. */
export interface MaxPoolBackwardOptions extends PoolGeometry {
  /** Shape of the pooled input, which is also the shape of the result. */
  inputShape: readonly number[];
}

/** Options of maxUnpool1d/2d/3d. */
export type MaxUnpoolOptions = UnpoolGeometry;

/** The result of max pooling. */
export interface MaxPoolResult<T extends FloatArray = FloatArray, I extends IndexArray = IndexArray> {
  output: Tensor<T>;
  indices: Tensor<I>;
}

function indexTypeOf(fn: string, value: unknown): 0 | 1 {
  if (value === undefined || value === 'int32') return 0;
  if (value === 'int64') return 1;
  throw new TypeError(`${fn}: indexType=${describe(value)} must be 'int32' or 'int64'`);
}

// The core takes one shape for a values tensor and its indices.
function sameShape(fn: string, a: string, sa: number[], b: string, sb: number[]): void {
  if (sa.length !== sb.length || sa.some((d, i) => d !== sb[i])) {
    throw new RangeError(`${fn}: ${a}.shape=${describe(sa)} must equal ${b}.shape=${describe(sb)}`);
  }
}

export function maxPoolNd(dims: number, x: unknown, options: MaxPoolOptions): MaxPoolResult {
  const fn = `maxPool${dims}d`;
  const m = wasm(fn);
  const xt = checkTensor(fn, 'x', x, 'float');
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${fn}: options must be an object with kernelSize, got ${describe(options)}`);
  }
  const itype = indexTypeOf(fn, options.indexType);
  const params = poolParams(fn, dims, options, true);
  const inShape = wasmShape(xt.shape);
  const shaped = m.maxPoolShape(params, inShape);
  check(m, shaped.status);
  const outShape = jsShape(shaped.shape);
  const n = numel(outShape);
  const like: IndexArray = itype === 1 ? new BigInt64Array(0) : new Int32Array(0);
  const block = new HeapBlock(m, fn, [
    xt.data.byteLength, n * xt.data.BYTES_PER_ELEMENT, n * like.BYTES_PER_ELEMENT]);
  try {
    block.write(0, xt.data);
    const [px, py, pi] = block.ptrs;
    check(m, m.maxPool(params, inShape, dtypeCode(xt.data), px, py, itype, pi));
    return {
      output: { data: block.read(1, xt.data, n), shape: outShape },
      indices: { data: block.read(2, like, n), shape: outShape.slice() },
    };
  } finally {
    block.free();
  }
}

export function maxUnpoolNd(dims: number, x: unknown, indices: unknown,
                            options: MaxUnpoolOptions): Tensor<FloatArray> {
  const fn = `maxUnpool${dims}d`;
  const m = wasm(fn);
  const xt = checkTensor(fn, 'x', x, 'float');
  const it = checkTensor(fn, 'indices', indices, 'index');
  const params = unpoolParams(fn, dims, options);
  const inShape = wasmShape(xt.shape);
  sameShape(fn, 'indices', it.shape, 'x', xt.shape);
  const shaped = m.maxUnpoolShape(params, inShape);
  check(m, shaped.status);
  const outShape = jsShape(shaped.shape);
  const n = numel(outShape);
  const block = new HeapBlock(m, fn, [
    xt.data.byteLength, it.data.byteLength, n * xt.data.BYTES_PER_ELEMENT]);
  try {
    block.write(0, xt.data);
    block.write(1, it.data);
    const [px, pi, py] = block.ptrs;
    check(m, m.maxUnpool(params, inShape, dtypeCode(xt.data), px, dtypeCode(it.data), pi, py));
    return { data: block.read(2, xt.data, n), shape: outShape };
  } finally {
    block.free();
  }
}

/** The inclusive range of valid unpool output sizes of one spatial dim. */
export interface SizeRange {
  min: number;
  max: number;
}

export function maxUnpoolOutputRangeNd(dims: number, inputShape: unknown,
                                       options: MaxUnpoolOptions): SizeRange[] {
  const fn = `maxUnpool${dims}dOutputRange`;
  const m = wasm(fn);
  const shape = checkShape(fn, 'inputShape', inputShape);
  const r = m.maxUnpoolOutputRange(unpoolParams(fn, dims, options), wasmShape(shape));
  check(m, r.status);
  return r.min.slice(0, dims).map((min, i) => ({ min, max: r.max[i] }));
}

export function maxPoolBackwardNd(dims: number, gradOutput: unknown, indices: unknown,
                                  options: MaxPoolBackwardOptions): Tensor<FloatArray> {
  const fn = `maxPool${dims}dBackward`;
  const m = wasm(fn);
  const gt = checkTensor(fn, 'gradOutput', gradOutput, 'float');
  const it = checkTensor(fn, 'indices', indices, 'index');
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${fn}: options must be an object with inputShape, got ${describe(options)}`);
  }
  if (options.inputShape === undefined) throw new TypeError(`${fn}: inputShape is required`);
  const inputShape = checkShape(fn, 'inputShape', options.inputShape);
  const params = poolParams(fn, dims, options, false);
  sameShape(fn, 'indices', it.shape, 'gradOutput', gt.shape);
  const n = numel(inputShape);
  const block = new HeapBlock(m, fn, [
    gt.data.byteLength, it.data.byteLength, n * gt.data.BYTES_PER_ELEMENT]);
  try {
    block.write(0, gt.data);
    block.write(1, it.data);
    const [pg, pi, pr] = block.ptrs;
    check(m, m.maxPoolBackward(params, wasmShape(inputShape), wasmShape(gt.shape),
                               dtypeCode(gt.data), pg, dtypeCode(it.data), pi, pr));
    return { data: block.read(2, gt.data, n), shape: inputShape };
  } finally {
    block.free();
  }
}

export function maxUnpoolBackwardNd(dims: number, gradOutput: unknown,
                                    indices: unknown): Tensor<FloatArray> {
  const fn = `maxUnpool${dims}dBackward`;
  const m = wasm(fn);
  const gt = checkTensor(fn, 'gradOutput', gradOutput, 'float');
  const it = checkTensor(fn, 'indices', indices, 'index');
  const n = numel(it.shape);
  const block = new HeapBlock(m, fn, [
    gt.data.byteLength, it.data.byteLength, n * gt.data.BYTES_PER_ELEMENT]);
  try {
    block.write(0, gt.data);
    block.write(1, it.data);
    const [pg, pi, pr] = block.ptrs;
    check(m, m.maxUnpoolBackward(dims, wasmShape(gt.shape), wasmShape(it.shape),
                                 dtypeCode(gt.data), pg, dtypeCode(it.data), pi, pr));
    return { data: block.read(2, gt.data, n), shape: it.shape };
  } finally {
    block.free();
  }
}
