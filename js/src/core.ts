// The bridge to the WebAssembly core: turns options into the embind param
// objects, owns the heap block of one call, and maps statuses to errors.
import type {
  StatusValue, UnpoolWasmModule, WasmPoolParams, WasmShape, WasmSize, WasmUnpoolParams,
} from './unpool.mjs';
import { checkInteger, describe, MAX_RANK, TensorData, UnpoolError } from './tensor.js';

/** Pool geometry as the user gives it. */
export interface PoolGeometry {
  kernelSize?: number | readonly number[];
  stride?: number | readonly number[] | null;
  padding?: number | readonly number[];
  dilation?: number | readonly number[];
  ceilMode?: boolean;
}

/** Unpool geometry as the user gives it. */
export interface UnpoolGeometry {
  kernelSize: number | readonly number[];
  stride?: number | readonly number[] | null;
  padding?: number | readonly number[];
  outputSize?: readonly number[] | null;
}

const NOT_GIVEN: WasmSize = { count: 0, list: false, values: [0, 0, 0] };

/**
 * A size option: a number (every spatial dim) or an array (checked by the
 * core: one entry per dim, or one entry for every dim in pools; an empty
 * stride array is the default, as in PyTorch). `undefined` is the default,
 * and so is `null` for a stride.
 */
export function sizeArg(fn: string, name: string, value: unknown, required = false): WasmSize {
  if (value === undefined || (name === 'stride' && value === null)) {
    if (required) throw new TypeError(`${fn}: ${name} is required`);
    return NOT_GIVEN;
  }
  if (typeof value === 'number') {
    return { count: 1, list: false, values: [checkInteger(fn, name, value), 0, 0] };
  }
  if (!Array.isArray(value)) {
    throw new TypeError(`${fn}: ${name} must be a number or an array of numbers, got ${describe(value)}`);
  }
  // Entries past the third are never used (the core rejects such lengths);
  // holes of a sparse array are undefined, not skipped.
  const count = value.length;
  if (count > 0x7fffffff) {
    throw new RangeError(`${fn}: ${name} has ${count} entries; expected at most 3`);
  }
  const values: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < Math.min(count, 3); ++i) {
    values[i] = checkInteger(fn, `${name}[${i}]`, value[i]);
  }
  return { count, list: true, values };
}

export function poolParams(fn: string, dims: number, g: PoolGeometry,
                           kernelRequired: boolean): WasmPoolParams {
  if (g === null || typeof g !== 'object') {
    throw new TypeError(`${fn}: options must be an object, got ${describe(g)}`);
  }
  if (g.ceilMode !== undefined && typeof g.ceilMode !== 'boolean') {
    throw new TypeError(`${fn}: ceilMode=${describe(g.ceilMode)} must be a boolean`);
  }
  return {
    dims,
    kernel: sizeArg(fn, 'kernelSize', g.kernelSize, kernelRequired),
    stride: sizeArg(fn, 'stride', g.stride),
    padding: sizeArg(fn, 'padding', g.padding),
    dilation: sizeArg(fn, 'dilation', g.dilation),
    ceilMode: g.ceilMode ?? false,
  };
}

export function unpoolParams(fn: string, dims: number, g: UnpoolGeometry): WasmUnpoolParams {
  if (g === null || typeof g !== 'object') {
    throw new TypeError(`${fn}: options must be an object, got ${describe(g)}`);
  }
  const outputSize: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  let outputSizeCount = -1;
  const os: unknown = g.outputSize;
  if (os !== undefined && os !== null) {
    if (!Array.isArray(os)) {
      throw new TypeError(`${fn}: outputSize must be an array of integers, got ${describe(os)}`);
    }
    const count = os.length;
    if (count > MAX_RANK) {
      throw new RangeError(`${fn}: outputSize=${describe(os)} has ${count} entries; ` +
          `expected ${dims}, ${dims + 1} or ${dims + 2}`);
    }
    // Index by index: holes of a sparse array are undefined, not skipped.
    for (let i = 0; i < count; ++i) outputSize[i] = checkInteger(fn, `outputSize[${i}]`, os[i]);
    outputSizeCount = count;
  }
  return {
    dims,
    kernel: sizeArg(fn, 'kernelSize', g.kernelSize, true),
    stride: sizeArg(fn, 'stride', g.stride),
    padding: sizeArg(fn, 'padding', g.padding),
    outputSizeCount,
    outputSize,
  };
}

