// Shape arithmetic in JavaScript: the small integer subgraphs that feed the
// nodes unpool runs (MaxUnpool's output_shape, the plane offsets that an
// exported model adds to or subtracts from pool indices) are computed from
// the run's actual shapes here, so they need no ONNX Runtime session and no
// read-back. A value is shape-only when every path up from it ends in a
// Shape node, a Constant or a small integer initializer.
import { attrInt, attrInts, attribute, describeNode, OnnxGraph, OnnxModelError, OnnxNode } from './model.js';
import { TensorProto, TensorProto_DataType as DT } from './onnx_pb.js';

/** An integer tensor: row-major elements as bigints. */
export interface IntTensor {
  readonly dims: readonly number[];
  readonly data: readonly bigint[];
}

/** The ops evaluated here, on integer tensors only. */
const SHAPE_OPS = new Set([
  'Shape', 'Constant', 'Identity', 'Cast', 'Gather', 'Slice', 'Concat', 'Unsqueeze', 'Squeeze', 'Reshape',
  'Flatten', 'Add', 'Sub', 'Mul', 'Div', 'ReduceProd', 'Range',
]);

/** The ops that only give their input another shape (the same elements in the same order). */
export const VIEW_OPS: ReadonlySet<string> = new Set(['Identity', 'Squeeze', 'Unsqueeze', 'Reshape', 'Flatten']);

/**
 * The output shape of view op `node` (VIEW_OPS) on an input of shape `d`;
 * `arg(k, name)` gives its int input `k`, or its attribute `name` in older
 * opsets (Squeeze's and Unsqueeze's axes, Reshape's shape).
 */
export function viewShape(node: OnnxNode, d: readonly number[],
                          arg: (k: number, name: string) => number[] | undefined): number[] {
  switch (node.opType) {
    case 'Identity': return d.slice();
    case 'Unsqueeze': {
      const axes = arg(1, 'axes')!;
      const r = d.length + axes.length;
      const at = new Set(axes.map((a) => axis(a, r)));
      const rest = d.slice();
      return Array.from({ length: r }, (_, i) => (at.has(i) ? 1 : rest.shift()!));
    }
    case 'Squeeze': {
      const at = new Set((arg(1, 'axes') ?? d.flatMap((v, i) => (v === 1 ? [i] : []))).map((a) => axis(a, d.length)));
      return d.filter((_, i) => !at.has(i));
    }
    case 'Flatten': {
      const a = axis(attrInt(node, 'axis', 1), d.length);
      return [size(d.slice(0, a)), size(d.slice(a))];
    }
    case 'Reshape': {
      const want = arg(1, 'shape')!;
      const allowZero = attrInt(node, 'allowzero', 0) === 1;
      const dims = want.map((v, i) => (v === 0 && !allowZero ? d[i] : v));
      const known = dims.filter((v) => v !== -1).reduce((a, b) => a * b, 1);
      const out = dims.map((v) => (v === -1 ? size(d) / known : v));
      if (size(out) !== size(d)) throw new Error(`cannot reshape [${d}] to [${want}]`);
      return out;
    }
    default: throw new Error(`${node.opType} is not a view op`);
  }
}

/** Largest element count an evaluated value may have (these are shapes and offsets, not data). */
const MAX_ELEMENTS = 1 << 16;

const INT_TYPES: readonly number[] = [DT.INT64, DT.INT32, DT.INT16, DT.INT8, DT.UINT8, DT.UINT16, DT.UINT32];

/** The elements of an integer initializer or Constant value, or undefined for another type. */
export function intsOf(t: TensorProto): IntTensor | undefined {
  if (!INT_TYPES.includes(t.dataType)) return undefined;
  const dims = t.dims.map(Number);
  const n = dims.reduce((a, b) => a * b, 1);
  if (n > MAX_ELEMENTS) return undefined;
  let data: bigint[];
  if (t.rawData.length > 0) {
    const v = new DataView(t.rawData.buffer, t.rawData.byteOffset, t.rawData.byteLength);
    const read: Record<number, [number, (o: number) => bigint]> = {
      [DT.INT64]: [8, (o) => v.getBigInt64(o, true)], [DT.INT32]: [4, (o) => BigInt(v.getInt32(o, true))],
      [DT.INT16]: [2, (o) => BigInt(v.getInt16(o, true))], [DT.INT8]: [1, (o) => BigInt(v.getInt8(o))],
      [DT.UINT8]: [1, (o) => BigInt(v.getUint8(o))], [DT.UINT16]: [2, (o) => BigInt(v.getUint16(o, true))],
      [DT.UINT32]: [4, (o) => BigInt(v.getUint32(o, true))],
    };
    const [size, get] = read[t.dataType];
    if (t.rawData.byteLength !== n * size) return undefined;
    data = Array.from({ length: n }, (_, i) => get(i * size));
  } else if (t.dataType === DT.INT64) {
    data = t.int64Data.slice();
  } else if (t.dataType === DT.UINT32) {
    data = t.uint64Data.slice();
  } else {
    data = t.int32Data.map(BigInt);
  }
  return data.length === n ? { dims, data } : undefined;
}

