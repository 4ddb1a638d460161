// `unpool/webgpu`: the ops on GPUBuffers. The same functions and options as
// the WebAssembly API (each call is planned by the same core, so shapes,
// geometry and messages are the CPU path's), with GpuTensors for tensors;
// every call submits its work before it returns. See docs/webgpu.md.
import type { Backend } from '../call.js';
import { DType, DTYPES, Float16ArrayLike, IndexArray, Kind, TensorData, typeNamed } from '../dtypes.js';
import { bindFunctions, Functions, IndexArrayOf } from '../functional.js';
import { ConvertedIndexArray, ConvertIndicesOptions, convertCall, CONVERT_INDICES_KEYS } from '../interop.js';
import { checkOptionKeys } from '../keys.js';
import { init, InitOptions, wasm } from '../loader.js';
import type { OnlyKnown } from '../options.js';
import { runtimeOf } from '../runtime.js';
import { checkShape, checkTensor, classTagOf, dataOf, describe, UnpoolError, UnpoolTypeError } from '../tensor.js';
import type { GpuMemoryUsage } from './buffers.js';
import { GpuBackend } from './device.js';
import type {
  GpuAdapterLike, GPUAdapterType, GPUBufferType, GpuDeviceLike, GPUDeviceType, GpuLike, GpuRequestAdapterOptions,
  GPUType,
} from './gpu.js';
import { notGpuTensor, wrapSource } from './interop.js';
import type { OrtGpuTensorLike, TfGpuDataLike } from './interop.js';
import { GpuTensor } from './tensor.js';

export { GpuTensor } from './tensor.js';
export type { GpuMemoryUsage } from './buffers.js';
export { toOrtTensor, toTfTensor } from './interop.js';
export type { OrtGpuTensorLike, OrtLike, TfGpuDataLike, TfLike, ToTfTensorOptions } from './interop.js';
export type {
  GpuBufferLike, GpuDeviceLike, GpuLike, GpuAdapterLike, GPUAdapterType, GPUBufferType, GPUDeviceType,
  GpuRequestAdapterOptions, GPUType,
} from './gpu.js';

export interface InitWebGPUOptions extends InitOptions {
  /**
   * The device to run on (ONNX Runtime's, TF.js's, or your own). Default: one
   * requested from `adapter`, or from an adapter of `gpu`.
   */
  device?: GPUDeviceType;
  /** The adapter to request the device from (no `device` given). */
  adapter?: GPUAdapterType;
  /**
   * Where to request an adapter when neither `device` nor `adapter` is given:
   * default `navigator.gpu` (Node.js: the `webgpu` package's `create()`,
   * which initWebGPU keeps referenced for as long as the backend lives).
   */
  gpu?: GPUType;
  /**
   * Passed to `requestAdapter()` (no `device` or `adapter` given), e.g.
   * `{ featureLevel: 'compatibility' }` for Dawn's OpenGL ES backend, or
   * `{ powerPreference: 'high-performance' }`.
   */
  adapterOptions?: GpuRequestAdapterOptions;
  /** @internal Bytes of a tensor a kernel binds at most (tests: calls split into chunks). */
  bindingLimit?: number;
}

/**
 * A host tensor for gpu.upload(): `{ data, shape, dtype? }` as the WebAssembly
 * API takes it (data of one of its classes; the upload keeps the class).
 */
export interface HostTensor<T extends TensorData = TensorData> {
  data: T;
  shape: readonly number[];
  dtype?: DType;
}

/**
 * The class read() gives a wrapped buffer of dtype `D`: float16 is a
 * Float16Array where the global exists, else a Uint16Array of the bits.
 */
export type WrappedArrayOf<D> =
    D extends 'float32' ? Float32Array : D extends 'float64' ? Float64Array :
    D extends 'float16' ? Float16ArrayLike | Uint16Array : D extends 'bfloat16' ? Uint16Array :
    D extends 'uint8' ? Uint8Array : D extends 'int8' ? Int8Array : D extends 'int16' ? Int16Array :
    D extends 'int32' ? Int32Array : D extends 'int64' ? BigInt64Array : TensorData;

