// Encoding one call: CallEncoder records dispatches of the table's entry
// points (kernels.ts) with their bindings by name, in one compute pass, and
// submits them; ENCODERS says which entry points each op runs, chunk by
// chunk of its planes.
import type { Call } from '../call.js';
import type { OpName } from '../runtime.js';
import { UnpoolError } from '../tensor.js';
import type { GpuMemory } from './buffers.js';
import { bindBytes, boxesOf, PlanGeometry, Range, tapCounts } from './geometry.js';
import type { GpuBufferLike, GpuCommandEncoderLike, GpuComputePassLike, GpuDeviceLike } from './gpu.js';
import { USAGE } from './gpu.js';
import { BindingOf, ENTRIES, EntryName, FAMILIES, FamilyName, WG } from './kernels.js';
import { paramWords, Params } from './params.js';
import type { Pipelines } from './pipelines.js';
import { bufferSize, GpuTensor } from './tensor.js';

/** A dispatch's buffers by binding name (absent: a small unused buffer). */
type Bindings<F extends FamilyName> = Partial<Record<BindingOf<F>, GpuBufferLike | Range>>;
type FamilyOf<E extends EntryName> = typeof ENTRIES[E]['family'];

/** The dispatches of one call, encoded into one command buffer. */
export class CallEncoder {
  private readonly enc: GpuCommandEncoderLike;
  private pass: GpuComputePassLike | undefined;
  /** Buffers of the call's own (uniform, scratch), destroyed once it is submitted. */
  private readonly temps: GpuBufferLike[] = [];

  constructor(private readonly device: GpuDeviceLike, private readonly memory: GpuMemory,
              private readonly pipelines: Pipelines,
              private readonly dummy: (binding: number) => GpuBufferLike, label: string) {
    this.enc = device.createCommandEncoder({ label: `unpool ${label}` });
  }

  /**
   * Encodes `entry` over `items` work items (none: nothing), with `params`
   * in a uniform buffer of its own and `bindings` by name.
   */
  dispatch<E extends EntryName>(entry: E, constants: Record<string, number>, params: Params, items: number,
                                bindings: Bindings<FamilyOf<E>>,
                                indirect?: { buffer: GpuBufferLike; offset: number },
                                taps?: readonly number[]): void {
    if (items === 0) return;
    if (!Number.isSafeInteger(items) || items < 0) {
      throw new Error(`unpool: internal error: ${entry} dispatched over ${items} items`);
    }
    const { family, size } = ENTRIES[entry];
    const [gx, gy] = size === 'one' ? [1, 1] : this.groupsOf(items);
    const uniform = this.memory.uniform();
    this.temps.push(uniform);
    this.device.queue.writeBuffer(uniform, 0, paramWords({ ...params, groups_x: gx }));
    const pipeline = this.pipelines.get(entry, constants, taps);
    const bindLimit = this.device.limits.maxStorageBufferBindingSize;
    const given = bindings as Record<string, GpuBufferLike | Range | undefined>;
    const group = this.device.createBindGroup({
      layout: this.pipelines.layoutOf(family).group,
      entries: [{ binding: 0, resource: { buffer: uniform } },
        ...FAMILIES[family].bindings.map(({ name }, i) => {
          const b = given[name] ?? this.dummy(i);
          const resource = 'buffer' in b ? b : { buffer: b, offset: 0, size: bindBytes(b, bindLimit) };
          return { binding: i + 1, resource };
        })],
    });
    const pass = this.passOf();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    if (indirect === undefined) pass.dispatchWorkgroups(gx, gy, 1);
    else pass.dispatchWorkgroupsIndirect(indirect.buffer, indirect.offset);
  }

  /** The workgroups (x, y) of a dispatch of `items` work items, folded into y past the x limit. */
  groupsOf(items: number): [number, number] {
    const groups = Math.ceil(items / WG);
    const gx = Math.min(groups, this.device.limits.maxComputeWorkgroupsPerDimension);
    return [gx, Math.ceil(groups / gx)];
  }

  /** A scratch buffer of `bytes`, destroyed once the call is submitted. */
  scratch(bytes: number, label: string, usage = USAGE.STORAGE | USAGE.COPY_DST): GpuBufferLike {
    const b = this.device.createBuffer({ size: bufferSize(bytes), usage, label });
    this.temps.push(b);
    return b;
  }

  /** `words` written into `buffer` (before the call's work, on the queue). */
  writeWords(buffer: GpuBufferLike, words: Uint32Array): void {
    this.device.queue.writeBuffer(buffer, 0, words);
  }