/** The tensor of a Constant node, if it holds integers. */
function constantValue(node: OnnxNode): IntTensor | undefined {
  const a = attribute(node, 'value');
  if (a?.t !== undefined) return intsOf(a.t);
  const ints = attrInts(node, 'value_ints');
  if (ints !== undefined) return { dims: [ints.length], data: ints.map(BigInt) };
  if (attribute(node, 'value_int') !== undefined) return { dims: [], data: [BigInt(attrInt(node, 'value_int', 0))] };
  return undefined;
}

/**
 * Which values of `graph` are shape-only: computable by evaluate() from the
 * shapes of the tensors in `shapeSources` (the values whose shapes a run
 * knows) and from constants. `shapeSources` may grow later; the answer is for
 * the set as given.
 */
export function isShapeOnly(graph: OnnxGraph, value: string, shapeSources: ReadonlySet<string>,
                            memo = new Map<string, boolean>()): boolean {
  const known = memo.get(value);
  if (known !== undefined) return known;
  memo.set(value, false);  // a cycle is not shape-only (there are none in a valid graph)
  let ok: boolean;
  const init = graph.initializers.get(value);
  if (init !== undefined) {
    ok = intsOf(init) !== undefined;
  } else {
    const node = graph.producer.get(value);
    if (node === undefined || node.domain !== '' || !SHAPE_OPS.has(node.opType)) {
      ok = false;
    } else if (node.opType === 'Shape') {
      ok = shapeSources.has(node.inputs[0]);
    } else if (node.opType === 'Constant') {
      ok = constantValue(node) !== undefined;
    } else {
      ok = node.inputs.every((v) => v === '' || isShapeOnly(graph, v, shapeSources, memo));
    }
  }
  memo.set(value, ok);
  return ok;
}

const big = (v: number) => BigInt(v);
const num = (v: bigint) => Number(v);
const size = (dims: readonly number[]) => dims.reduce((a, b) => a * b, 1);

function strides(dims: readonly number[]): number[] {
  const s = dims.map(() => 1);
  for (let i = dims.length - 2; i >= 0; --i) s[i] = s[i + 1] * dims[i + 1];
  return s;
}

/** Numpy-style broadcast of an elementwise op. */
function broadcast(a: IntTensor, b: IntTensor, f: (x: bigint, y: bigint) => bigint): IntTensor {
  const rank = Math.max(a.dims.length, b.dims.length);
  const pad = (d: readonly number[]) => [...Array(rank - d.length).fill(1), ...d];
  const [da, db] = [pad(a.dims), pad(b.dims)];
  const dims = da.map((x, i) => {
    if (x !== db[i] && x !== 1 && db[i] !== 1) throw new Error(`shapes ${a.dims} and ${b.dims} do not broadcast`);
    return Math.max(x, db[i]);
  });
  const [sa, sb, so] = [strides(da), strides(db), strides(dims)];
  const data = Array.from({ length: size(dims) }, (_, e) => {
    let ia = 0, ib = 0;
    for (let i = 0; i < rank; ++i) {
      const c = Math.floor(e / so[i]) % dims[i];
      ia += (da[i] === 1 ? 0 : c) * sa[i];
      ib += (db[i] === 1 ? 0 : c) * sb[i];
    }
    return f(a.data[ia], b.data[ib]);
  });
  return { dims, data };
}

const axis = (a: number, rank: number) => (a < 0 ? a + rank : a);
const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);

function slice(x: IntTensor, starts: number[], ends: number[], axes: number[], steps: number[]): IntTensor {
  const rank = x.dims.length;
  const begin = x.dims.map(() => 0), step = x.dims.map(() => 1), count = x.dims.slice();
  axes.forEach((a0, i) => {
    const a = axis(a0, rank), d = x.dims[a], s = steps[i] ?? 1;
    if (s === 0) throw new Error('Slice step 0');
    let b = starts[i] < 0 ? starts[i] + d : starts[i];
    let e = ends[i] < 0 ? ends[i] + d : ends[i];
    if (s > 0) { b = clamp(b, 0, d); e = clamp(e, 0, d); } else { b = clamp(b, 0, d - 1); e = clamp(e, -1, d - 1); }
    begin[a] = b; step[a] = s;
    count[a] = Math.max(0, Math.ceil((e - b) / s));
  });
  const [si, so] = [strides(x.dims), strides(count)];
  const data = Array.from({ length: size(count) }, (_, e) => {
    let at = 0;
    for (let i = 0; i < rank; ++i) at += (begin[i] + (Math.floor(e / so[i]) % count[i]) * step[i]) * si[i];
    return x.data[at];
  });
  return { dims: count, data };
}

/** Values of the optional int input `k` of `node`, or of attribute `name` (older opsets). */
function intsArg(node: OnnxNode, k: number, name: string, get: (v: string) => IntTensor): number[] | undefined {
  const v = node.inputs[k];
  if (v !== undefined && v !== '') return get(v).data.map(num);
  return attrInts(node, name);
}

/**
 * Evaluates shape-only `value` for a run, given the run's known shapes
 * (`shapeOf`). Results are cached in `cache` for the run; the constants
 * (initializers, Constant nodes), the same at every run, in `constants`.
 */