type Fn = (...args: never[]) => unknown;

// Each GPU op's signature, from its functional form's: the value classes its
// first tensor takes (that form's `T`), its options, and whether it pools
// (`{ output, indices }`). As there, results are of the class of the values'
// data (`T`) and indices follow `indexType`.
type ValuesOf<F extends Fn> = Extract<Parameters<F>[0], { data: unknown }>['data'];
type Pools<F extends Fn> = ReturnType<F> extends { output: unknown; indices: unknown } ? true : false;

/**
 * Options `O` of an op on the GPU: no `resident`; `out` (an object `{ output?,
 * indices? }` for a pool) and `randomSamples` are GpuTensors, of the values'
 * class `T` (a pool's `out.indices` of its `indexType`'s class: GpuPool).
 */
export type GpuOptions<O, T extends TensorData, Pool extends boolean> =
    Omit<O, 'out' | 'resident' | 'randomSamples'> &
    { out?: Pool extends true ? { output?: GpuTensor<T>; indices?: GpuTensor<IndexArray> } : GpuTensor<T> } &
    ('randomSamples' extends keyof O ? { randomSamples?: GpuTensor<T> } : unknown);

/** What a pool returns on the GPU: values of the input's class `T`, indices of `indexType`'s `I`. */
export interface GpuMaxPoolResult<T extends TensorData, I extends IndexArray> {
  output: GpuTensor<T>;
  indices: GpuTensor<I>;
}

type GpuPool<V extends TensorData, Opts> =
    <T extends V, const O extends GpuOptions<Opts, T, true>>(
        x: GpuTensor<T>, options: OnlyKnown<O, GpuOptions<Opts, T, true>> &
            { out?: { indices?: GpuTensor<IndexArrayOf<O>> } }) =>
        GpuMaxPoolResult<T, IndexArrayOf<O>>;
type GpuOfIndices<V extends TensorData, Opts> =
    <T extends V, const O extends GpuOptions<Opts, T, false>>(
        x: GpuTensor<T>, indices: GpuTensor<IndexArray>, options: OnlyKnown<O, GpuOptions<Opts, T, false>>) =>
        GpuTensor<T>;
type GpuOfIndicesOptional<V extends TensorData, Opts> =
    <T extends V, const O extends GpuOptions<Opts, T, false> = GpuOptions<Opts, T, false>>(
        x: GpuTensor<T>, indices: GpuTensor<IndexArray>, options?: OnlyKnown<O, GpuOptions<Opts, T, false>>) =>
        GpuTensor<T>;

type GpuOp<F extends Fn> =
    Parameters<F> extends [unknown, infer O] ? (Pools<F> extends true ? GpuPool<ValuesOf<F>, O> : never) :
    Parameters<F> extends [unknown, unknown, infer O] ? GpuOfIndices<ValuesOf<F>, O> :
    Parameters<F> extends [unknown, unknown, (infer O)?] ? GpuOfIndicesOptional<ValuesOf<F>, NonNullable<O>> :
    never;

/**
 * Each op with GpuTensors for its tensors, `out` GpuTensors, and GpuTensor
 * results of the class of the values' data (indices: of `indexType`'s).
 */
export type GpuOps = { readonly [K in keyof Functions]: GpuOp<Functions[K]> };

