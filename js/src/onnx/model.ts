// An ONNX model as a small graph (onnx-graphsurgeon's shape: nodes, the
// values between them, initializers), read from and written to bytes by the
// ONNX schema's generated protobuf code (onnx_pb.ts, @bufbuild/protobuf).
// The runner partitions this graph and serialises its pieces as ORT models.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { UnpoolError } from '../tensor.js';
import {
  AttributeProto, AttributeProto_AttributeType as AttrType, GraphProtoSchema, ModelProto, ModelProtoSchema,
  NodeProto, NodeProtoSchema, OperatorSetIdProtoSchema, TensorProto, TensorProto_DataLocation, ValueInfoProto,
  ValueInfoProtoSchema, TypeProtoSchema, TypeProto_TensorSchema,
} from './onnx_pb.js';

/** A node of the graph: its proto, and its place in the model's node list. */
export interface OnnxNode {
  /** Position in the model's (topologically sorted) node list. */
  readonly index: number;
  readonly proto: NodeProto;
  readonly opType: string;
  readonly domain: string;
  /** Input value names; '' is an omitted optional input. */
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  /** The node's name, or a stand-in made from its op type and position ('MaxPool #7'). */
  readonly label: string;
}

/** The graph of a model, and how its values connect. */
export interface OnnxGraph {
  readonly model: ModelProto;
  readonly nodes: readonly OnnxNode[];
  /** The node that writes each value (graph inputs and initializers have none). */
  readonly producer: ReadonlyMap<string, OnnxNode>;
  /** The nodes that read each value, in node order (a node once per value). */
  readonly consumers: ReadonlyMap<string, readonly OnnxNode[]>;
  readonly initializers: ReadonlyMap<string, TensorProto>;
  /** The graph inputs a caller feeds (initializers listed as inputs are left out). */
  readonly inputs: readonly ValueInfoProto[];
  readonly outputs: readonly ValueInfoProto[];
  /** Declared types of values: graph inputs, outputs and value_info. */
  readonly valueInfo: ReadonlyMap<string, ValueInfoProto>;
  /** The default domain's opset version. */
  readonly opset: number;
}

/**
 * The error of a model this runner cannot read or run: an UnpoolError
 * ('unsupported' by default; 'invalid_argument' for a model that is wrong),
 * its message naming the node, the attribute and what to do.
 */
export class OnnxModelError extends UnpoolError {
  constructor(message: string, code: 'unsupported' | 'invalid_argument' = 'unsupported') {
    super(`unpool/onnx: ${message}`, code);
  }
}

/** Parses ONNX model bytes into its graph. */
export function readModel(bytes: Uint8Array): OnnxGraph {
  let model: ModelProto;
  try {
    model = fromBinary(ModelProtoSchema, bytes);
  } catch (e) {
    throw new OnnxModelError(`the model bytes are not an ONNX model (${(e as Error).message})`);
  }
  const g = model.graph;
  if (g === undefined || g.node.length === 0) throw new OnnxModelError('the model has no graph nodes');
  const initializers = new Map<string, TensorProto>();
  for (const t of g.initializer) {
    if (t.dataLocation === TensorProto_DataLocation.EXTERNAL) {
      throw new OnnxModelError(`initializer '${t.name}' is stored outside the model (external data), which ` +
          'this runner does not read yet: save the model with every tensor inside it');
    }
    initializers.set(t.name, t);
  }
  if (g.sparseInitializer.length > 0) {
    throw new OnnxModelError('the model has sparse initializers, which this runner does not read yet');
  }
  const producer = new Map<string, OnnxNode>();
  const consumers = new Map<string, OnnxNode[]>();
  const nodes = g.node.map((proto, index): OnnxNode => {
    const node = {
      index, proto, opType: proto.opType, domain: proto.domain, inputs: proto.input, outputs: proto.output,
      label: proto.name !== '' ? proto.name : `${proto.opType} #${index}`,
    };
    for (const v of proto.output) if (v !== '') producer.set(v, node);
    for (const v of nodeReads(node)) {
      const list = consumers.get(v);
      if (list === undefined) consumers.set(v, [node]); else list.push(node);
    }
    return node;
  });
  const valueInfo = new Map<string, ValueInfoProto>();
  for (const v of [...g.valueInfo, ...g.output, ...g.input]) valueInfo.set(v.name, v);
  const opset = model.opsetImport.find((o) => o.domain === '' || o.domain === 'ai.onnx')?.version;
  return {
    model, nodes, producer, consumers, initializers,
    inputs: g.input.filter((v) => !initializers.has(v.name)), outputs: g.output, valueInfo,
    opset: opset === undefined ? 0 : Number(opset),
  };
}

/** The attribute `name` of `node`, if present. */
export function attribute(node: OnnxNode, name: string): AttributeProto | undefined {
  return node.proto.attribute.find((a) => a.name === name);
}

