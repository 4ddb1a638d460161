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
import { classTagOf, describe, foreignTensor, UnpoolError, UnpoolTypeError } from '../tensor.js';
import { GpuTensor } from './tensor.js';

/** What gpu.wrap() reads of an `ort.Tensor` (onnxruntime-common's Tensor). */
export interface OrtGpuTensorLike {
  readonly location: string;
  readonly gpuBuffer: unknown;
  readonly dims: readonly number[];
  readonly type: string;
}

/**
 * What toOrtTensor() uses of the `onnxruntime-web` namespace:
 * `ort.Tensor.fromGpuBuffer`, and `ort.env.webgpu.device` (with the default
 * import, the one device of its sessions, there once its first WebGPU
 * session exists).
 */
export interface OrtLike<T = unknown> {
  readonly Tensor: {
    fromGpuBuffer(buffer: never, options: {
      dataType: never; dims: readonly number[];
      download?: () => Promise<never>; dispose?: () => void;
    }): T;
  };
  readonly env: { readonly webgpu: object };
}

/** What toTfTensor() uses of the `@tensorflow/tfjs` namespace: `tf.tensor`. */
export interface TfLike<T = unknown> {
  tensor(values: never, shape: number[], dtype: never): T;
  backend(): unknown;
}

/** TF.js's `tensor.dataToGPU()` result on the WebGPU backend. */
export interface TfGpuDataLike {
  /** Optional as TF.js types it (the WebGL backend gives a texture); gpu.wrap() refuses one without. */
  readonly buffer?: unknown;
  readonly tensorRef: unknown;
}

/** The dtypes ORT takes from a GPU buffer (Tensor.GpuBufferDataTypes) that unpool has. @internal */
export const ORT_GPU_TYPES: readonly string[] = ['float32', 'float16', 'int32', 'int64', 'uint8'];

/**
 * The one device every session of ONNX Runtime Web's default import runs
 * on, once it has one: that bundle's WebGPU EP (JSEP) makes a device at its
 * first WebGPU session, whatever device the session options name, and
 * defines `ort.env.webgpu.device` then as a non-writable property (1.30:
 * `Object.defineProperty(env.webgpu, 'device', { value, writable: false })`).
 * `onnxruntime-web/webgpu` (ORT's native WebGPU EP) assigns a plain
 * property there instead, the device of its sessions made without one, and
 * runs each session given `{ name: 'webgpu', device }` on that device: for
 * it the global says nothing about the session that reads a buffer, and
 * undefined is returned (ORT itself refuses a buffer of another device
 * there: its run() rejects). A getter is not called: ORT versions whose
 * getter exists before the first session create a device when it is read.
 */
function jsepDevice(webgpu: object): unknown {
  const d = Object.getOwnPropertyDescriptor(webgpu, 'device');
  if (d === undefined || !('value' in d) || d.writable !== false) return undefined;
  const v: unknown = d.value;
  return v !== null && typeof v === 'object' && typeof (v as { then?: unknown }).then !== 'function'
    ? v : undefined;
}

/** Why a GpuTensor of another device is refused for the default import, and what works. */
const JSEP_DEVICE = "this onnxruntime-web bundle (the default import, whose WebGPU EP is JSEP) runs every " +
    'session on the one device it made at its first WebGPU session, whatever device the session options ' +
    'name, and would read the buffer as garbage; run unpool on ORT\'s device: initWebGPU({ device: await ' +
    "ort.env.webgpu.device }) after that session, or import onnxruntime-web/webgpu (ORT's native WebGPU EP), " +
    "whose sessions run on the device they are given: executionProviders: [{ name: 'webgpu', device: gpu.device }]";

