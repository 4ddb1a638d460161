// Bridges to other runtimes: index format conversions (ONNX, TensorFlow),
// results handed to ONNX Runtime as its tensors (toOrtTensor), and the
// generic outputSizeRange. Formats are checked and converted by the core
// (unpool::convert_indices), so messages match the C++ API.
import { DTypeInfo, DTYPES } from './dtypes.js';
import type { OptionOf } from './functional.js';
import { HeapBlock } from './heap.js';
import { outputRange, SizeRange } from './invoke.js';
import { checkOptionKeys } from './keys.js';
import { Layout, layoutCode } from './layout.js';
import { wasm } from './loader.js';
import type { OnlyKnown } from './options.js';
import { indexTypeOf, plainGeometry } from './parse.js';
import { Runtime, runtimeOf } from './runtime.js';
import { WasmTensor } from './resident.js';
import {
  BACKEND_TENSOR, checkShape, checkTensor, describe, IndexArray, IndexType, numel, rangeError,
  TensorData, TensorResult, TensorLike, typeError, UnpoolError,
} from './tensor.js';

/**
 * How a runtime counts argmax indices, for a pooled input of C channels and
 * `plane` spatial elements, where `offset` is the row-major spatial offset:
 * - 'pytorch': `offset`, inside each (n, c) plane (PyTorch, and `unpool`);
 * - 'onnx': `(n * C + c) * plane + offset` (ONNX MaxPool's Indices, ONNX Runtime);
 * - 'onnx-column-major': the same with a column-major offset (MaxPool storage_order=1);
 * - 'tensorflow': `offset * C + c` (tf.nn.max_pool_with_argmax);
 * - 'tensorflow-with-batch': `(n * plane + offset) * C + c` (include_batch_in_index=True).
 */
export type IndexFormat =
    'pytorch' | 'onnx' | 'onnx-column-major' | 'tensorflow' | 'tensorflow-with-batch';

/** The option keys of convertIndices and outputSizeRange. */
export const CONVERT_INDICES_KEYS = Object.freeze(['from', 'to', 'inputShape', 'layout', 'dims', 'indexType'] as const);
const OUTPUT_SIZE_RANGE_KEYS = Object.freeze(['kernelSize', 'stride', 'padding', 'layout', 'dims'] as const);

/** In the order of unpool::IndexFormat. */
const FORMATS: readonly IndexFormat[] =
    ['pytorch', 'onnx', 'onnx-column-major', 'tensorflow', 'tensorflow-with-batch'];

/** Options naming the number of spatial dims; see spatialDims. */
export interface DimsOptions {
  /** Layout of the tensors; its name also gives the number of spatial dims. */
  layout?: Layout;
  /** Number of spatial dims (1, 2 or 3), when no layout is given. */
  dims?: number;
}

/** Options of convertIndices. */
export interface ConvertIndicesOptions extends DimsOptions {
  from: IndexFormat;
  to: IndexFormat;
  /** Shape of the pooled input, the tensor the indices point into. */
  inputShape: readonly number[];
  /** Result type: default 'int32' for 'pytorch', 'int64' (as those runtimes give it) for the others. */
  indexType?: IndexType;
}

/**
 * The index array convertIndices returns for options `O`: `indexType`'s,
 * else Int32Array for `to: 'pytorch'` and BigInt64Array for the other formats.
 */
export type ConvertedIndexArray<O> =
    [OptionOf<O, 'indexType'>] extends ['int64'] ? BigInt64Array :
    [OptionOf<O, 'indexType'>] extends ['int32'] ? Int32Array :
    [OptionOf<O, 'indexType'>] extends [undefined] ?
      ([OptionOf<O, 'to'>] extends ['pytorch'] ? Int32Array :
       [OptionOf<O, 'to'>] extends [Exclude<IndexFormat, 'pytorch'>] ? BigInt64Array : IndexArray) :
    IndexArray;

/** Options of outputSizeRange. */
export interface OutputSizeRangeOptions extends DimsOptions {
  kernelSize: number | readonly number[];
  stride?: number | readonly number[] | null;
  padding?: number | readonly number[];
}

/**
 * Number of spatial dims: from `layout` when given ('NHWC': 2), else from
 * `dims`, else `shape.length - 2` (a batched (N, C, spatial...) tensor). An
 * unbatched shape therefore needs a layout or `dims`.
 */
