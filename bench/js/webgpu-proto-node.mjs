// Node 24 + the `webgpu` package runner of bench/js/webgpu-proto.mjs
// (prototype kernels and the compute-shader floor beside the library's), on
// Dawn's Vulkan backend over the SwiftShader ICD that Debian's chromium ships:
//   WEBGPU_PACKAGE=<runtime tools>/node_modules/webgpu \
//   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json \
//     node24 bench/js/webgpu-proto-node.mjs [DIST] [REPS]
// DIST: the build to time (default dist).
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = process.argv[2] ?? join(root, 'dist');
const u = await import(pathToFileURL(join(dist, 'index.js')).href);
const { initWebGPU } = await import(pathToFileURL(join(dist, 'webgpu/index.js')).href);
const { protoBench } = await import('./webgpu-proto.mjs');
const dawn = await import(pathToFileURL(join(process.env.WEBGPU_PACKAGE, 'index.js')).href);
Object.assign(globalThis, dawn.globals);
// Dawn lives as long as this object: keep it referenced.
const gpuApi = dawn.create(['backend=vulkan']);
globalThis.__unpoolDawnGpu = gpuApi;
await u.init();
const adapter = await gpuApi.requestAdapter();
const device = await adapter.requestDevice();
const gpu = await initWebGPU({ device });
const r = await protoBench(device, gpu, [1, 64, 112, 112], Number(process.argv[3] ?? 15));
const i = adapter.info;
console.log(`adapter: ${i.vendor} ${i.architecture} ${i.description}`);
for (const [k, v] of Object.entries(r.times)) console.log(`| ${k} | ${(v / 1000).toFixed(2)} ms |`);
console.log(`Bits: ${JSON.stringify(r.checks)}`);
process.exit(0);
