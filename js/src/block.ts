// The parameter block: the doubles in the module's heap through which every
// call's arguments go in and the core's answers (an output shape, where a
// small call put its results, unpool output ranges, a plan's geometry) come
// back. Its layout is declared once, in cpp/bindings/param_block.h, and
// handed over at load (paramLayout()); this module is the only one that
// reads or writes the block.
import type { UnpoolWasmModule } from './unpool.mjs';
import type { Geometry } from './parse.js';
import type { SizeArg } from './parse.js';
import { MAX_RANK } from './tensor.js';

/** Spatial dims of the core (unpool::kMaxSpatialDims). */
const SPATIAL = 3;

/**
 * The fields this layer writes or reads, with the slots each takes (a size:
 * count, list, three values; a shape: rank, five dims). A new op parameter
 * is a field of Geometry, a line here and a line in writeGeometry; the C++
 * side declares it once in cpp/bindings/param_block.h.
 */
const FIELDS = {
  dims: 1, layout: 1, ceilMode: 1, outputSizeCount: 1, kernel: 5, stride: 5, padding: 5,
  dilation: 5, outputSize: MAX_RANK, poolSize: 5, keep: SPATIAL, ratio: 5,
  shapeA: 1 + MAX_RANK, shapeB: 1 + MAX_RANK, shapeOut: 1 + MAX_RANK,
  // runSmall's results: their heap addresses, in op order.
  resultAt: 2,
  rangeMin: SPATIAL, rangeMax: SPATIAL,
  // A plan's resolved geometry (planGeometry(), for the WebGPU backend):
  // layout, channels, planes, in, out, kernel, stride, pad, dilation (3
  // each), poolGeometry, regular.
  planGeometry: 3 + 6 * SPATIAL + 2,
} as const;

export type Field = keyof typeof FIELDS;

/** A plan's resolved geometry as the core wrote it (planGeometry()): D, H, W per spatial field. */
export interface PlanGeometry {
  layout: number;
  channels: number;
  planes: number;
  in: number[];
  out: number[];
  kernel: number[];
  stride: number[];
  pad: number[];
  dilation: number[];
  /** A kernel was given: a pool backward's windows wholly in padding are known, an unpool's outputSize has a range. */
  poolGeometry: boolean;
}
type Shape = 'shapeA' | 'shapeB' | 'shapeOut';
type Layout = Readonly<Record<Field, number>> & { readonly slots: number };

/**
 * The module's block layout, checked: every field present, within the
 * block, and not overlapping the next one (`mismatch` makes the error).
 */
export function readLayout(m: UnpoolWasmModule, mismatch: (what: string) => Error): Layout {
  const given = m.paramLayout() as Record<string, unknown>;
  const slots = given.slots;
  if (typeof slots !== 'number' || !Number.isSafeInteger(slots)) {
    throw mismatch('its parameter block has no slot count');
  }
  const layout: Record<string, number> = { slots };
  const names = Object.keys(FIELDS) as Field[];
  for (const name of names) {
    const at = given[name];
    if (typeof at !== 'number' || !Number.isSafeInteger(at) || at < 0 || at + FIELDS[name] > slots) {
      throw mismatch(`its parameter block has no field '${name}' of ${FIELDS[name]} slots`);
    }
    layout[name] = at;
  }
  const sorted = names.sort((a, b) => layout[a] - layout[b]);
  for (let i = 1; i < sorted.length; ++i) {
    const [a, b] = [sorted[i - 1], sorted[i]];
    if (layout[a] + FIELDS[a] > layout[b]) throw mismatch(`parameter block fields '${a}' and '${b}' overlap`);
  }
  // A copy: an object given its 20 fields one keyed store at a time is a
  // dictionary to V8, and every block read and write then hashes the field
  // name (2-4% of a small call, bench --ab); a spread copy has fast
  // properties (tests/js/fast-properties.node.test.ts).
  return { ...layout } as Layout;
}

/**
 * The object-valued fields of the geometry last written. Size arguments and
 * arrays are never changed once made, and the defaults are shared objects
 * (parse.ts), so a field holding the object it held last time holds the
 * same values: writeGeometry skips it. Most of a call's fields are such
 * defaults, and on a small call the stores are not free.
 */
type Written = { -readonly [K in keyof Geometry]?: Geometry[K] };

function writeSize(f: Float64Array, at: number, s: SizeArg): void {
  f[at] = s.count;
  f[at + 1] = s.list ? 1 : 0;
  f[at + 2] = s.values[0];
  f[at + 3] = s.values[1];
  f[at + 4] = s.values[2];
}