function spatialDims(fn: string, options: DimsOptions, shape: readonly number[],
                     shapeName: string): number {
  const { layout, dims } = options;
  if (dims !== undefined && dims !== 1 && dims !== 2 && dims !== 3) {
    throw rangeError(`${fn}: dims=${describe(dims)} must be 1, 2 or 3`);
  }
  if (layout !== undefined) {
    if (typeof layout !== 'string') {
      throw typeError(`${fn}: layout=${describe(layout)} must be one of ` +
          `'NCL', 'NLC', 'NCHW', 'NHWC', 'NCDHW', 'NDHWC'`);
    }
    const byName = [1, 2, 3].find((d) => layout.length === d + 2);
    // layoutCode names what is wrong with a bad layout.
    layoutCode(fn, byName ?? dims ?? 2, layout);
    if (dims !== undefined && dims !== byName) {
      throw rangeError(`${fn}: dims=${dims} does not match layout=${describe(layout)}`);
    }
    return byName!;
  }
  if (dims !== undefined) return dims;
  const d = shape.length - 2;
  if (d < 1 || d > 3) {
    throw rangeError(`${fn}: ${shapeName}=${describe(shape)} has ${shape.length} dims; ` +
        'a batched (N, C, spatial...) shape has 3 to 5 (for an unbatched one give layout or dims)',
        'invalid_shape');
  }
  return d;
}

function formatCode(fn: string, name: string, value: unknown): number {
  const i = FORMATS.indexOf(value as IndexFormat);
  if (i >= 0) return i;
  const list = FORMATS.map((f) => `'${f}'`).join(', ');
  if (typeof value !== 'string') {
    throw typeError(`${fn}: ${name}=${describe(value)} must be one of ${list}`);
  }
  throw rangeError(`${fn}: ${name}=${describe(value)} is not an index format; expected one of ${list}`);
}

/**
 * Rewrites pool indices from one runtime's format into another's, e.g. ONNX
 * Runtime's MaxPool Indices into PyTorch's, which maxUnpoolNd takes:
 *
 * ```js
 * const [y, idx] = ortOutputs;   // ONNX Runtime Web tensors { data, dims }
 * const indices = convertIndices(idx, { from: 'onnx', to: 'pytorch', inputShape: x.dims });
 * const restored = maxUnpool2d(y, indices, { kernelSize: 2 });
 * ```
 *
 * Each element's (n, c) follows from its position in the indices tensor
 * (`layout`, channels-first by default). Every index must point into its own
 * (n, c) plane of `inputShape`, else an UnpoolError ('invalid_index') names
 * the first that does not.
 *
 * @param indices - Int32Array or BigInt64Array tensor (`{ data, shape }` or `{ data, dims }`)
 * @param options - from, to, inputShape (all required); layout or dims (see
 *   spatialDims: default `inputShape.length - 2`); indexType of the result
 * @returns indices of the same shape in format `to`
 */
export function convertIndices<const O extends ConvertIndicesOptions>(
    indices: TensorLike<IndexArray>, options: OnlyKnown<O, ConvertIndicesOptions>):
    TensorResult<ConvertedIndexArray<O>> {
  const fn = 'convertIndices';
  const m = wasm(fn);
  checkOptionKeys(fn, options, CONVERT_INDICES_KEYS);
  const it = checkTensor(fn, 'indices', indices, 'index');
  const rt = runtimeOf(m);
  const { from, to, toType } = convertCall(fn, rt, options, it.shape);
  const n = numel(it.shape);
  const block = new HeapBlock(rt, fn, [it.data.byteLength, n * toType.bytes]);
  try {
    (block.view(0, it.type.dtype, it.data.length) as { set(a: typeof it.data): void }).set(it.data);
    const [ps, pd] = block.ptrs;
    rt.check(m.convertIndices(rt.block, from, rt.codes[it.type.dtype], ps,
                              to, rt.codes[toType.dtype], pd));
    return {
      data: toType.copy(block.view(1, toType.dtype, n)) as ConvertedIndexArray<O>, shape: it.shape,
      dtype: toType.dtype as TensorResult<ConvertedIndexArray<O>>['dtype'],
    };
  } finally {
    block.free();
  }
}

/**
 * convertIndices's options after its key check, parsed, and the block
 * written for the core (dims, layout, shapeA = inputShape, shapeB = the
 * indices' shape): the formats' codes and the result's index type. The
 * WebGPU backend's convertIndices parses its options here too.
 * @internal
 */
export function convertCall(fn: string, rt: Runtime, options: ConvertIndicesOptions,
                            indicesShape: readonly number[]):
    { from: number; to: number; toType: DTypeInfo } {
  if (options === null || typeof options !== 'object') {
    throw typeError(`${fn}: options must be an object with from, to and inputShape, ` +
        `got ${describe(options)}`);
  }
  const from = formatCode(fn, 'from', options.from);
  const to = formatCode(fn, 'to', options.to);
  if (options.inputShape === undefined) throw typeError(`${fn}: inputShape is required`);
  const inputShape = checkShape(fn, 'inputShape', options.inputShape);
  const dims = spatialDims(fn, options, inputShape, 'inputShape');
  const layout = layoutCode(fn, dims, options.layout);
  const { indexType } = options;
  if (indexType !== undefined && indexType !== 'int32' && indexType !== 'int64') {
    throw typeError(`${fn}: indexType=${describe(indexType)} must be 'int32' or 'int64'`);
  }
  const toType = DTYPES[indexTypeOf(fn, indexType ?? (to === 0 ? 'int32' : 'int64'))];
  rt.params.writeGeometry(plainGeometry(dims, layout));
  rt.params.writeShape('shapeA', inputShape);
  rt.params.writeShape('shapeB', indicesShape);
  return { from, to, toType };
}

