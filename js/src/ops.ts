// The four operations for any number of spatial dims. Each call: check what
// only JS can check, write the params into the runtime's parameter block and
// ask the core for the output shape, take one heap block (the arena for small
// calls), copy the inputs in (resident inputs are read in place), run, copy
// the outputs out (into `out` when given) or hand them over as resident
// tensors, free.
import {
  ARENA_BYTES, checkCode, HeapBlock, Runtime, poolParams, PoolGeometry, readShape, runtimeOf, SLOT_PLANES,
  SLOT_RANGE, SLOT_SHAPE_A, SLOT_SHAPE_B, SLOT_SHAPE_OUT, unpoolParams, UnpoolGeometry, writePoolParams,
  writeShape, writeUnpoolParams,
} from './core.js';
import { Layout, layoutCode } from './layout.js';
import { wasm } from './loader.js';
import { addressOf, allocTensor, DType, WasmTensor } from './resident.js';
import {
  checkShape, checkTensor, describe, DTYPES, FloatArray, IndexArray, IndexType, numel, Tensor,
  TensorData,
} from './tensor.js';
import type { UnpoolWasmModule } from './unpool.mjs';

/** Where results go: fresh arrays (default), caller arrays, or module memory. */
interface ResultOptions<O> {
  /**
   * Arrays to write the result into instead of fresh ones: of the result's
   * type and exactly its length (a subarray is fine). The result's `data` is
   * this array.
   */
  out?: O;
  /**
   * Keep the result in the module's memory as WasmTensor(s) (no copy out),
   * for chaining into the next op. Dispose them when done. Not with `out`.
   */
  resident?: boolean;
}

/** Options of maxPool1d/2d/3d. */
export interface MaxPoolOptions extends PoolGeometry,
    ResultOptions<{ output?: FloatArray; indices?: IndexArray }> {
  /** Size of the window: a number for every spatial dim, or one per dim. */
  kernelSize: number | readonly number[];
  /** Index dtype of the result: 'int32' (Int32Array, default) or 'int64' (BigInt64Array). */
  indexType?: IndexType;
}

/** Options of maxPool1d/2d/3dBackward. */
export interface MaxPoolBackwardOptions extends PoolGeometry, ResultOptions<FloatArray> {
  /** Shape of the pooled input, which is also the shape of the result. */
  inputShape: readonly number[];
}

/** Options of maxUnpool1d/2d/3d. */
export interface MaxUnpoolOptions extends UnpoolGeometry, ResultOptions<FloatArray> {}

/** Options of maxUnpool1d/2d/3dBackward. */
export interface MaxUnpoolBackwardOptions extends ResultOptions<FloatArray> {
  /** Layout of gradOutput and indices: channels-first (default) or channels-last. */
  layout?: Layout;
}

/** The result of max pooling. */
export interface MaxPoolResult<T extends FloatArray = FloatArray, I extends IndexArray = IndexArray> {
  output: Tensor<T>;
  indices: Tensor<I>;
}

/** The result of max pooling with `resident: true`. */
export interface ResidentMaxPoolResult<T extends FloatArray = FloatArray,
                                       I extends IndexArray = IndexArray> {
  output: WasmTensor<T>;
  indices: WasmTensor<I>;
}

function indexTypeOf(fn: string, value: unknown): 0 | 1 {
  if (value === undefined || value === 'int32') return 0;
  if (value === 'int64') return 1;
  throw new TypeError(`${fn}: indexType=${describe(value)} must be 'int32' or 'int64'`);
}

// The core takes one shape for a values tensor and its indices.
function sameShape(fn: string, a: string, sa: readonly number[], b: string,
                   sb: readonly number[]): void {
  if (sa.length !== sb.length || sa.some((d, i) => d !== sb[i])) {
    throw new RangeError(`${fn}: ${a}.shape=${describe(sa)} must equal ${b}.shape=${describe(sb)}`);
  }
}

/** A tensor argument: host data to copy in, or a resident tensor read in place. */
interface Input {
  shape: number[];
  /** Host data (undefined for a resident tensor). */
  data: TensorData | undefined;
  /** Heap address of a resident tensor (0 for host data). */
  address: number;
  dtype: DType;
  /** dtype code of the core: 0 float32/int32, 1 float64/int64. */
  code: number;
  byteLength: number;
}

