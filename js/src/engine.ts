// The one call engine every op goes through. An op has written its geometry
// and shapes into the parameter block and describes its inputs (host data or
// resident tensors) and outputs (fresh arrays, the caller's `out` arrays, or
// resident tensors); execute() picks the path:
// - small: inputs fit half the arena: one crossing (runSmall) plans and runs
//   into the arena, no allocation;
// - streamed: a large channels-first call with host data runs range of
//   planes by range of planes through a buffer that stays in L2 cache (each
//   byte moves through memory once, not three times: pool and unpool of
//   1x64x112x112 run 1.25-1.6x faster, bench/RESULTS.md);
// - whole: one heap block for every buffer, one run.
import { DType, DTYPES, Kind, namesOf, TensorData } from './dtypes.js';
import { ARENA_BYTES, HeapBlock, OpName, Runtime } from './heap.js';
import { checkOut } from './options.js';
import { addressOf, allocTensor, WasmTensor } from './resident.js';
import { checkTensor, numel, Tensor } from './tensor.js';

/** A tensor argument: host data to copy in, or a resident tensor read in place. */
export interface Input {
  shape: number[];
  /** Host data (undefined for a resident tensor). */
  data: TensorData | undefined;
  /** Heap address of a resident tensor (0 for host data). */
  address: number;
  dtype: DType;
  byteLength: number;
}

export function checkInput(fn: string, name: string, value: unknown, kind: Kind): Input {
  if (value instanceof WasmTensor) {
    const address = addressOf(fn, name, value);
    const type = DTYPES[value.dtype as DType];
    if (type.kind !== kind) {
      throw new TypeError(`${fn}: ${name} must hold ${namesOf(kind)} data, got a ` +
          `WasmTensor of ${type.dtype}`);
    }
    // The shape is frozen: read, never written, so no copy.
    return {
      shape: value.shape as number[], data: undefined, address, dtype: type.dtype,
      byteLength: value.size * type.bytes,
    };
  }
  const t = checkTensor(fn, name, value, kind);
  return {
    shape: t.shape, data: t.data, address: 0, dtype: t.type.dtype,
    byteLength: t.data.length * t.type.bytes,
  };
}

/** One result of a call, as the op describes it. */
export interface OutputSpec {
  dtype: DType;
  /** Its `out` option's name in messages ('out', 'out.output', ...). */
  name: string;
  /** The caller's array for it (undefined: none), checked against the result. */
  out: unknown;
  /**
   * Its shape when known before the core runs (its `out` is then checked
   * before the core's checks); otherwise the core's result shape.
   */
  shape: number[] | undefined;
}

/** A call: the op, its element types, inputs and outputs in op order. */
export interface Call {
  fn: string;
  op: OpName;
  dtype: DType;
  indexType: DType;
  inputs: Input[];
  outputs: OutputSpec[];
  /** Results stay in module memory (WasmTensors). */
  resident: boolean;
  dims: number;
  layout: 0 | 1;
  /**
   * Whether a large channels-first call may run range of planes by range:
   * the core must take plane ranges for the op.
   */
  streams: boolean;
  /**
   * Streamed into `out`: the input copied whole and checked (checkIndices)
   * before the first range is written, so that a bad index leaves `out` as
   * it was (-1: none).
   */
  checkFirst: number;
}

/** How a result leaves the call. */
type Sink = { kind: 'fresh' } | { kind: 'out'; array: TensorData } | { kind: 'resident' };

interface Output {
  dtype: DType;
  shape: number[];
  sink: Sink;
}

const FRESH: Sink = { kind: 'fresh' };
const RESIDENT: Sink = { kind: 'resident' };
const NOT_RUN = -1;
const round8 = (bytes: number) => Math.ceil(bytes / 8) * 8;

function outputOf(c: Call, o: OutputSpec, shape: number[]): Output {
  const sink: Sink = c.resident ? RESIDENT : o.out === undefined ? FRESH
    : { kind: 'out', array: checkOut(c.fn, o.name, o.out, o.dtype, numel(shape)) };
  return { dtype: o.dtype, shape, sink };
}

/** The outputs, with the core's result shape (in the block) where the op gave none. */
function outputsOf(rt: Runtime, c: Call): Output[] {
  let core: number[] | undefined;
  const outputs: Output[] = [];
  for (const o of c.outputs) {
    let shape = o.shape;
    if (shape === undefined) shape = core === undefined ? (core = rt.readShape('shapeOut')) : core.slice();
    outputs.push(outputOf(c, o, shape));
  }
  return outputs;
}

/** Whether every output's shape is known before the core runs. */
function shapesKnown(c: Call): boolean {
  for (const o of c.outputs) if (o.shape === undefined) return false;
  return true;
}

