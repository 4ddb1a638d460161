// The WebGPU suite in Node.js on Dawn (the `webgpu` npm package, dawn.node):
//   node run-node.mjs vulkan-swiftshader   Dawn's Vulkan backend on the
//       SwiftShader ICD that Debian's chromium ships (Dawn refuses Mesa's
//       lavapipe 22.3: no shaderUniform*ArrayDynamicIndexing). A core
//       adapter; SwiftShader flushes subnormals in compares and adds.
//   node run-node.mjs opengles             Dawn's OpenGL ES backend on Mesa's
//       llvmpipe through surfaceless EGL, requested as a compatibility
//       adapter (featureLevel 'compatibility'): the WebGPU compatibility
//       mode's limits and WGSL rules.
// scripts/test-webgpu.sh runs both with Node 24 from the runtime tools.
//   WEBGPU_PACKAGE   folder of the `webgpu` package (default: import 'webgpu')
//   VK_ICD_FILENAMES defaults to /usr/lib/chromium/vk_swiftshader_icd.json
//                    (vulkan-swiftshader); EGL_PLATFORM to surfaceless
//                    (opengles). Both must be set before dawn.node loads.
import process from 'node:process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { main } from './cli.mjs';

const stacks = {
  'vulkan-swiftshader': {
    env: { VK_ICD_FILENAMES: '/usr/lib/chromium/vk_swiftshader_icd.json' },
    dawn: ['backend=vulkan'],
    adapterOptions: {},
    expect: (s) => (s.architecture === 'swiftshader' ? '' : `architecture ${JSON.stringify(s.architecture)}, want "swiftshader"`),
  },
  opengles: {
    env: { EGL_PLATFORM: 'surfaceless' },
    dawn: ['backend=opengles'],
    adapterOptions: { featureLevel: 'compatibility' },
    expect: (s) => (/^OpenGL ES/.test(s.description.replace(/^OpenGL version /, '')) && s.compat
      ? '' : `description ${JSON.stringify(s.description)}, compat=${s.compat}: want an OpenGL ES compatibility adapter`),
  },
};

const name = process.argv[2];
const stack = stacks[name];
if (!stack) {
  console.error(`usage: node run-node.mjs <${Object.keys(stacks).join('|')}>`);
  process.exit(2);
}
for (const [k, v] of Object.entries(stack.env)) process.env[k] ??= v;

const label = `node-${name}`;
const pkg = process.env.WEBGPU_PACKAGE;
let dawn;
try {
  dawn = await import(pkg ? pathToFileURL(join(pkg, 'index.js')).href : 'webgpu');
} catch (e) {
  console.log(`webgpu-${label}: FAIL cannot load the webgpu package (${e.message}); set WEBGPU_PACKAGE`);
  console.log(`webgpu-${label}: 0 passed, 1 failed`);
  process.exit(1);
}
Object.assign(globalThis, dawn.globals);
// Dawn lives as long as the object create() returns: once it is garbage
// collected, dawn.node crashes a few calls later. Keep it referenced for the
// whole run (main() ends the process with process.exit, so the reference
// does not keep Node alive).
const gpu = dawn.create(stack.dawn);
globalThis.__unpoolDawnGpu = gpu;
console.log(`webgpu-${label}: node ${process.version}, dawn.node options ${JSON.stringify(stack.dawn)},` +
  ` ${Object.keys(stack.env).map((k) => `${k}=${process.env[k]}`).join(' ')}`);
await main({ label, gpu, adapterOptions: stack.adapterOptions, expect: stack.expect });
