// expect TS2322 on the marked line: forward takes out and resident only.
import { MaxPool2d, type Tensor } from '../../../../dist/index.js';
declare const x: Tensor<Float32Array>;
export const r = new MaxPool2d(2).forward(x, { resident: true, indexType: 'int64' });  // error
