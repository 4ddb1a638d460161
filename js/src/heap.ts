// The per-module runtime: what the module told us at load (the parameter
// block's layout, status names, dtype and op codes), the parameter block and
// the arena allocated once, the plan holders, views of the heap, and the
// heap blocks of calls (malloc with growth).
import type { UnpoolWasmModule } from './unpool.mjs';
import { DType, DTYPES, dtypesOf, Kind, StorageArray, ValueDType } from './dtypes.js';
import { Geometry, GEOMETRY_SLOTS, writeGeometry, Written } from './options.js';
import { UnpoolError } from './tensor.js';

/** Calls whose buffers fit in this many bytes use the arena. */
export const ARENA_BYTES = 64 * 1024;

/**
 * The arena starts on a cache line, wherever malloc put the block: small
 * calls stage their tensors there, and the kernels' SIMD loads should not
 * straddle cache lines by accident of the block's size.
 */
const ARENA_ALIGN = 64;

/**
 * `bytes` rounded up to a multiple of 8, where the buffers of a call start.
 * Integer arithmetic below 2^31, where it is exact (a Math.ceil of a
 * quotient is slower, and this runs on every small call).
 */
export const round8 = (bytes: number) =>
  (bytes < 0x7ffffff0 ? (bytes + 7) & ~7 : Math.ceil(bytes / 8) * 8);

/** Spatial dims and rank of the core (unpool::kMaxSpatialDims, kMaxRank). */
const SPATIAL = 3;
const RANK = SPATIAL + 2;

/**
 * The fields of the parameter block this layer writes or reads, with the
 * number of slots each uses: the ops' geometry (options.ts) and the shapes
 * (rank, dims) and unpool output ranges. Their offsets come from the module
 * (paramLayout()).
 */
const FIELDS = {
  ...GEOMETRY_SLOTS,
  shapeA: 1 + RANK, shapeB: 1 + RANK, shapeOut: 1 + RANK, rangeMin: SPATIAL, rangeMax: SPATIAL,
  // A plan's resolved geometry (planGeometry(), for the WebGPU backend):
  // layout, channels, planes, in, out, kernel, stride, pad, dilation (3
  // each), poolGeometry, regular.
  planGeometry: 3 + 6 * SPATIAL + 2,
} as const;

export type Field = keyof typeof FIELDS;
export type ParamLayout = Readonly<Record<Field, number>> & { readonly slots: number };
export type OpName = 'maxPool' | 'maxUnpool' | 'maxPoolBackward' | 'maxUnpoolBackward' |
    'adaptiveMaxPool' | 'fractionalMaxPool' | 'adaptiveMaxPoolBackward' | 'fractionalMaxPoolBackward';
const OPS: readonly OpName[] = ['maxPool', 'maxUnpool', 'maxPoolBackward', 'maxUnpoolBackward',
  'adaptiveMaxPool', 'fractionalMaxPool', 'adaptiveMaxPoolBackward', 'fractionalMaxPoolBackward'];

function mismatch(what: string): Error {
  return new Error(`unpool: the WebAssembly module does not match this JavaScript (${what})`);
}

/**
 * The module's block layout, checked: every field present, within the
 * block, and not overlapping the next one.
 */
function readLayout(m: UnpoolWasmModule): ParamLayout {
  const given = m.paramLayout() as Record<string, unknown>;
  const slots = given.slots;
  if (typeof slots !== 'number' || !Number.isSafeInteger(slots)) {
    throw mismatch('its parameter block has no slot count');
  }
  const layout: Record<string, number> = { slots };
  for (const name of Object.keys(FIELDS) as Field[]) {
    const at = given[name];
    if (typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0 || at + FIELDS[name] > slots) {
      throw mismatch(`its parameter block has no field '${name}' of ${FIELDS[name]} slots`);
    }
    layout[name] = at;
  }
  const sorted = (Object.keys(FIELDS) as Field[]).sort((a, b) => layout[a] - layout[b]);
  for (let i = 1; i < sorted.length; ++i) {
    const [a, b] = [sorted[i - 1], sorted[i]];
    if (layout[a] + FIELDS[a] > layout[b]) {
      throw mismatch(`parameter block fields '${a}' and '${b}' overlap`);
    }
  }
  return layout as ParamLayout;
}

/**
 * The module's code of each dtype of kind `kind`, from its valueTypes() or
 * indexTypes().
 */
