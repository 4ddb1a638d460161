// The demo as `vite build` makes it (both pages, web/vite.config.js), served
// by `vite preview` in this process and loaded in headless Chromium: the
// model, unpool's and ONNX Runtime's .wasm are emitted as assets, and the
// model page's labels of an example are PyTorch's. Run by
// scripts/test-demo.sh with the Chromium files.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';
import { openDemo } from './browser.mjs';
import { loadReference, labelDiff } from './segnet-ref.mjs';
import { set, shownLabels } from './segnet-checks.mjs';

const configFile = new URL('../../web/vite.config.js', import.meta.url).pathname;
const outDir = mkdtempSync(join(tmpdir(), 'unpool-demo-build-'));
let server;

before(async () => {
  await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 2048 } });
  server = await preview({ configFile, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0 } });
});
after(async () => {
  await server?.close();
  rmSync(outDir, { recursive: true, force: true });
});

test('vite build emits both pages, the model and every .wasm as assets', () => {
  const files = readdirSync(outDir);
  assert.ok(files.includes('index.html') && files.includes('segnet.html'), files.join(', '));
  const assets = readdirSync(join(outDir, 'assets'));
  for (const re of [/^segnet-.*\.onnx$/, /^unpool-.*\.wasm$/, /^ort-wasm-simd-threaded\.jsep-.*\.wasm$/]) {
    assert.ok(assets.some((f) => re.test(f)), `${re} among ${assets.join(', ')}`);
  }
});

test('the built model page runs the model: PyTorch\'s labels, no console error', async () => {
  const url = new URL('segnet.html', server.resolvedUrls.local[0]).href;
  const demo = await openDemo(url);
  try {
    const view = {
      evaluate: (fn, arg) => demo.page.evaluate(fn, arg),
      waitFor: (fn, timeout) => demo.page.waitForFunction(fn, undefined, { timeout, polling: 50 }),
    };
    const ref = loadReference();
    await set(view, { source: 'example:1' });
    assert.equal(labelDiff(await shownLabels(view), ref.examples[1].labels), '');
    for (const type of demo.wasmTypes) assert.equal(type, 'application/wasm');
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});
