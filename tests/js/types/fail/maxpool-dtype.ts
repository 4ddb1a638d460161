// expect TS2322 on the marked line: a dtype belongs to the tensor, not to the options.
import { maxPool2d, type Tensor } from '../../../../dist/index.js';
declare const x: Tensor<Float32Array>;
export const r = maxPool2d(x, { kernelSize: 2, dtype: 'float16' });  // error
