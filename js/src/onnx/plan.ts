// The partition of a model (ORT's partitioner, in topological order): the
// nodes unpool runs (rules.ts) cut the graph; every other node goes to an ORT
// sub-session of its level, the number of unpool steps on its longest path
// from the inputs. A run is then: sub-session 0, the unpool steps of level 0,
// sub-session 1, ... Values that only feed unpool steps' shape arguments
// (MaxUnpool's output_shape, the fused plane offsets) are computed in
// JavaScript from the run's shapes (shapes.ts), and the index arithmetic
// around unpool's steps is fused away (fuse.ts).
import { Offsets, poolFusion, unpoolFusion } from './fuse.js';
import { attrInts, describeNode, nodeReads, OnnxGraph, OnnxModelError, OnnxNode } from './model.js';
import { ProviderKind, unpoolRuns, UnpoolNodes } from './rules.js';
import { IntTensor, isShapeOnly, VIEW_OPS } from './shapes.js';

/** A MaxPool or MaxUnpool that unpool runs. */
export interface UnpoolStep {
  readonly kind: 'unpool';
  readonly node: OnnxNode;
  readonly frees: readonly string[];
  /** Why unpool runs it (rules.ts). */
  readonly why: string;
  /** Spatial dims: 1, 2 or 3. */
  readonly dims: number;
  readonly level: number;
  /** Its tensor inputs, read from earlier steps or feeds. */
  readonly reads: readonly string[];
  /** The values whose shapes its values computed in JavaScript read (checked offsets, output_shape). */
  readonly shapeReads: readonly string[];
  /**
   * MaxPool: its values output (if used), its flat Indices (if used unfused), the fused per-plane
   * output, and whether only unpool's steps read that one (it may then be int32, which unpool's
   * kernels read faster than ONNX's int64).
   */
  readonly pool?: { y?: string; flat?: string; perPlane?: { value: string; offsets: Offsets }; internal: boolean };
  /** MaxUnpool: the values, the indices (flat, or per-plane when fused), output_shape, the output. */
  readonly unpool?: { x: string; indices: string; offsets?: Offsets; outputShape?: string; y: string };
}

/** A sub-session of ONNX Runtime: nodes of one level. */
export interface OrtStep {
  readonly kind: 'ort';
  readonly level: number;
  /** The values this step is a reader of (once each), done with once it has run. */
  readonly frees: readonly string[];
  readonly nodes: readonly OnnxNode[];
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
}

/**
 * A node that only gives a value of an unpool step another shape
 * (Squeeze, Unsqueeze, Reshape, Flatten, Identity: the exporter's Unsqueeze
 * of an unbatched or 1d pool's indices), done in JavaScript as a view of
 * the same memory instead of an ORT sub-session of its own.
 */
export interface ViewStep {
  readonly kind: 'view';
  readonly node: OnnxNode;
  readonly level: number;
  readonly frees: readonly string[];
  readonly reads: readonly string[];
  readonly shapeReads: readonly string[];
  /** Whether the view is its source's only reader, and so takes its memory over. */
  readonly takesOver: boolean;
}

export type Step = OrtStep | UnpoolStep | ViewStep;

/** A step before its `frees` are known. */
type Drafted = Omit<OrtStep, 'frees'> | Omit<UnpoolStep, 'frees'> | Omit<ViewStep, 'frees'>;

export interface Plan {
  readonly graph: OnnxGraph;
  readonly steps: readonly Step[];
  /** Whether the whole model is one ORT session (nothing for unpool to run). */
  readonly whole: boolean;
  /** Per value: how many steps read it (graph outputs count one more), for releasing intermediates. */
  readonly uses: ReadonlyMap<string, number>;
  /** The shape arithmetic's constants, evaluated once (shapes.ts evaluate()). */
  readonly constants: Map<string, IntTensor>;
  /** Values computed in JavaScript by the shapes they read (run.ts). */
  readonly memo: Map<string, IntTensor>;
  /** The unpool steps' options by their shapes (run.ts). */
  readonly options: Map<string, unknown>;
}