function checkInput(fn: string, name: string, value: unknown, kind: 'float' | 'index'): Input {
  if (value instanceof WasmTensor) {
    const address = addressOf(fn, name, value);
    const dtype = value.dtype as DType;
    const isFloat = dtype === 'float32' || dtype === 'float64';
    if (isFloat !== (kind === 'float')) {
      throw new TypeError(`${fn}: ${name} must hold ` +
          `${kind === 'float' ? 'float32 or float64' : 'int32 or int64'} data, got a ` +
          `WasmTensor of ${dtype}`);
    }
    const wide = dtype === 'float64' || dtype === 'int64';
    // The shape is frozen: read, never written, so no copy.
    return {
      shape: value.shape as number[], data: undefined, address, dtype, code: wide ? 1 : 0,
      byteLength: value.size * (wide ? 8 : 4),
    };
  }
  const t = checkTensor(fn, name, value, kind);
  return {
    shape: t.shape, data: t.data, address: 0, dtype: t.type.dtype, code: t.type.code,
    byteLength: t.data.length * t.type.bytes,
  };
}


/** How a result leaves the call. */
type Sink = { kind: 'fresh' } | { kind: 'out'; array: TensorData } | { kind: 'resident' };

const TAG = Object.getOwnPropertyDescriptor(
    Object.getPrototypeOf(Int8Array.prototype) as object, Symbol.toStringTag)!.get!;
const LENGTH = Object.getOwnPropertyDescriptor(
    Object.getPrototypeOf(Int8Array.prototype) as object, 'length')!.get!;

const ARRAY_NAMES: Record<DType, string> = {
  float32: 'Float32Array', float64: 'Float64Array', int32: 'Int32Array', int64: 'BigInt64Array',
};

/** Checks a caller-supplied `out` array: its type must be `dtype`'s and its length `n`. */
function checkOut(fn: string, name: string, value: unknown, dtype: DType, n: number): TensorData {
  const tag = ArrayBuffer.isView(value) ? TAG.call(value) as string | undefined : undefined;
  if (tag !== ARRAY_NAMES[dtype]) {
    throw new TypeError(`${fn}: ${name} must be a ${ARRAY_NAMES[dtype]} (the result's type), ` +
        `got ${describe(value)}`);
  }
  const length = LENGTH.call(value) as number;
  if (length !== n) {
    throw new RangeError(`${fn}: ${name} has length ${length}; the result has ${n} elements`);
  }
  return value as TensorData;
}

/** Reads `resident` and `out` of an options object (not yet checking `out`'s arrays). */
function resultMode(fn: string, options: ResultOptions<unknown> | undefined):
    { resident: boolean; out: unknown } {
  if (options === undefined) return { resident: false, out: undefined };
  const { resident, out } = options;
  if (resident !== undefined && typeof resident !== 'boolean') {
    throw new TypeError(`${fn}: resident=${describe(resident)} must be a boolean`);
  }
  if (resident === true && out !== undefined) {
    throw new TypeError(`${fn}: out and resident: true exclude each other`);
  }
  return { resident: resident === true, out };
}

function sinkOf(fn: string, name: string, resident: boolean, out: unknown, dtype: DType,
                n: number): Sink {
  if (resident) return { kind: 'resident' };
  if (out === undefined) return { kind: 'fresh' };
  return { kind: 'out', array: checkOut(fn, name, out, dtype, n) };
}

/** One output of a call. */
interface Output {
  dtype: DType;
  shape: number[];
  sink: Sink;
}

/**
 * Runs one call: `inputs` are copied into the call's heap block unless
 * resident; `outputs` get a block buffer, or their own allocation when
 * resident. `run` gets the addresses (inputs first, then outputs) and
 * returns a status. Returns each output as a Tensor or WasmTensor.
 */
