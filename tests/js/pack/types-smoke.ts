// Type-checked against the installed package: its .d.ts files must resolve.
import { init, maxPool2d, maxUnpool2d, MaxPool2d, UnpoolError, type Tensor } from 'unpool';

await init();
const x: Tensor<Float32Array> = { data: new Float32Array(16), shape: [1, 1, 4, 4] };
const { output, indices } = maxPool2d(x, { kernelSize: 2, indexType: 'int64' });
const big: BigInt64Array = indices.data;
const y: Float32Array = maxUnpool2d(output, indices, { kernelSize: 2 }).data;
const layer = new MaxPool2d([2, 2], { stride: 2 });
const e: RangeError = new UnpoolError('m', 'invalid_index');
export { big, y, layer, e };
