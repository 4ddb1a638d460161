// expect TS2322 on the marked line: int64 indices are a BigInt64Array, not an Int32Array.
import { MaxPool2d, type Tensor } from '../../../../dist/index.js';
declare const x: Tensor<Float32Array>;
export const i: Int32Array = new MaxPool2d(2, { indexType: 'int64' }).forward(x).indices.data;  // error