/** Runs a call on the path that suits it; returns its results in op order. */
export function execute(rt: Runtime, c: Call): (Tensor | WasmTensor)[] {
  // Outputs of known shapes first: their `out` errors come before the core's.
  const known = shapesKnown(c) ? outputsOf(rt, c) : undefined;
  if (!c.resident) {
    const r = small(rt, c, known);
    if (r !== undefined) return r;
  }
  const plan = rt.plans[c.op];
  rt.check(rt.m.plan(rt.ops[c.op], plan, rt.block, rt.codes[c.dtype], rt.codes[c.indexType]));
  const outputs = known ?? outputsOf(rt, c);
  return (c.streams && c.layout === 0 ? streamed(rt, c, outputs, plan) : undefined) ??
      whole(rt, c, outputs, plan);
}

// ---- small calls: one crossing, no allocation -------------------------------------
// Host inputs are copied to the start of the arena; the core plans and runs
// in one call, writing the results after the inputs when they fit.

function small(rt: Runtime, c: Call, known: Output[] | undefined):
    (Tensor | WasmTensor)[] | undefined {
  let bytes = 0;
  for (const i of c.inputs) if (i.address === 0) bytes += round8(i.byteLength);
  if (bytes > ARENA_BYTES / 2) return undefined;
  const addresses = [0, 0];
  let at = rt.arena;
  for (let k = 0; k < c.inputs.length; ++k) {
    const i = c.inputs[k];
    if (i.address !== 0) {
      addresses[k] = i.address;
    } else {
      (rt.heapViews[i.dtype] as { set(a: TensorData, offset: number): void })
          .set(i.data!, at / DTYPES[i.dtype].bytes);
      addresses[k] = at;
      at += round8(i.byteLength);
    }
  }
  const code = rt.m.runSmall(rt.ops[c.op], rt.plans[c.op], rt.block, rt.codes[c.dtype],
                             rt.codes[c.indexType], addresses[0], addresses[1], at,
                             rt.arena + ARENA_BYTES - at);
  if (code === NOT_RUN) return undefined;
  rt.check(code);
  // Results follow the inputs, each 8-aligned; no Output records on this path.
  let core: number[] | undefined;
  const results: Tensor[] = [];
  for (let k = 0; k < c.outputs.length; ++k) {
    const o = c.outputs[k];
    const sink = known?.[k].sink;
    let shape = o.shape;
    if (shape === undefined) shape = core === undefined ? (core = rt.readShape('shapeOut')) : core.slice();
    const n = numel(shape);
    const out = sink !== undefined ? (sink.kind === 'out' ? sink.array : undefined)
      : o.out === undefined ? undefined : checkOut(c.fn, o.name, o.out, o.dtype, n);
    const type = DTYPES[o.dtype];
    const view = type.view(rt.heap, at, n);
    at += round8(n * type.bytes);
    if (out !== undefined) {
      (out as { set(a: TensorData): void }).set(view);
      results.push({ data: out, shape });
    } else {
      results.push({ data: type.copy(view), shape });
    }
  }
  return results;
}

// ---- whole calls: one block, one run ----------------------------------------------

