// Hostile input to unpool/webgpu: each bad argument is a clear error naming
// the function and the argument, and an index outside its plane writes
// nothing outside the call's result buffers (guard words around them stay
// as they were), while read() and check() reject with the CPU's error.
import * as unpool from '../../../dist/index.js';
import { GpuTensor, initWebGPU } from '../../../dist/webgpu/index.js';

const STORAGE = 0x80, COPY_SRC = 0x04, COPY_DST = 0x08;

async function setup(ctx) {
  await unpool.init();
  return initWebGPU({ device: await ctx.requestDevice() });
}

function throws(what, f, cls, pattern) {
  let thrown;
  try { f(); } catch (e) { thrown = e; }
  if (!(thrown instanceof cls)) throw new Error(`${what}: want ${cls.name}, got ${thrown}`);
  if (!pattern.test(thrown.message)) throw new Error(`${what}: message ${JSON.stringify(thrown.message)} !~ ${pattern}`);
}

async function rejects(what, p, pattern) {
  let thrown;
  try { await p; } catch (e) { thrown = e; }
  if (thrown === undefined) throw new Error(`${what}: did not reject`);
  if (!pattern.test(thrown.message)) throw new Error(`${what}: message ${JSON.stringify(thrown.message)} !~ ${pattern}`);
  return thrown;
}

const x4 = () => ({ data: Float32Array.from({ length: 16 }, (_, i) => i), shape: [1, 1, 4, 4] });

