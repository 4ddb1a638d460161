// The WebGPU benchmark in Deno (navigator.gpu, wgpu), run by
// bench/js/webgpu.mjs as
//   DENO_WEBGPU_BACKEND=vulkan VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \
//     deno run --allow-read --allow-env bench/js/webgpu-deno.mjs '<json options>'
// (the variables pin lavapipe; without them Deno picks the machine's GPU).
// Prints one line of JSON: the result of runStack().
import * as u from '../../dist/index.js';
import { initWebGPU } from '../../dist/webgpu/index.js';
import { runStack, GPU_WORKLOADS, GPU_DTYPES } from './webgpu-suite.mjs';

const opt = JSON.parse(Deno.args[0] ?? '{}');
const timing = opt.quick ? { reps: 5, minBatchMs: 2, warmupMs: 50 } : { reps: 15, minBatchMs: 5, warmupMs: 200 };
const filter = new RegExp(opt.filter ?? '.');
let ort;
if (opt.ort !== false) {
  try {
    ort = await import('../../node_modules/onnxruntime-web/dist/ort.bundle.min.mjs');
  } catch (e) {
    console.error(`bench (deno): onnxruntime-web did not load: ${e.message}`);
  }
}
let result;
try {
  result = await runStack({
    u, initWebGPU, ort, navGpu: navigator.gpu, timing,
    workloads: GPU_WORKLOADS.filter((w) => filter.test(w.name)),
    dtypes: opt.dtypes ?? GPU_DTYPES,
    log: (s) => console.error(`  ${s}`),
  });
  result.runtime = `Deno ${Deno.version.deno}`;
} catch (e) {
  result = { error: String(e?.stack ?? e) };
}
console.log(JSON.stringify(result));
// wgpu keeps the process alive on some drivers.
Deno.exit(0);
