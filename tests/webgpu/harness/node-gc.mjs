// The documented Node.js setup under forced garbage collection:
//   node --expose-gc node-gc.mjs
// `initWebGPU({ gpu: create([]) })` keeps nothing else referencing Dawn's
// create() object; dawn.node aborts the process (std::system_error, a futex
// error) a few calls after that object is collected, unless the backend
// keeps it. Prints `webgpu-node-gc: N passed, N failed`; a crash is a
// failure of the stage (no summary line, a non-zero exit).
//   WEBGPU_PACKAGE   folder of the `webgpu` package (default: import 'webgpu')
import process from 'node:process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { initWebGPU } from '../../../dist/webgpu/index.js';

const ROUNDS = 30;
const pkg = process.env.WEBGPU_PACKAGE;
const { create, globals } = await import(pkg ? pathToFileURL(join(pkg, 'index.js')).href : 'webgpu');
if (typeof globalThis.gc !== 'function') {
  console.log('webgpu-node-gc: FAIL run with node --expose-gc');
  console.log('webgpu-node-gc: 0 passed, 1 failed');
  process.exit(1);
}
Object.assign(globalThis, globals);

// The setup as docs/webgpu.md shows it: nothing but the backend holds create()'s object.
const gpu = await initWebGPU({ gpu: create([]) });

const x = { data: Float32Array.from({ length: 64 }, (_, i) => (i * 37) % 64), shape: [1, 1, 8, 8] };
const want = Array.from((await import('../../../dist/index.js')).maxPool2d(x, { kernelSize: 2 }).indices.data);
let failed = 0;
for (let round = 0; round < ROUNDS; round++) {
  globalThis.gc();
  // Dawn's objects are released from a later task: give it one.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const X = gpu.upload(x);
  const { output, indices } = gpu.maxPool2d(X, { kernelSize: 2 });
  const got = Array.from((await indices.read()).data);
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    failed = 1;
    console.log(`webgpu-node-gc: FAIL round ${round}: indices ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    break;
  }
  X.destroy(); output.destroy(); indices.destroy();
}
console.log(`webgpu-node-gc: ${ROUNDS} rounds of gc() then a call, on initWebGPU({ gpu: create([]) })`);
console.log(`webgpu-node-gc: ${1 - failed} passed, ${failed} failed`);
// Dawn keeps Node alive otherwise.
process.exit(failed);