  /** Zeros in `buffer` (outside the pass: a clear is not a compute command). */
  clear(buffer: GpuBufferLike, offset?: number, size?: number): void {
    this.endPass();
    this.enc.clearBuffer(buffer, offset, size);
  }

  /** Submits the call's work; its own buffers go. */
  submit(): void {
    this.endPass();
    this.device.queue.submit([this.enc.finish()]);
    this.release();
  }

  /** What the call held, released (also when encoding threw). */
  release(): void {
    for (const t of this.temps) t.destroy();
    this.temps.length = 0;
  }

  /**
   * One compute pass for a call's dispatches: each dispatch is its own
   * usage scope, and sees the storage writes of those before it in the pass.
   */
  private passOf(): GpuComputePassLike {
    this.pass ??= this.enc.beginComputePass({ label: 'unpool' });
    return this.pass;
  }

  private endPass(): void {
    this.pass?.end();
    this.pass = undefined;
  }
}

/** What an op's encoder is given: the call, its plan's geometry, its tensors and chunks. */
export interface OpCall {
  readonly e: CallEncoder;
  readonly c: Call;
  readonly g: PlanGeometry;
  readonly inputs: readonly GpuTensor[];
  readonly outputs: readonly GpuTensor[];
  /** [u0, u1) ranges of units (planes, or images when channels-last), each bound whole. */
  readonly chunks: readonly [number, number][];
  /** DTYPE and INDEX64. */
  readonly constants: Record<string, number>;
  /** Work items of `n` values: those that share a word are one item's (4 uint8s, 2 int16s). */
  items(n: number): number;
  /** The call's status buffer, its content check set up. */
  newCheck(): GpuBufferLike;
  /**
   * Runs `chunk` for each chunk: `part(t)` the chunk's range of t, `n(t)` its
   * elements, `params` its geometry, `base(t)` its first element in t.
   */
  run(chunk: (part: (t: GpuTensor) => Range, n: (t: GpuTensor) => number, params: Params,
               base: (t: GpuTensor) => number) => void): void;
  /** Units of the largest chunk. */
  readonly mostUnits: number;
  /** The elements of the largest chunk of `t`. */
  most(t: GpuTensor): number;
  /** Bytes of one value (below 4: values share words). */
  readonly bytes: number;
}

const pool = (k: OpCall, mode: number): void => {
  const { e, inputs: [x], outputs: [y, idx] } = k;
  const constants = { ...k.constants, MODE: mode };
  // Whole-word values of a max pool: the interior box on its own kernel, each edge box on the general one.
  const taps = mode === 0 && k.bytes >= 4 ? tapCounts(k.g) : undefined;
  k.run((part, n, params) => {
    const bound = { x: part(x), y: part(y), idx: part(idx) };
    if (taps === undefined) {
      const count = n(y);
      e.dispatch('pool', constants, { ...params, count }, k.items(count), bound);
      return;
    }
    const [inner, ...edges] = boxesOf(k.g);
    for (const [box, entry, flags] of [[inner, 'pool_interior', 0] as const,
      ...edges.map((b) => [b, 'pool', 1] as const)]) {
      const count = params.planes! * box[3] * box[4] * box[5];
      const at = {
        ...params, count, flags,
        box_d0: box[0], box_h0: box[1], box_w0: box[2], box_d: box[3], box_h: box[4], box_w: box[5],
      };
      e.dispatch(entry, constants, at, count, bound, undefined, entry === 'pool_interior' ? taps : undefined);
    }
  });
};

/**
 * Pool backward (max, adaptive, fractional). Fractional windows come from
 * samples the backward pass is not given: it scans (MODE 0 without a pool
 * geometry).
 */
const backward = (k: OpCall, mode: number, pooled: boolean): void => {
  const { e, inputs: [go, indices], outputs: [gi] } = k;
  const status = k.newCheck();
  const constants = { ...k.constants, MODE: mode };
  const flags = pooled && k.g.poolGeometry ? 1 : 0;
  k.run((part, n, params, base) => {
    const bound = { go: part(go), indices: part(indices), gi: part(gi), status };
    const at = { ...params, flags, base: base(indices) };
    e.dispatch('check', constants, { ...at, count: n(indices) }, n(indices), bound);
    const count = n(gi);
    e.dispatch('gather', constants, { ...at, count }, k.items(count), bound);
    e.dispatch('backward_error', constants, { ...at, count: n(indices) }, 1, bound);
  });
};

