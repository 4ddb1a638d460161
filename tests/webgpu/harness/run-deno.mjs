// The WebGPU suite in Deno: navigator.gpu (wgpu) on Mesa's lavapipe, the
// Vulkan driver of Debian's mesa-vulkan-drivers. The one stack here with
// shader-f16. scripts/test-webgpu.sh runs it as
//   DENO_WEBGPU_BACKEND=vulkan VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \
//     deno run --allow-read --allow-env tests/webgpu/harness/run-deno.mjs
// (the two variables pin wgpu to lavapipe where a real GPU or other Vulkan
// drivers exist; set them in the environment, as the script does).
import { main } from './cli.mjs';

console.log(`webgpu-deno: deno ${Deno.version.deno}, DENO_WEBGPU_BACKEND=${Deno.env.get('DENO_WEBGPU_BACKEND') ?? ''}` +
  ` VK_ICD_FILENAMES=${Deno.env.get('VK_ICD_FILENAMES') ?? ''}`);
await main({
  label: 'deno',
  gpu: navigator.gpu,
  adapterOptions: {},
  expect: (s) => (/llvmpipe/.test(s.description) ? '' : `description ${JSON.stringify(s.description)}, want lavapipe (llvmpipe)`),
});
