// The WebGPU benchmark outside a browser, run by bench/js/webgpu.mjs:
//   Deno (navigator.gpu, wgpu):
//     DENO_WEBGPU_BACKEND=vulkan VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \
//       deno run --allow-read --allow-env bench/js/webgpu-headless.mjs '<json options>'
//     (the variables pin lavapipe; without them Deno picks the machine's GPU)
//   Node.js 24 + the `webgpu` package (Dawn):
//     WEBGPU_PACKAGE=<folder> VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json \
//       node bench/js/webgpu-headless.mjs '<json options>'
//     (the variable pins SwiftShader's Vulkan driver; Dawn refuses lavapipe)
// Prints one line of JSON: the result of runStack(), or with the option
// `ab` ({ dists: [A, B], op, shape, ... }) the result of abWebGPU().
import { abWebGPU } from './webgpu-ab.mjs';
import { runStack, adapterLine, GPU_WORKLOADS, GPU_DTYPES } from './webgpu-suite.mjs';

const deno = globalThis.Deno;
let navGpu = globalThis.navigator?.gpu;
let runtime = deno ? `Deno ${deno.version.deno}` : `Node.js ${globalThis.process?.version}`;
const args = deno ? deno.args : globalThis.process.argv.slice(2);
if (!deno) {
  const pkg = globalThis.process.env.WEBGPU_PACKAGE;
  const dawn = await import(pkg ? new URL(`file://${pkg}/index.js`).href : 'webgpu');
  Object.assign(globalThis, dawn.globals);
  // Kept referenced for the whole run (Dawn aborts once it is collected).
  navGpu = dawn.create([]);
  globalThis.__benchDawn = navGpu;
  runtime += ' + webgpu (Dawn)';
}
const opt = JSON.parse(args[0] ?? '{}');
/** A build's WebAssembly API (initialised) and unpool/webgpu's initWebGPU. */
const load = async (dir) => {
  const base = dir ? new URL(`file://${dir}/`) : new URL('../../dist/', import.meta.url);
  const u = await import(new URL('index.js', base).href);
  const { initWebGPU } = await import(new URL('webgpu/index.js', base).href);
  await u.init();
  return { u, initWebGPU };
};
if (opt.ab) {
  let result;
  try {
    const adapter = await navGpu.requestAdapter();
    const device = await adapter.requestDevice();
    const sides = [];
    for (const dir of opt.ab.dists) sides.push(await (await load(dir)).initWebGPU({ device }));
    result = { ...await abWebGPU({ device, sides, ...opt.ab }), runtime, adapter: adapterLine(device.adapterInfo ?? adapter.info) };
  } catch (e) {
    result = { error: String(e?.stack ?? e) };
  }
  console.log(JSON.stringify(result));
  if (deno) deno.exit(0); else globalThis.process.exit(0);
}
const { u, initWebGPU } = await load();
const timing = opt.quick ? { reps: 5, minBatchMs: 2, warmupMs: 50 } : { reps: 15, minBatchMs: 5, warmupMs: 200 };
const filter = new RegExp(opt.filter ?? '.');
let ort;
if (opt.ort !== false) {
  try {
    ort = await import('../../node_modules/onnxruntime-web/dist/ort.bundle.min.mjs');
  } catch (e) {
    console.error(`bench (${runtime}): onnxruntime-web did not load: ${e.message}`);
  }
}
let result;
try {
  result = await runStack({
    u, initWebGPU, ort, navGpu, timing,
    workloads: GPU_WORKLOADS.filter((w) => filter.test(w.name)),
    dtypes: opt.dtypes ?? GPU_DTYPES,
    log: (s) => console.error(`  ${s}`),
  });
  result.runtime = runtime;
} catch (e) {
  result = { error: String(e?.stack ?? e) };
}
console.log(JSON.stringify(result));
// wgpu and Dawn keep the process alive on some drivers.
if (deno) deno.exit(0); else globalThis.process.exit(0);
