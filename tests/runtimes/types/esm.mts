// An ES module consumer (module node16, or bundler resolution), strict mode:
// every entry's types resolve and agree; unpool/onnx takes onnxruntime-web's
// namespace as imported and gives its Tensors.
import { backendInfo, init, maxPool2d, maxUnpool2d, MaxPool2d, type Tensor } from 'unpool';
import * as inline from 'unpool/inline';
import { createSession } from 'unpool/onnx';
import * as ort from 'onnxruntime-web';

await init({ simd: true, locateFile: (file: string) => `/static/${file}` });
await inline.init({ simd: false });
const x: Tensor<Float32Array> = { data: new Float32Array(16), shape: [1, 1, 4, 4] };
const { output, indices } = maxPool2d(x, { kernelSize: 2 });
const same: typeof maxPool2d = inline.maxPool2d;
const y: Float32Array = maxUnpool2d(output, indices, { kernelSize: 2 }).data;
const pool = new MaxPool2d(2);
const simd: boolean = backendInfo().simd;
const session = await createSession(new Uint8Array(0), { ort, executionProviders: ['wasm'], unpoolNodes: 'all' });
const unpooled: ort.Tensor = (await session.run({ x: new ort.Tensor('float32', new Float32Array(16), [1, 1, 4, 4]) })).y;
export { same, y, pool, simd, unpooled };
