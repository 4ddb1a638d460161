// A minimal ONNX model writer for the ONNX Runtime Web tests: just enough
// protobuf (varints, length-delimited fields) for one-node graphs such as
// MaxPool with its Indices output. Field numbers are onnx.proto3's.

type Field = [number, number | bigint | string | Uint8Array];

function varint(v: number | bigint): number[] {
  let x = BigInt.asUintN(64, BigInt(v));
  const out: number[] = [];
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x !== 0n) b |= 0x80;
    out.push(b);
  } while (x !== 0n);
  return out;
}

/** Encodes a message: numbers and bigints as varints, strings and bytes length-delimited. */
function message(fields: Field[]): Uint8Array {
  const out: number[] = [];
  for (const [num, value] of fields) {
    if (typeof value === 'number' || typeof value === 'bigint') {
      out.push(...varint((num << 3) | 0), ...varint(value));
    } else {
      const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
      out.push(...varint((num << 3) | 2), ...varint(bytes.length), ...bytes);
    }
  }
  return Uint8Array.from(out);
}

/** onnx.TensorProto.DataType */
export const FLOAT = 1;
export const INT64 = 7;

/** A node attribute: an int or a list of ints. */
export type Attr = number | readonly number[];

function attribute(name: string, value: Attr): Uint8Array {
  // AttributeProto: name 1, i 3, ints 8, type 20 (INT 2, INTS 7)
  if (typeof value === 'number') return message([[1, name], [3, value], [20, 2]]);
  return message([[1, name], ...value.map((v): Field => [8, v]), [20, 7]]);
}

function valueInfo(name: string, elemType: number, shape: readonly number[]): Uint8Array {
  // ValueInfoProto{name 1, type 2: TypeProto{tensor_type 1: {elem_type 1,
  // shape 2: TensorShapeProto{dim 1: {dim_value 1}}}}}
  const dims = shape.map((d): Field => [1, message([[1, d]])]);
  const tensorType = message([[1, elemType], [2, message(dims)]]);
  return message([[1, name], [2, message([[1, tensorType]])]]);
}

export interface NodeSpec {
  opType: string;
  inputs: { name: string; type: number; shape: readonly number[] }[];
  outputs: { name: string; type: number; shape: readonly number[] }[];
  attributes: Record<string, Attr>;
}

/** A model of one node, opset 12 (MaxPool with Indices and storage_order; MaxUnpool). */
export function oneNodeModel(spec: NodeSpec): Uint8Array {
  // NodeProto: input 1, output 2, name 3, op_type 4, attribute 5
  const node = message([
    ...spec.inputs.map((i): Field => [1, i.name]),
    ...spec.outputs.map((o): Field => [2, o.name]),
    [3, 'node'], [4, spec.opType],
    ...Object.entries(spec.attributes).map(([k, v]): Field => [5, attribute(k, v)]),
  ]);
  // GraphProto: node 1, name 2, input 11, output 12
  const graph = message([
    [1, node], [2, 'g'],
    ...spec.inputs.map((i): Field => [11, valueInfo(i.name, i.type, i.shape)]),
    ...spec.outputs.map((o): Field => [12, valueInfo(o.name, o.type, o.shape)]),
  ]);
  // ModelProto: ir_version 1, producer_name 2, graph 7, opset_import 8 {domain 1, version 2}
  return message([[1, 7], [2, 'unpool-tests'], [7, graph], [8, message([[1, ''], [2, 12]])]]);
}