function call(m: UnpoolWasmModule, fn: string, inputs: readonly Input[],
              outputs: readonly Output[], run: (a: number[]) => number): (Tensor | WasmTensor)[] {
  const nIn = inputs.length;
  const nOut = outputs.length;
  const sizes: number[] = [];
  const counts: number[] = [];
  for (let k = 0; k < nIn; ++k) sizes.push(inputs[k].address === 0 ? inputs[k].byteLength : 0);
  for (let k = 0; k < nOut; ++k) {
    const o = outputs[k];
    const n = numel(o.shape);
    counts.push(n);
    sizes.push(o.sink.kind === 'resident' ? 0 : n * DTYPES[o.dtype].bytes);
  }
  const resident: (WasmTensor | undefined)[] = [];
  let block: HeapBlock | undefined;
  try {
    for (let k = 0; k < nOut; ++k) {
      const o = outputs[k];
      resident.push(o.sink.kind === 'resident' ? allocTensor(m, fn, o.dtype, o.shape) : undefined);
    }
    block = new HeapBlock(m, fn, sizes);
    const addresses: number[] = [];
    for (let k = 0; k < nIn; ++k) {
      const input = inputs[k];
      if (input.address !== 0) {
        addresses.push(input.address);
      } else {
        block.write(k, input.data!);
        addresses.push(block.ptrs[k]);
      }
    }
    for (let k = 0; k < nOut; ++k) {
      const r = resident[k];
      addresses.push(r !== undefined ? addressOf(fn, 'result', r) : block.ptrs[nIn + k]);
    }
    checkCode(m, run(addresses));
    const results: (Tensor | WasmTensor)[] = [];
    for (let k = 0; k < nOut; ++k) {
      const o = outputs[k];
      const sink = o.sink;
      if (sink.kind === 'resident') {
        results.push(resident[k]!);
      } else if (sink.kind === 'out') {
        results.push({ data: block.readInto(nIn + k, sink.array, counts[k]), shape: o.shape });
      } else {
        results.push({ data: block.read(nIn + k, EMPTY[o.dtype], counts[k]), shape: o.shape });
      }
    }
    resident.length = 0;  // handed over
    return results;
  } finally {
    block?.free();
    for (const r of resident) r?.dispose();
  }
}

// ---- large calls: streamed range of planes by range of planes ----------------------
// A large channels-first call with host data runs as a loop over ranges of
// its (n, c) planes: each range's host inputs are copied into a buffer that
// stays in L2 cache, the core runs on those planes only (PlaneRange in
// cpp/include/unpool/unpool.h) and their results are copied out while still
// in cache. Copying whole tensors in, running once and copying out would
// move every byte through memory three times; streamed, pool and unpool of
// 1x64x112x112 run 1.25-1.6x faster (bench/RESULTS.md).

/** Host bytes (inputs and outputs) of one range of planes. */
export const STREAM_BYTES = 512 * 1024;

/** A call's planes: N * C (unbatched: C), channels-first. */
function planesOf(shape: readonly number[], dims: number): number {
  return shape.length === dims + 2 ? shape[0] * shape[1] : shape[0];
}

/** Elements of one plane of a (channels-first) shape. */
function planeSize(shape: readonly number[], dims: number): number {
  let n = 1;
  for (let i = shape.length - dims; i < shape.length; ++i) n *= shape[i];
  return n;
}

/**
 * Runs a call as `call` does, streamed over ranges of `planes` planes, when
 * it is large enough: returns undefined (having done nothing) otherwise.
 * Input `wholeInput` (if any) is copied in whole before the first range and
 * `before(addresses)` is then run, a check that may fail the call before any
 * result is written; the other host inputs go in range by range. `run` gets
 * the addresses of the current range's first plane of every input and
 * output; the range is in the parameter block.
 */