/** What initWebGPU() resolves to: the ops on one device. */
export interface WebGPUBackend extends GpuOps {
  /** The GPUDevice in use. */
  readonly device: GPUDeviceType;
  /**
   * A host tensor (by the WebAssembly API's rules) copied into a new buffer;
   * read() gives its data's class back.
   */
  upload<T extends TensorData>(tensor: HostTensor<T>): GpuTensor<T>;
  /**
   * An existing buffer as a tensor, with no copy; it stays its owner's: a
   * GPUBuffer or TF.js's `dataToGPU()` result `{ buffer, tensorRef }` with
   * `{ shape, dtype }`, or an ort.Tensor on 'gpu-buffer' (its dims and type).
   * Of the class read() gives for the dtype ({@link WrappedArrayOf}).
   */
  wrap<D extends DType>(buffer: GPUBufferType, options: { shape: readonly number[]; dtype: D }):
      GpuTensor<WrappedArrayOf<D>>;
  wrap<D extends DType>(data: TfGpuDataLike, options: { shape: readonly number[]; dtype: D }):
      GpuTensor<WrappedArrayOf<D>>;
  wrap<D extends string>(tensor: OrtGpuTensorLike & { readonly type: D }): GpuTensor<WrappedArrayOf<D>>;
  /**
   * The GpuTensors this backend made (uploads, results) that are not
   * destroyed yet, and their buffers' bytes: a tensor whose destroy() was
   * missed shows here. Wrapped buffers are their owners' and not counted; a
   * tensor handed to ONNX Runtime counts until its ort.Tensor is disposed.
   */
  memoryUsage(): GpuMemoryUsage;
  /**
   * Resolves when none of the calls that made these tensors found bad
   * contents (an index outside its plane, a random sample outside [0, 1]),
   * and rejects with the error `t.check()` gives otherwise: the first in
   * call order. Reads every status word not read yet in one mapAsync (one
   * queue round trip however many calls), not the data. Pass the end of a
   * chain: a result carries the checks of the calls that made its inputs.
   */
  check(...tensors: GpuTensor[]): Promise<void>;
  /** convertIndices on the GPU: the same options, a GpuTensor of the result's index type. */
  convertIndices<const O extends ConvertIndicesOptions>(
      indices: GpuTensor<IndexArray>, options: OnlyKnown<O, ConvertIndicesOptions>):
      GpuTensor<ConvertedIndexArray<O>>;
}

/**
 * The ops' backend on device `b`: GpuTensors in (anything else is refused),
 * calls planned by the core and run by `b`, GpuTensor results.
 */
function opsBackend(b: GpuBackend): Backend<GpuTensor> {
  return {
    runtime: (fn) => runtimeOf(wasm(fn)),
    input(fn, name, value, kind) {
      if (value instanceof GpuTensor) return b.input(fn, name, value, kind);
      throw notGpuTensor(fn, name, value);
    },
    // Samples a fractional pool drew on the host, as the WebAssembly API draws them: uploaded.
    drawn: (fn, name, s, like) =>
      b.input(fn, name, b.upload(`gpu.${fn}`, s.data, s.shape, like.dtype, like.cls), 'float'),
    execute: (rt, c) => b.execute(rt, c),
  };
}