/** An INTS attribute as numbers (undefined when absent). */
export function attrInts(node: OnnxNode, name: string): number[] | undefined {
  const a = attribute(node, name);
  if (a === undefined) return undefined;
  if (a.type !== AttrType.INTS) throw new OnnxModelError(`${describeNode(node)}: attribute ${name} is not a list of ints`);
  return a.ints.map(Number);
}

/** An INT attribute as a number, `fallback` when absent. */
export function attrInt(node: OnnxNode, name: string, fallback: number): number {
  const a = attribute(node, name);
  if (a === undefined) return fallback;
  if (a.type !== AttrType.INT) throw new OnnxModelError(`${describeNode(node)}: attribute ${name} is not an int`);
  return Number(a.i);
}

/** A STRING attribute, `fallback` when absent. */
export function attrString(node: OnnxNode, name: string, fallback: string): string {
  const a = attribute(node, name);
  if (a === undefined) return fallback;
  if (a.type !== AttrType.STRING) throw new OnnxModelError(`${describeNode(node)}: attribute ${name} is not a string`);
  return new TextDecoder().decode(a.s);
}

/** How messages name a node: `MaxPool node '/pool/MaxPool'`. */
export function describeNode(node: OnnxNode): string {
  return node.proto.name !== '' ? `${node.opType} node '${node.proto.name}'` : `${node.label}`;
}

/**
 * A model of `nodes` of `graph` (kept in their order), with the initializers
 * they read, `inputs` (name and type) and `outputs` (untyped: ONNX Runtime
 * infers them, and its outputMetadata tells them).
 */
export function subModel(graph: OnnxGraph, nodes: readonly OnnxNode[],
                         inputs: readonly { name: string; elemType: number }[],
                         outputs: readonly string[]): Uint8Array {
  const used = new Set<string>();
  for (const n of nodes) for (const v of n.inputs) used.add(v);
  forEachSubgraph(nodes, (g) => { for (const n of g.node) for (const v of n.input) used.add(v); });
  const src = graph.model;
  const sub = create(ModelProtoSchema, {
    irVersion: src.irVersion, opsetImport: src.opsetImport, producerName: 'unpool/onnx',
    domain: src.domain, modelVersion: src.modelVersion, functions: src.functions,
    graph: create(GraphProtoSchema, {
      name: src.graph!.name,
      node: nodes.map((n) => n.proto),
      initializer: src.graph!.initializer.filter((t) => used.has(t.name)),
      input: inputs.map(({ name, elemType }) => create(ValueInfoProtoSchema, {
        name,
        type: create(TypeProtoSchema, {
          value: { case: 'tensorType', value: create(TypeProto_TensorSchema, { elemType }) },
        }),
      })),
      output: outputs.map((name) => create(ValueInfoProtoSchema, { name })),
    }),
  });
  return toBinary(ModelProtoSchema, sub);
}

/** A model of one float32 Identity: the session that holds ORT's GPUDevice for a model with no node for ORT. */
export function identityModel(): Uint8Array {
  const info = (name: string) => create(ValueInfoProtoSchema, {
    name,
    type: create(TypeProtoSchema, { value: { case: 'tensorType', value: create(TypeProto_TensorSchema, { elemType: 1 }) } }),
  });
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 8n, producerName: 'unpool/onnx',
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 13n })],
    graph: create(GraphProtoSchema, {
      name: 'keep', node: [create(NodeProtoSchema, { opType: 'Identity', input: ['x'], output: ['y'] })],
      input: [info('x')], output: [info('y')],
    }),
  }));
}

/** Calls `f` on every graph held in an attribute of `nodes` (If, Loop, Scan bodies), nested ones too. */
export function forEachSubgraph(nodes: readonly OnnxNode[] | readonly NodeProto[],
                                f: (g: NonNullable<ModelProto['graph']>) => void): void {
  for (const n of nodes) {
    const proto = 'proto' in n ? n.proto : n;
    for (const a of proto.attribute) {
      for (const g of [...(a.g !== undefined ? [a.g] : []), ...a.graphs]) {
        f(g);
        forEachSubgraph(g.node, f);
      }
    }
  }
}

/**
 * The values a node reads from outside itself: its inputs, and the outer
 * values its subgraphs (If, Loop, Scan bodies) read by name.
 */
export function nodeReads(node: OnnxNode): string[] {
  const reads = new Set(node.inputs.filter((v) => v !== ''));
  forEachSubgraph([node], (g) => {
    const defined = new Set<string>([...g.input.map((v) => v.name), ...g.initializer.map((t) => t.name)]);
    for (const n of g.node) for (const v of n.output) defined.add(v);
    for (const n of g.node) for (const v of n.input) if (v !== '' && !defined.has(v)) reads.add(v);
  });
  return [...reads];
}