export function wasmShape(shape: readonly number[]): WasmShape {
  const dims: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  shape.forEach((d, i) => { dims[i] = d; });
  return { rank: shape.length, dims };
}

export function jsShape(shape: WasmShape): number[] {
  return shape.dims.slice(0, shape.rank);
}

/** Throws an UnpoolError carrying the core's message unless `status` is ok. */
export function check(m: UnpoolWasmModule, status: StatusValue): void {
  if (status !== m.Status.ok) throw new UnpoolError(m.lastError(), m.statusName(status));
}

export const dtypeCode = (a: TensorData): number =>
  a instanceof Float64Array || a instanceof BigInt64Array ? 1 : 0;

type ArrayCtor = { new (buffer: ArrayBufferLike, offset: number, length: number): TensorData };

/** The largest heap the module may grow to (MAXIMUM_MEMORY less a page). */
const MAX_HEAP_BYTES = 4294901760;

/** How much the heap is grown at a time when one allocation cannot grow it enough. */
const GROW_STEP = 2 ** 30;

/**
 * The initial memory (16 MiB), which holds the static data and the stack
 * before the heap: a block larger than 4 GiB less this cannot fit, so the
 * heap is not grown for it (wasm memory never shrinks).
 */
const INITIAL_MEMORY = 16 * 2 ** 20;

/**
 * malloc, returning the address unsigned (`_malloc` returns it as a signed
 * i32: addresses above 2 GiB would be negative). dlmalloc never asks sbrk for
 * 2 GiB or more at once (HALF_MAX_SIZE_T on wasm32), so a block that needs
 * the heap to grow by that much fails although 4 GiB could hold it: the heap
 * is then grown in steps (blocks taken and freed again, which leaves the
 * memory in dlmalloc's top chunk) and the allocation tried once more. Every
 * call frees its block, so the heap is not fragmented and this succeeds for
 * any block up to 4 GiB less INITIAL_MEMORY.
 */
function malloc(m: UnpoolWasmModule, bytes: number): number {
  const p = m._malloc(bytes) >>> 0;
  if (p !== 0 || bytes < GROW_STEP || bytes > 2 ** 32 - INITIAL_MEMORY) return p;
  const steps: number[] = [];
  for (let got = 0; got < bytes;) {
    const step = Math.min(GROW_STEP, bytes - got);
    const s = m._malloc(step) >>> 0;
    if (s === 0) break;
    steps.push(s);
    got += step;
  }
  for (const s of steps) m._free(s);
  return m._malloc(bytes) >>> 0;
}

/**
 * One heap block for all buffers of a call. `alloc` throws an UnpoolError
 * ('out_of_memory') when it cannot be had, with nothing left allocated.
 */
export class HeapBlock {
  readonly base: number;
  readonly ptrs: number[];

  constructor(private readonly m: UnpoolWasmModule, fn: string, bytes: readonly number[]) {
    let total = 0;
    this.ptrs = bytes.map((b) => {
      const at = total;
      total += Math.ceil(b / 8) * 8;
      return at;
    });
    const base = total <= MAX_HEAP_BYTES ? malloc(m, Math.max(total, 8)) : 0;
    if (base === 0) {
      throw new UnpoolError(`${fn}: the WebAssembly module cannot allocate ${total} bytes ` +
          `for this call (its heap is limited to 4 GiB)`, 'out_of_memory');
    }
    this.base = base;
    this.ptrs = this.ptrs.map((p) => p + base);
  }

  /** Copies `data` to buffer `i`. Heap views are taken fresh: growth detaches them. */
  write(i: number, data: TensorData): void {
    const Ctor = data.constructor as ArrayCtor;
    (new Ctor(this.m.HEAPU8.buffer, this.ptrs[i], data.length) as { set(a: TensorData): void })
        .set(data);
  }

  /** A copy of buffer `i` as `length` elements of the type of `like`. */
  read<T extends TensorData>(i: number, like: T, length: number): T {
    const Ctor = like.constructor as ArrayCtor;
    return (new Ctor(this.m.HEAPU8.buffer, this.ptrs[i], length) as T).slice() as T;
  }

  free(): void {
    this.m._free(this.base);
  }
}