function backendObject(b: GpuBackend): WebGPUBackend {
  const api: Record<string, unknown> = {
    device: b.device,
    memoryUsage: (): GpuMemoryUsage => b.memoryUsage(),
    async check(...tensors: unknown[]): Promise<void> {
      const fn = 'gpu.check';
      b.alive(fn);
      const checked = tensors.map((t, i) => {
        const name = `tensors[${i}]`;
        if (Array.isArray(t)) {
          throw new UnpoolTypeError(`${fn}: ${name} is an array; pass the tensors as arguments: gpu.check(...tensors)`);
        }
        if (!(t instanceof GpuTensor)) throw notGpuTensor(fn, name, t);
        t.usable(fn, name);
        if (t.owner !== b) throw new UnpoolTypeError(`${fn}: ${name} is a GpuTensor of another device (another initWebGPU())`);
        return t;
      });
      return b.check(fn, checked);
    },
    upload(tensor: HostTensor): GpuTensor {
      const fn = 'gpu.upload';
      b.alive(fn);
      const tag = tensor !== null && typeof tensor === 'object' ? classTagOf(dataOf(tensor)) : undefined;
      const kind: Kind = tag === 'Int32Array' || tag === 'BigInt64Array' ? 'index' : 'float';
      const t = checkTensor(fn, 'tensor', tensor, kind);
      return b.upload(fn, t.data, t.shape, t.type.dtype, t.cls);
    },
    wrap(source: unknown, options?: { shape: readonly number[]; dtype: DType }): GpuTensor {
      const fn = 'gpu.wrap';
      b.alive(fn);
      const { buffer, shape: given, dtype } = wrapSource(fn, source, options);
      const shape = checkShape(fn, 'shape', given);
      // Every value dtype (integers included) and index dtype of the WebAssembly API.
      const type = typeNamed(dtype, 'float') ?? typeNamed(dtype, 'index');
      if (type === undefined) {
        throw new UnpoolTypeError(`${fn}: dtype=${describe(dtype)} must be one of ` +
            `${Object.keys(DTYPES).map((d) => `'${d}'`).join(', ')}`);
      }
      return b.wrap(fn, buffer, shape, type.dtype);
    },
  };
  api.convertIndices = (indices: unknown, options: ConvertIndicesOptions): GpuTensor => {
    const fn = 'convertIndices';
    b.alive(fn);
    checkOptionKeys(fn, options, CONVERT_INDICES_KEYS);
    if (!(indices instanceof GpuTensor)) throw notGpuTensor(fn, 'indices', indices);
    b.input(fn, 'indices', indices, 'index');
    const { from, to, toType } = convertCall(fn, b.rt, options, indices.shape);
    return b.convert(fn, indices, from, to, toType.dtype);
  };
  Object.assign(api, bindFunctions(opsBackend(b)));
  return Object.freeze(api) as unknown as WebGPUBackend;
}

/** initWebGPU's option keys (and the internal bindingLimit, which messages do not list). */
const INIT_WEBGPU_KEYS = ['device', 'adapter', 'gpu', 'adapterOptions', 'simd', 'locateFile', 'wasmBinary'];

/** The order that gives ONNX Runtime's and TF.js's devices, for messages about `device`. */
const DEVICE_ORDER = "ONNX Runtime's device is ort.env.webgpu.device once its first WebGPU session " +
    'exists (create the session first; before it, it is undefined); TF.js\'s is tf.backend().device ' +
    "after await tf.setBackend('webgpu'); or leave device out to request one";

/**
 * How to get a software adapter, for the "no adapter" message, on Linux
 * outside a browser (where a machine without a GPU is common).
 */
function softwareAdapterHint(): string {
  const g = globalThis as { Deno?: { build?: { os?: string } }; process?: { platform?: string } };
  const os = g.Deno?.build?.os ?? g.process?.platform;
  if (os !== 'linux') return '';
  return '. On Linux without a GPU: Dawn (the webgpu package) refuses Mesa\'s lavapipe but runs on the ' +
      'SwiftShader Vulkan driver of Debian\'s chromium (set VK_ICD_FILENAMES=' +
      '/usr/lib/chromium/vk_swiftshader_icd.json before it loads), or on OpenGL ES ' +
      "(create(['backend=opengles']) with adapterOptions: { featureLevel: 'compatibility' } and " +
      'EGL_PLATFORM=surfaceless); Deno\'s WebGPU runs on lavapipe (apt-get install mesa-vulkan-drivers)';
}

/** requestAdapter()'s options as a message shows them. */
function optionsText(o: object): string {
  try {
    return JSON.stringify(o) ?? describe(o);
  } catch {
    return describe(o);
  }
}

const hasMethod = (v: unknown, name: string): boolean =>
  v !== null && typeof v === 'object' && typeof (v as Record<string, unknown>)[name] === 'function';

/**
 * Sets up the WebGPU backend on `device` (or on one requested from `adapter`,
 * or from an adapter of `gpu`, default `navigator.gpu`), loading the
 * WebAssembly module too: it plans every call. The backend keeps what it was
 * given referenced for as long as it or one of its tensors lives.
 */
