// The fusions of the index arithmetic around the nodes unpool runs. ONNX's
// MaxPool gives flat N*C*H*W indices and its MaxUnpool reads them; PyTorch's
// exporter turns MaxPool's into per-plane ones (Sub of each plane's offset)
// and unpool_onnx adds the offsets back before MaxUnpool (Add). unpool's ops
// take and give per-plane indices, so where that arithmetic sits between a
// pool or unpool that unpool runs and the rest of the graph, it is dropped:
// the pool gives the Sub's result itself and the unpool reads the Add's
// operand, with no ORT sub-session for the index arithmetic.
//
// Each rule matches a small subgraph whose offsets are either proven by its
// structure (the stock exporter's 1x1 MaxPool + Slice) or computed from the
// run's shapes in JavaScript (shapes.ts) and checked, at every run, to be
// exactly the plane offsets (n * C + c) * plane: a graph that means anything
// else is refused at run time, never computed wrong.
import { attrInts, attrString, OnnxGraph, OnnxNode } from './model.js';
import { intsOf, isShapeOnly, IntTensor } from './shapes.js';

/** How a fused Sub's or Add's other operand is known to be the plane offsets. */
export type Offsets =
  /** Slice(MaxPool(x, kernel 1).Indices, 0..1 on every spatial axis): exactly x's plane offsets. */
  | { kind: 'structural' }
  /** A shape-only value, evaluated and checked at each run. */
  | { kind: 'checked'; value: string };

/** A pool's Indices minus plane offsets: the value `perPlane`. */
export interface PoolFusion {
  readonly sub: OnnxNode;
  readonly perPlane: string;
  readonly offsets: Offsets;
}

/** An unpool's flat indices that are per-plane indices plus plane offsets. */
export interface UnpoolFusion {
  readonly add: OnnxNode;
  readonly perPlane: string;
  readonly offsets: Offsets;
}

const isOne = (v: readonly number[] | undefined) => v === undefined || v.every((x) => x === 1);
const isZero = (v: readonly number[] | undefined) => v === undefined || v.every((x) => x === 0);

/** The constant ints of value `v` (an initializer or a Constant node), if any. */
function constInts(graph: OnnxGraph, v: string | undefined): number[] | undefined {
  if (v === undefined || v === '') return undefined;
  const init = graph.initializers.get(v);
  const t = init !== undefined ? intsOf(init)
    : graph.producer.get(v)?.opType === 'Constant'
      ? (() => {
        const a = graph.producer.get(v)!.proto.attribute.find((x) => x.name === 'value');
        return a?.t !== undefined ? intsOf(a.t) : undefined;
      })()
      : undefined;
  return t?.data.map(Number);
}

/**
 * Whether `v` is Slice(MaxPool(x, 1x1).Indices) taking element 0 of every
 * spatial axis: the stock PyTorch exporter's plane offsets of `x`.
 */
function stockOffsets(graph: OnnxGraph, v: string, x: string, dims: number): boolean {
  const slice = graph.producer.get(v);
  if (slice?.opType !== 'Slice' || slice.domain !== '') return false;
  const pool = graph.producer.get(slice.inputs[0]);
  if (pool?.opType !== 'MaxPool' || pool.outputs[1] !== slice.inputs[0] || pool.inputs[0] !== x) return false;
  const kernel = attrInts(pool, 'kernel_shape');
  if (kernel === undefined || kernel.length !== dims || !isOne(kernel) || !isOne(attrInts(pool, 'strides')) ||
      !isZero(attrInts(pool, 'pads')) || !isOne(attrInts(pool, 'dilations')) ||
      attrString(pool, 'auto_pad', 'NOTSET') !== 'NOTSET' ||
      (pool.proto.attribute.find((a) => a.name === 'storage_order')?.i ?? 0n) !== 0n) {
    return false;
  }
  const arg = (k: number, name: string) =>
    graph.opset >= 10 ? constInts(graph, slice.inputs[k]) : attrInts(slice, name);
  const starts = arg(1, 'starts'), ends = arg(2, 'ends'), axes = arg(3, 'axes'), steps = arg(4, 'steps');
  if (starts === undefined || ends === undefined || axes === undefined) return false;
  const rank = dims + 2;
  const spatial = axes.map((a) => (a < 0 ? a + rank : a)).sort();
  return spatial.length === dims && spatial.every((a, i) => a === i + 2) && isZero(starts) &&
      isOne(ends) && (steps === undefined || isOne(steps));
}

function offsetsOf(graph: OnnxGraph, v: string, x: string, dims: number,
                   shapeSources: ReadonlySet<string>): Offsets | undefined {
  if (stockOffsets(graph, v, x, dims)) return { kind: 'structural' };
  if (isShapeOnly(graph, v, shapeSources)) return { kind: 'checked', value: v };
  return undefined;
}

/**
 * The Sub that turns MaxPool `pool`'s flat Indices into per-plane ones
 * (Sub(Indices, offsets)), if there is one (the first, if several);
 * `shapeSources` are the values whose shapes the run knows when the pool runs.
 */
export function poolFusion(graph: OnnxGraph, pool: OnnxNode, dims: number,
                           shapeSources: ReadonlySet<string>): PoolFusion | undefined {
  const flat = pool.outputs[1];
  for (const sub of graph.consumers.get(flat) ?? []) {
    if (sub.opType !== 'Sub' || sub.domain !== '' || sub.inputs[0] !== flat || sub.inputs[1] === flat) continue;
    const offsets = offsetsOf(graph, sub.inputs[1], pool.inputs[0], dims, shapeSources);
    if (offsets !== undefined) return { sub, perPlane: sub.outputs[0], offsets };
  }
  return undefined;
}

/** The Add that makes MaxUnpool `unpool`'s flat indices from per-plane ones, if it does. */
export function unpoolFusion(graph: OnnxGraph, unpool: OnnxNode,
                             shapeSources: ReadonlySet<string>): UnpoolFusion | undefined {
  const add = graph.producer.get(unpool.inputs[1]);
  if (add?.opType !== 'Add' || add.domain !== '') return undefined;
  for (const k of [1, 0]) {
    const v = add.inputs[k], other = add.inputs[1 - k];
    if (v === other || !isShapeOnly(graph, v, shapeSources)) continue;
    return { add, perPlane: other, offsets: { kind: 'checked', value: v } };
  }
  return undefined;
}

/**
 * Whether evaluated `offsets` are exactly the plane offsets of an
 * (N, C, *spatial) tensor of `rank` dims with `plane` elements per plane:
 * shape (N, C, 1, ...) holding (n * C + c) * plane.
 */
export function arePlaneOffsets(offsets: IntTensor, n: number, c: number, plane: number, rank: number): boolean {
  const d = offsets.dims;
  if (d.length !== rank || d[0] !== n || d[1] !== c || d.slice(2).some((x) => x !== 1)) return false;
  const p = BigInt(plane);
  return offsets.data.every((v, i) => v === BigInt(i) * p);
}
