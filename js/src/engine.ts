// The one call engine every op goes through. An op has written its geometry
// and shapes into the parameter block and describes its inputs (host data or
// resident tensors) and outputs (fresh arrays, the caller's `out` arrays, or
// resident tensors); execute() picks the path:
// - small: inputs fit half the arena: one crossing (runSmall) plans and runs
//   into the arena, no allocation;
// - streamed (streamed.ts): a large channels-first call with host data runs
//   range of planes by range of planes through a buffer that stays in cache
//   (every plan runs on a plane range);
// - whole: one heap block for every buffer, one run.
import { Backend, Call, checkOut, hostInput, Output, OutputSpec, Sink } from './call.js';
import { DTYPES, FloatArray, StorageArray, ValueDType } from './dtypes.js';
import { ARENA_BYTES, HeapBlock, round8 } from './heap.js';
import { hintsIndices, withIndexHint } from './hints.js';
import { wasm } from './loader.js';
import { addressOf, allocTensor, WasmTensor } from './resident.js';
import { Runtime, runtimeOf } from './runtime.js';
import { streamed } from './streamed.js';
import { numel, TensorResult } from './tensor.js';

const FRESH: Sink = { kind: 'fresh' };
const RESIDENT: Sink = { kind: 'resident' };
const NOT_RUN = -1;

function outputOf(c: Call, o: OutputSpec, shape: number[]): Output {
  const sink: Sink = c.resident ? RESIDENT : o.out === undefined ? FRESH
    : checkOut(c.fn, o.name, o.out, o.dtype, o.cls, numel(shape));
  return { dtype: o.dtype, cls: o.cls, shape, sink };
}