/** The block of one loaded module, at heap address `address`. */
export class ParamBlock {
  private view: Float64Array;
  private written: Written = {};

  constructor(private readonly m: UnpoolWasmModule, readonly address: number, readonly layout: Layout) {
    this.view = new Float64Array(m.HEAPU8.buffer, address, layout.slots);
  }

  /**
   * The block as doubles. Memory growth detaches the old buffer (its views
   * then have length 0): the view is then taken again.
   */
  private get f(): Float64Array {
    if (this.view.length === 0) this.view = new Float64Array(this.m.HEAPU8.buffer, this.address, this.layout.slots);
    return this.view;
  }

  /** Writes an op's geometry: every geometry field. */
  writeGeometry(g: Geometry): void {
    const f = this.f;
    const at = this.layout;
    const last = this.written;
    f[at.dims] = g.dims;
    f[at.layout] = g.layout;
    f[at.ceilMode] = g.ceilMode ? 1 : 0;
    f[at.outputSizeCount] = g.outputSizeCount;
    if (g.kernel !== last.kernel) writeSize(f, at.kernel, last.kernel = g.kernel);
    if (g.stride !== last.stride) writeSize(f, at.stride, last.stride = g.stride);
    if (g.padding !== last.padding) writeSize(f, at.padding, last.padding = g.padding);
    if (g.dilation !== last.dilation) writeSize(f, at.dilation, last.dilation = g.dilation);
    if (g.outputSize !== last.outputSize) {
      for (let i = 0; i < MAX_RANK; ++i) f[at.outputSize + i] = g.outputSize[i];
      last.outputSize = g.outputSize;
    }
    if (g.poolSize !== last.poolSize) writeSize(f, at.poolSize, last.poolSize = g.poolSize);
    if (g.keep !== last.keep) {
      for (let i = 0; i < SPATIAL; ++i) f[at.keep + i] = g.keep[i];
      last.keep = g.keep;
    }
    if (g.ratio !== last.ratio) writeSize(f, at.ratio, last.ratio = g.ratio);
  }

  /** Writes a shape (rank, then its dims, zeros after). */
  writeShape(field: Shape, shape: readonly number[]): void {
    const f = this.f;
    const s = this.layout[field];
    f[s] = shape.length;
    for (let i = 0; i < MAX_RANK; ++i) f[s + 1 + i] = i < shape.length ? shape[i] : 0;
  }

  /** Reads a shape the core wrote. */
  readShape(field: Shape): number[] {
    const f = this.f;
    const s = this.layout[field];
    const rank = f[s];
    const shape: number[] = [];
    for (let i = 0; i < rank; ++i) shape.push(f[s + 1 + i]);
    return shape;
  }

  /** Where runSmall put result `k` (a heap address). */
  resultAt(k: number): number {
    return this.f[this.layout.resultAt + k];
  }

  /** The unpool output ranges the core wrote, one { min, max } per spatial dim. */
  readRanges(dims: number): { min: number; max: number }[] {
    const f = this.f;
    const { rangeMin, rangeMax } = this.layout;
    const ranges: { min: number; max: number }[] = [];
    for (let i = 0; i < dims; ++i) ranges.push({ min: f[rangeMin + i], max: f[rangeMax + i] });
    return ranges;
  }

  /** The doubles of field `field`, as the core wrote them. */
  read(field: Field): number[] {
    const at = this.layout[field];
    return Array.from(this.f.subarray(at, at + FIELDS[field]));
  }

  /** The geometry planGeometry() wrote. */
  planGeometry(): PlanGeometry {
    const f = this.read('planGeometry');
    let s = 0;
    const three = () => { const r = [f[s], f[s + 1], f[s + 2]]; s += 3; return r; };
    const layout = f[s++], channels = f[s++], planes = f[s++];
    const g = {
      layout, channels, planes, in: three(), out: three(), kernel: three(), stride: three(),
      pad: three(), dilation: three(), poolGeometry: false,
    };
    g.poolGeometry = f[s] === 1;
    return g;
  }

  /** The whole block, to be put back by restore() (a call planned again later). */
  snapshot(): Float64Array {
    return this.f.slice();
  }

  restore(saved: Float64Array): void {
    this.f.set(saved);
    // The block no longer holds what writeGeometry last wrote.
    this.written = {};
  }
}