function streamed(m: UnpoolWasmModule, fn: string, dims: number, planes: number,
                  inputs: readonly Input[], outputs: readonly Output[],
                  run: (a: number[]) => number, wholeInput = -1,
                  before?: (a: number[]) => number): (Tensor | WasmTensor)[] | undefined {
  const nIn = inputs.length;
  const perIn = inputs.map((i) => planeSize(i.shape, dims));
  const perOut = outputs.map((o) => planeSize(o.shape, dims));
  let perPlane = 0;
  inputs.forEach((i, k) => {
    if (i.address === 0 && k !== wholeInput) perPlane += perIn[k] * DTYPES[i.dtype].bytes;
  });
  outputs.forEach((o, k) => {
    if (o.sink.kind !== 'resident') perPlane += perOut[k] * DTYPES[o.dtype].bytes;
  });
  const step = perPlane === 0 ? planes : Math.max(1, Math.floor(STREAM_BYTES / perPlane));
  if (step >= planes) return undefined;
  const rt = runtimeOf(m);
  const sizes = [
    ...inputs.map((i, k) => (i.address !== 0 ? 0 : k === wholeInput ? i.byteLength
                                                : step * perIn[k] * DTYPES[i.dtype].bytes)),
    ...outputs.map((o, k) => (o.sink.kind === 'resident' ? 0 : step * perOut[k] * DTYPES[o.dtype].bytes)),
  ];
  const resident: (WasmTensor | undefined)[] = [];
  let block: HeapBlock | undefined;
  try {
    const targets: (TensorData | undefined)[] = outputs.map((o, k) => {
      const sink = o.sink;
      return sink.kind === 'out' ? sink.array
          : sink.kind === 'fresh' ? freshArray(o.dtype, planes * perOut[k])
            : undefined;
    });
    for (const o of outputs) {
      resident.push(o.sink.kind === 'resident' ? allocTensor(m, fn, o.dtype, o.shape) : undefined);
    }
    block = new HeapBlock(m, fn, sizes);
    const addressAt = (k: number, plane: number): number => {
      if (k < nIn) {
        const i = inputs[k];
        const offset = plane * perIn[k] * DTYPES[i.dtype].bytes;
        if (i.address !== 0) return i.address + offset;
        return block!.ptrs[k] + (k === wholeInput ? offset : 0);
      }
      const r = resident[k - nIn];
      const offset = plane * perOut[k - nIn] * DTYPES[outputs[k - nIn].dtype].bytes;
      return r !== undefined ? addressOf(fn, 'result', r) + offset : block!.ptrs[k];
    };
    if (wholeInput >= 0 && inputs[wholeInput].address === 0) block.write(wholeInput, inputs[wholeInput].data!);
    const addresses = (plane: number) => Array.from({ length: nIn + outputs.length }, (_, k) => addressAt(k, plane));
    if (before !== undefined) checkCode(m, before(addresses(0)));
    for (let b = 0; b < planes; b += step) {
      const e = Math.min(planes, b + step);
      const heap = rt.heap;
      for (let k = 0; k < nIn; ++k) {
        const i = inputs[k];
        if (i.address !== 0 || k === wholeInput) continue;
        (DTYPES[i.dtype].view(heap, block.ptrs[k], (e - b) * perIn[k]) as { set(a: TensorData): void })
            .set(i.data!.subarray(b * perIn[k], e * perIn[k]));
      }
      const f = rt.f;
      f[SLOT_PLANES] = b;
      f[SLOT_PLANES + 1] = e;
      checkCode(m, run(addresses(b)));
      const after = rt.heap;  // the same buffer unless the call grew memory
      for (let k = 0; k < outputs.length; ++k) {
        const t = targets[k];
        if (t === undefined) continue;
        (t as { set(a: TensorData, offset: number): void })
            .set(DTYPES[outputs[k].dtype].view(after, block.ptrs[nIn + k], (e - b) * perOut[k]), b * perOut[k]);
      }
    }
    const results = outputs.map((o, k) => resident[k] ?? { data: targets[k]!, shape: o.shape });
    resident.length = 0;  // handed over
    return results;
  } finally {
    const f = rt.f;
    f[SLOT_PLANES] = 0;
    f[SLOT_PLANES + 1] = -1;
    block?.free();
    for (const r of resident) r?.dispose();
  }
}

// Node's Buffer.allocUnsafeSlow, taken at load: memory that is not zeroed
// first. Undefined in browsers.
const allocUnsafeSlow = (globalThis as { Buffer?: { allocUnsafeSlow?: unknown } }).Buffer
    ?.allocUnsafeSlow as ((bytes: number) => Uint8Array) | undefined;