/** Spatial dims of a MaxPool or MaxUnpool: its kernel_shape's length. */
function spatialDims(node: OnnxNode): number {
  const k = attrInts(node, 'kernel_shape');
  if (k === undefined || k.length < 1 || k.length > 3) {
    throw new OnnxModelError(`${describeNode(node)}: kernel_shape=${JSON.stringify(k)} must have 1 to 3 ` +
        'entries (unpool pools 1d, 2d and 3d)');
  }
  return k.length;
}

/** Partitions `graph` for `provider`. `forced`: node indices ORT refused to run (rules.ts cpuRefusal). */
export function partition(graph: OnnxGraph, provider: ProviderKind, mode: UnpoolNodes,
                          forced: ReadonlySet<number>, fuse = true): Plan {
  const cuts = new Map<OnnxNode, string>();
  for (const n of graph.nodes) {
    const why = unpoolRuns(graph, n, provider, mode, forced);
    if (why !== undefined) cuts.set(n, why);
  }
  const outputs = graph.outputs.map((o) => o.name);
  const plan = (drafted: Drafted[], whole: boolean): Plan => {
    const steps = drafted.map((s): Step => ({
      ...s, frees: [...new Set(s.kind === 'ort' ? s.inputs : [...s.reads, ...s.shapeReads])],
    } as Step));
    return { graph, steps, whole, uses: countUses(graph, steps), constants: new Map(), memo: new Map(), options: new Map() };
  };
  if (cuts.size === 0) {
    return plan([{ kind: 'ort', level: 0, nodes: graph.nodes, inputs: graph.inputs.map((v) => v.name), outputs }], true);
  }
  // Shapes a run knows in JavaScript: the feeds', and each cut's input and outputs.
  const shapeSources = new Set(graph.inputs.map((v) => v.name));
  for (const n of cuts.keys()) for (const v of [n.inputs[0], ...n.outputs]) if (v !== '') shapeSources.add(v);
  const drafts = [...cuts].map(([node, why]) => draftStep(graph, node, why, shapeSources, fuse));
  const draftOf = new Map<string, Draft>();
  for (const d of drafts) for (const v of d.writes) draftOf.set(v, d);
  addViews(graph, drafts, draftOf, shapeSources);
  const { live, ortNodes } = liveness(graph, cuts, draftOf);
  // Unpool and view steps of one level run in node order (a view after the pool it reshapes).
  const liveDrafts = drafts.filter((d) => live.has(d)).sort((a, b) => a.node.index - b.node.index);
  const steps = levelSteps(graph, liveDrafts, ortNodes, draftOf);
  markInternal(steps, outputs);
  return plan(steps, false);
}

/** Adds the view steps: views of the drafts' values, in node order (a view of a view too). */
function addViews(graph: OnnxGraph, drafts: Draft[], draftOf: Map<string, Draft>,
                  shapeSources: ReadonlySet<string>): void {
  const outputs = new Set(graph.outputs.map((o) => o.name));
  for (const n of graph.nodes) {
    const [x, ...args] = n.inputs;
    const out = n.outputs[0];
    // The view takes its source's memory over where nothing else reads it; else it shares it,
    // which a value returned to the caller cannot.
    const takesOver = graph.consumers.get(x)?.length === 1 && !outputs.has(x);
    if (n.domain !== '' || !VIEW_OPS.has(n.opType) || !draftOf.has(x) || (outputs.has(out) && !takesOver) ||
        !args.every((v) => v === '' || isShapeOnly(graph, v, shapeSources))) continue;
    const shapeReads = new Set<string>();
    for (const v of args) if (v !== '') shapeReadsOf(graph, v, shapeReads);
    const step: Omit<ViewStep, 'level' | 'frees'> = { kind: 'view', node: n, reads: [x], shapeReads: [...shapeReads], takesOver };
    const d: Draft = { node: n, reads: step.reads, shapeReads: step.shapeReads, writes: [out], step };
    drafts.push(d);
    draftOf.set(out, d);
  }
}

/**
 * What a run computes: back from the graph's outputs, the drafts and the
 * ORT nodes it needs (a cut whose outputs nothing reads after fusion, the
 * stock exporter's 1x1 MaxPool, drops out).
 */