function readCodes(m: UnpoolWasmModule, kind: Kind): Partial<Record<DType, number>> {
  const codes: Partial<Record<DType, number>> = {};
  const list = kind === 'float' ? m.valueTypes() : m.indexTypes();
  for (const t of dtypesOf(kind)) {
    const code = list.indexOf(t.dtype);
    if (code < 0) throw mismatch(`it has no ${kind === 'float' ? 'value' : 'index'} dtype '${t.dtype}'`);
    codes[t.dtype] = code;
  }
  return codes;
}

/** The heap as an array of each dtype. */
type HeapViews = Record<DType, StorageArray>;

/** The state of one loaded module. */
export class Runtime {
  readonly layout: ParamLayout;
  /** Status names by code (unpool::Status), from the module. */
  readonly statusNames: readonly string[];
  /**
   * The core's code of each dtype: of the index type for 'int32' and
   * 'int64' (for value dtypes, {@link valueCodes}).
   */
  readonly codes: Readonly<Record<DType, number>>;
  /** The core's code of each value dtype ('int32' and 'int64' as values). */
  readonly valueCodes: Readonly<Record<ValueDType, number>>;
  /** The core's code of each op. */
  readonly ops: Readonly<Record<OpName, number>>;
  /** The plan holder of each op (heap addresses, for the module's life). */
  readonly plans: Readonly<Record<OpName, number>>;
  /** Heap address of the parameter block. */
  readonly block: number;
  /** Heap address of the arena. */
  readonly arena: number;
  arenaBusy = false;
  private view: Float64Array;
  private u8: Uint8Array;
  /** The buffer of `u8`, kept: reading `.buffer` costs more than the check. */
  private buffer: ArrayBuffer;
  private views: HeapViews | undefined;
  private viewsOf: ArrayBuffer | undefined;

  constructor(readonly m: UnpoolWasmModule) {
    // Everything the module describes is checked before anything is allocated.
    this.layout = readLayout(m);
    this.statusNames = m.statusNames();
    this.valueCodes = readCodes(m, 'float') as Record<ValueDType, number>;
    this.codes = { ...this.valueCodes, ...readCodes(m, 'index') } as Record<DType, number>;
    const ops = m.opCodes() as unknown as Record<string, unknown>;
    for (const op of OPS) if (typeof ops[op] !== 'number') throw mismatch(`it has no op '${op}'`);
    this.ops = ops as unknown as Record<OpName, number>;
    const slots = this.layout.slots;
    const base = m._malloc(slots * 8 + ARENA_ALIGN + ARENA_BYTES) >>> 0;
    if (base === 0) throw new Error('unpool: cannot allocate the parameter block');
    this.block = base;
    this.arena = Math.ceil((base + slots * 8) / ARENA_ALIGN) * ARENA_ALIGN;
    const plans = {} as Record<OpName, number>;
    for (const op of OPS) plans[op] = m.createPlan() >>> 0;
    this.plans = plans;
    this.u8 = m.HEAPU8;
    this.buffer = this.u8.buffer as ArrayBuffer;
    this.view = new Float64Array(this.buffer, this.block, slots);
  }

