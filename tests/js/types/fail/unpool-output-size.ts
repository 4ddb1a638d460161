// expect TS2322 on the marked line: PyTorch's output_size is outputSize here.
import { maxUnpool2d, type Tensor } from '../../../../dist/index.js';
declare const y: Tensor<Float32Array>;
declare const i: Tensor<Int32Array>;
export const r = maxUnpool2d(y, i, { kernelSize: 2, output_size: [5, 5] });  // error
