// Hand-written types of the Emscripten glue (unpool.mjs) built from
// cpp/bindings/bindings.cc. Emscripten 3.1.6 has no --emit-tsd; the test
// tests/js/api.test.ts checks that every binding declared here exists.

/** One value of the embind enum `Status` (an object per value). */
export interface StatusValue {
  readonly value: number;
}

export interface WasmSize {
  count: number;
  list: boolean;
  values: [number, number, number];
}

export interface WasmShape {
  rank: number;
  dims: [number, number, number, number, number];
}

export interface WasmPoolParams {
  dims: number;
  kernel: WasmSize;
  stride: WasmSize;
  padding: WasmSize;
  dilation: WasmSize;
  ceilMode: boolean;
  /** unpool::Layout: 0 channels-first, 1 channels-last. */
  layout: number;
}

export interface WasmUnpoolParams {
  dims: number;
  kernel: WasmSize;
  stride: WasmSize;
  padding: WasmSize;
  outputSizeCount: number;
  outputSize: [number, number, number, number, number];
  layout: number;
}

export interface WasmShapeResult {
  status: StatusValue;
  shape: WasmShape;
}

export interface WasmRangeResult {
  status: StatusValue;
  min: [number, number, number];
  max: [number, number, number];
}

export interface UnpoolWasmModule {
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  Status: {
    ok: StatusValue;
    invalid_argument: StatusValue;
    invalid_shape: StatusValue;
    invalid_index: StatusValue;
    output_size_out_of_range: StatusValue;
    too_large: StatusValue;
  };
  maxPoolShape(p: WasmPoolParams, input: WasmShape): WasmShapeResult;
  maxPool(p: WasmPoolParams, input: WasmShape, dtype: number, x: number,
          y: number, indexType: number, indices: number): StatusValue;
  maxUnpoolShape(p: WasmUnpoolParams, input: WasmShape): WasmShapeResult;
  maxUnpoolOutputRange(p: WasmUnpoolParams, input: WasmShape): WasmRangeResult;
  maxUnpool(p: WasmUnpoolParams, input: WasmShape, dtype: number, x: number,
            indexType: number, indices: number, y: number): StatusValue;
  maxPoolBackward(p: WasmPoolParams, inputShape: WasmShape,
                  outputShape: WasmShape, dtype: number, gradOutput: number,
                  indexType: number, indices: number,
                  gradInput: number): StatusValue;
  maxUnpoolBackward(dims: number, layout: number, gradOutputShape: WasmShape,
                    indicesShape: WasmShape, dtype: number,
                    gradOutput: number, indexType: number, indices: number,
                    gradInput: number): StatusValue;
  convertIndices(dims: number, layout: number, input: WasmShape,
                 indicesShape: WasmShape, from: number, fromType: number,
                 src: number, to: number, toType: number,
                 dst: number): StatusValue;
  // The fast path (bindings.cc, namespace fast): `s` is the heap address of
  // the parameter block; the result is an unpool::Status code (0 ok).
  _unpool_param_slots(): number;
  _unpool_max_pool_shape(s: number): number;
  _unpool_max_pool(s: number, dtype: number, x: number, y: number, indexType: number,
                   indices: number): number;
  _unpool_max_pool_small(s: number, dtype: number, x: number, indexType: number, out: number,
                         capacity: number): number;
  _unpool_max_unpool_small(s: number, dtype: number, x: number, indexType: number,
                           indices: number, out: number, capacity: number): number;
  _unpool_max_unpool_check(s: number, indexType: number, indices: number): number;
  _unpool_max_unpool_shape(s: number): number;
  _unpool_max_unpool_output_range(s: number): number;
  _unpool_max_unpool(s: number, dtype: number, x: number, indexType: number, indices: number,
                     y: number): number;
  _unpool_max_pool_backward(s: number, dtype: number, gradOutput: number, indexType: number,
                            indices: number, gradInput: number): number;
  _unpool_max_unpool_backward(s: number, dtype: number, gradOutput: number, indexType: number,
                              indices: number, gradInput: number): number;
  statusName(status: StatusValue): string;
  lastError(): string;
  memoryUsage(): { heapBytes: number; inUseBytes: number };
}

export interface UnpoolModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, scriptDirectory: string) => string;
}

declare function createUnpoolModule(
  options?: UnpoolModuleOptions): Promise<UnpoolWasmModule>;
export default createUnpoolModule;
