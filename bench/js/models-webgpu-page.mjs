// The page of bench/js/models-webgpu.mjs: one run of a SegNet on ORT Web's
// WebGPU EP, four ways, side by side (runCases), each checked against the
// wasm EP's logits first. ?bundle=jsep (the default import) or native
// (onnxruntime-web/webgpu); ?model=segnet-small|segnet; ?reps=N.
import * as unpool from '/dist/index.js';
import { createSession } from '/dist/onnx/index.js';
import { initWebGPU, toOrtTensor } from '/dist/webgpu/index.js';
import { median, runCases } from './timing.mjs';

const q = new URLSearchParams(location.search);
const bundle = q.get('bundle') ?? 'native';
const name = q.get('model') ?? 'segnet-small';
const reps = Number(q.get('reps') ?? 9);
const ort = await import(`/node_modules/onnxruntime-web/dist/${bundle === 'jsep' ? 'ort.bundle.min.mjs' : 'ort.webgpu.bundle.min.mjs'}`);
ort.env.wasm.wasmPaths = `${location.origin}/node_modules/onnxruntime-web/dist/`;
ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';
const log = (s) => console.log(`bench: ${s}`);
const bytes = async (part) => new Uint8Array(await (await fetch(`/build/bench-models/${name}${part ? `-${part}` : ''}.onnx`)).arrayBuffer());

try {
  await unpool.init();
  const model = await bytes();
  const cpu = await ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
  const shape = [1, ...cpu.inputMetadata[0].shape.slice(1)];
  const data = Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * 0.37));
  const want = (await cpu.run({ x: new ort.Tensor('float32', data, shape) })).logits.data;
  const gpuOut = { preferredOutputLocation: 'gpu-buffer' };

  // The runner: ORT sub-sessions on WebGPU, unpool/webgpu between them.
  const runner = await createSession(model, { ort, executionProviders: ['webgpu'], ...gpuOut });
  const device = await ort.env.webgpu.device;
  const gpu = await initWebGPU({ device });
  // The hand split on the GPU: the blocks' sessions, gpu.wrap / toOrtTensor between them.
  const s = {};
  for (const p of ['enc1', 'enc2', 'dec2', 'dec1']) {
    s[p] = await ort.InferenceSession.create(await bytes(p), { executionProviders: ['webgpu'], ...gpuOut });
  }
  const hand = async (x) => {
    const { a } = await s.enc1.run({ x });
    const p1 = gpu.maxPool2d(gpu.wrap(a), { kernelSize: 2 });
    const { b } = await s.enc2.run({ p1: toOrtTensor(p1.output, ort) });
    const p2 = gpu.maxPool2d(gpu.wrap(b), { kernelSize: 2 });
    const u2 = gpu.maxUnpool2d(p2.output, p2.indices, { kernelSize: 2, outputSize: b.dims.slice(2) });
    const { c } = await s.dec2.run({ u2: toOrtTensor(u2, ort) });
    const u1 = gpu.maxUnpool2d(gpu.wrap(c), p1.indices, { kernelSize: 2, outputSize: a.dims.slice(2) });
    const input = toOrtTensor(u1, ort);
    const { logits } = await s.dec1.run({ u1: input });
    await u1.check();
    for (const t of [a, b, c, input]) t.dispose();
    for (const t of [p1.indices, p2.output, p2.indices]) t.destroy();
    return logits;
  };
  const cases = {
    runner: async (x) => (await runner.run({ x })).logits,
    hand,
  };
  // ORT alone with the pools and unpools (and the index arithmetic ORT puts beside them) on its CPU EP:
  // one read-back each way. The native EP runs it; JSEP fails as without the option (docs/models.md).
  const forced = runner.steps.filter((st) => st.kind === 'unpool').map((st) => st.node);
  try {
    const alone = await ort.InferenceSession.create(model, {
      executionProviders: [{ name: 'webgpu', forceCpuNodeNames: forced }], ...gpuOut,
    });
    await alone.run({ x: new ort.Tensor('float32', data, shape) });
    cases['ort-forceCpu'] = async (x) => (await alone.run({ x })).logits;
  } catch (e) {
    log(`ort-forceCpu (${bundle}): ${String(e).slice(0, 160)}`);
  }
  const timed = {};
  for (const [k, fn] of Object.entries(cases)) {
    const logits = await fn(new ort.Tensor('float32', data, shape));
    const got = await logits.getData();
    logits.dispose();
    const diff = Math.max(...got.map((v, i) => Math.abs(v - want[i])));
    if (!(diff < 1e-4)) throw new Error(`${k}: logits differ from the wasm EP's (max |diff| ${diff})`);
    timed[k] = async () => {
      const l = await fn(new ort.Tensor('float32', data, shape));
      await l.getData();  // each way ends with its logits on the CPU: the same read for all
      l.dispose();
    };
  }
  const runs = [];
  for (let r = 0; r < 3; ++r) runs.push(await runCases(timed, { reps, minBatchMs: 50, warmupMs: 500 }));
  const info = device.adapterInfo ?? {};
  const adapter = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ');
  const result = { bundle, model: name, shape, adapter, us: {}, runs };
  for (const k of Object.keys(timed)) result.us[k] = median(runs.map((x) => x[k]));
  window.benchResult = result;
} catch (e) {
  window.benchResult = { error: String(e?.stack ?? e) };
}
