// A minimal ONNX model writer, shared by the ONNX Runtime Web tests and the
// benchmarks: enough protobuf (varints, length-delimited fields) for one-node
// graphs such as MaxPool with its Indices output and MaxUnpool, and graphs
// of several nodes (graphModel). Field numbers are onnx.proto3's.

function varint(v) {
  let x = BigInt.asUintN(64, BigInt(v));
  const out = [];
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x !== 0n) b |= 0x80;
    out.push(b);
  } while (x !== 0n);
  return out;
}

/** Encodes a message: numbers as varints, strings and bytes length-delimited. */
function message(fields) {
  const out = [];
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

function attribute(name, value) {
  // AttributeProto: name 1, i 3, ints 8, type 20 (INT 2, INTS 7)
  if (typeof value === 'number') return message([[1, name], [3, value], [20, 2]]);
  return message([[1, name], ...value.map((v) => [8, v]), [20, 7]]);
}

function valueInfo(name, elemType, shape) {
  const dims = shape.map((d) => [1, message([[1, d]])]);
  const tensorType = message([[1, elemType], [2, message(dims)]]);
  return message([[1, name], [2, message([[1, tensorType]])]]);
}

/** A model of one node, opset 12. spec: { opType, inputs, outputs, attributes }. */
export function oneNodeModel(spec) {
  const node = message([
    ...spec.inputs.map((i) => [1, i.name]),
    ...spec.outputs.map((o) => [2, o.name]),
    [3, 'node'], [4, spec.opType],
    ...Object.entries(spec.attributes).map(([k, v]) => [5, attribute(k, v)]),
  ]);
  const graph = message([
    [1, node], [2, 'g'],
    ...spec.inputs.map((i) => [11, valueInfo(i.name, i.type, i.shape)]),
    ...spec.outputs.map((o) => [12, valueInfo(o.name, o.type, o.shape)]),
  ]);
  return message([[1, 7], [2, 'unpool-bench'], [7, graph], [8, message([[1, ''], [2, 12]])]]);
}

// The element types graphModel() takes by name (onnx.TensorProto.DataType).
const ONNX_TYPE = { float32: 1, int64: 7, float16: 10 };

/**
 * A model of several nodes (the WebGPU benchmark's chains), opset 12:
 * nodes [{ op, inputs, outputs, attributes }], inputs/outputs
 * [{ name, type, shape }] with type a name of ONNX_TYPE.
 */
export function graphModel({ nodes, inputs, outputs }) {
  const graph = message([
    ...nodes.map((n, i) => [1, message([
      ...n.inputs.map((x) => [1, x]), ...n.outputs.map((x) => [2, x]), [3, `n${i}`], [4, n.op],
      ...Object.entries(n.attributes).map(([k, v]) => [5, attribute(k, v)]),
    ])]),
    [2, 'g'],
    ...inputs.map((i) => [11, valueInfo(i.name, ONNX_TYPE[i.type], i.shape)]),
    ...outputs.map((o) => [12, valueInfo(o.name, ONNX_TYPE[o.type], o.shape)]),
  ]);
  return message([[1, 7], [2, 'unpool'], [7, graph], [8, message([[1, ''], [2, 12]])]]);
}
