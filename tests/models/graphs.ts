// Small ONNX models built in the tests with the runner's own schema code
// (dist/onnx/onnx_pb.js): one node or a few, for the runner's rules, errors
// and lifetimes. The exported models of tests/models/make-fixtures.py test
// the real thing.
import { create, toBinary } from '@bufbuild/protobuf';
import {
  AttributeProto_AttributeType as AttrType, AttributeProtoSchema, GraphProtoSchema, ModelProtoSchema,
  NodeProtoSchema, OperatorSetIdProtoSchema, TensorProtoSchema, TypeProto_TensorSchema, TypeProtoSchema,
  ValueInfoProtoSchema,
} from '../../dist/onnx/onnx_pb.js';

/** onnx.TensorProto.DataType */
export const FLOAT = 1, INT64 = 7, DOUBLE = 11, FLOAT16 = 10;

type Attr = number | readonly number[] | string;

export interface NodeSpec {
  op: string;
  inputs: string[];
  outputs: string[];
  name?: string;
  attrs?: Record<string, Attr>;
}

function attribute(name: string, v: Attr) {
  if (typeof v === 'string') return create(AttributeProtoSchema, { name, type: AttrType.STRING, s: new TextEncoder().encode(v) });
  if (typeof v === 'number') return create(AttributeProtoSchema, { name, type: AttrType.INT, i: BigInt(v) });
  return create(AttributeProtoSchema, { name, type: AttrType.INTS, ints: v.map(BigInt) });
}

const valueInfo = (name: string, elemType?: number) => create(ValueInfoProtoSchema, {
  name,
  type: elemType === undefined ? undefined : create(TypeProtoSchema, {
    value: { case: 'tensorType', value: create(TypeProto_TensorSchema, { elemType }) },
  }),
});

/** An int64 initializer. */
export function int64s(name: string, dims: number[], values: readonly number[]) {
  const raw = new Uint8Array(new BigInt64Array(values.map(BigInt)).buffer);
  return create(TensorProtoSchema, { name, dims: dims.map(BigInt), dataType: INT64, rawData: raw });
}

/** A model of `nodes`, inputs and outputs with element types. */
export function model(spec: {
  inputs: [string, number][];
  outputs: [string, number?][];
  nodes: NodeSpec[];
  initializers?: ReturnType<typeof int64s>[];
  opset?: number;
}): Uint8Array {
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 8n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: BigInt(spec.opset ?? 13) })],
    graph: create(GraphProtoSchema, {
      name: 'test',
      node: spec.nodes.map((n) => create(NodeProtoSchema, {
        opType: n.op, input: n.inputs, output: n.outputs, name: n.name ?? '',
        attribute: Object.entries(n.attrs ?? {}).map(([k, v]) => attribute(k, v)),
      })),
      initializer: spec.initializers ?? [],
      input: spec.inputs.map(([n, t]) => valueInfo(n, t)),
      output: spec.outputs.map(([n, t]) => valueInfo(n, t)),
    }),
  }));
}

/**
 * MaxPool (with Indices) then MaxUnpool of its flat Indices back to the
 * pool's input shape (output_shape = Shape(x)), in ONNX's own terms.
 */
export function poolUnpool(attrs: Record<string, Attr> = { kernel_shape: [2, 2], strides: [2, 2] },
                           mid = false): Uint8Array {
  const { kernel_shape, strides, pads } = attrs as Record<string, number[] | undefined>;
  return model({
    inputs: [['x', FLOAT]],
    outputs: [['y', FLOAT], ['i', INT64]],
    nodes: [
      { op: 'MaxPool', name: 'pool', inputs: ['x'], outputs: [mid ? 'p0' : 'p', 'i'], attrs },
      // With `mid`, an ORT node between the pool and the unpool (a sub-session each way).
      ...(mid ? [{ op: 'Relu', inputs: ['p0'], outputs: ['p'] }] : []),
      { op: 'Shape', inputs: ['x'], outputs: ['s'] },
      {
        op: 'MaxUnpool', name: 'unpool', inputs: ['p', 'i', 's'], outputs: ['y'],
        attrs: { kernel_shape: kernel_shape!, ...(strides ? { strides } : {}), ...(pads ? { pads } : {}) },
      },
    ],
  });
}