function liveness(graph: OnnxGraph, cuts: ReadonlyMap<OnnxNode, string>, draftOf: ReadonlyMap<string, Draft>):
    { live: Set<Draft>; ortNodes: Set<OnnxNode> } {
  const live = new Set<Draft>();
  const ortNodes = new Set<OnnxNode>();
  const work = graph.outputs.map((o) => o.name);
  while (work.length > 0) {
    const v = work.pop()!;
    const d = draftOf.get(v);
    if (d !== undefined) {
      if (!live.has(d)) {
        live.add(d);
        work.push(...d.reads, ...d.shapeReads);
      }
      continue;
    }
    const p = graph.producer.get(v);
    if (p === undefined || ortNodes.has(p)) continue;
    if (cuts.has(p)) {
      throw new OnnxModelError(`${describeNode(p)}: its output '${v}' is used in a way the runner cannot ` +
          'give (the flat Indices of a pool whose per-plane indices were fused)');
    }
    ortNodes.add(p);
    work.push(...nodeReads(p));
  }
  return { live, ortNodes };
}

/**
 * The steps in run order: each level's ORT sub-session (if any), then its
 * unpool and view steps in node order. A node's level is the number of
 * unpool steps on its longest path from the inputs; an unpool step reading
 * another's value runs after it in the same level.
 */
function levelSteps(graph: OnnxGraph, drafts: readonly Draft[], ortNodes: ReadonlySet<OnnxNode>,
                    draftOf: ReadonlyMap<string, Draft>): Drafted[] {
  const ortLevel = new Map<OnnxNode, number>();
  const cutLevel = new Map<Draft, number>();
  const ortAt = (v: string) => {
    const p = graph.producer.get(v);
    return p !== undefined && ortLevel.has(p) ? ortLevel.get(p)! : 0;
  };
  const draftOfNode = new Map(drafts.map((d) => [d.node, d]));
  // In node order: the model's nodes are topologically sorted.
  for (const n of graph.nodes) {
    const d = draftOfNode.get(n);
    if (d !== undefined) {
      // Its own outputs' shapes (the fused offsets of a pool's Y) are known once it has run.
      const own = new Set(d.writes);
      const at = (v: string) => (draftOf.has(v) ? cutLevel.get(draftOf.get(v)!)! : ortAt(v));
      cutLevel.set(d, Math.max(0, ...[...d.reads, ...d.shapeReads].filter((v) => !own.has(v)).map(at)));
    } else if (ortNodes.has(n)) {
      const at = (v: string) => (draftOf.has(v) ? cutLevel.get(draftOf.get(v)!)! + 1 : ortAt(v));
      ortLevel.set(n, Math.max(0, ...nodeReads(n).map(at)));
    }
  }
  // A Constant goes to every sub-session that reads it, as an initializer
  // does, instead of crossing from one to the next (ORT would hand a small
  // CPU-side constant over as a GPU buffer and read it back).
  const outputs = new Set(graph.outputs.map((o) => o.name));
  const constants = new Set([...ortNodes].filter((n) => n.opType === 'Constant' && n.domain === '' &&
      !outputs.has(n.outputs[0])));
  for (const c of constants) ortLevel.delete(c);
  const steps: Drafted[] = [];
  const levels = Math.max(0, ...ortLevel.values(), ...cutLevel.values());
  for (let k = 0; k <= levels; ++k) {
    const own = graph.nodes.filter((n) => ortLevel.get(n) === k);
    if (own.length > 0) {
      const reads = new Set(own.flatMap(nodeReads));
      const nodes = graph.nodes.filter((n) => ortLevel.get(n) === k || (constants.has(n) && reads.has(n.outputs[0])));
      const made = new Set(nodes.flatMap((n) => n.outputs));
      const inputs = [...new Set(nodes.flatMap(nodeReads))].filter((v) => !made.has(v) && !graph.initializers.has(v));
      steps.push({ kind: 'ort', level: k, nodes, inputs, outputs: [...made].filter((v) => v !== '') });
    }
    for (const d of drafts) if (cutLevel.get(d) === k) steps.push({ ...d.step, level: k });
  }
  // An ORT step outputs what a later step or the caller reads of it.
  const read = new Set<string>(outputs);
  for (const s of steps) for (const v of s.kind === 'ort' ? s.inputs : [...s.reads, ...s.shapeReads]) read.add(v);
  return steps.map((s) => (s.kind === 'ort' ? { ...s, outputs: s.outputs.filter((v) => read.has(v)) } : s));
}

