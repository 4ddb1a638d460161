// A strict consumer of every entry (issue 37, items 7 and 8), type-checked
// and never run. scripts/test-pack.sh compiles it against the installed
// tarball with strict and skipLibCheck: false, under moduleResolution
// nodenext and bundler, together with every declaration file the package
// ships (tests/js/pack/types-check.mjs). Each `@ts-expect-error TSnnnn`
// line must fail with that error: the check compiles the file once more
// without the directives and wants exactly those errors on exactly the
// lines below them.
import {
  init, maxPool2d, type Tensor, uploadTensor, type WasmTensor,
} from 'unpool';
import * as inline from 'unpool/inline';
import {
  GpuTensor, initWebGPU, type GPUBufferType, type HostTensor, type OrtGpuTensorLike,
  type TfGpuDataLike, type WebGPUBackend,
} from 'unpool/webgpu';
import * as ort from 'onnxruntime-web';
import { createSession } from 'unpool/onnx';

// The WebAssembly entries: results in the input's class, indices by indexType.
export async function wasmTypes(): Promise<unknown[]> {
  await init();
  await inline.init();
  const x: Tensor<Float32Array> = { data: new Float32Array(16), shape: [1, 1, 4, 4] };
  const r = maxPool2d(x, { kernelSize: 2, indexType: 'int64' });
  const values: Float32Array = r.output.data;
  const big: BigInt64Array = inline.maxPool2d(x, { kernelSize: 2, indexType: 'int64' }).indices.data;
  return [values, big];
}

// unpool/webgpu: GpuTensor<T> in the class of the input's data (T), as the
// WebAssembly API types its results; indices by indexType.
export async function gpuTypes(gpu: WebGPUBackend, buffer: GPUBufferType, tf: TfGpuDataLike,
                               ort: OrtGpuTensorLike): Promise<unknown[]> {
  const host: HostTensor<Float32Array> = { data: new Float32Array(16), shape: [1, 1, 4, 4] };
  const x: GpuTensor<Float32Array> = gpu.upload(host);
  const { output, indices } = gpu.maxPool2d(x, { kernelSize: 2 });
  const f: Float32Array = (await output.read()).data;
  const i32: Int32Array = (await indices.read()).data;
  const i64: BigInt64Array = (await gpu.maxPool2d(x, { kernelSize: 2, indexType: 'int64' }).indices.read()).data;
  const y: GpuTensor<Float32Array> = gpu.maxUnpool2d(output, indices, { kernelSize: 2 });
  const into: GpuTensor<Float32Array> = gpu.maxUnpool2d(output, indices, { kernelSize: 2, out: y });
  const pooledInto = gpu.maxPool2d(x, { kernelSize: 2, out: { output, indices } });
  const g: Float32Array = (await gpu.maxPool2dBackward(output, indices, { inputShape: [1, 1, 4, 4] }).read()).data;
  const gu: Float32Array = (await gpu.maxUnpool2dBackward(y, gpu.maxPool2d(x, { kernelSize: 1 }).indices).read()).data;
  // Other classes: each keeps its own.
  const x64 = gpu.upload({ data: new Float64Array(8), shape: [1, 8] });
  const d: Float64Array = (await gpu.adaptiveMaxPool1d(x64, { outputSize: 2 }).output.read()).data;
  const fr = gpu.fractionalMaxPool2d(gpu.upload({ data: new Float64Array(16), shape: [1, 4, 4] }), {
    kernelSize: 2, outputSize: 2, randomSamples: gpu.upload({ data: new Float64Array(2), shape: [1, 2] }),
  });
  const frOut: GpuTensor<Float64Array> = fr.output;
  const clamped: Uint8ClampedArray =
      (await gpu.maxPool1d(gpu.upload({ data: new Uint8ClampedArray(4), shape: [1, 4] }), { kernelSize: 2 })
          .output.read()).data;
  const bf16: Uint16Array =
      (await gpu.upload({ data: new Uint16Array(4), shape: [1, 4], dtype: 'bfloat16' }).read()).data;
  // wrap: the class read() gives for the dtype.
  const w32: GpuTensor<Float32Array> = gpu.wrap(buffer, { shape: [16], dtype: 'float32' });
  const w64: GpuTensor<BigInt64Array> = gpu.wrap(buffer, { shape: [16], dtype: 'int64' });
  const wtf: GpuTensor<Int32Array> = gpu.wrap(tf, { shape: [16], dtype: 'int32' });
  const wort: GpuTensor = gpu.wrap(ort);
  // convertIndices: the index type its options give.
  const onnx: GpuTensor<BigInt64Array> =
      gpu.convertIndices(indices, { from: 'pytorch', to: 'onnx', inputShape: [1, 1, 4, 4] });
  const back: GpuTensor<Int32Array> =
      gpu.convertIndices(onnx, { from: 'onnx', to: 'pytorch', inputShape: [1, 1, 4, 4] });
  const same: GpuTensor = await initWebGPU().then((b) => b.upload(host));

  // What must not compile.
  // @ts-expect-error TS2322 `out` is a GpuTensor, not a number
  gpu.maxUnpool2d(output, indices, { kernelSize: 2, out: 42 });
  // @ts-expect-error TS2740 a pool's out.output is a GpuTensor, not a host tensor
  gpu.maxPool2d(x, { kernelSize: 2, out: { output: host } });
  // @ts-expect-error TS2322 `out` of another class than the result's
  gpu.maxUnpool2d(output, indices, { kernelSize: 2, out: x64 });
  // @ts-expect-error TS2769 a typed array is not a GPU buffer (nor any other source wrap takes)
  gpu.wrap(new Float32Array(16), { shape: [16], dtype: 'float32' });
  // @ts-expect-error TS2322 upload takes the WebAssembly API's classes: no Uint32Array
  gpu.upload({ data: new Uint32Array(4), shape: [4] });
  // @ts-expect-error TS2322 nor a DataView
  gpu.upload({ data: new DataView(new ArrayBuffer(16)), shape: [4] });
  const wasm: WasmTensor<Float32Array> = uploadTensor(host);
  // @ts-expect-error TS2345 a WasmTensor is not a GpuTensor
  gpu.maxPool2d(wasm, { kernelSize: 2 });
  // @ts-expect-error TS2345 nor are indices from module memory
  gpu.maxUnpool2d(output, uploadTensor({ data: new Int32Array(4), shape: [1, 1, 2, 2] }), { kernelSize: 2 });
  // @ts-expect-error TS2322 int64 indices are not Int32Array ones
  const notI32: GpuTensor<Int32Array> = gpu.maxPool2d(x, { kernelSize: 2, indexType: 'int64' }).indices;
  // @ts-expect-error TS2322 a float32 result is not a Float64Array
  const notF64: Float64Array = (await output.read()).data;
  const i64Out = gpu.maxPool2d(x, { kernelSize: 2, indexType: 'int64' }).indices;
  const intoI64 = gpu.maxPool2d(x, { kernelSize: 2, indexType: 'int64', out: { indices: i64Out } });
  // @ts-expect-error TS2322 out.indices of another index type than indexType's
  gpu.maxPool2d(x, { kernelSize: 2, out: { indices: i64Out } });
  // @ts-expect-error TS2322 resident is the WebAssembly API's alone
  gpu.maxPool2d(x, { kernelSize: 2, resident: true });
  const bytes = gpu.upload({ data: new Uint8Array(4), shape: [1, 1, 2, 2] });
  // @ts-expect-error TS2345 a pool's gradient adds: float values only, as in the WebAssembly API
  gpu.maxPool2dBackward(bytes, indices, { inputShape: [1, 1, 4, 4] });
  return [f, i32, i64, into, pooledInto, intoI64, g, gu, d, frOut, clamped, bf16, w32, w64, wtf, wort, back, same,
          notI32, notF64];
}