export function evaluate(graph: OnnxGraph, value: string, shapeOf: (v: string) => readonly number[] | undefined,
                         cache: Map<string, IntTensor>, constants: Map<string, IntTensor>): IntTensor {
  const hit = cache.get(value) ?? constants.get(value);
  if (hit !== undefined) return hit;
  const get = (v: string) => evaluate(graph, v, shapeOf, cache, constants);
  const init = graph.initializers.get(value);
  let out: IntTensor;
  const node = graph.producer.get(value);
  if (init !== undefined) {
    out = intsOf(init)!;
  } else {
    if (node === undefined) throw new OnnxModelError(`value '${value}' is not shape arithmetic`);
    try {
      out = evalNode(node, value, get, shapeOf);
    } catch (e) {
      if (e instanceof OnnxModelError) throw e;
      throw new OnnxModelError(`${describeNode(node)}: ${(e as Error).message}`);
    }
  }
  if (size(out.dims) > MAX_ELEMENTS) throw new OnnxModelError(`value '${value}' is too large for shape arithmetic`);
  (init !== undefined || node?.opType === 'Constant' ? constants : cache).set(value, out);
  return out;
}

function evalNode(node: OnnxNode, value: string, get: (v: string) => IntTensor,
                  shapeOf: (v: string) => readonly number[] | undefined): IntTensor {
  const x = () => get(node.inputs[0]);
  switch (node.opType) {
    case 'Shape': {
      const s = shapeOf(node.inputs[0]);
      if (s === undefined) throw new Error(`the shape of '${node.inputs[0]}' is not known here`);
      const r = s.length;
      const start = clamp(axis(attrInt(node, 'start', 0), r), 0, r);
      const end = clamp(axis(attrInt(node, 'end', r), r), 0, r);
      const dims = s.slice(start, Math.max(start, end));
      return { dims: [dims.length], data: dims.map(big) };
    }
    case 'Constant': return constantValue(node)!;
    case 'Identity': case 'Cast': return x();
    case 'Gather': {
      const d = x(), idx = get(node.inputs[1]);
      const a = axis(attrInt(node, 'axis', 0), d.dims.length);
      if (a !== 0 || d.dims.length !== 1) throw new Error('Gather of shape arithmetic must be on a 1-D tensor, axis 0');
      const n = d.dims[0];
      return { dims: idx.dims, data: idx.data.map((i) => d.data[num(i < 0n ? i + big(n) : i)]) };
    }
    case 'Slice': {
      const d = x();
      const starts = intsArg(node, 1, 'starts', get)!, ends = intsArg(node, 2, 'ends', get)!;
      const axes = intsArg(node, 3, 'axes', get) ?? starts.map((_, i) => i);
      const steps = intsArg(node, 4, 'steps', get) ?? starts.map(() => 1);
      return slice(d, starts, ends, axes, steps);
    }
    case 'Concat': {
      const parts = node.inputs.map(get);
      const r = parts[0].dims.length;
      if (axis(attrInt(node, 'axis', 0), r) !== 0 || r !== 1) throw new Error('Concat of shape arithmetic must be of 1-D tensors');
      const data = parts.flatMap((p) => p.data);
      return { dims: [data.length], data };
    }
    case 'Unsqueeze': case 'Squeeze': case 'Reshape': case 'Flatten': {
      const d = x();
      return { dims: viewShape(node, d.dims, (k, name) => intsArg(node, k, name, get)), data: d.data };
    }
    case 'Add': return broadcast(x(), get(node.inputs[1]), (a, b) => a + b);
    case 'Sub': return broadcast(x(), get(node.inputs[1]), (a, b) => a - b);
    case 'Mul': return broadcast(x(), get(node.inputs[1]), (a, b) => a * b);
    // ONNX's integer Div truncates, as bigint division does.
    case 'Div': return broadcast(x(), get(node.inputs[1]), (a, b) => {
      if (b === 0n) throw new Error('integer division by zero');
      return a / b;
    });
    case 'ReduceProd': {
      const d = x();
      const axes = intsArg(node, 1, 'axes', get);
      const keep = attrInt(node, 'keepdims', 1) === 1;
      if (axes !== undefined && axes.length > 0 && !(d.dims.length === 1 && axes.every((a) => axis(a, 1) === 0))) {
        throw new Error('ReduceProd of shape arithmetic must reduce every axis');
      }
      const p = d.data.reduce((a, b) => a * b, 1n);
      return { dims: keep ? d.dims.map(() => 1) : [], data: [p] };
    }
    case 'Range': {
      const [start, limit, delta] = [0, 1, 2].map((i) => get(node.inputs[i]).data[0]);
      if (delta === 0n) throw new Error('Range delta 0');
      const n = Math.max(0, Math.ceil(num(limit - start) / num(delta)));
      if (n > MAX_ELEMENTS) throw new Error(`Range of ${n} elements`);
      return { dims: [n], data: Array.from({ length: n }, (_, i) => start + big(i) * delta) };
    }
    default: throw new Error(`op ${node.opType} is not shape arithmetic (value '${value}')`);
  }
}
