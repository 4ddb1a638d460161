// No message of unpool/webgpu prints a minified class name (issue 44): every
// GPU op, with each tensor argument, option and `out` replaced in turn by
// objects of classes a minifier named (tests/js/minified-standins.mjs),
// throws an error of the package naming none of them; ONNX Runtime's and
// TF.js's tensors and host data are named as what they are, with the call
// that makes a GpuTensor of them (gpu.wrap(x), gpu.upload(x)). The
// WebAssembly API's side: tests/js/minified.test.ts.
import * as unpool from '../../../dist/index.js';
import { initWebGPU, toOrtTensor, toTfTensor } from '../../../dist/webgpu/index.js';
import { leakedName, opCalls, standIns } from '../../js/minified-standins.mjs';

/** The call that makes a GpuTensor of stand-in kind `kind` given as `name`. */
const HINTS = {
  'ort-gpu': (name) => `; pass gpu.wrap(${name}), which uses ORT's buffer with no copy`,
  'ort-cpu': (name) => `; pass gpu.upload(${name}), a copy of its data on the GPU`,
  tf: (name) => `; on TF.js's WebGPU backend, pass gpu.wrap(${name}.dataToGPU(), { shape: ${name}.shape, dtype: ${name}.dtype })`,
};

export const cases = [
  {
    name: 'every GPU op, argument and out: an error of the package, no minified class name, what to call',
    run: async (ctx) => {
      await unpool.init();
      const gpu = await initWebGPU({ device: ctx.device });
      const calls = opCalls(unpool, (t) => gpu.upload(t));
      const problems = [];
      let tried = 0;
      const check = (what, f, name, kind) => {
        let thrown;
        try { f(); } catch (e) { thrown = e; }
        tried++;
        if (thrown === undefined) return;
        const m = thrown.message;
        if (!unpool.isUnpoolError(thrown)) problems.push(`${what}: not an error of the package: ${m}`);
        const leaked = leakedName(m);
        if (leaked !== undefined) problems.push(`${what}: prints ${leaked}: ${m}`);
        if (name !== undefined && HINTS[kind] !== undefined && !m.includes(HINTS[kind](name))) {
          problems.push(`${what}: no hint ${JSON.stringify(HINTS[kind](name))}: ${m}`);
        }
      };
      for (const c of calls) {
        const base = c.args();
        const nt = c.tensors.length;
        const places = c.tensors.map((name, k) => [name, name, (a, v) => { a[k] = v; }]);
        for (const key of [...Object.keys(base[nt]), ...(c.fn === 'convertIndices' ? [] : ['out'])]) {
          places.push([`options.${key}`, key === 'randomSamples' || key === 'out' ? key : undefined,
            (a, v) => { a[nt][key] = v; }]);
        }
        if (/^(maxPool|adaptiveMaxPool|fractionalMaxPool)\dd$/.test(c.fn)) {
          for (const r of ['output', 'indices']) places.push([`options.out.${r}`, `out.${r}`, (a, v) => { a[nt].out = { [r]: v }; }]);
        }
        for (const [path, name, set] of places) {
          for (const s of standIns(16)) {
            const a = c.args();
            set(a, s.value);
            check(`${c.label} ${path} = ${s.label}`, () => gpu[c.fn](...a), name, s.kind);
          }
        }
      }
      // Host data where a GpuTensor goes: gpu.upload() it; a WasmTensor: gpu.upload(t.read()).
      const host = { data: Float32Array.from({ length: 16 }, (_, i) => i), shape: [1, 1, 4, 4] };
      const expectHint = (what, f, hint) => {
        let m = '';
        try { f(); } catch (e) { m = e.message; }
        if (!m.endsWith(hint)) problems.push(`${what}: ${JSON.stringify(m)} does not end with ${JSON.stringify(hint)}`);
      };
      expectHint('host tensor', () => gpu.maxPool2d(host, { kernelSize: 2 }),
                 'x must be a GpuTensor (gpu.upload() or gpu.wrap()), got an Object; pass gpu.upload(x), a copy of its data on the GPU');
      const r = unpool.uploadTensor(host);
      expectHint('WasmTensor', () => gpu.maxPool2d(r, { kernelSize: 2 }),
                 'x must be a GpuTensor (gpu.upload() or gpu.wrap()), got a WasmTensor; pass gpu.upload(x.read())');
      r.dispose();
      // The ORT issue's case: an ort.Tensor on gpu-buffer passed without gpu.wrap.
      const ortLike = standIns(16).find((s) => s.kind === 'ort-gpu').value;
      expectHint('ort gpu-buffer', () => gpu.maxPool2d(ortLike, { kernelSize: 2 }),
                 "maxPool2d: x must be a GpuTensor (gpu.upload() or gpu.wrap()), got an ort.Tensor (float32, dims [1, 1, 16], on gpu-buffer); pass gpu.wrap(x), which uses ORT's buffer with no copy");
      // The hand-over functions, upload and wrap.
      const t = gpu.upload(host);
      const ort = { Tensor: { fromGpuBuffer: () => ({}) }, env: { webgpu: {} } };
      const tf = { tensor: () => ({}), backend: () => ({ device: gpu.device }) };
      for (const s of standIns(16)) {
        check(`toOrtTensor t = ${s.label}`, () => toOrtTensor(s.value, ort), 't', s.kind);
        check(`toOrtTensor ort = ${s.label}`, () => toOrtTensor(t, s.value));
        check(`toTfTensor t = ${s.label}`, () => toTfTensor(s.value, tf), 't', s.kind);
        check(`toTfTensor tf = ${s.label}`, () => toTfTensor(t, s.value));
        check(`toTfTensor options = ${s.label}`, () => toTfTensor(t, tf, s.value));
        check(`gpu.upload ${s.label}`, () => gpu.upload(s.value));
        check(`gpu.upload data = ${s.label}`, () => gpu.upload({ data: s.value, shape: [16] }));
        check(`gpu.wrap ${s.label}`, () => gpu.wrap(s.value, { shape: [4], dtype: 'float32' }));
        check(`gpu.wrap shape = ${s.label}`, () => gpu.wrap(t.buffer, { shape: s.value, dtype: 'float32' }));
        check(`gpu.wrap dtype = ${s.label}`, () => gpu.wrap(t.buffer, { shape: [4], dtype: s.value }));
      }
      t.destroy();
      if (problems.length > 0) throw new Error(`${problems.length} problems:\n${problems.slice(0, 40).join('\n')}`);
      if (tried < 2000) throw new Error(`only ${tried} cases`);
    },
  },
];
