// expect TS2322 on the marked line: an adaptive pool has no kernelSize.
import { adaptiveMaxPool2d, type Tensor } from '../../../../dist/index.js';
declare const x: Tensor<Float32Array>;
export const r = adaptiveMaxPool2d(x, { outputSize: 2, kernelSize: 2 });  // error