export const cases = [
  {
    name: 'bad tensors and buffers: host data, destroyed, another device, too small, no STORAGE',
    run: async (ctx) => {
      const gpu = await setup(ctx);
      const X = gpu.upload(x4());
      throws('host data to a GPU call', () => gpu.maxPool2d(x4(), { kernelSize: 2 }), TypeError,
             /^maxPool2d: x must be a GpuTensor/);
      throws('a GpuTensor to the wasm API', () => unpool.maxPool2d(X, { kernelSize: 2 }), TypeError,
             /^maxPool2d: x is a GpuTensor/);
      const other = await initWebGPU({ device: await ctx.requestDevice() });
      throws('another device', () => other.maxPool2d(X, { kernelSize: 2 }), TypeError, /another device/);
      const small = gpu.device.createBuffer({ size: 32, usage: STORAGE | COPY_SRC | COPY_DST });
      throws('buffer too small', () => gpu.wrap(small, { shape: [1, 1, 4, 4], dtype: 'float32' }), RangeError,
             /^gpu\.wrap: buffer has 32 bytes; shape \[1, 1, 4, 4\] of float32 needs 64/);
      const mapOnly = gpu.device.createBuffer({ size: 64, usage: 0x01 | COPY_DST });
      throws('no STORAGE', () => gpu.wrap(mapOnly, { shape: [16], dtype: 'float32' }), TypeError, /without STORAGE/);
      throws('not a buffer', () => gpu.wrap({}, { shape: [16], dtype: 'float32' }), TypeError, /must be a GPUBuffer/);
      throws('bad dtype', () => gpu.wrap(small, { shape: [2], dtype: 'uint16' }), TypeError, /^gpu\.wrap: dtype="uint16" must be one of/);
      // The integer value types wrap (and read back in their class).
      const bytes = gpu.wrap(small, { shape: [32], dtype: 'uint8' });
      if ((await bytes.read()).data.constructor !== Uint8Array) throw new Error('a wrapped uint8 buffer reads as a Uint8Array');
      const { output, indices } = gpu.maxPool2d(X, { kernelSize: 2 });
      // int32 and int64 tensors are values or indices by the argument; floats are never indices.
      throws('values as indices', () => gpu.maxUnpool2d(output, output, { kernelSize: 2 }), TypeError,
             /^maxUnpool2d: indices must hold .* data, got a GpuTensor of float32/);
      // The WebAssembly API's message for a WasmTensor, word for word, naming the GpuTensor.
      throws('integer gradients', () => gpu.maxPool2dBackward(indices, indices, { kernelSize: 2, inputShape: [1, 1, 4, 4] }),
             TypeError, /^maxPool2dBackward: gradOutput is a GpuTensor of int32 values; a pool's gradient adds, and takes float32, float64, float16 or bfloat16 values only$/);
      throws('resident', () => gpu.maxPool2d(X, { kernelSize: 2, resident: true }), TypeError, /resident/);
      throws('out of the wrong dtype', () => gpu.maxPool2d(X, { kernelSize: 2, out: { output: indices } }), TypeError,
             /out\.output must be a GpuTensor of float32/);
      throws('out sharing an input buffer', () => gpu.maxPool2d(X, { kernelSize: 2, out: { output: gpu.wrap(X.buffer, { shape: [1, 1, 2, 2], dtype: 'float32' }) } }),
             TypeError, /shares its buffer/);
      X.destroy();
      X.destroy();  // twice is fine
      throws('destroyed input', () => gpu.maxPool2d(X, { kernelSize: 2 }), TypeError, /x is a destroyed GpuTensor/);
      await rejects('read of a destroyed tensor', (async () => X.read())(), /destroyed GpuTensor/);
      // A wrapped buffer stays its owner's: destroy() leaves it usable.
      const W = gpu.wrap(small, { shape: [8], dtype: 'float32' });
      W.destroy();
      const again = gpu.wrap(small, { shape: [8], dtype: 'float32' });
      await again.read();
      if (!(output instanceof GpuTensor)) throw new Error('results are GpuTensors');
    },
  },
  {
    name: 'a GPU call inside another (an option getter running an op): both run, as on the CPU',
    run: async (ctx) => {
      const gpu = await setup(ctx);
      const X = gpu.upload(x4());
      const host = x4();
      let inner;
      // The backend is an argument of each call, not a global of the running
      // one: a call made while another parses its options is a call of its own.
      const options = {
        kernelSize: 2,
        get stride() { inner = gpu.maxPool2d(X, { kernelSize: 3, stride: 1 }); return 1; },
      };
      const outer = gpu.maxPool2d(X, options);
      const want = unpool.maxPool2d(host, { kernelSize: 2, stride: 1 });
      const wantInner = unpool.maxPool2d(host, { kernelSize: 3, stride: 1 });
      const same = (a, b) => a.length === b.length && a.every((v, k) => v === b[k]);
      for (const [what, got, ref] of [['outer output', outer.output, want.output], ['outer indices', outer.indices, want.indices],
        ['inner output', inner.output, wantInner.output], ['inner indices', inner.indices, wantInner.indices]]) {
        const r = await got.read();
        if (!same(Array.from(r.data), Array.from(ref.data)) || !same(r.shape, ref.shape)) {
          throw new Error(`${what}: ${Array.from(r.data)} ${r.shape}, want ${Array.from(ref.data)} ${ref.shape}`);
        }
      }
      return 'outer and inner calls equal the WebAssembly API';
    },
  },
  {
    name: 'an index outside its plane: nothing written past the results, read() and check() reject as the CPU throws',
    run: async (ctx) => {
      const gpu = await setup(ctx);
      const values = { data: Float32Array.from([1, 2, 3, 4]), shape: [1, 1, 2, 2] };
      const bad = { data: Int32Array.from([0, 3, 999999, -5]), shape: [1, 1, 2, 2] };
      let cpuError;
      try { unpool.maxUnpool2d(values, bad, { kernelSize: 2 }); } catch (e) { cpuError = e; }
      // The result, placed in the middle of a buffer whose other words are guards.
      const guard = 0xdeadbeef;
      const words = 64;
      const buffer = gpu.device.createBuffer({ size: words * 4, usage: STORAGE | COPY_SRC | COPY_DST });
      gpu.device.queue.writeBuffer(buffer, 0, new Uint32Array(words).fill(guard));
      const out = gpu.wrap(buffer, { shape: [1, 1, 4, 4], dtype: 'float32' });
      const y = gpu.maxUnpool2d(gpu.upload(values), gpu.upload(bad), { kernelSize: 2, out });
      if (y !== out) throw new Error('out is returned');
      const e1 = await rejects('check()', y.check(), /indices\[2\]=999999 is out of range/);
      const e2 = await rejects('read()', y.read(), /indices\[2\]=999999 is out of range/);
      for (const e of [e1, e2]) {
        if (e.message !== cpuError.message || e.code !== cpuError.code || e.name !== cpuError.name) {
          throw new Error(`GPU ${e.name} ${e.code} ${e.message} | CPU ${cpuError.name} ${cpuError.code} ${cpuError.message}`);
        }
      }
      const all = new Uint32Array(await gpu.wrap(buffer, { shape: [words], dtype: 'float32' }).read().then((r) => r.data.buffer));
      for (let i = 16; i < words; ++i) {
        if (all[i] !== guard) throw new Error(`guard word ${i} is ${all[i].toString(16)}`);
      }
      // Downstream of a failed call, the error reaches the results too.
      const down = gpu.maxUnpool2dBackward(y, gpu.upload({ data: Int32Array.from([0, 1, 2, 3]), shape: [1, 1, 2, 2] }));
      await rejects('downstream read()', down.read(), /indices\[2\]=999999/);
      // int64 indices: a negative index words its value.
      const bad64 = { data: BigInt64Array.from([0n, -7n, 1n, 2n]), shape: [1, 1, 2, 2] };
      let cpu64;
      try { unpool.maxUnpool2d(values, bad64, { kernelSize: 2 }); } catch (e) { cpu64 = e; }
      const y64 = gpu.maxUnpool2d(gpu.upload(values), gpu.upload(bad64), { kernelSize: 2 });
      const e3 = await rejects('int64 read()', y64.read(), /indices\[1\]=-7/);
      if (e3.message !== cpu64.message) throw new Error(`${e3.message} | ${cpu64.message}`);
      // A fractional sample outside [0, 1].
      const x = { data: Float32Array.from({ length: 25 }, (_, i) => i), shape: [1, 1, 5, 5] };
      const samples = { data: Float32Array.from([0.5, 1.5]), shape: [1, 1, 2] };
      let cpuF;
      try { unpool.fractionalMaxPool2d(x, { kernelSize: 2, outputSize: 3, randomSamples: samples }); } catch (e) { cpuF = e; }
      const f = gpu.fractionalMaxPool2d(gpu.upload(x), { kernelSize: 2, outputSize: 3, randomSamples: gpu.upload(samples) });
      const e4 = await rejects('sample read()', f.indices.read(), /randomSamples\[1\]=1\.5/);
      if (e4.message !== cpuF.message) throw new Error(`${e4.message} | ${cpuF.message}`);
      // Without randomSamples, they are drawn (as the WebAssembly API draws them) and uploaded.
      const drawn = await gpu.fractionalMaxPool2d(gpu.upload(x), { kernelSize: 2, outputSize: 3 }).indices.read();
      if (JSON.stringify(drawn.shape) !== '[1,1,3,3]' || drawn.data.some((v) => v < 0 || v >= 25)) {
        throw new Error(`drawn samples: ${JSON.stringify(drawn)}`);
      }
    },
  },
  {
    name: 'buffers the device cannot use (destroyed by their owner, of another device), a lost device',
    run: async (ctx) => {
      const gpu = await setup(ctx);
      // A wrapped buffer its owner destroyed: the call returns, read() and check() reject naming x.
      const owned = gpu.device.createBuffer({ size: 64, usage: STORAGE | COPY_SRC | COPY_DST });
      gpu.device.queue.writeBuffer(owned, 0, new Float32Array(16).fill(1));
      const X = gpu.wrap(owned, { shape: [1, 1, 4, 4], dtype: 'float32' });
      owned.destroy();
      const r = gpu.maxPool2d(X, { kernelSize: 2 });
      await rejects('destroyed buffer, check()', r.output.check(), /^maxPool2d: x: the device cannot use its buffer \(destroyed by its owner, or of another device\)/);
      await rejects('destroyed buffer, read()', r.indices.read(), /^maxPool2d: x: the device cannot use its buffer/);
      // A buffer of another device.
      const other = await ctx.requestDevice();
      const foreign = other.createBuffer({ size: 64, usage: STORAGE | COPY_SRC | COPY_DST });
      const F = gpu.wrap(foreign, { shape: [1, 1, 4, 4], dtype: 'float32' });
      const y = gpu.maxUnpool2d(gpu.upload(x4()), gpu.upload({ data: new Int32Array(16), shape: [1, 1, 4, 4] }),
                                { kernelSize: 1, out: F });
      await rejects("another device's buffer", y.check(), /^maxUnpool2d: out: the device cannot use its buffer/);
      // Fine calls stay fine.
      await gpu.maxPool2d(gpu.upload(x4()), { kernelSize: 2 }).output.check();
      // A lost device: every call and read() throw device_lost.
      const doomed = await ctx.requestDevice();
      const g2 = await initWebGPU({ device: doomed });
      const T = g2.upload(x4());
      doomed.destroy();
      await doomed.lost;
      let thrown;
      try { g2.maxPool2d(T, { kernelSize: 2 }); } catch (e) { thrown = e; }
      if (thrown?.code !== 'device_lost' || !/^maxPool2d: the GPUDevice was lost/.test(thrown.message)) {
        throw new Error(`lost device: ${thrown}`);
      }
      await rejects('read() on a lost device', (async () => T.read())(), /^gpu\.read: the GPUDevice was lost/);
    },
  },
  {
    name: 'initWebGPU: its options checked, the adapter chosen, "no adapter" naming what was asked',
    run: async (ctx) => {
      await unpool.init();
      const refuses = async (what, options, cls, pattern) => {
        const e = await rejects(what, initWebGPU(options), pattern);
        if (!(e instanceof cls)) throw new Error(`${what}: want ${cls.name}, got ${e}`);
      };
      // An unknown key (a typo of device) would make a private device.
      await refuses('a typo', { gpu: ctx.gpu, devce: ctx.device }, TypeError,
                    /^initWebGPU: options\.devce=a GPUDevice is not an option; did you mean device\?$/);
      await refuses('an unknown key', { device: ctx.device, foo: 1 }, TypeError,
                    /^initWebGPU: options\.foo=1 is not an option; initWebGPU takes device, adapter, gpu, adapterOptions, simd, locateFile, wasmBinary$/);
      // What `await ort.env.webgpu.device` gives before ORT's first session.
      await refuses('device: undefined', { device: undefined }, TypeError,
                    /^initWebGPU: device must be a GPUDevice, got undefined; ONNX Runtime's device is ort\.env\.webgpu\.device once its first WebGPU session exists \(create the session first; before it, it is undefined\)/);
      await refuses('an adapter as the device', { device: ctx.adapter }, TypeError,
                    /^initWebGPU: device must be a GPUDevice, got .* \(that is a GPUAdapter: pass \{ adapter \}\)/);
      await refuses('device and gpu', { device: ctx.device, gpu: ctx.gpu }, TypeError,
                    /^initWebGPU: device and gpu given: gpu would only request a device/);
      await refuses('adapter and adapterOptions', { adapter: ctx.adapter, adapterOptions: {} }, TypeError,
                    /^initWebGPU: adapter and adapterOptions given/);
      await refuses('not an adapter', { adapter: ctx.device }, TypeError, /^initWebGPU: adapter must be a GPUAdapter, got /);
      await refuses('not a GPU', { gpu: {} }, TypeError, /^initWebGPU: gpu must be a GPU object \(navigator\.gpu, or create\(\[\]\) of the 'webgpu' package in Node\.js\), got an Object$/);
      await refuses('adapterOptions not an object', { gpu: ctx.gpu, adapterOptions: 'compatibility' }, TypeError,
                    /^initWebGPU: adapterOptions must be an object \(requestAdapter's options\), got "compatibility"$/);
      // "No adapter" names what was asked, and (Node.js, Deno, Bun on Linux) how to get a software one.
      const asked = [];
      const none = { requestAdapter: async (o) => { asked.push(o); return null; } };
      const g = globalThis;
      const linux = (g.Deno?.build?.os ?? g.process?.platform) === 'linux';
      const e = await rejects('no adapter', initWebGPU({ gpu: none, adapterOptions: { powerPreference: 'low-power' } }),
                              /^initWebGPU: gpu\.requestAdapter\(\{"powerPreference":"low-power"\}\) gave no adapter/);
      if (e.code !== 'unsupported') throw new Error(`no adapter: code ${e.code}`);
      if (linux !== /VK_ICD_FILENAMES=\/usr\/lib\/chromium\/vk_swiftshader_icd\.json/.test(e.message) ||
          linux !== /Deno's WebGPU runs on lavapipe/.test(e.message)) {
        throw new Error(`no adapter (linux=${linux}): the software adapter hint is wrong in ${JSON.stringify(e.message)}`);
      }
      if (JSON.stringify(asked) !== '[{"powerPreference":"low-power"}]') throw new Error(`requestAdapter got ${JSON.stringify(asked)}`);
      // The ways to choose: an adapter, or requestAdapter's options (the stack's own: compatibility on OpenGL ES).
      const x = { data: Float32Array.of(1, 5, 3, 2), shape: [1, 1, 2, 2] };
      // (ctx.adapter made ctx.device: an adapter gives one device.)
      for (const [what, options] of [['adapter', { adapter: await ctx.gpu.requestAdapter(ctx.adapterOptions) }],
        ['gpu + adapterOptions', { gpu: ctx.gpu, adapterOptions: ctx.adapterOptions }]]) {
        const b = await initWebGPU(options);
        if (b.device === ctx.device) throw new Error(`${what}: not a device of its own`);
        const r = await b.maxPool2d(b.upload(x), { kernelSize: 2 }).indices.read();
        if (r.data[0] !== 1) throw new Error(`${what}: index ${r.data[0]}`);
        b.device.destroy();
      }
    },
  },
];
