// The small ONNX model of the `unpool/onnx` smokes (scripts/test-pack.sh,
// scripts/test-runtimes.sh), built as a user builds one: @bufbuild/protobuf
// and the package's own schema, dist/onnx/onnx_pb.js of the installed
// tarball. MaxPool with its Indices output used (overlapping 3x3 windows,
// stride 2, padding 1), Shape, and MaxUnpool back to the pool's input shape
// (output_shape = Shape(x)): ONNX's flat indices, as ORT computes them.
//   node onnx-model.mjs OUT.onnx     (run where the tarball is installed)
import { writeFileSync } from 'node:fs';
import { create, toBinary } from '@bufbuild/protobuf';
import {
  AttributeProto_AttributeType as AttrType, AttributeProtoSchema, GraphProtoSchema, ModelProtoSchema,
  NodeProtoSchema, OperatorSetIdProtoSchema, TensorProto_DataType as DT, TypeProto_TensorSchema, TypeProtoSchema,
  ValueInfoProtoSchema,
} from './node_modules/unpool/dist/onnx/onnx_pb.js';

const ints = (name, v) => create(AttributeProtoSchema, { name, type: AttrType.INTS, ints: v.map(BigInt) });
const value = (name, elemType) => create(ValueInfoProtoSchema, {
  name,
  type: create(TypeProtoSchema, { value: { case: 'tensorType', value: create(TypeProto_TensorSchema, { elemType }) } }),
});
const node = (opType, name, input, output, attribute = []) =>
  create(NodeProtoSchema, { opType, name, input, output, attribute });
const window = [ints('kernel_shape', [3, 3]), ints('strides', [2, 2]), ints('pads', [1, 1, 1, 1])];

const bytes = toBinary(ModelProtoSchema, create(ModelProtoSchema, {
  irVersion: 8n,
  opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 13n })],
  graph: create(GraphProtoSchema, {
    name: 'pool_unpool',
    node: [
      node('MaxPool', 'pool', ['x'], ['p', 'i'], window),
      node('Shape', 'shape', ['x'], ['s']),
      node('MaxUnpool', 'unpool', ['p', 'i', 's'], ['y'], window),
    ],
    input: [value('x', DT.FLOAT)],
    output: [value('y', DT.FLOAT), value('i', DT.INT64)],
  }),
}));
if (!process.argv[2]) throw new Error('usage: node onnx-model.mjs OUT.onnx');
writeFileSync(process.argv[2], bytes);