export const ENCODERS: Readonly<Record<OpName, (k: OpCall) => void>> = {
  maxPool: (k) => pool(k, 0),
  adaptiveMaxPool: (k) => pool(k, 1),
  fractionalMaxPool(k) {
    const { e, g, inputs: [x, samples], outputs: [y, idx] } = k;
    const status = k.newCheck();
    const starts = e.scratch(k.mostUnits * (g.out[0] + g.out[1] + g.out[2]) * 4, 'unpool fractional starts');
    k.run((part, n, params, base) => {
      const planes = n(samples) / k.c.dims;
      const bound = { samples: part(samples), starts, status };
      e.dispatch('intervals', k.constants, { ...params, count: planes * 3, flags: k.c.dims, base: base(samples) },
                 planes * 3, bound);
      e.dispatch('fractional_error', k.constants, { ...params, count: n(samples), base: base(samples) }, 1, bound);
      const count = n(y);
      e.dispatch('pool', { ...k.constants, MODE: 2 }, { ...params, count }, k.items(count),
                 { x: part(x), y: part(y), idx: part(idx), aux: starts });
    });
  },
  maxPoolBackward: (k) => backward(k, 0, true),
  adaptiveMaxPoolBackward: (k) => backward(k, 1, false),
  fractionalMaxPoolBackward: (k) => backward(k, 0, false),
  maxUnpool(k) {
    const { e, g, inputs: [x, indices], outputs: [y] } = k;
    const status = k.newCheck();
    // Disjoint windows (stride >= kernel: then indices that each lie in
    // their own window name distinct targets), whole-word values, one
    // chunk, an output that clearBuffer may write: the plain scatter first
    // (unpool.wgsl).
    const plain = k.bytes >= 4 && k.chunks.length === 1 && (y.raw.usage & USAGE.COPY_DST) !== 0 &&
        g.kernel.every((kk, i) => kk >= 1 && g.stride[i] >= kk);
    const win = e.scratch(k.most(y) * 4, 'unpool winners');
    k.run((part, n, params, base) => {
      if (k.chunks.length > 1) e.clear(win);
      const bound = { x: part(x), indices: part(indices), y: part(y), win, status };
      const at = { ...params, base: base(indices) };
      const count = n(y);
      let fallback: { buffer: GpuBufferLike; offset: number }[] = [];
      if (plain && n(x) > 0 && count > 0) {
        // scatter_plain first; the scatter + gather run only if it armed them (unpool.wgsl).
        const [sx, sy] = e.groupsOf(n(x));
        const [gx, gy] = e.groupsOf(k.items(count));
        const args = e.scratch(32, 'unpool fallback', USAGE.STORAGE | USAGE.INDIRECT | USAGE.COPY_DST);
        e.writeWords(args, new Uint32Array([0, sy, 1, 0, gy, 1, sx, gx]));
        e.clear(y.raw, 0, y.byteLength);
        // status stays bound as `status`; the indirect arguments in place of `win`.
        e.dispatch('scatter_plain', k.constants, { ...at, count: n(x) }, n(x),
                   { x: part(x), indices: part(indices), y: part(y), win: args, status });
        fallback = [{ buffer: args, offset: 0 }, { buffer: args, offset: 12 }];
      }
      e.dispatch('scatter', k.constants, { ...at, count: n(x) }, n(x), bound, fallback[0]);
      // The gather reads the winners through its read-only binding, won.
      e.dispatch('unpool_gather', k.constants, { ...at, count }, k.items(count),
                 { x: part(x), indices: part(indices), y: part(y), status, won: win }, fallback[1]);
      e.dispatch('unpool_error', k.constants, { ...at, count: n(indices) }, 1, bound);
    });
  },
  maxUnpoolBackward(k) {
    const { e, inputs: [go, indices], outputs: [gi] } = k;
    const status = k.newCheck();
    k.run((part, n, params, base) => {
      // unpool.wgsl names gradOutput x and gradInput y.
      const bound = { x: part(go), indices: part(indices), y: part(gi), status };
      const at = { ...params, base: base(indices) };
      const count = n(gi);
      e.dispatch('unpool_backward', k.constants, { ...at, count }, k.items(count), bound);
      e.dispatch('unpool_error', k.constants, { ...at, count: n(indices) }, 1, bound);
    });
  },
};

/** Thrown for an op the table has and the GPU does not run. */
export function unsupported(fn: string): never {
  throw new UnpoolError(`${fn}: not available on the WebGPU backend yet`, 'unsupported');
}