  /**
   * The parameter block as doubles. Memory growth detaches the old buffer
   * (its views then have length 0): the view is then taken again.
   */
  get f(): Float64Array {
    if (this.view.length === 0) {
      this.view = new Float64Array(this.m.HEAPU8.buffer, this.block, this.layout.slots);
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

  /**
   * The whole memory as an array of each dtype, kept between calls (a call
   * then copies with one `set` instead of making a view per buffer); taken
   * again after growth.
   */
  get heapViews(): HeapViews {
    const heap = this.heap;
    if (this.views === undefined || this.viewsOf !== heap) {
      const views = {} as HeapViews;
      for (const t of Object.values(DTYPES)) views[t.dtype] = t.view(heap, 0, heap.byteLength / t.bytes);
      this.views = views;
      this.viewsOf = heap;
    }
    return this.views;
  }

  /**
   * A view of `n` elements of `dtype` at heap byte `at`, for result `slot`
   * of a small call to be copied from: the same object as last time when
   * nothing changed (a small call's results sit at the same place call
   * after call, and making a view costs more than this check). Never handed
   * out: a result is copied from it.
   */
  arenaView(slot: number, dtype: DType, at: number, n: number): StorageArray {
    const heap = this.heap;
    const v = this.arenaViews[slot];
    if (v !== undefined && v.heap === heap && v.at === at && v.n === n && v.dtype === dtype) {
      return v.view;
    }
    const view = DTYPES[dtype].view(heap, at, n);
    this.arenaViews[slot] = { heap, at, n, dtype, view };
    return view;
  }

  private arenaViews: ({ heap: ArrayBuffer; at: number; n: number; dtype: DType;
                         view: StorageArray } | undefined)[] = [];

  /** Throws an UnpoolError carrying the core's message unless `code` is 0 (ok). */
  check(code: number): void {
    if (code !== 0) {
      throw new UnpoolError(this.m.lastError(), this.statusNames[code] ?? `status_${code}`);
    }
  }

  /** What writeGeometry last wrote into the block. */
  private written: Written = {};

  /** Writes an op's geometry: every geometry field of the block. */
  writeGeometry(g: Geometry): void {
    writeGeometry(this.f, this.layout, g, this.written);
  }

  /** Writes a shape (rank, then its dims, zeros after) into field `at`. */
  writeShape(at: Field, shape: readonly number[]): void {
    const f = this.f;
    const s = this.layout[at];
    f[s] = shape.length;
    for (let i = 0; i < RANK; ++i) f[s + 1 + i] = i < shape.length ? shape[i] : 0;
  }

  /** Reads the shape the core wrote into field `at`. */
  readShape(at: Field): number[] {
    const f = this.f;
    const s = this.layout[at];
    const rank = f[s];
    const shape: number[] = [];
    for (let i = 0; i < rank; ++i) shape.push(f[s + 1 + i]);
    return shape;
  }
}

let current: Runtime | undefined;

/** Sets up the runtime of a freshly loaded module (called by the loader). */
export function attachRuntime(m: UnpoolWasmModule): void {
  current = new Runtime(m);
}

/** The runtime of the loaded module `m`. */
export function runtimeOf(m: UnpoolWasmModule): Runtime {
  if (current === undefined || current.m !== m) current = new Runtime(m);
  return current;
}

// ---- heap blocks ----------------------------------------------------------------

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
 * i32: addresses above 2 GiB would be negative), or 0. See malloc().
 */
export function heapMalloc(m: UnpoolWasmModule, bytes: number): number {
  return bytes <= MAX_HEAP_BYTES ? malloc(m, Math.max(bytes, 8)) : 0;
}

/**
 * dlmalloc never asks sbrk for 2 GiB or more at once (HALF_MAX_SIZE_T on
 * wasm32), so a block that needs the heap to grow by that much fails
 * although 4 GiB could hold it: the heap is then grown in steps (blocks
 * taken and freed again, which leaves the memory in dlmalloc's top chunk)
 * and the allocation tried once more. Every call frees its block, so the
 * heap is not fragmented and this succeeds for any block up to 4 GiB less
 * INITIAL_MEMORY.
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
 * One heap block for all buffers of a call, 8-aligned each. Small calls use
 * the arena the runtime allocated at load (no malloc per call); larger ones
 * malloc a block and free it in free(). Throws an UnpoolError
 * ('out_of_memory') when it cannot be had, with nothing left allocated.
 */
export class HeapBlock {
  readonly base: number;
  readonly ptrs: number[];
  private readonly inArena: boolean;

  constructor(private readonly rt: Runtime, fn: string, bytes: readonly number[]) {
    let total = 0;
    const offsets: number[] = [];
    for (const b of bytes) {
      offsets.push(total);
      total += round8(b);
    }
    if (!rt.arenaBusy && total <= ARENA_BYTES) {
      rt.arenaBusy = true;
      this.inArena = true;
      this.base = rt.arena;
    } else {
      this.inArena = false;
      this.base = heapMalloc(rt.m, total);
      if (this.base === 0) {
        throw new UnpoolError(`${fn}: the WebAssembly module cannot allocate ${total} bytes ` +
            `for this call (its heap is limited to 4 GiB)`, 'out_of_memory');
      }
    }
    for (let i = 0; i < offsets.length; ++i) offsets[i] += this.base;
    this.ptrs = offsets;
  }

  /** Buffer `i` as `length` elements of `dtype`; views are taken fresh (growth detaches them). */
  view(i: number, dtype: DType, length: number): StorageArray {
    return DTYPES[dtype].view(this.rt.heap, this.ptrs[i], length);
  }

  free(): void {
    if (this.inArena) {
      this.rt.arenaBusy = false;
    } else {
      this.rt.m._free(this.base);
    }
  }
}
