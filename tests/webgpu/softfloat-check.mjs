// Full run of the softfloat checks (tests/webgpu/cases/softfloat-f32.mjs,
// -f64.mjs, -half.mjs; each compiles only its own parts) on one
// WebGPU stack, with the full vector counts (2^22 per binary32 function,
// 2^20 per binary64 function, all 65536 inputs of the 16-bit widenings).
//
//   Deno (wgpu; here on Mesa's lavapipe):
//     dir=$(bash tests/runtimes/install-tools.sh)
//     $dir/node_modules/.bin/deno run -A tests/webgpu/softfloat-check.mjs
//   Node.js with the `webgpu` package (Dawn; here on SwiftShader):
//     VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json \
//       $dir/node_modules/node24/bin/node tests/webgpu/softfloat-check.mjs
//     (WEBGPU_MODULE=/path/to/webgpu/index.js if `webgpu` is not resolvable
//     from here; it defaults to the runtime tools' copy, then to 'webgpu'.)
// Options: --quick (the harness's counts), --only=f32_add,f64_div.
// Exit status 0 when every vector matches, 1 otherwise.

import * as f32 from './cases/softfloat-f32.mjs';
import * as f64 from './cases/softfloat-f64.mjs';
import * as half from './cases/softfloat-half.mjs';
import { SCALES } from './softfloat-harness.mjs';

const isDeno = typeof Deno !== 'undefined';
const args = isDeno ? Deno.args : process.argv.slice(2);
const env = (k) => (isDeno ? Deno.env.get(k) : process.env[k]);
const exit = (c) => (isDeno ? Deno.exit(c) : process.exit(c));

async function getGpu() {
  if (globalThis.navigator?.gpu) return { gpu: navigator.gpu, stack: 'navigator.gpu' };
  // Node.js: Dawn through the `webgpu` package. The object `create` returns
  // must stay referenced for the whole run (keep it in the result).
  const candidates = [];
  if (env('WEBGPU_MODULE')) candidates.push(env('WEBGPU_MODULE'));
  try {
    const { execFileSync } = await import('node:child_process');
    const here = new URL('.', import.meta.url).pathname;
    const dir = execFileSync('bash', [`${here}../runtimes/install-tools.sh`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    candidates.push(`${dir}/node_modules/webgpu/index.js`);
  } catch {
    // no runtime tools: try the bare name
  }
  candidates.push('webgpu');
  for (const c of candidates) {
    try {
      const m = await import(c.startsWith('/') ? `file://${c}` : c);
      Object.assign(globalThis, m.globals);
      return { gpu: m.create([]), stack: `webgpu package (${c})` };
    } catch {
      // next
    }
  }
  throw new Error('no WebGPU: not Deno, and the webgpu package is not found (set WEBGPU_MODULE)');
}

const { gpu, stack } = await getGpu();
const adapter = await gpu.requestAdapter();
if (!adapter) throw new Error('no WebGPU adapter');
const info = adapter.info ?? {};
const device = await adapter.requestDevice();
const runtime = isDeno ? `Deno ${Deno.version.deno}` : `Node.js ${process.version}`;
console.log(`softfloat-check: ${runtime}, ${stack}, adapter: ${info.vendor ?? ''} ${info.architecture ?? ''} ${info.device ?? ''} ${info.description ?? ''}`.replace(/ +/g, ' '));

const quick = args.includes('--quick');
const onlyArg = args.find((a) => a.startsWith('--only='));
const t0 = performance.now();
let failed = 0;
let total = 0;
for (const precision of [f32, f64, half]) {
  await precision.runChecks(device, {
    scale: quick ? SCALES.quick : SCALES.full,
    only: onlyArg ? onlyArg.slice(7).split(',') : undefined,
    log: (r) => {
      total += r.n;
      if (r.failures) failed++;
      const ms = (x) => `${Math.round(x)}`.padStart(5);
      console.log(`${r.failures ? 'FAIL' : 'ok  '} ${r.name.padEnd(17)} ${String(r.n).padStart(8)} vectors, ${String(r.failures).padStart(7)} differ  (gen ${ms(r.msGen)} ms, gpu ${ms(r.msGpu)} ms, check ${ms(r.msCheck)} ms)${r.extra ? '  [' + r.extra + ']' : ''}`);
      for (const s of r.samples) console.log(`       ${s}`);
    },
  });
}
console.log(`softfloat-check: ${total} vectors, ${failed} functions with differences, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
device.destroy();
exit(failed ? 1 : 0);
