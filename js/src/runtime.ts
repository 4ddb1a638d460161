// The runtime of one loaded module: what the module told us at load,
// checked before anything is allocated (the parameter block's layout,
// status names, dtype and op codes), the parameter block and the arena
// allocated once, the plan holders, and views of the heap.
import type { UnpoolWasmModule } from './unpool.mjs';
import { ParamBlock, readLayout } from './block.js';
import { DType, DTYPES, dtypesOf, Kind, StorageArray, ValueDType } from './dtypes.js';
import { Arena, ARENA_ALIGN, ARENA_BYTES } from './heap.js';
import { UnpoolError } from './tensor.js';

/** The core's ops (unpool::Op), as its opCodes() names them. */
export type OpName = 'maxPool' | 'maxUnpool' | 'maxPoolBackward' | 'maxUnpoolBackward' |
    'adaptiveMaxPool' | 'fractionalMaxPool' | 'adaptiveMaxPoolBackward' | 'fractionalMaxPoolBackward';
const OPS: readonly OpName[] = ['maxPool', 'maxUnpool', 'maxPoolBackward', 'maxUnpoolBackward',
  'adaptiveMaxPool', 'fractionalMaxPool', 'adaptiveMaxPoolBackward', 'fractionalMaxPoolBackward'];

function mismatch(what: string): Error {
  return new Error(`unpool: the WebAssembly module does not match this JavaScript (${what})`);
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
export class Runtime implements Arena {
  /** The parameter block: every read and write of it goes through this. */
  readonly params: ParamBlock;
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
  /** Heap address of the parameter block (what the module's functions take). */
  readonly block: number;
  /** Heap address of the arena. */
  readonly arena: number;
  arenaBusy = false;
  private u8: Uint8Array;
  /** The buffer of `u8`, kept: reading `.buffer` costs more than the check. */
  private buffer: ArrayBuffer;
  private views: HeapViews | undefined;
  private viewsOf: ArrayBuffer | undefined;

  constructor(readonly m: UnpoolWasmModule) {
    // Everything the module describes is checked before anything is allocated.
    const layout = readLayout(m, mismatch);
    this.statusNames = m.statusNames();
    this.valueCodes = readCodes(m, 'float') as Record<ValueDType, number>;
    this.codes = { ...this.valueCodes, ...readCodes(m, 'index') } as Record<DType, number>;
    const ops = m.opCodes() as unknown as Record<string, unknown>;
    for (const op of OPS) if (typeof ops[op] !== 'number') throw mismatch(`it has no op '${op}'`);
    this.ops = ops as unknown as Record<OpName, number>;
    const slots = layout.slots;
    const base = m._malloc(slots * 8 + ARENA_ALIGN + ARENA_BYTES) >>> 0;
    if (base === 0) throw new Error('unpool: cannot allocate the parameter block');
    this.block = base;
    this.arena = Math.ceil((base + slots * 8) / ARENA_ALIGN) * ARENA_ALIGN;
    const plans = {} as Record<OpName, number>;
    for (const op of OPS) plans[op] = m.createPlan() >>> 0;
    this.plans = plans;
    this.u8 = m.HEAPU8;
    this.buffer = this.u8.buffer as ArrayBuffer;
    this.params = new ParamBlock(m, base, layout);
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

