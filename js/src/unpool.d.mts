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
}

export interface WasmUnpoolParams {
  dims: number;
  kernel: WasmSize;
  stride: WasmSize;
  padding: WasmSize;
  outputSizeCount: number;
  outputSize: [number, number, number, number, number];
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
  maxUnpoolBackward(dims: number, gradOutputShape: WasmShape,
                    indicesShape: WasmShape, dtype: number,
                    gradOutput: number, indexType: number, indices: number,
                    gradInput: number): StatusValue;
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