// unpool/onnx: createSession's options are the runner's and the given ORT's
// own session options, checked as strictly as ORT's create() checks them.
export async function onnxTypes(model: Uint8Array): Promise<unknown[]> {
  const session = await createSession(model, { ort, executionProviders: ['wasm'] });
  const feeds = { x: new ort.Tensor('float32', new Float32Array(4), [1, 1, 2, 2]) };
  const t: ort.Tensor = (await session.run(feeds)).y;
  // What must not compile.
  // @ts-expect-error TS2322 unpoolNodes is 'auto' or 'all'
  await createSession(model, { ort, unpoolNodes: 'some' });
  // @ts-expect-error TS2322 executionProviders is an array, as in ORT
  await createSession(model, { ort, executionProviders: 'wasm' });
  // @ts-expect-error TS2322 an execution provider object has its name
  await createSession(model, { ort, executionProviders: [{ device: {} }] });
  // @ts-expect-error TS2322 results are 'cpu' or 'gpu-buffer' tensors (not ORT's 'texture' or 'ml-tensor')
  await createSession(model, { ort, preferredOutputLocation: 'texture' });
  // @ts-expect-error TS2561 a misspelt option (it would run as unpoolNodes 'auto')
  await createSession(model, { ort, unpoolnodes: 'all' });
  // @ts-expect-error TS2322 ORT's own options keep ORT's types
  await createSession(model, { ort, graphOptimizationLevel: 'fastest' });
  // @ts-expect-error TS2345 the ORT namespace is required
  await createSession(model, { executionProviders: ['wasm'] });
  // @ts-expect-error TS2739 an ORT Tensor class is not the namespace
  await createSession(model, { ort: ort.Tensor });
  // @ts-expect-error TS2769 feeds are ORT tensors, not typed arrays
  await session.run({ x: new Float32Array(4) });
  // @ts-expect-error TS2322 results are ORT Tensors (not any)
  const notNumber: number = (await session.run(feeds)).y;
  return [t, notNumber];
}
