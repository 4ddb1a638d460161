// Who runs what: the one table of the nodes that unpool runs instead of
// ONNX Runtime (ORT's GetCapability, the other way round: what the user's
// execution provider is measured to fail on). Every other node runs in ORT
// sub-sessions on the user's execution provider.
import { attrInt, OnnxGraph, OnnxNode } from './model.js';

/** The execution providers' families, as far as the runner cares. */
export type ProviderKind = 'cpu' | 'webgpu';

/** Which nodes unpool runs: only those the provider fails on, or every pool with indices and every unpool. */
export type UnpoolNodes = 'auto' | 'all';

/** A node unpool can run: a MaxPool whose Indices are used, or a MaxUnpool. */
export function unpoolCan(graph: OnnxGraph, node: OnnxNode): boolean {
  if (node.domain !== '' && node.domain !== 'ai.onnx') return false;
  if (node.opType === 'MaxUnpool') return true;
  return node.opType === 'MaxPool' && indicesUsed(graph, node);
}

/** Whether the Indices output of MaxPool `node` is read by a node or is a graph output. */
export function indicesUsed(graph: OnnxGraph, node: OnnxNode): boolean {
  const v = node.outputs[1];
  if (v === undefined || v === '') return false;
  return (graph.consumers.get(v)?.length ?? 0) > 0 || graph.outputs.some((o) => o.name === v);
}

interface Rule {
  readonly provider: ProviderKind;
  readonly op: string;
  readonly applies: (graph: OnnxGraph, node: OnnxNode) => boolean;
  /** Why, as measured with onnxruntime-web 1.30 (docs/models.md quotes these). */
  readonly why: string;
}

/**
 * The measured failures (onnxruntime-web 1.30, both WebGPU EPs: the default
 * import's JSEP and onnxruntime-web/webgpu). The CPU EPs (onnxruntime-node's
 * cpu, onnxruntime-web's wasm) run every MaxPool and MaxUnpool of the types
 * ONNX allows but one, MaxUnpool in float64 ("Could not find an
 * implementation for MaxUnpool(11) node"): that one is found when ORT
 * refuses the session (cpuRefusal below), since it depends on a type the
 * graph need not declare.
 */
const RULES: readonly Rule[] = [
  {
    provider: 'webgpu', op: 'MaxPool', applies: indicesUsed,
    why: 'ORT Web\'s WebGPU EPs cannot output MaxPool\'s Indices ("IsTensor() was false. Trying to get a ' +
        'Tensor, but got: (null)", "The Indices output is not supported yet.")',
  },
  {
    provider: 'webgpu', op: 'MaxUnpool', applies: () => true,
    why: 'ORT Web\'s WebGPU EPs have no MaxUnpool kernel (ORT would run it on the CPU, reading its inputs back)',
  },
];

/**
 * Whether unpool runs `node` for `provider`, and why (undefined: ORT runs it).
 * `forced` holds nodes that ORT refused at session creation (cpuRefusal).
 */
export function unpoolRuns(graph: OnnxGraph, node: OnnxNode, provider: ProviderKind, mode: UnpoolNodes,
                           forced: ReadonlySet<number>): string | undefined {
  if (!unpoolCan(graph, node)) return undefined;
  if (forced.has(node.index)) return 'ONNX Runtime refused it on this execution provider';
  if (mode === 'all') return "unpoolNodes: 'all'";
  const rule = RULES.find((r) => r.provider === provider && r.op === node.opType && r.applies(graph, node));
  return rule?.why;
}

/**
 * The node of a session-creation error of ORT that unpool can run instead
 * ("Could not find an implementation for MaxUnpool(11) node with name
 * 'x'"), or undefined.
 */
export function cpuRefusal(graph: OnnxGraph, error: unknown, forced: ReadonlySet<number>): OnnxNode | undefined {
  const m = /Could not find an implementation for (\w+)\(\d+\) node with name '([^']*)'/.exec(String(error));
  if (m === null) return undefined;
  const [, op, name] = m;
  return graph.nodes.find((n) => n.opType === op && n.proto.name === name && !forced.has(n.index) &&
      unpoolCan(graph, n));
}

/** ONNX MaxPool's storage_order: unpool gives row-major indices only. */
export const storageOrder = (node: OnnxNode) => attrInt(node, 'storage_order', 0);
