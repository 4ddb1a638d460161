// expect TS2322 on the marked line: ONNX's storage_order is a format ('onnx-column-major'), not an option.
import { convertIndices, type Tensor } from '../../../../dist/index.js';
declare const i: Tensor<BigInt64Array>;
export const r = convertIndices(i, { from: 'onnx', to: 'pytorch', inputShape: [1, 1, 4, 4], storage_order: 1 });  // error