/** The outputs, with the core's result shape (in the block) where the op gave none. */
function outputsOf(rt: Runtime, c: Call): Output[] {
  let core: number[] | undefined;
  const outputs: Output[] = [];
  for (const o of c.outputs) {
    let shape = o.shape;
    if (shape === undefined) shape = core === undefined ? (core = rt.params.readShape('shapeOut')) : core.slice();
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
export function execute(rt: Runtime, c: Call): (TensorResult | WasmTensor)[] {
  // Outputs of known shapes first: their `out` errors come before the core's.
  const known = shapesKnown(c) ? outputsOf(rt, c) : undefined;
  if (!c.resident) {
    const r = small(rt, c, known);
    if (r !== undefined) return r;
  }
  const plan = rt.plans[c.op];
  rt.check(rt.m.plan(rt.ops[c.op], plan, rt.block, rt.valueCodes[c.dtype as ValueDType],
                    rt.codes[c.indexType]));
  const outputs = known ?? outputsOf(rt, c);
  return (c.layout === 0 ? streamed(rt, c, outputs, plan) : undefined) ??
      whole(rt, c, outputs, plan);
}

// ---- small calls: one crossing, no allocation -------------------------------------
// Host inputs are copied to the start of the arena; the core plans and runs
// in one call, writing the results after the inputs when they fit.

function small(rt: Runtime, c: Call, known: Output[] | undefined):
    (TensorResult | WasmTensor)[] | undefined {
  let bytes = 0;
  for (const i of c.inputs) if (i.address === 0) bytes += round8(i.byteLength);
  if (bytes > ARENA_BYTES / 2) return undefined;
  let at = rt.arena;
  let a0 = 0, a1 = 0;  // the inputs' addresses (at most two on this path)
  for (let k = 0; k < c.inputs.length; ++k) {
    const i = c.inputs[k];
    let address = i.address;
    if (address === 0) {
      (rt.heapViews[i.dtype] as { set(a: StorageArray, offset: number): void })
          .set(i.data!, at / DTYPES[i.dtype].bytes);
      address = at;
      at += round8(i.byteLength);
    }
    if (k === 0) a0 = address;
    else if (k === 1) a1 = address;
  }
  const code = rt.m.runSmall(rt.ops[c.op], rt.plans[c.op], rt.block, rt.valueCodes[c.dtype as ValueDType],
                             rt.codes[c.indexType], a0, a1, at, rt.arena + ARENA_BYTES - at);
  if (code === NOT_RUN) return undefined;
  rt.check(code);
  // The results are where the core says it put them; no Output records on this path.
  let core: number[] | undefined;
  const results: TensorResult[] = [];
  for (let k = 0; k < c.outputs.length; ++k) {
    const o = c.outputs[k];
    const sink = known?.[k].sink;
    let shape = o.shape;
    if (shape === undefined) shape = core === undefined ? (core = rt.params.readShape('shapeOut')) : core.slice();
    const n = numel(shape);
    const out = sink !== undefined ? (sink.kind === 'out' ? sink : undefined)
      : o.out === undefined ? undefined : checkOut(c.fn, o.name, o.out, o.dtype, o.cls, n);
    const type = DTYPES[o.dtype];
    const view = rt.arenaView(k, o.dtype, rt.params.resultAt(k), n);
    if (out !== undefined) {
      (out.array as { set(a: StorageArray): void }).set(view);
      results.push({ data: out.user, shape, dtype: o.dtype });
    } else {
      results.push({ data: o.cls.wrap(type.copy(view)), shape, dtype: o.dtype });
    }
  }
  return results;
}

// ---- whole calls: one block, one run ----------------------------------------------

function whole(rt: Runtime, c: Call, outputs: readonly Output[], plan: number):
    (TensorResult | WasmTensor)[] {
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
      resident.push(o.sink.kind === 'resident'
        ? allocTensor(rt.m, fn, o.dtype, o.shape, o.cls) : undefined);
    }
    block = new HeapBlock(rt, fn, sizes);
    const a = [0, 0, 0, 0];
    for (let k = 0; k < nIn; ++k) {
      const i = inputs[k];
      if (i.address !== 0) {
        a[k] = i.address;
      } else {
        (block.view(k, i.dtype, i.data!.length) as { set(a: StorageArray): void }).set(i.data!);
        a[k] = block.ptrs[k];
      }
    }
    for (let k = 0; k < outputs.length; ++k) {
      const r = resident[k];
      a[nIn + k] = r !== undefined ? addressOf(fn, 'result', r) : block.ptrs[nIn + k];
    }
    rt.check(rt.m.runPlan(plan, a[0], a[1], a[2], a[3] ?? 0, 0, -1));
    const results: (TensorResult | WasmTensor)[] = [];
    for (let k = 0; k < outputs.length; ++k) {
      const { dtype, cls, shape, sink } = outputs[k];
      if (sink.kind === 'resident') {
        results.push(resident[k]!);
        continue;
      }
      const view = block.view(nIn + k, dtype, counts[k]);
      if (sink.kind === 'out') {
        (sink.array as { set(a: StorageArray): void }).set(view);
        results.push({ data: sink.user, shape, dtype });
      } else {
        results.push({ data: cls.wrap(DTYPES[dtype].copy(view)), shape, dtype });
      }
    }
    resident.length = 0;  // handed over
    return results;
  } finally {
    block?.free();
    for (const r of resident) r?.dispose();
  }
}

/**
 * The WebAssembly backend: host data and WasmTensors in, results copied out
 * (or left in module memory as WasmTensors).
 */
export const wasmBackend: Backend<TensorResult | WasmTensor> = Object.freeze({
  runtime: (fn: string) => runtimeOf(wasm(fn)),
  input: hostInput,
  drawn: (fn: string, name: string, tensor: { data: FloatArray; shape: number[] }) =>
    hostInput(fn, name, tensor, 'float'),
  execute: (rt: Runtime, c: Call) => {
    try {
      return execute(rt, c);
    } catch (e) {
      throw hinted(rt, c, e);
    }
  },
});

/**
 * An index error with what the call's indices fit (hints.ts). The indices
 * are all there: host data, or a resident tensor read in place (a streamed
 * call's error names the first bad index of the whole tensor, as its
 * ranges run in order).
 */
function hinted(rt: Runtime, c: Call, e: unknown): unknown {
  if (!hintsIndices(c.op) || c.inputs.length < 2) return e;
  const i = c.inputs[1];
  const n = numel(i.shape);
  const indices = (i.data ?? DTYPES[i.dtype].view(rt.heap, i.address, n)) as Int32Array | BigInt64Array;
  return withIndexHint(rt, rt.plans[c.op], c.fn, c.op, c.dims, indices, e);
}