/**
 * A fresh array of `n` elements for a result that the call writes whole
 * before returning it (it is dropped if the call throws). In Node its memory
 * is not zeroed first: ~1.5x faster for a multi-MB result (glibc's calloc
 * clears recycled memory). Its buffer is its own, of exactly its size.
 */
function freshArray(dtype: DType, n: number): TensorData {
  const bytes = n * DTYPES[dtype].bytes;
  // Node 20's Buffers hold at most 2^32 bytes; a larger result is zeroed.
  if (allocUnsafeSlow !== undefined && bytes <= 2 ** 32) {
    const b = allocUnsafeSlow(bytes);
    if (b instanceof Uint8Array && b.byteOffset === 0 && b.byteLength === bytes &&
        b.buffer.byteLength === bytes) {
      return DTYPES[dtype].view(b.buffer, 0, n);
    }
  }
  return DTYPES[dtype].view(new ArrayBuffer(bytes), 0, n);
}

/** Arrays of each type, to tell HeapBlock.read the type. */
const EMPTY: Record<DType, TensorData> = {
  float32: new Float32Array(0), float64: new Float64Array(0), int32: new Int32Array(0),
  int64: new BigInt64Array(0),
};

// ---- small calls: one crossing, no allocation -------------------------------------
// Host inputs are copied to the start of the arena and the core computes the
// output shape and runs in one call, writing the results after the inputs
// when they fit (the general path takes over when they do not).

const NOT_RUN = -1;
const round8 = (bytes: number) => Math.ceil(bytes / 8) * 8;

/** Copies host inputs into the arena from `at`; returns their addresses and the end. */
function stage(rt: Runtime, inputs: readonly Input[], budget: number):
    { addresses: number[]; end: number } | undefined {
  let at = rt.arena;
  let bytes = 0;
  for (const i of inputs) if (i.address === 0) bytes += round8(i.byteLength);
  if (bytes > budget) return undefined;
  const addresses: number[] = [];
  for (const i of inputs) {
    if (i.address !== 0) {
      addresses.push(i.address);
    } else {
      (rt.heapViews[i.dtype] as { set(a: TensorData, offset: number): void })
          .set(i.data!, at / DTYPES[i.dtype].bytes);
      addresses.push(at);
      at += round8(i.byteLength);
    }
  }
  return { addresses, end: at };
}

/** The result at `address` as a fresh array, or copied into `sink`'s array. */
function take(rt: Runtime, address: number, dtype: DType, shape: number[], n: number,
              sink: Sink): Tensor {
  const type = DTYPES[dtype];
  const view = type.view(rt.heap, address, n);
  if (sink.kind === 'out') {
    (sink.array as { set(a: TensorData): void }).set(view);
    return { data: sink.array, shape };
  }
  // The copy constructor allocates without zero-filling and copies: ~25%
  // faster than new + set on small results; slice() of a view of wasm
  // memory is several times slower in Chromium.
  return { data: type.copy(view), shape };
}

