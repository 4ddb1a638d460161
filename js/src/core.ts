// The bridge to the WebAssembly core: turns options into the embind param
// objects, owns the heap block of one call, and maps statuses to errors.
import type {
  StatusValue, UnpoolWasmModule, WasmPoolParams, WasmShape, WasmSize, WasmUnpoolParams,
} from './unpool.mjs';
import { Layout, layoutCode } from './layout.js';
import { checkInteger, describe, MAX_RANK, TensorData, UnpoolError } from './tensor.js';

/** Pool geometry as the user gives it. */
export interface PoolGeometry {
  kernelSize?: number | readonly number[];
  stride?: number | readonly number[] | null;
  padding?: number | readonly number[];
  dilation?: number | readonly number[];
  ceilMode?: boolean;
  /** Channels-first ('NCHW', default) or channels-last ('NHWC'); 1d/3d likewise. */
  layout?: Layout;
}

/** Unpool geometry as the user gives it. */
export interface UnpoolGeometry {
  kernelSize: number | readonly number[];
  stride?: number | readonly number[] | null;
  padding?: number | readonly number[];
  outputSize?: readonly number[] | null;
  /** Channels-first ('NCHW', default) or channels-last ('NHWC'); 1d/3d likewise. */
  layout?: Layout;
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
    values[i] = checkInteger(fn, name, value[i], i);
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
    layout: layoutCode(fn, dims, g.layout),
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
    for (let i = 0; i < count; ++i) outputSize[i] = checkInteger(fn, 'outputSize', os[i], i);
    outputSizeCount = count;
  }
  return {
    dims,
    kernel: sizeArg(fn, 'kernelSize', g.kernelSize, true),
    stride: sizeArg(fn, 'stride', g.stride),
    padding: sizeArg(fn, 'padding', g.padding),
    outputSizeCount,
    outputSize,
    layout: layoutCode(fn, dims, g.layout),
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
export function heapMalloc(m: UnpoolWasmModule, bytes: number): number {
  return bytes <= MAX_HEAP_BYTES ? malloc(m, Math.max(bytes, 8)) : 0;
}

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
 * One heap block for all buffers of a call. Small calls use the arena the
 * runtime allocated at load (no malloc per call); larger ones malloc a block
 * and free it in free(). `alloc` throws an UnpoolError ('out_of_memory') when
 * it cannot be had, with nothing left allocated.
 */
export class HeapBlock {
  readonly base: number;
  readonly ptrs: number[];
  private readonly inArena: boolean;

  constructor(private readonly m: UnpoolWasmModule, fn: string, bytes: readonly number[]) {
    let total = 0;
    const offsets: number[] = [];
    for (const b of bytes) {
      offsets.push(total);
      total += Math.ceil(b / 8) * 8;
    }
    const rt = current;
    if (rt !== undefined && rt.m === m && !rt.arenaBusy && total <= ARENA_BYTES) {
      rt.arenaBusy = true;
      this.inArena = true;
      this.base = rt.arena;
    } else {
      this.inArena = false;
      this.base = total <= MAX_HEAP_BYTES ? malloc(m, Math.max(total, 8)) : 0;
      if (this.base === 0) {
        throw new UnpoolError(`${fn}: the WebAssembly module cannot allocate ${total} bytes ` +
            `for this call (its heap is limited to 4 GiB)`, 'out_of_memory');
      }
    }
    for (let i = 0; i < offsets.length; ++i) offsets[i] += this.base;
    this.ptrs = offsets;
  }

  /** Copies `data` to buffer `i`. Heap views are taken fresh: growth detaches them. */
  write(i: number, data: TensorData): void {
    const Ctor = data.constructor as ArrayCtor;
    (new Ctor(this.m.HEAPU8.buffer, this.ptrs[i], data.length) as { set(a: TensorData): void })
        .set(data);
  }

  /** A copy of buffer `i` as `length` elements of the type of `like`. */
  read<T extends TensorData>(i: number, like: T, length: number): T {
    // The copy constructor allocates without zero-filling: in Node 1.5x
    // faster than new + set on a multi-MB result, the same in Chromium
    // (where slice() of a view of wasm memory was slower).
    const Ctor = like.constructor as ArrayCtor & { new (a: TensorData): TensorData };
    return new Ctor(new Ctor(this.m.HEAPU8.buffer, this.ptrs[i], length)) as T;
  }

  /** Copies `length` elements of buffer `i` into `out` (a typed array of that length). */
  readInto<T extends TensorData>(i: number, out: T, length: number): T {
    const Ctor = out.constructor as ArrayCtor;
    (out as { set(a: TensorData): void }).set(new Ctor(this.m.HEAPU8.buffer, this.ptrs[i], length));
    return out;
  }

  free(): void {
    if (this.inArena) {
      if (current !== undefined) current.arenaBusy = false;
    } else {
      this.m._free(this.base);
    }
  }
}

// ---- the fast path -------------------------------------------------------------
// Parameters go to the core through a block of doubles in the heap and the
// plain unpool_* exports (cpp/bindings/bindings.cc, namespace fast), not
// through embind value_objects, which cost ~3 us per call. The block and a
// small arena for the buffers of small calls are allocated once, at load.

/** Slots of the parameter block (doubles): see bindings.cc. */
export const SLOT_SHAPE_A = 24;
export const SLOT_SHAPE_B = 30;
export const SLOT_SHAPE_OUT = 36;
export const SLOT_RANGE = 42;
/** Two slots: the plane range [begin, end) of a streamed call (end -1: all). */
export const SLOT_PLANES = 48;
const PARAM_SLOTS = 50;

/** Calls whose buffers fit in this many bytes use the arena. */
export const ARENA_BYTES = 64 * 1024;

/** Status names by code (unpool::Status; checked against the embind enum in tests). */
export const STATUS_NAMES = [
  'ok', 'invalid_argument', 'invalid_shape', 'invalid_index', 'output_size_out_of_range',
  'too_large',
] as const;

/** The module's memory as an array of each dtype. */
interface HeapViews {
  float32: Float32Array;
  float64: Float64Array;
  int32: Int32Array;
  int64: BigInt64Array;
}

/** The per-module state of the fast path. */
export class Runtime {
  /** Heap address of the parameter block. */
  readonly block: number;
  /** Heap address of the arena. */
  readonly arena: number;
  arenaBusy = false;
  private view: Float64Array;
  private u8: Uint8Array;
  /** The buffer of `u8`, kept: reading `.buffer` costs more than the check. */
  private buffer: ArrayBuffer;

  constructor(readonly m: UnpoolWasmModule) {
    if (m._unpool_param_slots() !== PARAM_SLOTS) {
      throw new Error('unpool: the WebAssembly module does not match this JavaScript ' +
          `(${m._unpool_param_slots()} parameter slots, expected ${PARAM_SLOTS})`);
    }
    const base = m._malloc(PARAM_SLOTS * 8 + ARENA_BYTES) >>> 0;
    if (base === 0) throw new Error('unpool: cannot allocate the parameter block');
    this.block = base;
    this.arena = base + PARAM_SLOTS * 8;
    this.view = new Float64Array(m.HEAPU8.buffer, this.block, PARAM_SLOTS);
    this.u8 = m.HEAPU8;
    this.buffer = this.u8.buffer as ArrayBuffer;
  }

  /**
   * The parameter block as doubles. Memory growth detaches the old buffer
   * (its views then have length 0): the view is then taken again.
   */
  get f(): Float64Array {
    if (this.view.length === 0) {
      this.view = new Float64Array(this.m.HEAPU8.buffer, this.block, PARAM_SLOTS);
    }
    return this.view;
  }

  /** The module's memory (the current buffer, also after growth). */
  get heap(): ArrayBuffer {
    if (this.u8.length === 0) {
      this.u8 = this.m.HEAPU8;
      this.buffer = this.u8.buffer as ArrayBuffer;
    }
    return this.buffer;
  }

  private views: HeapViews | undefined;
  private viewsOf: ArrayBuffer | undefined;

  /**
   * The whole memory as an array of each dtype, kept between calls (a call
   * then copies with one `set` instead of making a view per buffer); taken
   * again after growth.
   */
  get heapViews(): HeapViews {
    const heap = this.heap;
    if (this.views === undefined || this.viewsOf !== heap) {
      this.views = {
        float32: new Float32Array(heap), float64: new Float64Array(heap),
        int32: new Int32Array(heap), int64: new BigInt64Array(heap),
      };
      this.viewsOf = heap;
    }
    return this.views;
  }
}

let current: Runtime | undefined;

/** Sets up the fast path of a freshly loaded module (called by the loader). */
export function attachRuntime(m: UnpoolWasmModule): void {
  current = new Runtime(m);
}

/** The runtime of the loaded module `m`. */
export function runtimeOf(m: UnpoolWasmModule): Runtime {
  if (current === undefined || current.m !== m) current = new Runtime(m);
  return current;
}

/** Throws an UnpoolError carrying the core's message unless `code` is 0 (ok). */
export function checkCode(m: UnpoolWasmModule, code: number): void {
  if (code !== 0) {
    throw new UnpoolError(m.lastError(), STATUS_NAMES[code] ?? `status_${code}`);
  }
}

function writeSize(f: Float64Array, at: number, s: WasmSize): void {
  f[at] = s.count;
  f[at + 1] = s.list ? 1 : 0;
  f[at + 2] = s.values[0];
  f[at + 3] = s.values[1];
  f[at + 4] = s.values[2];
}

/** Writes pool params: dims, ceilMode, kernel, stride, padding, dilation, layout. */
export function writePoolParams(f: Float64Array, p: WasmPoolParams): void {
  f[0] = p.dims;
  f[1] = p.ceilMode ? 1 : 0;
  writeSize(f, 2, p.kernel);
  writeSize(f, 7, p.stride);
  writeSize(f, 12, p.padding);
  writeSize(f, 17, p.dilation);
  f[22] = (p as { layout?: number }).layout ?? 0;
  f[SLOT_PLANES] = 0;
  f[SLOT_PLANES + 1] = -1;
}

/** Writes unpool params: dims, outputSizeCount, kernel, stride, padding, outputSize, layout. */
export function writeUnpoolParams(f: Float64Array, p: WasmUnpoolParams): void {
  f[0] = p.dims;
  f[1] = p.outputSizeCount;
  writeSize(f, 2, p.kernel);
  writeSize(f, 7, p.stride);
  writeSize(f, 12, p.padding);
  for (let i = 0; i < 5; ++i) f[17 + i] = p.outputSize[i];
  f[22] = (p as { layout?: number }).layout ?? 0;
  f[SLOT_PLANES] = 0;
  f[SLOT_PLANES + 1] = -1;
}

/** Writes a shape (rank, then five dims) at slot `at`. */
export function writeShape(f: Float64Array, at: number, shape: readonly number[]): void {
  f[at] = shape.length;
  for (let i = 0; i < 5; ++i) f[at + 1 + i] = i < shape.length ? shape[i] : 0;
}

/** Reads the shape the core wrote at slot `at`. */
export function readShape(f: Float64Array, at: number): number[] {
  const rank = f[at];
  const shape: number[] = [];
  for (let i = 0; i < rank; ++i) shape.push(f[at + 1 + i]);
  return shape;
}