export async function initWebGPU(options: InitWebGPUOptions = {}): Promise<WebGPUBackend> {
  const fn = 'initWebGPU';
  if (options === null || typeof options !== 'object') {
    throw new UnpoolTypeError(`${fn}: options must be an object, got ${describe(options)}`);
  }
  const { bindingLimit, ...rest } = options;
  checkOptionKeys(fn, rest, INIT_WEBGPU_KEYS);
  const { device: given, adapter: givenAdapter, gpu: source, adapterOptions, ...wasmOptions } = rest;
  const requesting = ['adapter', 'gpu', 'adapterOptions'].filter((k) => k in options);
  if ('device' in options) {
    if (requesting.length > 0) {
      throw new UnpoolTypeError(`${fn}: device and ${requesting.join(', ')} given: ${requesting.join(', ')} ` +
          'would only request a device; pass either device or how to request one');
    }
    if (!hasMethod(given, 'createBuffer') || !hasMethod((given as { queue?: unknown }).queue, 'submit')) {
      const adapterHint = hasMethod(given, 'requestDevice') ? ' (that is a GPUAdapter: pass { adapter })' : '';
      throw new UnpoolTypeError(`${fn}: device must be a GPUDevice, got ${describe(given)}${adapterHint}; ` +
          DEVICE_ORDER);
    }
  }
  if ('adapter' in options) {
    if ('gpu' in options || 'adapterOptions' in options) {
      throw new UnpoolTypeError(`${fn}: adapter and ${'gpu' in options ? 'gpu' : 'adapterOptions'} given: ` +
          'the adapter is the one to use; pass either adapter or how to request one');
    }
    if (!hasMethod(givenAdapter, 'requestDevice')) {
      throw new UnpoolTypeError(`${fn}: adapter must be a GPUAdapter, got ${describe(givenAdapter)}`);
    }
  }
  if ('gpu' in options && !hasMethod(source, 'requestAdapter')) {
    throw new UnpoolTypeError(`${fn}: gpu must be a GPU object (navigator.gpu, or create([]) of the ` +
        `'webgpu' package in Node.js), got ${describe(source)}`);
  }
  if ('adapterOptions' in options && (adapterOptions === null || typeof adapterOptions !== 'object')) {
    throw new UnpoolTypeError(`${fn}: adapterOptions must be an object (requestAdapter's options), ` +
        `got ${describe(adapterOptions)}`);
  }
  await init(wasmOptions);
  // The consumer's WebGPU types (GPUDeviceType, ...) are used as the structural ones.
  let device = given as unknown as GpuDeviceLike | undefined;
  let adapter = givenAdapter as unknown as GpuAdapterLike | undefined;
  let g: GpuLike | undefined;
  if (device === undefined && adapter === undefined) {
    g = (source as unknown as GpuLike | undefined) ??
        (globalThis as { navigator?: { gpu?: GpuLike } }).navigator?.gpu;
    if (g === undefined) {
      throw new UnpoolError(`${fn}: this runtime has no navigator.gpu; pass { device } (or, in ` +
          "Node.js, { gpu: create([]) } from the 'webgpu' package)", 'unsupported');
    }
    const asked = `${source === undefined ? 'navigator.gpu' : 'gpu'}.requestAdapter(` +
        `${adapterOptions === undefined ? '' : optionsText(adapterOptions)})`;
    const a = await g.requestAdapter(adapterOptions);
    if (a === null || a === undefined) {
      throw new UnpoolError(`${fn}: ${asked} gave no adapter${softwareAdapterHint()}`, 'unsupported');
    }
    adapter = a;
  }
  device ??= await adapter!.requestDevice();
  return backendObject(new GpuBackend(device, runtimeOf(wasm(fn)), bindingLimit, [g, adapter]));
}
