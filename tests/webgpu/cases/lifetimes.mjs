// GpuTensor lifetimes (issue 44): gpu.memoryUsage() counts the backend's own
// tensors not yet destroyed (a missed destroy() shows), and
// [Symbol.dispose] is destroy() where the engine has the symbol, so `using`
// releases a tensor at the end of its block (not one handed to ONNX
// Runtime, whose ort.Tensor owns it). The `using` syntax itself runs in
// docs/webgpu.md's Node.js program (the node-docs leg) and in
// tests/js/lifetimes.test.ts; here the method is called, so that no stack
// needs the syntax to parse this file.
import * as unpool from '../../../dist/index.js';
import { initWebGPU, toOrtTensor } from '../../../dist/webgpu/index.js';

const same = (what, got, want) => {
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
};

export const cases = [
  {
    name: 'gpu.memoryUsage() counts live tensors and bytes; [Symbol.dispose] destroys (not a handed-over tensor)',
    run: async (ctx) => {
      await unpool.init();
      const gpu = await initWebGPU({ device: ctx.device });
      same('a new backend', gpu.memoryUsage(), { liveTensors: 0, liveBytes: 0 });
      const x = gpu.upload({ data: Float32Array.from({ length: 64 }, (_, i) => (i * 5) % 17), shape: [1, 4, 4, 4] });
      const { output, indices } = gpu.maxPool2d(x, { kernelSize: 2 });
      // Each buffer is its tensor's bytes rounded up to 16: 256 + 64 + 64.
      same('upload and a pool', gpu.memoryUsage(), { liveTensors: 3, liveBytes: 384 });
      // A wrapped buffer is its owner's: not counted, and its destroy() changes nothing.
      const w = gpu.wrap(x.buffer, { shape: [64], dtype: 'float32' });
      same('a wrap', gpu.memoryUsage().liveTensors, 3);
      w.destroy();
      same('a wrap destroyed', gpu.memoryUsage().liveTensors, 3);
      const u = gpu.maxUnpool2d(output, indices, { kernelSize: 2 });
      same('an unpool', gpu.memoryUsage(), { liveTensors: 4, liveBytes: 640 });
      x.destroy();
      x.destroy();  // twice: counted once
      same('x destroyed', gpu.memoryUsage(), { liveTensors: 3, liveBytes: 384 });
      // A tensor handed to ONNX Runtime counts until its ort.Tensor is disposed.
      const made = [];
      const ort = { env: { webgpu: {} }, Tensor: { fromGpuBuffer: (b, o) => { const t = { gpuBuffer: b, ...o }; made.push(t); return t; } } };
      const o = toOrtTensor(u, ort);
      same('handed over', gpu.memoryUsage().liveTensors, 3);
      const dispose = Symbol.dispose;
      if (typeof dispose === 'symbol') {
        // The end of a `using` block: the ort.Tensor owns u, so nothing happens.
        u[dispose]();
        if (u.isDestroyed) throw new Error('[Symbol.dispose] destroyed a handed-over tensor');
        output[dispose]();
        if (!output.isDestroyed) throw new Error('[Symbol.dispose] did not destroy');
        same('output disposed', gpu.memoryUsage(), { liveTensors: 2, liveBytes: 320 });
      } else {
        if ('undefined' in output) throw new Error('a method under the key "undefined"');
        output.destroy();
      }
      o.dispose();
      same('the ort.Tensor disposed', gpu.memoryUsage(), { liveTensors: 1, liveBytes: 64 });
      indices.destroy();
      same('all destroyed', gpu.memoryUsage(), { liveTensors: 0, liveBytes: 0 });
      // Results of a call that threw are not made.
      try { gpu.maxPool2d(output, { kernelSize: 2 }); } catch { /* destroyed input */ }
      same('after a refused call', gpu.memoryUsage().liveTensors, 0);
      // Another backend counts its own.
      const other = await initWebGPU({ device: ctx.device });
      const y = other.upload({ data: Float32Array.of(1), shape: [1] });
      same('per backend', [gpu.memoryUsage().liveTensors, other.memoryUsage().liveTensors], [0, 1]);
      y.destroy();
    },
  },
];
