// The streamed path of the engine: a large channels-first call with host
// data runs as a loop over ranges of its (n, c) planes. Each range's host
// inputs are copied into a buffer that stays in L2 cache, the core runs on
// those planes only (runPlan with a plane range) and their results are
// copied out while still in cache. Copying whole tensors in, running once
// and copying out would move every byte through memory three times
// (bench/RESULTS.md has the measurements).
import { DType, DTYPES, StorageArray } from './dtypes.js';
import type { Call, Output } from './call.js';
import { HeapBlock } from './heap.js';
import type { Runtime } from './runtime.js';
import { addressOf, allocTensor, WasmTensor } from './resident.js';
import type { TensorResult } from './tensor.js';


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
 * is not zeroed first: a multi-MB result would otherwise be written twice
 * (glibc's calloc clears recycled memory). Its buffer is its own, of exactly its size.
 */
function freshArray(dtype: DType, n: number): StorageArray {
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
export function streamed(rt: Runtime, c: Call, outputs: readonly Output[], plan: number):
    (TensorResult | WasmTensor)[] | undefined {
  const { fn, inputs, dims } = c;
  const nIn = inputs.length;
  const x = inputs[0].shape;
  const planes = x.length === dims + 2 ? x[0] * x[1] : x[0];
  const whole = c.checkFirst >= 0 && outputs.some((o) => o.sink.kind === 'out')
    ? c.checkFirst : -1;
  const perIn = inputs.map((i) => planeSize(i.shape, i.planeDims ?? dims) * DTYPES[i.dtype].bytes);
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
      resident.push(o.sink.kind === 'resident'
        ? allocTensor(rt.m, fn, o.dtype, o.shape, o.cls) : undefined);
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
        (block.view(whole, i.dtype, i.data!.length) as { set(a: StorageArray): void }).set(i.data!);
      }
      rt.check(rt.m.checkIndices(plan, addressAt(whole, 0)));
    }
    for (let b = 0; b < planes; b += step) {
      const e = Math.min(planes, b + step);
      for (let k = 0; k < nIn; ++k) {
        const i = inputs[k];
        if (i.address !== 0 || k === whole) continue;
        const per = perIn[k] / DTYPES[i.dtype].bytes;
        (block.view(k, i.dtype, (e - b) * per) as { set(a: StorageArray): void })
            .set(i.data!.subarray(b * per, e * per));
      }
      rt.check(rt.m.runPlan(plan, addressAt(0, b), addressAt(1, b), addressAt(2, b),
                            nIn + outputs.length > 3 ? addressAt(3, b) : 0, b, e));
      for (let k = 0; k < outputs.length; ++k) {
        const t = targets[k];
        if (t === undefined) continue;
        (t as { set(a: StorageArray, offset: number): void })
            .set(block.view(nIn + k, outputs[k].dtype, (e - b) * perOut[k]), b * perOut[k]);
      }
    }
    const results = outputs.map((o, k) => resident[k] ?? {
      data: o.sink.kind === 'out' ? o.sink.user : o.cls.wrap(targets[k]!), shape: o.shape,
      dtype: o.dtype,
    });
    resident.length = 0;  // handed over
    return results;
  } finally {
    block?.free();
    for (const r of resident) r?.dispose();
  }
}