/**
 * The valid `outputSize` of unpooling a tensor of shape `shape` (the tensor
 * to be unpooled, e.g. the pooled output): one inclusive `{ min, max }` per
 * spatial dim. `outputSizeRange([1, 3, 2, 2], { kernelSize: 3, stride: 2 })`
 * is `[{ min: 4, max: 6 }, { min: 4, max: 6 }]`: a 2x2 map pooled from 5x5
 * may unpool to 4..6 per side. The number of spatial dims comes from
 * `layout`, else `dims`, else `shape.length - 2`; the same as
 * maxUnpool1d/2d/3dOutputRange for that number.
 */
export function outputSizeRange(shape: readonly number[],
                                options: OutputSizeRangeOptions): SizeRange[] {
  const fn = 'outputSizeRange';
  const rt = runtimeOf(wasm(fn));
  checkOptionKeys(fn, options, OUTPUT_SIZE_RANGE_KEYS);
  const s = checkShape(fn, 'shape', shape);
  if (options === null || typeof options !== 'object') {
    throw typeError(`${fn}: options must be an object with kernelSize, got ${describe(options)}`);
  }
  const dims = spatialDims(fn, options, s, 'shape');
  const g = {
    kernelSize: options.kernelSize, stride: options.stride, padding: options.padding,
    layout: options.layout,
  };
  return outputRange(rt, dims, s, g, fn, 'shape');
}

/**
 * What toOrtTensor() uses of an ONNX Runtime namespace (onnxruntime-node,
 * onnxruntime-web, onnxruntime-react-native): `new ort.Tensor(type, data, dims)`.
 */
export interface OrtTensorNamespace<T = unknown> {
  readonly Tensor: new (type: never, data: never, dims: readonly number[]) => T;
}

/**
 * A result (`{ data, shape, dtype }`, or any tensor the functions take, or
 * a WasmTensor) as an ONNX Runtime tensor: `new ort.Tensor(type, data,
 * dims)`, so the next session takes it as it is. The data is not copied
 * (a WasmTensor's is copied out of module memory once; the WasmTensor stays
 * the caller's): ORT's tensor is a view of the same memory, in its class
 * (a Uint8ClampedArray as a Uint8Array, which ORT would otherwise copy;
 * float16 as a Float16Array or as Uint16Array bits, both of which ORT
 * takes for 'float16'). bfloat16 has no ORT tensor type: an UnpoolError
 * 'unsupported'. `ort` is the namespace you imported; the package depends
 * on no ONNX Runtime.
 *
 * @example
 * const { output } = maxPool2d(ortTensor, { kernelSize: 2 });  // ort.Tensors go in as they are
 * const { y } = await session.run({ x: toOrtTensor(output, ort) });
 */
export function toOrtTensor<T>(t: TensorLike<TensorData> | WasmTensor<TensorData>,
                               ort: OrtTensorNamespace<T>): T {
  const fn = 'toOrtTensor';
  const o = ort as { Tensor?: unknown } | null;
  if (o === null || typeof o !== 'object' || typeof o.Tensor !== 'function') {
    throw typeError(`${fn}: ort must be an ONNX Runtime namespace with a Tensor class ` +
        `(import * as ort from 'onnxruntime-node' or 'onnxruntime-web'), got ${describe(ort)}`);
  }
  let data: unknown;
  let shape: number[];
  let dtype: string;
  if (t instanceof WasmTensor) {
    if (t.isDisposed) throw typeError(`${fn}: t is a WasmTensor that was disposed`);
    const r = t.read();
    // ORT copies a Uint8ClampedArray (Uint8Array.from): the same memory as a Uint8Array is not.
    data = r.dtype === 'uint8' ? new Uint8Array((r.data as Uint8Array).buffer) : r.data;
    ({ shape, dtype } = r);
  } else {
    if (t !== null && typeof t === 'object' && typeof (t as { [BACKEND_TENSOR]?: unknown })[BACKEND_TENSOR] === 'string') {
      throw typeError(`${fn}: t is a GpuTensor: hand it over with toOrtTensor of 'unpool/webgpu', ` +
          'which gives ORT its buffer');
    }
    // Read once, through checkTensor: a view of the caller's memory (no
    // copy), in its class; uint8 as a Uint8Array (a Uint8ClampedArray too).
    const checked = checkTensor(fn, 't', t, 'float');
    dtype = checked.type.dtype;
    data = dtype === 'uint8' ? checked.data : checked.cls.wrap(checked.data);
    shape = checked.shape;
  }
  if (dtype === 'bfloat16') {
    throw new UnpoolError(`${fn}: ONNX Runtime has no bfloat16 tensor type (its JavaScript tensors take ` +
        'float32, float64, float16, int8, int16, int32, int64 and uint8 of unpool\'s dtypes)', 'unsupported');
  }
  return new ort.Tensor(dtype as never, data as never, shape);
}
