// expect TS2322 on the marked line: `strides` is not an option of maxPool2d.
import { maxPool2d, type Tensor } from '../../../../dist/index.js';
declare const x: Tensor<Float32Array>;
export const r = maxPool2d(x, { kernelSize: 2, strides: 1 });  // error
