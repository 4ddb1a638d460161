// Type-checked against the installed package: its .d.ts files must resolve.
import {
  init, maxPool2d, maxUnpool2d, MaxPool2d, UnpoolError, backendInfo, type Tensor, type WasmTensor,
  adaptiveMaxPool2d, adaptiveMaxPool2dBackward, fractionalMaxPool3d, fractionalMaxPool3dBackward,
  AdaptiveMaxPool1d, FractionalMaxPool2d, type AdaptiveMaxPoolOptions, type FractionalMaxPoolOptions,
} from 'unpool';
import * as ort from 'onnxruntime-web';
import * as ortGpu from 'onnxruntime-web/webgpu';
import * as ortNode from 'onnxruntime-node';
import { createSession, type CreateSessionOptions, type StepInfo, type UnpoolSession } from 'unpool/onnx';

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
// Adaptive and fractional pools: the same result types; null keeps a size.
const aOpts: AdaptiveMaxPoolOptions = { outputSize: [null, 2] };
const a = adaptiveMaxPool2d(x, { outputSize: [3, null], indexType: 'int64' });
const aIdx: BigInt64Array = a.indices.data;
const ag: Float32Array = adaptiveMaxPool2dBackward(a.output, a.indices, { inputShape: x.shape }).data;
const x3: Tensor<Float64Array> = { data: new Float64Array(125), shape: [1, 5, 5, 5] };
const fOpts: FractionalMaxPoolOptions = { kernelSize: 2, outputRatio: 0.5 };
const f = fractionalMaxPool3d(x3, {
  kernelSize: 2, outputSize: 2, randomSamples: { data: new Float64Array(3), shape: [1, 1, 3] },
  resident: true,
});
const fOut: WasmTensor<Float64Array> = f.output;
const fg: Float64Array = fractionalMaxPool3dBackward(f.output, f.indices, { inputShape: x3.shape }).data;
const fmp = new FractionalMaxPool2d(2, fOpts).forward(x).output.data satisfies Float32Array;
const amp = new AdaptiveMaxPool1d(3).forward({ data: new Float32Array(8), shape: [1, 8] });
// maxUnpool without kernelSize: outputSize alone.
const free: Float32Array = maxUnpool2d(output, indices, { outputSize: [4, 4] }).data;
// Exact result types of the module classes (issue 32), and forward's resident.
const i32: Int32Array = new MaxPool2d(2).forward(x).indices.data;
const i64: BigInt64Array = new MaxPool2d(2, { indexType: 'int64' }).forward(x).indices.data;
const kept: WasmTensor<Int32Array> = layer.forward(x, { resident: true }).indices;
// unpool/onnx on each ORT namespace as imported, no cast: run() gives that
// ORT's own Tensor (getData() is ORT's, not the runner's structural type).
const model = new Uint8Array(0);
const session = await createSession(model, { ort, executionProviders: ['wasm'], unpoolNodes: 'all' });
const results = await session.run({ x: new ort.Tensor('float32', new Float32Array(4), [1, 1, 2, 2]) });
const ortY: ort.Tensor = results.y;
const ortData = await results.y.getData();
const steps: readonly StepInfo[] = session.steps;
const typed: UnpoolSession<ort.Tensor> = session;
const gpuSession = await createSession(model, {
  ort: ortGpu, executionProviders: [{ name: 'webgpu', device: {} }, 'wasm'], preferredOutputLocation: 'gpu-buffer',
});
const gpuY: ortGpu.Tensor = (await gpuSession.run({ x: new ortGpu.Tensor('float32', new Float32Array(4), [4]) }, ['y'])).y;
// ORT's own session options pass through, typed as ORT types them.
const nodeOptions: CreateSessionOptions<typeof ortNode> = {
  ort: ortNode, executionProviders: ['cpu'], graphOptimizationLevel: 'all', intraOpNumThreads: 1, fuse: false,
};
const nodeSession = await createSession('model.onnx', nodeOptions);
const nodeY: ortNode.Tensor = (await nodeSession.run({ x: new ortNode.Tensor('float32', new Float32Array(4), [4]) })).y;
export { big, y, layer, e, copied, out, simd, aOpts, aIdx, ag, fOut, fg, fmp, amp, free, i32, i64, kept };
export { ortY, ortData, steps, typed, gpuY, nodeY };
