// GPU tensors of other libraries in and out of unpool/webgpu, with no copy
// and no dependency on them (their namespaces are passed in):
// - ONNX Runtime Web: an ort.Tensor whose location is 'gpu-buffer' in
//   (gpu.wrap(ortTensor)), a GpuTensor out as ort.Tensor.fromGpuBuffer
//   (toOrtTensor);
// - TF.js's WebGPU backend: tensor.dataToGPU()'s { buffer, tensorRef } in
//   (gpu.wrap(data, { shape, dtype })), a GpuTensor out as
//   tf.tensor({ buffer }, shape, dtype) (toTfTensor).
// See docs/webgpu.md ("With ONNX Runtime Web", "With TF.js").
import { DType } from '../dtypes.js';
import { describe, UnpoolError, UnpoolTypeError } from '../tensor.js';
import { GpuTensor } from './tensor.js';

/** What gpu.wrap() reads of an `ort.Tensor` (onnxruntime-common's Tensor). */
export interface OrtGpuTensorLike {
  readonly location: string;
  readonly gpuBuffer: unknown;
  readonly dims: readonly number[];
  readonly type: string;
}

/** What toOrtTensor() uses of the `onnxruntime-web` namespace: `ort.Tensor.fromGpuBuffer`. */
export interface OrtLike<T = unknown> {
  readonly Tensor: {
    fromGpuBuffer(buffer: never, options: {
      dataType: never; dims: readonly number[];
      download?: () => Promise<never>; dispose?: () => void;
    }): T;
  };
}

/** What toTfTensor() uses of the `@tensorflow/tfjs` namespace: `tf.tensor`. */
export interface TfLike<T = unknown> {
  tensor(values: never, shape: number[], dtype: never): T;
  backend?(): unknown;
}

/** TF.js's `tensor.dataToGPU()` result on the WebGPU backend. */
export interface TfGpuDataLike {
  /** Optional as TF.js types it (the WebGL backend gives a texture); gpu.wrap() refuses one without. */
  readonly buffer?: unknown;
  readonly tensorRef: unknown;
}

/** The dtypes ORT takes from a GPU buffer (Tensor.GpuBufferDataTypes) that unpool has. */
const ORT_GPU_TYPES: readonly string[] = ['float32', 'float16', 'int32', 'int64', 'uint8'];