/**
 * Marks the pools whose per-plane indices only unpool steps read (through
 * views too), never ORT or the caller: they may be int32.
 */
function markInternal(steps: readonly Drafted[], outputs: readonly string[]): void {
  const internal = (v: string): boolean => !outputs.includes(v) && steps.every((s) => {
    if (s.kind === 'ort') return !s.inputs.includes(v);
    if (s.kind === 'view' && s.reads[0] === v) return internal(s.node.outputs[0]);
    return true;
  });
  for (const s of steps) {
    if (s.kind === 'unpool' && s.pool?.perPlane !== undefined) s.pool.internal = internal(s.pool.perPlane.value);
  }
}

function countUses(graph: OnnxGraph, steps: readonly Step[]): Map<string, number> {
  const uses = new Map<string, number>();
  const use = (v: string) => uses.set(v, (uses.get(v) ?? 0) + 1);
  for (const s of steps) for (const v of s.frees) use(v);
  for (const o of graph.outputs) use(o.name);
  return uses;
}

interface Draft {
  readonly node: OnnxNode;
  readonly reads: readonly string[];
  readonly shapeReads: readonly string[];
  readonly writes: readonly string[];
  readonly step: Omit<UnpoolStep, 'level' | 'frees'> | Omit<ViewStep, 'level' | 'frees'>;
}

/** The values a shape-only value reads the shapes of (its Shape nodes' inputs). */
function shapeReadsOf(graph: OnnxGraph, v: string, out: Set<string>): void {
  const p = graph.producer.get(v);
  if (p === undefined) return;
  if (p.opType === 'Shape') { out.add(p.inputs[0]); return; }
  for (const r of p.inputs) if (r !== '') shapeReadsOf(graph, r, out);
}

function draftStep(graph: OnnxGraph, node: OnnxNode, why: string, shapeSources: ReadonlySet<string>,
                   fuse: boolean): Draft {
  const dims = spatialDims(node);
  // The shapes its values computed in JavaScript read.
  const shapeReads = new Set<string>();
  const compute = (v: string) => shapeReadsOf(graph, v, shapeReads);
  const used = (v: string | undefined) => v !== undefined && v !== '' &&
      ((graph.consumers.get(v)?.length ?? 0) > 0 || graph.outputs.some((o) => o.name === v));
  if (node.opType === 'MaxPool') {
    const [y, flat] = node.outputs;
    const fusion = fuse ? poolFusion(graph, node, dims, shapeSources) : undefined;
    // The flat indices are needed only by readers other than the fused Sub.
    const flatUsed = graph.outputs.some((o) => o.name === flat) ||
        (graph.consumers.get(flat) ?? []).some((c) => c !== fusion?.sub);
    if (fusion?.offsets.kind === 'checked') compute(fusion.offsets.value);
    const pool = {
      y: used(y) ? y : undefined, flat: flatUsed ? flat : undefined,
      perPlane: fusion === undefined ? undefined : { value: fusion.perPlane, offsets: fusion.offsets },
      internal: false,  // markInternal() decides
    };
    const writes = [pool.y, pool.flat, pool.perPlane?.value].filter((v): v is string => v !== undefined);
    const step = { kind: 'unpool' as const, node, why, dims, reads: [node.inputs[0]], shapeReads: [...shapeReads], pool };
    return { node, reads: step.reads, shapeReads: step.shapeReads, writes, step };
  }
  const [x, flat, outputShape] = node.inputs;
  const fusion = fuse ? unpoolFusion(graph, node, shapeSources) : undefined;
  const indices = fusion?.perPlane ?? flat;
  if (fusion !== undefined) compute((fusion.offsets as { value: string }).value);
  let shapeValue: string | undefined;
  const reads = [x, indices];
  if (outputShape !== undefined && outputShape !== '') {
    shapeValue = outputShape;
    if (isShapeOnly(graph, outputShape, shapeSources)) compute(outputShape); else reads.push(outputShape);
  }
  const unpool = { x, indices, offsets: fusion?.offsets, outputShape: shapeValue, y: node.outputs[0] };
  const step = { kind: 'unpool' as const, node, why, dims, reads, shapeReads: [...shapeReads], unpool };
  return { node, reads, shapeReads: step.shapeReads, writes: [unpool.y], step };
}