/** The dtypes TF.js's WebGPU backend keeps in buffers, as unpool names them. */
const TF_GPU_TYPES: readonly string[] = ['float32', 'int32'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

/** Whether `v` looks like an ort.Tensor (any location). */
function isOrtTensor(v: unknown): v is OrtGpuTensorLike {
  return foreignTensor(v)?.kind === 'ort';
}

/**
 * What to call to get a GpuTensor from `value`, given as argument `name`
 * where one goes: gpu.wrap() for another library's GPU tensor or a
 * GPUBuffer, gpu.upload() for data on the CPU; '' when nothing fits.
 */
function gpuHint(name: string, value: unknown): string {
  const f = foreignTensor(value);
  if (f?.kind === 'ort') {
    if (f.location === 'gpu-buffer') return `; pass gpu.wrap(${name}), which uses ORT's buffer with no copy`;
    return f.location === 'cpu' ? `; pass gpu.upload(${name}), a copy of its data on the GPU` : '';
  }
  if (f?.kind === 'tf') {
    return `; on TF.js's WebGPU backend, pass gpu.wrap(${name}.dataToGPU(), { shape: ${name}.shape, ` +
        `dtype: ${name}.dtype })`;
  }
  if (!isObject(value)) return '';
  let tag: unknown;
  let data: unknown;
  try {
    tag = (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag];
    data = value.data;
  } catch {
    return '';
  }
  if (tag === 'WasmTensor') return `; pass gpu.upload(${name}.read())`;
  if (tag === 'GPUBuffer') return `; pass gpu.wrap(${name}, { shape, dtype })`;
  return classTagOf(data) !== undefined ? `; pass gpu.upload(${name}), a copy of its data on the GPU` : '';
}

/**
 * The error of `value` given as argument `name` of `fn` where a GpuTensor
 * (`what`) goes: what it is, and what to call instead.
 * @internal
 */
export function notGpuTensor(fn: string, name: string, value: unknown,
                             what = 'a GpuTensor (gpu.upload() or gpu.wrap())'): UnpoolTypeError {
  return new UnpoolTypeError(`${fn}: ${name} must be ${what}, got ${describe(value)}${gpuHint(name, value)}`);
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
  if (!(t instanceof GpuTensor)) throw notGpuTensor(fn, 't', t, 'a GpuTensor');
  t.usable(fn, 't');
  return t;
}

/**
 * The GpuTensor `t` as an ONNX Runtime Web tensor on the same buffer, with no
 * copy: `ort.Tensor.fromGpuBuffer(t.buffer, { dataType, dims, download,
 * dispose })`. The ORT tensor owns the buffer from then on: its `getData()`
 * reads the data back (as `t.read()`, float16 as Uint16Array bits, ORT's
 * class), its `dispose()` destroys `t`, and `t.destroy()` throws (ORT may
 * still read the buffer, and keeps it registered). `ort` is the
 * `onnxruntime-web` namespace; `t` must be on the device of the session that
 * reads it. With the default import (JSEP), whose sessions all run on
 * `ort.env.webgpu.device`, another device's tensor is refused here or at the
 * run that reads it; with `onnxruntime-web/webgpu`, whose sessions run on
 * the device they are given, unpool cannot see the reading session's device
 * and refuses nothing (ORT's run() rejects a buffer of another device).
 */
export function toOrtTensor<T>(t: GpuTensor, ort: OrtLike<T>): T {
  const fn = 'toOrtTensor';
  checkGpuTensor(fn, t);
  const o = ort as { Tensor?: { fromGpuBuffer?: unknown }; env?: { webgpu?: unknown } } | null;
  const webgpu = o?.env?.webgpu;
  if (typeof o?.Tensor?.fromGpuBuffer !== 'function' || webgpu === null || typeof webgpu !== 'object') {
    throw new UnpoolTypeError(`${fn}: ort must be the onnxruntime-web namespace (with ` +
        `Tensor.fromGpuBuffer and env.webgpu), got ${describe(ort)}`);
  }
  if (!ORT_GPU_TYPES.includes(t.dtype)) {
    throw new UnpoolError(`${fn}: ONNX Runtime takes no ${t.dtype} tensor from a GPU buffer ` +
        `(it takes ${ORT_GPU_TYPES.join(', ')})`, 'unsupported');
  }
  checkOrtDevice(fn, 't', t, webgpu);
  const download = async () => {
    const { data } = await t.read();
    // ORT's float16 class is Uint16Array (bits).
    return (t.dtype === 'float16' ? new Uint16Array(data.buffer, data.byteOffset, data.length) : data) as never;
  };
  let release: (() => void) | undefined;
  const tensor = ort.Tensor.fromGpuBuffer(t.buffer as never, {
    dataType: t.dtype as never, dims: t.shape.slice(), download, dispose: () => release?.(),
  });
  release = t.handOver(fn);
  // ORT reads gpuBuffer when a session run takes the tensor, the latest
  // moment the reading session's device can be known: checked again then,
  // since the default import's device exists only from its first session on.
  checkOnRead(tensor, () => checkOrtDevice(fn, 'the ort.Tensor made from t', t, webgpu));
  return tensor;
}

/**
 * Throws when the session that reads `t` certainly runs on another device:
 * with the default import (JSEP) once its one device exists. Nothing is
 * refused that the reading session could use.
 */
function checkOrtDevice(fn: string, name: string, t: GpuTensor, webgpu: object): void {
  const device = jsepDevice(webgpu);
  if (device !== undefined && device !== t.owner.device) {
    throw new UnpoolTypeError(`${fn}: ${name} is a GpuTensor of another GPUDevice than ONNX Runtime's ` +
        `(ort.env.webgpu.device): ${JSEP_DEVICE}`);
  }
}

/** Runs `check` whenever `tensor.gpuBuffer` is read (where the property can be redefined). */
function checkOnRead(tensor: unknown, check: () => void): void {
  if (tensor === null || typeof tensor !== 'object') return;
  let d: PropertyDescriptor | undefined;
  for (let o: object | null = tensor; o !== null && d === undefined; o = Object.getPrototypeOf(o)) {
    d = Object.getOwnPropertyDescriptor(o, 'gpuBuffer');
  }
  if (d === undefined) return;
  const { get, value } = d;
  try {
    Object.defineProperty(tensor, 'gpuBuffer', {
      configurable: true, enumerable: d.enumerable,
      get() {
        check();
        return get !== undefined ? get.call(tensor) : value;
      },
    });
  } catch {
    // A frozen tensor: the check at the call stands alone.
  }
}

/** toTfTensor's options. */
export interface ToTfTensorOptions {
  /**
   * TF.js uses the buffer itself instead of a copy: `t` must then outlive the
   * TF.js tensor, whose dispose() leaves the buffer alone (`t.destroy()`
   * throws until that tensor is disposed). Default false:
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
  const f = tf as { tensor?: unknown; backend?: unknown } | null;
  if (typeof f?.tensor !== 'function' || typeof f.backend !== 'function') {
    throw new UnpoolTypeError(`${fn}: tf must be the @tensorflow/tfjs namespace (with tensor() and backend()), ` +
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
  const tfDevice = (tf.backend() as { device?: unknown } | undefined)?.device;
  if (tfDevice === undefined || tfDevice === null) {
    throw new UnpoolTypeError(`${fn}: TF.js's backend has no GPUDevice (tf.backend().device): ` +
        "await tf.setBackend('webgpu') first, then initWebGPU({ device: tf.backend().device })");
  }
  if (tfDevice !== t.owner.device) {
    throw new UnpoolTypeError(`${fn}: t is a GpuTensor of another GPUDevice than TF.js's backend ` +
        "(tf.backend().device), which cannot use its buffer; run unpool on TF.js's device: " +
        'initWebGPU({ device: tf.backend().device })');
  }
  const zeroCopy = options.zeroCopy === true;
  const tensor = tf.tensor({ buffer: t.raw, zeroCopy } as never, t.shape.slice(), t.dtype as DType as never);
  if (zeroCopy) t.lend(tensor as { isDisposed?: boolean });
  return tensor;
}