export function maxPoolNd(dims: number, x: unknown,
                          options: MaxPoolOptions): MaxPoolResult | ResidentMaxPoolResult {
  const fn = `maxPool${dims}d`;
  const m = wasm(fn);
  const xi = checkInput(fn, 'x', x, 'float');
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${fn}: options must be an object with kernelSize, got ${describe(options)}`);
  }
  const itype = indexTypeOf(fn, options.indexType);
  const params = poolParams(fn, dims, options, true);
  const mode = resultMode(fn, options);
  const idtype: DType = itype === 1 ? 'int64' : 'int32';
  let outY: unknown;
  let outI: unknown;
  if (mode.out !== undefined) {
    if (mode.out === null || typeof mode.out !== 'object' || ArrayBuffer.isView(mode.out)) {
      throw new TypeError(`${fn}: out must be an object { output?, indices? }, got ${describe(mode.out)}`);
    }
    ({ output: outY, indices: outI } = mode.out as { output?: unknown; indices?: unknown });
  }
  const rt = runtimeOf(m);
  const f = rt.f;
  writePoolParams(f, params);
  writeShape(f, SLOT_SHAPE_A, xi.shape);
  if (!mode.resident) {
    const staged = stage(rt, [xi], ARENA_BYTES / 2);
    if (staged !== undefined) {
      const code = m._unpool_max_pool_small(rt.block, xi.code, staged.addresses[0], itype,
                                            staged.end, rt.arena + ARENA_BYTES - staged.end);
      if (code !== NOT_RUN) {
        checkCode(m, code);
        const shape = readShape(rt.f, SLOT_SHAPE_OUT);
        const n = numel(shape);
        const sy = sinkOf(fn, 'out.output', false, outY, xi.dtype, n);
        const si = sinkOf(fn, 'out.indices', false, outI, idtype, n);
        return {
          output: take(rt, staged.end, xi.dtype, shape, n, sy),
          indices: take(rt, staged.end + round8(n * DTYPES[xi.dtype].bytes), idtype, shape.slice(), n, si),
        } as MaxPoolResult;
      }
    }
  }
  checkCode(m, m._unpool_max_pool_shape(rt.block));
  const outShape = readShape(f, SLOT_SHAPE_OUT);
  const n = numel(outShape);
  const outputs: Output[] = [
    { dtype: xi.dtype, shape: outShape, sink: sinkOf(fn, 'out.output', mode.resident, outY, xi.dtype, n) },
    { dtype: idtype, shape: outShape.slice(), sink: sinkOf(fn, 'out.indices', mode.resident, outI, idtype, n) },
  ];
  const run = (a: number[]) => m._unpool_max_pool(rt.block, xi.code, a[0], a[1], itype, a[2]);
  const [output, indices] = (params.layout === 0
    ? streamed(m, fn, dims, planesOf(xi.shape, dims), [xi], outputs, run)
    : undefined) ?? call(m, fn, [xi], outputs, run);
  return { output, indices } as MaxPoolResult | ResidentMaxPoolResult;
}

export function maxUnpoolNd(dims: number, x: unknown, indices: unknown,
                            options: MaxUnpoolOptions): Tensor<FloatArray> | WasmTensor<FloatArray> {
  const fn = `maxUnpool${dims}d`;
  const m = wasm(fn);
  const xi = checkInput(fn, 'x', x, 'float');
  const ii = checkInput(fn, 'indices', indices, 'index');
  const params = unpoolParams(fn, dims, options);
  const mode = resultMode(fn, options);
  sameShape(fn, 'indices', ii.shape, 'x', xi.shape);
  const rt = runtimeOf(m);
  const f = rt.f;
  writeUnpoolParams(f, params);
  writeShape(f, SLOT_SHAPE_A, xi.shape);
  if (!mode.resident) {
    const staged = stage(rt, [xi, ii], ARENA_BYTES / 2);
    if (staged !== undefined) {
      const [px, pi] = staged.addresses;
      const code = m._unpool_max_unpool_small(rt.block, xi.code, px, ii.code, pi, staged.end,
                                              rt.arena + ARENA_BYTES - staged.end);
      if (code !== NOT_RUN) {
        checkCode(m, code);
        const shape = readShape(rt.f, SLOT_SHAPE_OUT);
        const n = numel(shape);
        return take(rt, staged.end, xi.dtype, shape, n,
                    sinkOf(fn, 'out', false, mode.out, xi.dtype, n)) as Tensor<FloatArray>;
      }
    }
  }
  checkCode(m, m._unpool_max_unpool_shape(rt.block));
  const outShape = readShape(f, SLOT_SHAPE_OUT);
  const sink = sinkOf(fn, 'out', mode.resident, mode.out, xi.dtype, numel(outShape));
  const inputs = [xi, ii];
  const outputs: Output[] = [{ dtype: xi.dtype, shape: outShape, sink }];
  const run = (a: number[]) => m._unpool_max_unpool(rt.block, xi.code, a[0], ii.code, a[1], a[2]);
  // Streamed into `out`, all indices are checked before the first range is
  // written, so that a bad index leaves `out` as it was.
  const [y] = (params.layout === 0
    ? streamed(m, fn, dims, planesOf(xi.shape, dims), inputs, outputs, run,
               sink.kind === 'out' ? 1 : -1,
               sink.kind === 'out' ? (a) => m._unpool_max_unpool_check(rt.block, ii.code, a[1]) : undefined)
    : undefined) ?? call(m, fn, inputs, outputs, run);
  return y as Tensor<FloatArray> | WasmTensor<FloatArray>;
}

/** The inclusive range of valid unpool output sizes of one spatial dim. */
export interface SizeRange {
  min: number;
  max: number;
}

export function maxUnpoolOutputRangeNd(dims: number, inputShape: unknown,
                                       options: MaxUnpoolOptions,
                                       fn = `maxUnpool${dims}dOutputRange`,
                                       shapeName = 'inputShape'): SizeRange[] {
  const m = wasm(fn);
  const shape = checkShape(fn, shapeName, inputShape);
  const params = unpoolParams(fn, dims, options);
  const rt = runtimeOf(m);
  const f = rt.f;
  writeUnpoolParams(f, params);
  writeShape(f, SLOT_SHAPE_A, shape);
  checkCode(m, m._unpool_max_unpool_output_range(rt.block));
  const ranges: SizeRange[] = [];
  for (let i = 0; i < dims; ++i) ranges.push({ min: f[SLOT_RANGE + i], max: f[SLOT_RANGE + 3 + i] });
  return ranges;
}

export function maxPoolBackwardNd(dims: number, gradOutput: unknown, indices: unknown,
                                  options: MaxPoolBackwardOptions): Tensor<FloatArray> | WasmTensor<FloatArray> {
  const fn = `maxPool${dims}dBackward`;
  const m = wasm(fn);
  const gi = checkInput(fn, 'gradOutput', gradOutput, 'float');
  const ii = checkInput(fn, 'indices', indices, 'index');
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${fn}: options must be an object with inputShape, got ${describe(options)}`);
  }
  if (options.inputShape === undefined) throw new TypeError(`${fn}: inputShape is required`);
  const inputShape = checkShape(fn, 'inputShape', options.inputShape);
  const params = poolParams(fn, dims, options, false);
  const mode = resultMode(fn, options);
  sameShape(fn, 'indices', ii.shape, 'gradOutput', gi.shape);
  const sink = sinkOf(fn, 'out', mode.resident, mode.out, gi.dtype, numel(inputShape));
  const rt = runtimeOf(m);
  const [r] = call(m, fn, [gi, ii], [{ dtype: gi.dtype, shape: inputShape, sink }],
                   (a) => {
                     const f = rt.f;
                     writePoolParams(f, params);
                     writeShape(f, SLOT_SHAPE_A, inputShape);
                     writeShape(f, SLOT_SHAPE_B, gi.shape);
                     return m._unpool_max_pool_backward(rt.block, gi.code, a[0], ii.code, a[1], a[2]);
                   });
  return r as Tensor<FloatArray> | WasmTensor<FloatArray>;
}

