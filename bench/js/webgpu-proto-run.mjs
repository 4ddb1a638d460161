// Deno runner of bench/js/webgpu-proto.mjs (prototype kernels beside the
// library's), on lavapipe as bench/js/webgpu-headless.mjs:
//   DENO_WEBGPU_BACKEND=vulkan VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \
//     deno run --allow-read --allow-env bench/js/webgpu-proto-run.mjs
import * as u from '../../dist/index.js';
import { initWebGPU } from '../../dist/webgpu/index.js';
import { protoBench } from './webgpu-proto.mjs';

await u.init();
const adapter = await navigator.gpu.requestAdapter();
const device = await adapter.requestDevice();
const gpu = await initWebGPU({ device });
const shape = (JSON.parse(Deno.args[0] ?? '{}').shape ?? '1,64,112,112').split(',').map(Number);
const r = await protoBench(device, gpu, shape);
const i = adapter.info;
console.log(JSON.stringify({ adapter: { vendor: i.vendor, architecture: i.architecture, description: i.description }, ...r }));
Deno.exit(0);
