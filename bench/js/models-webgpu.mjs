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
// Every way ends with its logits read back (the same read for all). Each
// page makes three side-by-side runs; a ratio is their median (range). The
// adapters here are software: Chromium on SwiftShader and Firefox ESR on
// Mesa's lavapipe (--engines chromium,firefox, the default). On a real GPU:
//   node bench/js/models-webgpu.mjs --real-gpu [--model segnet]
// (Chromium with its default adapter instead of SwiftShader; a display may
// be needed: --headful.)
//
// Usage: node bench/js/models-webgpu.mjs [--model segnet-small|segnet] [--reps N]
//          [--engines chromium,firefox] [--real-gpu] [--headful]
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchEngine } from '../../tests/engines/engines.mjs';
import { serveRoot, withChromium } from './chromium.mjs';
import { ratioRange } from './timing.mjs';

const arg = (n, d) => (process.argv.includes(n) ? process.argv[process.argv.indexOf(n) + 1] : d);
const model = arg('--model', 'segnet-small');
const reps = arg('--reps', '9');
const realGpu = process.argv.includes('--real-gpu');
const engines = arg('--engines', realGpu ? 'chromium' : 'chromium,firefox').split(',');
const root = fileURLToPath(new URL('../../', import.meta.url));
if (!existsSync(`${root}build/bench-models/${model}-dec1.onnx`)) {
  execFileSync('/usr/bin/python3', [`${root}bench/models/make-models.py`, `${root}build/bench-models`], { stdio: 'inherit' });
}
const pages = ['native', 'jsep'].map((bundle) => `models-webgpu.html?bundle=${bundle}&model=${model}&reps=${reps}`);
const log = (l) => console.log(`  ${l}`);

/** Firefox ESR with WebGPU (lavapipe), each page as withChromium's open() gives it. */
async function inFirefox() {
  const { server, base } = await serveRoot();
  const engine = await launchEngine('firefox', { webgpu: true });
  try {
    const out = [];
    for (const p of pages) {
      const page = await engine.newPage();
      page.raw.on('console', (m) => { if (m.text().startsWith('bench: ')) log(m.text().slice(7)); });
      await page.goto(`${base}/bench/js/${p}`);
      await page.waitFor(() => window.benchResult !== undefined, 900_000);
      const r = await page.evaluate(() => window.benchResult);
      await page.close();
      if (r.error) throw new Error(`bench: the page failed: ${r.error}`);
      out.push(r);
    }
    return out;
  } finally {
    await engine.close();
    server.close();
  }
}

for (const engine of engines) {
  let results;
  if (engine === 'firefox') {
    results = await inFirefox();
  } else if (engine === 'chromium') {
    const flags = ['--enable-unsafe-webgpu', ...(realGpu ? [] : ['--use-webgpu-adapter=swiftshader', '--enable-unsafe-swiftshader'])];
    results = await withChromium({ flags, headless: !process.argv.includes('--headful'), timeoutMs: 900_000 },
      async (open) => { const out = []; for (const p of pages) out.push(await open(p, log)); return out; });
  } else {
    throw new Error(`--engines: unknown engine '${engine}' (chromium, firefox)`);
  }
  for (const r of results) {
    const ratio = (a, b) => ratioRange(r.runs.map((x) => x[a] / x[b]));
    console.log(`${engine} (${r.adapter || 'adapter not named'}), ${r.bundle === 'jsep' ? 'onnxruntime-web (JSEP)' : 'onnxruntime-web/webgpu'}, ` +
        `${r.model} [${r.shape}], median µs per model run: ${Object.entries(r.us).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
    console.log(`  runner / hand ${ratio('runner', 'hand')} (goal <= 1.05)` +
        (r.us['ort-forceCpu'] ? `; runner / ort-forceCpu ${ratio('runner', 'ort-forceCpu')}` : ''));
  }
}
