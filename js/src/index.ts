/**
 * unpool: max pooling with argmax indices and max unpooling, with exactly
 * PyTorch's semantics, as C++ kernels compiled to WebAssembly.
 *
 * @example
 * import { init, maxPool2d, maxUnpool2d } from 'unpool';
 * await init();
 * const x = { data: new Float32Array(16).map((_, i) => i), shape: [1, 1, 4, 4] };
 * const { output, indices } = maxPool2d(x, { kernelSize: 2 });
 * const restored = maxUnpool2d(output, indices, { kernelSize: 2 });
 *
 * @packageDocumentation
 */
import { wasm } from './loader.js';
import { liveTensors } from './resident.js';

export { backendInfo, init, isReady } from './loader.js';
export type { BackendInfo, InitOptions } from './loader.js';
export { uploadTensor, WasmTensor } from './resident.js';
export type { DType, DTypeOf, FloatInput, IndexInput } from './resident.js';
export {
  adaptiveMaxPool1d, adaptiveMaxPool1dBackward, adaptiveMaxPool2d, adaptiveMaxPool2dBackward,
  adaptiveMaxPool3d, adaptiveMaxPool3dBackward, fractionalMaxPool2d, fractionalMaxPool2dBackward,
  fractionalMaxPool3d, fractionalMaxPool3dBackward, maxPool1d, maxPool1dBackward, maxPool2d,
  maxPool2dBackward, maxPool3d, maxPool3dBackward, maxUnpool1d, maxUnpool1dBackward,
  maxUnpool1dOutputRange, maxUnpool2d, maxUnpool2dBackward, maxUnpool2dOutputRange, maxUnpool3d,
  maxUnpool3dBackward, maxUnpool3dOutputRange,
} from './functional.js';
export type {
  IndexArrayOf, MaxPoolResult, MaxPoolReturn, MaxUnpoolRangeOptions, ResidentMaxPoolResult,
  ResultFor, SizeRange,
} from './functional.js';
export {
  AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d, FractionalMaxPool2d, FractionalMaxPool3d,
  MaxPool1d, MaxPool2d, MaxPool3d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d,
} from './modules.js';
export type {
  AdaptiveMaxPoolModuleOptions, AdaptiveOutputSize, FractionalMaxPoolModuleOptions, IndexArrayFor,
  MaxPoolModuleOptions, MaxUnpoolModuleOptions, ModuleCallOptions, ModulePoolCallOptions,
} from './modules.js';
export type {
  AdaptiveMaxPoolBackwardOptions, AdaptiveMaxPoolOptions, FractionalMaxPoolBackwardOptions,
  FractionalMaxPoolOptions, MaxPoolBackwardOptions, MaxPoolOptions, MaxUnpoolBackwardOptions,
  MaxUnpoolOptions,
} from './options.js';
export { convertIndices, outputSizeRange, toOrtTensor } from './interop.js';
export type {
  ConvertedIndexArray, ConvertIndicesOptions, DimsOptions, IndexFormat, OrtTensorNamespace,
  OutputSizeRangeOptions,
} from './interop.js';
export type { Layout } from './layout.js';
export { isUnpoolError, UnpoolError, UnpoolTypeError } from './tensor.js';
export type { UnpoolErrorCode, UnpoolRangeErrorCode, UnpoolTypeErrorCode } from './tensor.js';
export type {
  Float16ArrayLike, Float16ArrayShape, FloatArray, FloatDType, IndexArray, IndexType, IntegerArray,
  IntegerDType, ValueArray, Size, Tensor, TensorData,
  TensorLike, TensorResult, ValueDType,
} from './tensor.js';

/** Heap statistics of the WebAssembly module. */
export interface MemoryUsage {
  /** Bytes the module's allocator has taken from its linear memory. */
  heapBytes: number;
  /** Bytes allocated now. Every call frees what it allocated, so this returns
   * to its previous value after each call, failed ones included (resident
   * tensors hold their bytes until dispose()). Right after init() it is
   * about 72 KB: the parameter block and the 64 KiB arena of small calls,
   * held for the module's life. */
  inUseBytes: number;
  /**
   * WasmTensors made (uploadTensor(), `resident: true`) and not yet
   * disposed: one that was never disposed keeps its bytes for the module's
   * life and shows here.
   */
  liveTensors: number;
}

/** Heap statistics of the module (after `await init()`). */
export function memoryUsage(): MemoryUsage {
  const { heapBytes, inUseBytes } = wasm('memoryUsage').memoryUsage();
  return { heapBytes, inUseBytes, liveTensors: liveTensors() };
}