function whole(rt: Runtime, c: Call, outputs: readonly Output[], plan: number):
    (Tensor | WasmTensor)[] {
  const { fn, inputs } = c;
  const nIn = inputs.length;
  const sizes: number[] = [];
  const counts: number[] = [];
  for (const i of inputs) sizes.push(i.address === 0 ? i.byteLength : 0);
  for (const o of outputs) {
    const n = numel(o.shape);
    counts.push(n);
    sizes.push(o.sink.kind === 'resident' ? 0 : n * DTYPES[o.dtype].bytes);
  }
  const resident: (WasmTensor | undefined)[] = [];
  let block: HeapBlock | undefined;
  try {
    for (const o of outputs) {
      resident.push(o.sink.kind === 'resident' ? allocTensor(rt.m, fn, o.dtype, o.shape) : undefined);
    }
    block = new HeapBlock(rt, fn, sizes);
    const a = [0, 0, 0];
    for (let k = 0; k < nIn; ++k) {
      const i = inputs[k];
      if (i.address !== 0) {
        a[k] = i.address;
      } else {
        (block.view(k, i.dtype, i.data!.length) as { set(a: TensorData): void }).set(i.data!);
        a[k] = block.ptrs[k];
      }
    }
    for (let k = 0; k < outputs.length; ++k) {
      const r = resident[k];
      a[nIn + k] = r !== undefined ? addressOf(fn, 'result', r) : block.ptrs[nIn + k];
    }
    rt.check(rt.m.runPlan(plan, a[0], a[1], a[2], 0, -1));
    const results: (Tensor | WasmTensor)[] = [];
    for (let k = 0; k < outputs.length; ++k) {
      const { dtype, shape, sink } = outputs[k];
      if (sink.kind === 'resident') {
        results.push(resident[k]!);
        continue;
      }
      const view = block.view(nIn + k, dtype, counts[k]);
      if (sink.kind === 'out') {
        (sink.array as { set(a: TensorData): void }).set(view);
        results.push({ data: sink.array, shape });
      } else {
        results.push({ data: DTYPES[dtype].copy(view), shape });
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

/** Host bytes (inputs and outputs) of one range of planes. */
export const STREAM_BYTES = 512 * 1024;

/** Elements of one plane of a (channels-first) shape. */
function planeSize(shape: readonly number[], dims: number): number {
  let n = 1;
  for (let i = shape.length - dims; i < shape.length; ++i) n *= shape[i];
  return n;
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
  const type = DTYPES[dtype];
  const bytes = n * type.bytes;
  // Node 20's Buffers hold at most 2^32 bytes; a larger result is zeroed.
  if (allocUnsafeSlow !== undefined && bytes <= 2 ** 32) {
    const b = allocUnsafeSlow(bytes);
    if (b instanceof Uint8Array && b.byteOffset === 0 && b.byteLength === bytes &&
        b.buffer.byteLength === bytes) {
      return type.view(b.buffer, 0, n);
    }
  }
  return type.view(new ArrayBuffer(bytes), 0, n);
}

/**
 * Runs a call streamed over ranges of its (n, c) planes when it is large
 * enough; returns undefined (having done nothing) otherwise. Input
 * `checkFirst`, when streaming into `out`, is copied in whole and checked
 * before the first range; the other host inputs go in range by range.
 */
function streamed(rt: Runtime, c: Call, outputs: readonly Output[], plan: number):
    (Tensor | WasmTensor)[] | undefined {
  const { fn, inputs, dims } = c;
  const nIn = inputs.length;
  const x = inputs[0].shape;
  const planes = x.length === dims + 2 ? x[0] * x[1] : x[0];
  const whole = c.checkFirst >= 0 && outputs.some((o) => o.sink.kind === 'out')
    ? c.checkFirst : -1;
  const perIn = inputs.map((i) => planeSize(i.shape, dims) * DTYPES[i.dtype].bytes);
  const perOut = outputs.map((o) => planeSize(o.shape, dims));
  let perPlane = 0;
  inputs.forEach((i, k) => { if (i.address === 0 && k !== whole) perPlane += perIn[k]; });
  outputs.forEach((o, k) => {
    if (o.sink.kind !== 'resident') perPlane += perOut[k] * DTYPES[o.dtype].bytes;
  });
  const step = perPlane === 0 ? planes : Math.max(1, Math.floor(STREAM_BYTES / perPlane));
  if (step >= planes) return undefined;
  const sizes = [
    ...inputs.map((i, k) => (i.address !== 0 ? 0 : k === whole ? i.byteLength : step * perIn[k])),
    ...outputs.map((o, k) => (o.sink.kind === 'resident' ? 0 : step * perOut[k] * DTYPES[o.dtype].bytes)),
  ];
  const resident: (WasmTensor | undefined)[] = [];
  let block: HeapBlock | undefined;
  try {
    const targets = outputs.map((o, k) => (o.sink.kind === 'out' ? o.sink.array
      : o.sink.kind === 'fresh' ? freshArray(o.dtype, planes * perOut[k]) : undefined));
    for (const o of outputs) {
      resident.push(o.sink.kind === 'resident' ? allocTensor(rt.m, fn, o.dtype, o.shape) : undefined);
    }
    block = new HeapBlock(rt, fn, sizes);
    const b0 = block;
    const addressAt = (k: number, plane: number): number => {
      if (k < nIn) {
        const i = inputs[k];
        if (i.address !== 0) return i.address + plane * perIn[k];
        return b0.ptrs[k] + (k === whole ? plane * perIn[k] : 0);
      }
      const r = resident[k - nIn];
      const offset = plane * perOut[k - nIn] * DTYPES[outputs[k - nIn].dtype].bytes;
      return r !== undefined ? addressOf(fn, 'result', r) + offset : b0.ptrs[k];
    };
    if (whole >= 0) {
      const i = inputs[whole];
      if (i.address === 0) {
        (block.view(whole, i.dtype, i.data!.length) as { set(a: TensorData): void }).set(i.data!);
      }
      rt.check(rt.m.checkIndices(plan, addressAt(whole, 0)));
    }
    for (let b = 0; b < planes; b += step) {
      const e = Math.min(planes, b + step);
      for (let k = 0; k < nIn; ++k) {
        const i = inputs[k];
        if (i.address !== 0 || k === whole) continue;
        const per = perIn[k] / DTYPES[i.dtype].bytes;
        (block.view(k, i.dtype, (e - b) * per) as { set(a: TensorData): void })
            .set(i.data!.subarray(b * per, e * per));
      }
      rt.check(rt.m.runPlan(plan, addressAt(0, b), addressAt(1, b), addressAt(2, b), b, e));
      for (let k = 0; k < outputs.length; ++k) {
        const t = targets[k];
        if (t === undefined) continue;
        (t as { set(a: TensorData, offset: number): void })
            .set(block.view(nIn + k, outputs[k].dtype, (e - b) * perOut[k]), b * perOut[k]);
      }
    }
    const results = outputs.map((o, k) => resident[k] ?? { data: targets[k]!, shape: o.shape });
    resident.length = 0;  // handed over
    return results;
  } finally {
    block?.free();
    for (const r of resident) r?.dispose();
  }
}