export function maxUnpoolBackwardNd(dims: number, gradOutput: unknown, indices: unknown,
                                    options?: MaxUnpoolBackwardOptions):
    Tensor<FloatArray> | WasmTensor<FloatArray> {
  const fn = `maxUnpool${dims}dBackward`;
  const m = wasm(fn);
  const gi = checkInput(fn, 'gradOutput', gradOutput, 'float');
  const ii = checkInput(fn, 'indices', indices, 'index');
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
  }
  const layout = layoutCode(fn, dims, options?.layout);
  const mode = resultMode(fn, options);
  const sink = sinkOf(fn, 'out', mode.resident, mode.out, gi.dtype, numel(ii.shape));
  const rt = runtimeOf(m);
  const [r] = call(m, fn, [gi, ii], [{ dtype: gi.dtype, shape: ii.shape, sink }],
                   (a) => {
                     const f = rt.f;
                     f[0] = dims;
                     f[22] = layout;
                     writeShape(f, SLOT_SHAPE_A, gi.shape);
                     writeShape(f, SLOT_SHAPE_B, ii.shape);
                     return m._unpool_max_unpool_backward(rt.block, gi.code, a[0], ii.code, a[1], a[2]);
                   });
  return r as Tensor<FloatArray> | WasmTensor<FloatArray>;
}