/** The dtypes TF.js's WebGPU backend keeps in buffers, as unpool names them. */
const TF_GPU_TYPES: readonly string[] = ['float32', 'int32'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

/** Whether `v` looks like an ort.Tensor (any location). */
function isOrtTensor(v: unknown): v is OrtGpuTensorLike {
  return isObject(v) && typeof v.location === 'string' && typeof v.type === 'string' &&
      Array.isArray(v.dims);
}

/**
 * What gpu.wrap(source, options) wraps: a GPUBuffer with `{ shape, dtype }`,
 * an ort.Tensor on 'gpu-buffer' (its gpuBuffer, dims and type; no options),
 * or TF.js's dataToGPU() result `{ buffer, tensorRef }` with `{ shape, dtype }`.
 * @internal
 */
export function wrapSource(fn: string, source: unknown, options: unknown):
    { buffer: unknown; shape: unknown; dtype: unknown } {
  if (isOrtTensor(source)) {
    if (source.location !== 'gpu-buffer') {
      throw new UnpoolTypeError(`${fn}: the ort.Tensor is on '${source.location}', not 'gpu-buffer'; ` +
          "run the session with preferredOutputLocation: 'gpu-buffer', or use gpu.upload() for " +
          'data on the CPU');
    }
    if (options !== undefined) {
      throw new UnpoolTypeError(`${fn}: an ort.Tensor carries its dims and type; pass no options, ` +
          `got ${describe(options)}`);
    }
    return { buffer: source.gpuBuffer, shape: source.dims, dtype: source.type };
  }
  if (options === null || typeof options !== 'object') {
    throw new UnpoolTypeError(`${fn}: options must be an object { shape, dtype }, got ${describe(options)}`);
  }
  const { shape, dtype } = options as { shape?: unknown; dtype?: unknown };
  if (isObject(source) && 'tensorRef' in source) {
    if (!('buffer' in source)) {
      throw new UnpoolTypeError(`${fn}: this dataToGPU() result has no buffer (a WebGL texture?); ` +
          "only TF.js's WebGPU backend gives GPUBuffers");
    }
    return { buffer: source.buffer, shape, dtype };
  }
  return { buffer: source, shape, dtype };
}

function checkGpuTensor(fn: string, t: unknown): GpuTensor {
  if (!(t instanceof GpuTensor)) {
    throw new UnpoolTypeError(`${fn}: t must be a GpuTensor, got ${describe(t)}`);
  }
  t.usable(fn, 't');
  return t;
}

/**
 * The GpuTensor `t` as an ONNX Runtime Web tensor on the same buffer, with no
 * copy: `ort.Tensor.fromGpuBuffer(t.buffer, { dataType, dims, download,
 * dispose })`. Ownership passes to the ORT tensor: its `getData()` reads the
 * data back (as `t.read()`, float16 as Uint16Array bits, ORT's class) and its
 * `dispose()` destroys `t` (and so the buffer, when the library made it).
 * `ort` is the `onnxruntime-web` namespace; the buffer must be on the device
 * of the session that takes the tensor.
 */
export function toOrtTensor<T>(t: GpuTensor, ort: OrtLike<T>): T {
  const fn = 'toOrtTensor';
  checkGpuTensor(fn, t);
  const from = (ort as { Tensor?: { fromGpuBuffer?: unknown } } | null)?.Tensor?.fromGpuBuffer;
  if (typeof from !== 'function') {
    throw new UnpoolTypeError(`${fn}: ort must be the onnxruntime-web namespace (with ` +
        `Tensor.fromGpuBuffer), got ${describe(ort)}`);
  }
  if (!ORT_GPU_TYPES.includes(t.dtype)) {
    throw new UnpoolError(`${fn}: ONNX Runtime takes no ${t.dtype} tensor from a GPU buffer ` +
        `(it takes ${ORT_GPU_TYPES.filter((d) => d !== 'uint8').join(', ')})`, 'unsupported');
  }
  const download = async () => {
    const { data } = await t.read();
    // ORT's float16 class is Uint16Array (bits).
    return (t.dtype === 'float16' ? new Uint16Array(data.buffer, data.byteOffset, data.length) : data) as never;
  };
  return ort.Tensor.fromGpuBuffer(t.buffer as never, {
    dataType: t.dtype as never, dims: t.shape.slice(), download, dispose: () => t.destroy(),
  });
}

/** toTfTensor's options. */
export interface ToTfTensorOptions {
  /**
   * TF.js uses the buffer itself instead of a copy: `t` must then outlive the
   * TF.js tensor, whose dispose() leaves the buffer alone. Default false:
   * TF.js copies the buffer (the copy is submitted at the call), and `t`
   * stays the caller's, free to be destroyed at once.
   */
  zeroCopy?: boolean;
}

/**
 * The GpuTensor `t` as a TF.js tensor on TF.js's WebGPU backend:
 * `tf.tensor({ buffer: t.buffer, zeroCopy }, shape, dtype)`. float32 and int32
 * only (TF.js's GPU dtypes). The backend must run on the device of `t`
 * (`initWebGPU({ device: tf.backend().device })`).
 */
export function toTfTensor<T>(t: GpuTensor, tf: TfLike<T>, options: ToTfTensorOptions = {}): T {
  const fn = 'toTfTensor';
  checkGpuTensor(fn, t);
  if (typeof (tf as { tensor?: unknown } | null)?.tensor !== 'function') {
    throw new UnpoolTypeError(`${fn}: tf must be the @tensorflow/tfjs namespace (with tensor()), ` +
        `got ${describe(tf)}`);
  }
  if (options === null || typeof options !== 'object') {
    throw new UnpoolTypeError(`${fn}: options must be an object { zeroCopy? }, got ${describe(options)}`);
  }
  if (!TF_GPU_TYPES.includes(t.dtype)) {
    throw new UnpoolError(`${fn}: TF.js keeps no ${t.dtype} tensor in a GPU buffer (it takes ` +
        `${TF_GPU_TYPES.join(', ')}${t.dtype === 'int64' ? "; pool with indexType: 'int32'" : ''})`,
    'unsupported');
  }
  const device = (t.owner as { device?: unknown }).device;
  const tfDevice = (tf.backend?.() as { device?: unknown } | undefined)?.device;
  if (tfDevice !== undefined && device !== undefined && tfDevice !== device) {
    throw new UnpoolError(`${fn}: TF.js's backend runs on another GPUDevice than t; ` +
        'initWebGPU({ device: tf.backend().device })', 'unsupported');
  }
  const data = { buffer: t.raw, zeroCopy: options.zeroCopy === true };
  return tf.tensor(data as never, t.shape.slice(), t.dtype as DType as never);
}
