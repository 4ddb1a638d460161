// Type-checked against the installed package: its .d.ts files must resolve.
import {
  init, maxPool2d, maxUnpool2d, MaxPool2d, UnpoolError, backendInfo, type Tensor, type WasmTensor,
} from 'unpool';

await init();
const x: Tensor<Float32Array> = { data: new Float32Array(16), shape: [1, 1, 4, 4] };
const { output, indices } = maxPool2d(x, { kernelSize: 2, indexType: 'int64' });
const big: BigInt64Array = indices.data;
const y: Float32Array = maxUnpool2d(output, indices, { kernelSize: 2 }).data;
const layer = new MaxPool2d([2, 2], { stride: 2 });
const e: RangeError = new UnpoolError('m', 'invalid_index');
// Resident results are WasmTensors; out arrays come back as the result's data.
const r = maxPool2d(x, { kernelSize: 2, resident: true });
const ri: WasmTensor<Int32Array> = r.indices;
const z: WasmTensor<Float32Array> = maxUnpool2d(r.output, ri, { kernelSize: 2, resident: true });
const copied: Float32Array = z.toArray();
const out: Float32Array = maxUnpool2d(r.output, ri, { kernelSize: 2, out: new Float32Array(16) }).data;
const simd: boolean = backendInfo().simd;
export { big, y, layer, e, copied, out, simd };
