// expect TS2561 on the marked line: the module's options are camelCase (ceilMode, stride).
import { MaxPool2d } from '../../../../dist/index.js';
export const pool = new MaxPool2d(2, { ceil_mode: true, strides: 1 });  // error
