// gpu.wrap() of ONNX Runtime Web's and TF.js's GPU tensors, toOrtTensor and
// toTfTensor, on every stack, with stand-ins of the two libraries' objects
// (the shapes onnxruntime-common's Tensor and tfjs-core's tensor() have): no
// ORT or TF.js here. The real libraries run in Chromium
// (tests/webgpu/ort*.test.ts, tfjs.test.ts).
import * as unpool from '../../../dist/index.js';
import { initWebGPU, toOrtTensor, toTfTensor } from '../../../dist/webgpu/index.js';

const STORAGE = 0x80, COPY_SRC = 0x04, COPY_DST = 0x08;

function throws(what, f, cls, pattern) {
  let thrown;
  try { f(); } catch (e) { thrown = e; }
  if (!(thrown instanceof cls)) throw new Error(`${what}: want ${cls.name}, got ${thrown}`);
  if (!pattern.test(thrown.message)) throw new Error(`${what}: message ${JSON.stringify(thrown.message)} !~ ${pattern}`);
}

function same(what, got, want) {
  const g = JSON.stringify(got, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
  const w = JSON.stringify(want, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
  if (g !== w) throw new Error(`${what}: got ${g}, want ${w}`);
}

/**
 * A stand-in of onnxruntime-web's namespace: Tensor.fromGpuBuffer records its
 * arguments; env.webgpu.device is `device` (undefined: none yet), set as
 * each bundle of ORT Web 1.30 sets it at its first WebGPU session: the
 * default import (JSEP, `jsep`) as a non-writable property, the device of
 * every session; onnxruntime-web/webgpu as a plain one, the device of the
 * sessions made without one (a session given a device runs on that).
 */
function jsepDevice(webgpu, device) {
  Object.defineProperty(webgpu, 'device', { value: device, writable: false, enumerable: true, configurable: true });
}

function fakeOrt(device, { jsep = true } = {}) {
  const made = [];
  const webgpu = {};
  if (device !== undefined) {
    if (jsep) jsepDevice(webgpu, device);
    else webgpu.device = device;
  }
  return {
    made,
    env: { webgpu },
    Tensor: {
      fromGpuBuffer(gpuBuffer, options) {
        const t = { location: 'gpu-buffer', gpuBuffer, dims: options.dims, type: options.dataType, options };
        made.push(t);
        return t;
      },
    },
  };
}

export const cases = [
  {
    name: 'gpu.wrap of an ort.Tensor on gpu-buffer and of dataToGPU()\'s { buffer, tensorRef }, with no copy',
    run: async (ctx) => {
      await unpool.init();
      const gpu = await initWebGPU({ device: ctx.device });
      const buffer = gpu.device.createBuffer({ size: 32, usage: STORAGE | COPY_SRC | COPY_DST });
      gpu.device.queue.writeBuffer(buffer, 0, Float32Array.of(1, -2, 3, -4, 5, -6, 7, -8));

      const o = gpu.wrap({ location: 'gpu-buffer', gpuBuffer: buffer, dims: [2, 4], type: 'float32' });
      if (o.buffer !== buffer) throw new Error('ort: not the same buffer');
      same('ort: shape, dtype', [o.shape, o.dtype], [[2, 4], 'float32']);
      same('ort: data', Array.from((await o.read()).data), [1, -2, 3, -4, 5, -6, 7, -8]);
      const i64 = gpu.wrap({ location: 'gpu-buffer', gpuBuffer: buffer, dims: [4], type: 'int64' });
      same('ort int64: dtype', i64.dtype, 'int64');
      const h = gpu.wrap({ location: 'gpu-buffer', gpuBuffer: buffer, dims: [16], type: 'float16' });
      const hd = (await h.read()).data;
      const F16 = globalThis.Float16Array;
      if (!(hd instanceof (F16 ?? Uint16Array))) throw new Error(`ort float16: read() gave ${hd.constructor.name}`);

      const tensorRef = { dispose() {} };
      const t = gpu.wrap({ buffer, tensorRef }, { shape: [8], dtype: 'float32' });
      if (t.buffer !== buffer) throw new Error('tf: not the same buffer');
      same('tf: data', Array.from((await t.read()).data), [1, -2, 3, -4, 5, -6, 7, -8]);
      t.destroy();   // wrapped: the buffer stays the owner's
      same('after destroy of a wrap', Array.from((await o.read()).data).length, 8);

      throws('ort on the cpu', () => gpu.wrap({ location: 'cpu', dims: [1], type: 'float32', data: new Float32Array(1) }),
             TypeError, /^gpu\.wrap: the ort\.Tensor is on 'cpu', not 'gpu-buffer'/);
      throws('ort with options', () => gpu.wrap({ location: 'gpu-buffer', gpuBuffer: buffer, dims: [1], type: 'float32' }, { shape: [1], dtype: 'float32' }),
             TypeError, /^gpu\.wrap: an ort\.Tensor carries its dims and type; pass no options/);
      throws('ort uint32', () => gpu.wrap({ location: 'gpu-buffer', gpuBuffer: buffer, dims: [1], type: 'uint32' }),
             TypeError, /^gpu\.wrap: dtype="uint32" must be one of/);
      throws('ort too small', () => gpu.wrap({ location: 'gpu-buffer', gpuBuffer: buffer, dims: [9], type: 'float32' }),
             RangeError, /^gpu\.wrap: buffer has 32 bytes; shape \[9\] of float32 needs 36/);
      throws('a webgl dataToGPU()', () => gpu.wrap({ texture: {}, texShape: [1, 1], tensorRef }, { shape: [1], dtype: 'float32' }),
             TypeError, /^gpu\.wrap: this dataToGPU\(\) result has no buffer/);
      throws('tf without options', () => gpu.wrap({ buffer, tensorRef }), TypeError, /^gpu\.wrap: options must be an object/);
      buffer.destroy();
    },
  },
  {
    name: 'toOrtTensor and toTfTensor: the arguments they pass, ownership, refused dtypes',
    run: async (ctx) => {
      await unpool.init();
      const gpu = await initWebGPU({ device: ctx.device });
      const ort = fakeOrt(gpu.device);
      const x = gpu.upload({ data: Float32Array.of(4, 3, 2, 1), shape: [1, 1, 2, 2] });
      const { output, indices } = gpu.maxPool2d(x, { kernelSize: 2, indexType: 'int64' });
      const o = toOrtTensor(indices, ort);
      if (o.gpuBuffer !== indices.buffer) throw new Error('ort: not the same buffer');
      same('ort: dataType, dims', [o.options.dataType, o.options.dims], ['int64', [1, 1, 1, 1]]);
      same('ort: download', Array.from(await o.options.download()), [0n]);
      // The ort.Tensor owns the buffer: destroy() refuses (ORT may still read
      // it), a second hand-over too (two dispose()s would each destroy it).
      throws('ort: destroy after the hand-over', () => indices.destroy(), TypeError,
             /^gpu\.destroy: this GpuTensor was handed to ONNX Runtime by toOrtTensor\(\), and the ort\.Tensor owns its buffer: call that tensor's dispose\(\)/);
      throws('ort: a second hand-over', () => toOrtTensor(indices, ort), TypeError,
             /^toOrtTensor: t was handed to ONNX Runtime by an earlier toOrtTensor\(\)/);
      if (indices.isDestroyed) throw new Error('ort: destroyed before dispose');
      same('ort: still usable as an input', (await gpu.maxUnpool2d(output, indices, { kernelSize: 2 }).read()).shape, [1, 1, 2, 2]);
      o.options.dispose();
      if (!indices.isDestroyed) throw new Error('ort: dispose did not destroy the GpuTensor');
      indices.destroy();  // destroyed already: nothing to do
      // The default import's one device must be the tensor's: another one is refused at the call ...
      throws('ort: another device', () => toOrtTensor(output, fakeOrt({ queue: {} })), TypeError,
             /^toOrtTensor: t is a GpuTensor of another GPUDevice than ONNX Runtime's \(ort\.env\.webgpu\.device\): this onnxruntime-web bundle \(the default import, whose WebGPU EP is JSEP\) runs every session on the one device it made at its first WebGPU session/);
      if (output.isDestroyed) throw new Error('ort: a refused hand-over destroyed t');
      // ... and, where ORT has none yet (its first session makes it), when a
      // session run reads the tensor's gpuBuffer. A device getter is never called.
      const later = fakeOrt();
      const ol = toOrtTensor(output, later);
      if (ol.gpuBuffer !== output.buffer) throw new Error('ort: gpuBuffer with no device yet');
      jsepDevice(later.env.webgpu, { queue: {} });
      throws('ort: another device at run', () => ol.gpuBuffer, TypeError,
             /^toOrtTensor: the ort\.Tensor made from t is a GpuTensor of another GPUDevice than ONNX Runtime's/);
      jsepDevice(later.env.webgpu, gpu.device);
      if (ol.gpuBuffer !== output.buffer) throw new Error('ort: gpuBuffer on the same device');
      // onnxruntime-web/webgpu: its global is the device of the sessions made
      // without one, not of a session given unpool's: nothing is refused,
      // at the call or at the run (ORT's run() refuses another device's buffer itself).
      const native = fakeOrt({ queue: {} }, { jsep: false });
      const on = toOrtTensor(gpu.upload({ data: Float32Array.of(1), shape: [1] }), native);
      if (on.gpuBuffer === undefined) throw new Error('ort native: gpuBuffer refused');
      on.options.dispose();
      const getter = { Tensor: ort.Tensor, env: { webgpu: { get device() { throw new Error('called'); } } } };
      toOrtTensor(gpu.upload({ data: Float32Array.of(1), shape: [1] }), getter).options.dispose();
      ol.options.dispose();
      // uint8 is one of ORT's GPU buffer types (Tensor.GpuBufferDataTypes).
      const u8 = gpu.upload({ data: Uint8Array.of(1, 2, 250), shape: [3] });
      const ou8 = toOrtTensor(u8, ort);
      same('ort uint8', [ou8.options.dataType, Array.from(await ou8.options.download())], ['uint8', [1, 2, 250]]);
      ou8.options.dispose();
      throws('ort int8', () => toOrtTensor(gpu.upload({ data: Int8Array.of(1), shape: [1] }), ort), RangeError,
             /^toOrtTensor: ONNX Runtime takes no int8 tensor from a GPU buffer \(it takes float32, float16, int32, int64, uint8\)$/);
      const h = gpu.upload({ data: Uint16Array.of(0x3c00, 0xbc00), shape: [2], dtype: 'float16' });
      const oh = toOrtTensor(h, ort);
      const hd = await oh.options.download();
      if (!(hd instanceof Uint16Array)) throw new Error(`ort float16: download gave ${hd.constructor.name}`);
      same('ort float16 bits', Array.from(hd), [0x3c00, 0xbc00]);
      throws('ort float64', () => toOrtTensor(gpu.upload({ data: Float64Array.of(1), shape: [1] }), ort), RangeError,
             /^toOrtTensor: ONNX Runtime takes no float64 tensor from a GPU buffer/);
      throws('ort bfloat16', () => toOrtTensor(gpu.upload({ data: Uint16Array.of(1), shape: [1], dtype: 'bfloat16' }), ort),
             RangeError, /^toOrtTensor: ONNX Runtime takes no bfloat16 tensor/);
      const y = gpu.maxPool2d(x, { kernelSize: 2 }).output;
      throws('not ort', () => toOrtTensor(y, {}), TypeError, /^toOrtTensor: ort must be the onnxruntime-web namespace/);
      throws('ort without env', () => toOrtTensor(y, { Tensor: ort.Tensor }), TypeError,
             /^toOrtTensor: ort must be the onnxruntime-web namespace \(with Tensor\.fromGpuBuffer and env\.webgpu\)/);
      throws('not a GpuTensor', () => toOrtTensor({ buffer: y.buffer }, ort), TypeError, /^toOrtTensor: t must be a GpuTensor/);

      const calls = [];
      const tf = { tensor: (...a) => { calls.push(a); return { made: a, isDisposed: false }; }, backend: () => ({ device: gpu.device }) };
      toTfTensor(y, tf);
      const shared = toTfTensor(y, tf, { zeroCopy: true });
      same('tf: arguments', calls.map(([v, s, d]) => [v.buffer === y.buffer, v.zeroCopy, s, d]),
           [[true, false, [1, 1, 1, 1], 'float32'], [true, true, [1, 1, 1, 1], 'float32']]);
      // zeroCopy: the TF.js tensor uses the buffer itself until it is disposed.
      throws('tf: destroy under a zeroCopy tensor', () => y.destroy(), TypeError,
             /^gpu\.destroy: a TF\.js tensor made by toTfTensor\(t, tf, \{ zeroCopy: true \}\) uses this buffer and is not disposed/);
      if (y.isDestroyed) throw new Error('tf: destroyed under a zeroCopy tensor');
      shared.isDisposed = true;
      const i32 = gpu.maxPool2d(x, { kernelSize: 2, indexType: 'int32' }).indices;
      same('tf int32', toTfTensor(i32, tf).made[2], 'int32');
      throws('tf int64', () => toTfTensor(gpu.maxPool2d(x, { kernelSize: 2, indexType: 'int64' }).indices, tf), RangeError,
             /^toTfTensor: TF\.js keeps no int64 tensor in a GPU buffer .*indexType: 'int32'/);
      const otherTf = { tensor: tf.tensor, backend: () => ({ device: {} }) };
      throws('tf of another device', () => toTfTensor(y, otherTf), TypeError,
             /^toTfTensor: t is a GpuTensor of another GPUDevice than TF\.js's backend \(tf\.backend\(\)\.device\)/);
      throws('tf not on webgpu', () => toTfTensor(y, { tensor: tf.tensor, backend: () => ({}) }), TypeError,
             /^toTfTensor: TF\.js's backend has no GPUDevice \(tf\.backend\(\)\.device\): await tf\.setBackend\('webgpu'\) first/);
      throws('not tf', () => toTfTensor(y, {}), TypeError, /^toTfTensor: tf must be the @tensorflow\/tfjs namespace/);
      y.destroy();  // its zeroCopy tensor is disposed
      x.destroy();
      throws('destroyed', () => toTfTensor(x, tf), TypeError, /^toTfTensor: t is a destroyed GpuTensor/);
    },
  },
];
