// The model page (web/segnet.html) in Firefox ESR and WebKitGTK, beside
// Chromium's segnet.test.mjs: the checks every engine runs
// (segnet-checks.mjs) on WebAssembly, and in Firefox also on WebGPU (wgpu on
// Mesa's lavapipe, WebGPU's prefs on): the labels of every example equal
// PyTorch's and WebAssembly's. A screenshot per engine,
// test-results/segnet-<engine>.png. Run by scripts/test-demo.sh (DEMO_URL,
// DEMO_ENGINES).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { launchEngine } from '../engines/engines.mjs';
import { loadReference, nodeRun } from './segnet-ref.mjs';
import {
  settled, set, text, checkExamples, checkHover, checkKeyboard, checkBadFiles, checkDrawing,
} from './segnet-checks.mjs';

const url = process.env.DEMO_URL && new URL('segnet.html', process.env.DEMO_URL).href;
const engines = (process.env.DEMO_ENGINES ?? 'firefox webkit').split(/\s+/).filter(Boolean);
const ref = loadReference();

async function open(name, webgpu) {
  const engine = await launchEngine(name, { webgpu });
  const page = await engine.newPage();
  await page.goto(url);
  await settled(page);
  return { engine, page };
}

for (const name of engines) {
  describe(`model page in ${name}`, () => {
    let engine;
    let page;
    before(async () => {
      assert.ok(url, 'DEMO_URL must name the served demo (scripts/test-demo.sh sets it)');
      ({ engine, page } = await open(name, false));
    });
    after(async () => {
      await page?.close().catch(() => {});
      await engine?.close();
    });

    test(`${name}: loads with no console error, and says the model runs on WebAssembly`, async () => {
      assert.deepEqual(await page.errors(), []);
      assert.match(await text(page, 'm-model'), /^Model: SegNet, \d+ KiB/);
      assert.match(await text(page, 't-run'), /^Inference: WebAssembly \d+(\.\d+)? (ms|µs|s)/);
      assert.match(await text(page, 'gpu-note'), /^WebGPU: not available: .*The model runs on WebAssembly\.$/);
    });

    test(`${name}: every example's labels are PyTorch's`, () => checkExamples(page, ref, name));

    test(`${name}: hover points at the window Node's run of the model says`, async () => {
      await set(page, { source: 'example:0' });
      const node = await nodeRun(ref.examples[0].rgb);
      for (const stage of [1, 2, 3]) await checkHover(page, node, stage, ref.channels[stage - 1]);
    });

    test(`${name}: arrow keys, drawing, bad files`, async () => {
      await checkKeyboard(page);
      await checkDrawing(page);
      await checkBadFiles(page, ref);
    });

    test(`${name}: a screenshot (test-results/segnet-${name}.png), and still no console error`, async () => {
      await set(page, { source: 'example:0' });
      await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
      mkdirSync('test-results', { recursive: true });
      await page.screenshot(`test-results/segnet-${name}.png`);
      assert.deepEqual(await page.errors(), []);
    });
  });
}

if (engines.includes('firefox')) {
  describe('model page in firefox with WebGPU (lavapipe)', () => {
    let engine;
    let page;
    before(async () => { ({ engine, page } = await open('firefox', true)); });
    after(async () => {
      await page?.close().catch(() => {});
      await engine?.close();
    });

    test('firefox WebGPU: the switch, and every example\'s labels are PyTorch\'s and WebAssembly\'s', async () => {
      assert.equal(await page.evaluate(() => document.body.dataset.webgpu), 'available', await text(page, 'gpu-note'));
      await set(page, { backend: 'webgpu' });
      assert.equal(await page.evaluate(() => document.getElementById('error').hidden), true, await text(page, 'error'));
      assert.match(await text(page, 's-labels'), /WebGPU$/);
      await checkExamples(page, ref, 'firefox WebGPU');
      assert.equal(await text(page, 'same'), 'WebGPU labels = WebAssembly labels (all 2304 pixels)');
      assert.match(await text(page, 't-run'), /· WebGPU \d+(\.\d+)? (ms|µs|s)$/);
      mkdirSync('test-results', { recursive: true });
      await page.screenshot('test-results/segnet-firefox-webgpu.png');
      assert.deepEqual(await page.errors(), []);
    });
  });
}
