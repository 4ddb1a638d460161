// Heap memory of calls: the arena of small calls (allocated once by the
// runtime) and heap blocks of larger ones (malloc, with the growth dlmalloc
// will not do alone).
import type { UnpoolWasmModule } from './unpool.mjs';
import type { DType, StorageArray } from './dtypes.js';
import { DTYPES } from './dtypes.js';
import { UnpoolError } from './tensor.js';

/** What a heap block needs of the runtime: the module and its arena. */
export interface Arena {
  readonly m: UnpoolWasmModule;
  /** Heap address of the arena. */
  readonly arena: number;
  /** Whether a call's buffers are in the arena now. */
  arenaBusy: boolean;
  /** The module's memory (the current buffer, also after growth). */
  readonly heap: ArrayBuffer;
}

/** Calls whose buffers fit in this many bytes use the arena. */
export const ARENA_BYTES = 64 * 1024;

/**
 * The arena starts on a cache line, wherever malloc put the block: small
 * calls stage their tensors there, and the kernels' SIMD loads should not
 * straddle cache lines by accident of the block's size.
 */
export const ARENA_ALIGN = 64;

/**
 * `bytes` rounded up to a multiple of 8, where the buffers of a call start.
 * Integer arithmetic below 2^31, where it is exact (a Math.ceil of a
 * quotient is slower, and this runs on every small call).
 */
export const round8 = (bytes: number) =>
  (bytes < 0x7ffffff0 ? (bytes + 7) & ~7 : Math.ceil(bytes / 8) * 8);



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

  constructor(private readonly rt: Arena, fn: string, bytes: readonly number[]) {
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
