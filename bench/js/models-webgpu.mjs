#!/usr/bin/env node
// The model runner on ORT Web's WebGPU EPs (bench/js/models-webgpu-page.mjs)
// in Chromium, one run of a SegNet each way, side by side:
//
//   runner        createSession(export, { executionProviders: ['webgpu'],
//                 preferredOutputLocation: 'gpu-buffer' }): ORT sub-sessions
//                 on WebGPU, unpool/webgpu between them, nothing read back
//                 but the content check's status words
//   hand          the hand split on the GPU: the blocks' sessions with
//                 gpu.wrap / toOrtTensor and unpool's GPU pool and unpool
//   ort-forceCpu  one ORT session of the export with forceCpuNodeNames for
//                 the pools and unpools: ORT runs them on its CPU EP, reading
//                 their inputs back and writing their outputs up (the native
//                 EP; JSEP fails the same with or without the option)
//
// Every way ends with its logits read back (the same read for all). The
// adapters here are software (SwiftShader); on a real GPU:
//   node bench/js/models-webgpu.mjs --real-gpu [--model segnet]
// (Chromium with its default adapter instead of SwiftShader; a display may
// be needed: --headful.)
//
// Usage: node bench/js/models-webgpu.mjs [--model segnet-small|segnet] [--reps N] [--real-gpu] [--headful]
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withChromium } from './chromium.mjs';

const arg = (n, d) => (process.argv.includes(n) ? process.argv[process.argv.indexOf(n) + 1] : d);
const model = arg('--model', 'segnet-small');
const reps = arg('--reps', '9');
const realGpu = process.argv.includes('--real-gpu');
const root = fileURLToPath(new URL('../../', import.meta.url));
if (!existsSync(`${root}build/bench-models/${model}-dec1.onnx`)) {
  execFileSync('/usr/bin/python3', [`${root}bench/models/make-models.py`, `${root}build/bench-models`], { stdio: 'inherit' });
}
const flags = ['--enable-unsafe-webgpu', ...(realGpu ? [] : ['--use-webgpu-adapter=swiftshader', '--enable-unsafe-swiftshader'])];
const results = await withChromium({ flags, headless: !process.argv.includes('--headful'), timeoutMs: 900_000 }, async (open) => {
  const out = [];
  for (const bundle of ['native', 'jsep']) {
    out.push(await open(`models-webgpu.html?bundle=${bundle}&model=${model}&reps=${reps}`, (l) => console.log(`  ${l}`)));
  }
  return out;
});
for (const r of results) {
  const { us } = r;
  console.log(`${r.bundle === 'jsep' ? 'onnxruntime-web (JSEP)' : 'onnxruntime-web/webgpu'}, ${r.model} [${r.shape}], ` +
      `median µs per model run: ${Object.entries(us).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
  console.log(`  runner / hand ${(us.runner / us.hand).toFixed(2)}x (goal <= 1.05)` +
      (us['ort-forceCpu'] ? `; runner / ort-forceCpu ${(us.runner / us['ort-forceCpu']).toFixed(2)}x` : ''));
}
