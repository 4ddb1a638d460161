// The GPU's content errors say what the indices fit, as the WebAssembly
// API's errors do (issue 44): ONNX's flat and TensorFlow's indices name
// convertIndices, an odd input unpooled without outputSize names the
// outputSize; check() and read() reject with the WebAssembly API's message,
// word for word. The hint needs the indices read back: once they are
// destroyed, the message is the same without it. (tests/js/index-hints.test.ts
// has the WebAssembly API's side.)
import * as unpool from '../../../dist/index.js';
import { initWebGPU } from '../../../dist/webgpu/index.js';

const values = (shape, seed = 1.3) =>
  ({ data: Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * seed) * 100), shape });

function cpuMessage(f) {
  try { f(); } catch (e) { return e.message; }
  throw new Error('the WebAssembly API gave no error');
}

async function rejectsWith(what, p, want) {
  let got;
  try { await p; } catch (e) { got = e; }
  if (got === undefined) throw new Error(`${what}: no error`);
  if (got.code !== 'invalid_index' || got.message !== want) {
    throw new Error(`${what}: ${got.code}: ${JSON.stringify(got.message)}, want ${JSON.stringify(want)}`);
  }
}

export const cases = [
  {
    name: 'content errors with the WebAssembly API\'s hints: ONNX, TensorFlow, odd sizes, backward passes',
    run: async (ctx) => {
      await unpool.init();
      const gpu = await initWebGPU({ device: ctx.device });
      const x = values([1, 2, 16, 16]);
      const p = unpool.maxPool2d(x, { kernelSize: 2, indexType: 'int64' });
      const flat = unpool.convertIndices(p.indices, { from: 'pytorch', to: 'onnx', inputShape: x.shape });
      const y = gpu.upload(p.output);
      const checks = [];
      // ORT's flat indices (int64, as ORT gives them).
      const want = cpuMessage(() => unpool.maxUnpool2d(p.output, flat, { kernelSize: 2 }));
      if (!want.includes("convertIndices(indices, { from: 'onnx'")) throw new Error(`no hint on the CPU: ${want}`);
      const u = gpu.maxUnpool2d(y, gpu.upload(flat), { kernelSize: 2 });
      checks.push(['onnx check()', () => u.check(), want], ['onnx read()', () => u.read(), want]);
      // TensorFlow's, channels last.
      const xh = values([1, 8, 8, 3]);
      const ph = unpool.maxPool2d(xh, { kernelSize: 2, layout: 'NHWC' });
      const tf = unpool.convertIndices(ph.indices, { from: 'pytorch', to: 'tensorflow', inputShape: xh.shape, layout: 'NHWC', indexType: 'int32' });
      const th = gpu.maxUnpool2d(gpu.upload(ph.output), gpu.upload(tf), { kernelSize: 2, layout: 'NHWC' });
      checks.push(['tensorflow', () => th.check(),
        cpuMessage(() => unpool.maxUnpool2d(ph.output, tf, { kernelSize: 2, layout: 'NHWC' }))]);
      // An odd input unpooled without outputSize.
      const x65 = values([1, 1, 33, 33], 1.7);
      const p65 = unpool.maxPool2d(x65, { kernelSize: 2 });
      const odd = cpuMessage(() => unpool.maxUnpool2d(p65.output, p65.indices, { kernelSize: 2 }));
      if (!odd.endsWith('outputSize: [33, 33] (maxUnpool2dOutputRange allows 31..33, 31..33): pass it')) throw new Error(`CPU: ${odd}`);
      const uo = gpu.maxUnpool2d(gpu.upload(p65.output), gpu.upload(p65.indices), { kernelSize: 2 });
      checks.push(['odd size', () => uo.check(), odd]);
      // The pool backward, with and without the pool's geometry.
      const pb = gpu.maxPool2dBackward(y, gpu.upload(flat), { inputShape: x.shape, kernelSize: 2 });
      checks.push(['maxPool2dBackward', () => pb.check(),
        cpuMessage(() => unpool.maxPool2dBackward(p.output, flat, { inputShape: x.shape, kernelSize: 2 }))]);
      const ub = gpu.maxUnpool2dBackward(gpu.upload(x), gpu.upload(flat));
      checks.push(['maxUnpool2dBackward', () => ub.check(),
        cpuMessage(() => unpool.maxUnpool2dBackward(x, flat))]);
      // The error travels downstream, hint and all.
      const again = gpu.maxPool2d(u, { kernelSize: 2 });
      checks.push(['downstream', () => again.output.check(), want]);
      // Each asked for when awaited: a rejection with no handler yet is an error in some browsers.
      for (const [what, ask, message] of checks) await rejectsWith(what, ask(), message);

      // The indices destroyed before the outcome is read: the same message without the hint.
      const gone = gpu.upload(flat);
      const v = gpu.maxUnpool2d(y, gone, { kernelSize: 2 });
      gone.destroy();
      await rejectsWith('indices destroyed', v.check(), want.slice(0, want.indexOf('; every index')));
    },
  },
];
