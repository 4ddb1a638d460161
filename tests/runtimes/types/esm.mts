// An ES module consumer (module node16, or bundler resolution), strict mode:
// both entries' types resolve and agree.
import { backendInfo, init, maxPool2d, maxUnpool2d, MaxPool2d, type Tensor } from 'unpool';
import * as inline from 'unpool/inline';

await init({ simd: true, locateFile: (file: string) => `/static/${file}` });
await inline.init({ simd: false });
const x: Tensor<Float32Array> = { data: new Float32Array(16), shape: [1, 1, 4, 4] };
const { output, indices } = maxPool2d(x, { kernelSize: 2 });
const same: typeof maxPool2d = inline.maxPool2d;
const y: Float32Array = maxUnpool2d(output, indices, { kernelSize: 2 }).data;
const pool = new MaxPool2d(2);
const simd: boolean = backendInfo().simd;
export { same, y, pool, simd };
