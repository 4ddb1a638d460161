// Hand-written types of the Emscripten glue (unpool.mjs) built from
// cpp/bindings. Emscripten 3.1.6 has no --emit-tsd; the test
// tests/js/api.test.ts checks that every binding declared here exists.
//
// Every op crosses as integers and heap addresses: its params and shapes are
// in the parameter block (cpp/bindings/param_block.h), whose slot offsets
// paramLayout() gives. Calls return an unpool::Status code (0 ok; the
// message of a failure is taken with lastError()).

/** The parameter block's field offsets (in doubles) by name, and its size. */
export type ParamLayout = { readonly [field: string]: number; readonly slots: number };

/** Op codes of plan() and runSmall(). */
export interface OpCodes {
  maxPool: number;
  maxUnpool: number;
  maxPoolBackward: number;
  maxUnpoolBackward: number;
}

export interface UnpoolWasmModule {
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  /** Read once at load. */
  paramLayout(): ParamLayout;
  /** Status names; index = unpool::Status code. */
  statusNames(): string[];
  /** Value dtype names; index = unpool::DType code. */
  valueTypes(): string[];
  /** Index dtype names; index = unpool::IndexType code. */
  indexTypes(): string[];
  opCodes(): OpCodes;
  /** The message of the last failed call (taken: a second call gives ''). */
  lastError(): string;
  memoryUsage(): { heapBytes: number; inUseBytes: number };
  /** A plan holder (heap address). */
  createPlan(): number;
  destroyPlan(plan: number): void;
  /** Validates op `op` on the block into `plan`; writes the result shape to shapeOut. */
  plan(op: number, plan: number, block: number, dtype: number, indexType: number): number;
  /** Runs `plan` on planes [planeBegin, planeEnd) (-1: all); addresses in op order (unused: 0). */
  runPlan(plan: number, a0: number, a1: number, a2: number, a3: number, planeBegin: number,
          planeEnd: number): number;
  /** plan(), then runs into `out` when the results fit `capacity` bytes; -1: not run. */
  runSmall(op: number, plan: number, block: number, dtype: number, indexType: number,
           in0: number, in1: number, out: number, capacity: number): number;
  /** Checks every index of an unpool or backward plan, writing nothing. */
  checkIndices(plan: number, indices: number): number;
  /** shapeA and the unpool params -> rangeMin, rangeMax. */
  unpoolOutputRange(block: number): number;
  /** The held plan's geometry -> the block's planGeometry (the WebGPU backend). */
  planGeometry(plan: number, block: number): number;
  /** The held plan's message for bad element `position` holding the int64 (lo, hi). */
  contentError(plan: number, position: number, lo: number, hi: number): number;
  /** convertIndices's checks alone (block as for convertIndices) -> planGeometry. */
  planConvert(block: number, from: number, fromType: number, to: number, toType: number): number;
  /** convertIndices's message for bad element `position` holding (lo, hi); perPlane 0/1. */
  convertError(block: number, from: number, position: number, lo: number, hi: number,
               perPlane: number): number;
  /** dims, layout, shapeA = the pooled input, shapeB = the indices' shape. */
  convertIndices(block: number, from: number, fromType: number, src: number, to: number,
                 toType: number, dst: number): number;
}

export interface UnpoolModuleOptions {
  wasmBinary?: ArrayBuffer | Uint8Array;
  locateFile?: (path: string, scriptDirectory: string) => string;
}

declare function createUnpoolModule(
  options?: UnpoolModuleOptions): Promise<UnpoolWasmModule>;
export default createUnpoolModule;
