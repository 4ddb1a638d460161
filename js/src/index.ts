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

export { backendInfo, init, isReady } from './loader.js';
export type { BackendInfo, InitOptions } from './loader.js';
export { uploadTensor, WasmTensor } from './resident.js';
export type { DType, DTypeOf, FloatInput, IndexInput } from './resident.js';
export * from './functional.js';
export * from './functional-adaptive.js';
export { MaxPool1d, MaxPool2d, MaxPool3d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d } from './modules.js';
export type {
  IndexArrayFor, MaxPoolModuleOptions, MaxUnpoolModuleOptions, ModuleCallOptions, ModulePoolCallOptions,
} from './modules.js';
export {
  AdaptiveMaxPool1d, AdaptiveMaxPool2d, AdaptiveMaxPool3d, FractionalMaxPool2d, FractionalMaxPool3d,
} from './modules-adaptive.js';
export type {
  AdaptiveMaxPoolModuleOptions, AdaptiveOutputSize, FractionalMaxPoolModuleOptions,
} from './modules-adaptive.js';
export type {
  AdaptiveMaxPoolBackwardOptions, AdaptiveMaxPoolOptions, FractionalMaxPoolBackwardOptions,
  FractionalMaxPoolOptions,
} from './ops-adaptive.js';
export type {
  MaxPoolBackwardOptions, MaxPoolOptions, MaxPoolResult, MaxUnpoolBackwardOptions,
  MaxUnpoolOptions, ResidentMaxPoolResult, SizeRange,
} from './ops.js';
export { convertIndices, outputSizeRange } from './interop.js';
export type {
  ConvertedIndexArray, ConvertIndicesOptions, DimsOptions, IndexFormat, OutputSizeRangeOptions,
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
}

/** Heap statistics of the module (after `await init()`). */
export function memoryUsage(): MemoryUsage {
  return wasm('memoryUsage').memoryUsage();
}
