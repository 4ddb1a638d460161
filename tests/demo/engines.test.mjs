// The demo page (web/) in Firefox ESR and WebKitGTK, beside the full
// Chromium suite (demo.test.mjs, webgpu.test.mjs): it loads with no console
// error, computes the PyTorch documentation example through the page's own
// controls, pools an image, and leaves a screenshot per engine in
// test-results/demo-<engine>.png. The engines come from tests/engines/
// (puppeteer-core, WebKitWebDriver); their page interface has no Playwright
// actions, so controls are set in the page and fire the events a user's
// input fires. Run by scripts/test-demo.sh (DEMO_URL, DEMO_ENGINES).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { launchEngine, engineVersion } from '../engines/engines.mjs';
import { pool, pooledSize } from './reference.mjs';

const channel = (rgba, ch) => rgba.filter((_, i) => i % 4 === ch);

const url = process.env.DEMO_URL;
const engines = (process.env.DEMO_ENGINES ?? 'firefox webkit').split(/\s+/).filter(Boolean);

/** In the page: sets controls ({ id: value }; a checkbox takes a boolean) and fires input + change on each. */
const setControls = (page, values) => page.evaluate((v) => {
  for (const [id, value] of Object.entries(v)) {
    const el = document.getElementById(id);
    if (el.type === 'checkbox') el.checked = value; else el.value = String(value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }
}, values);
const click = (page, id) => page.evaluate((i) => document.getElementById(i).click(), id);
const cells = (page, panel) => page.evaluate((p) => Array.from(document.querySelectorAll(`#${p} .cell`),
  (e) => (e.tagName === 'INPUT' ? e.value : e.textContent)), panel);
const text = (page, id) => page.evaluate((i) => document.getElementById(i).textContent, id);
const settled = (page) => page.waitFor(() => document.body.dataset.ready === 'true' && !('busy' in document.body.dataset), 120000);

for (const name of engines) {
  describe(`demo in ${name}`, () => {
    let engine;
    let page;
    before(async () => {
      assert.ok(url, 'DEMO_URL must name the served demo (scripts/test-demo.sh sets it)');
      console.log(`demo-${name}: ${engineVersion(name)}`);
      engine = await launchEngine(name);
      page = await engine.newPage();
      await page.goto(url);
      await settled(page);
    });
    after(async () => {
      await page?.close().catch(() => {});
      await engine?.close();
    });

    test(`${name}: loads with no console error, SIMD, timings, and says why there is no WebGPU switch`, async () => {
      assert.deepEqual(await page.errors(), []);
      assert.equal(await text(page, 'simd'), 'SIMD: yes');
      assert.match(await text(page, 't-pool'), /^maxPool2d: \d+(\.\d+)? (ms|µs)$/);
      assert.match(await text(page, 't-unpool'), /^maxUnpool2d: \d+(\.\d+)? (ms|µs)$/);
      // Neither runs with WebGPU here (WebKitGTK has none; Firefox ESR has it
      // behind a pref, off by default): the page says so and shows no switch.
      assert.equal(await page.evaluate(() => document.body.dataset.webgpu), 'none');
      assert.equal(await page.evaluate(() => document.getElementById('backend-switch').hidden), true);
      assert.match(await text(page, 'gpu-note'), /^WebGPU: not available: /);
    });

    test(`${name}: grid mode reproduces the PyTorch documentation example`, async () => {
      await setControls(page, { source: 'grid' });
      await setControls(page, { rows: 4, cols: 4 });
      await click(page, 'fill-seq');
      await setControls(page, { kernel: 2, stride: 2, padding: 0, dilation: 1, ceil: false, 'out-mode': 'default' });
      await settled(page);
      assert.deepEqual(await cells(page, 'input'), Array.from({ length: 16 }, (_, i) => String(i + 1)));
      assert.deepEqual(await cells(page, 'pooled'), ['6', '8', '14', '16']);
      assert.deepEqual(await cells(page, 'indices'), ['5', '7', '13', '15']);
      const expected = Array(16).fill('0');
      Object.assign(expected, { 5: '6', 7: '8', 13: '14', 15: '16' });
      assert.deepEqual(await cells(page, 'unpool'), expected);
      assert.equal(await text(page, 's-unpool'), '[1, 1, 4, 4] Float32Array');
    });

    test(`${name}: an image is pooled as its RGBA bytes, canvas sizes as PyTorch's`, async () => {
      await setControls(page, { source: 'shapes' });
      const prm = { kernel: 3, stride: 2, padding: 1, dilation: 1, ceilMode: false };
      await setControls(page, { 'out-mode': 'input', kernel: 3, stride: 2, padding: 1, dilation: 1, ceil: false });
      await settled(page);
      assert.equal(await text(page, 's-input'), '[1, 32, 32, 4] Uint8ClampedArray');
      const size = (panel) => page.evaluate((p) => { const c = document.querySelector(`#${p} canvas`); return [c.width, c.height]; }, panel);
      assert.deepEqual(await size('input'), [32, 32]);
      const OH = pooledSize(32, prm);
      assert.deepEqual(await size('pooled'), [OH, OH]);
      // The pooled canvas is the result's bytes: every channel's window max
      // (a plain pool written from PyTorch's definition, reference.mjs).
      const rgba = (panel) => page.evaluate((p) => {
        const c = document.querySelector(`#${p} canvas`);
        return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data);
      }, panel);
      const input = await rgba('input');
      const pooled = await rgba('pooled');
      for (let ch = 0; ch < 4; ch++) {
        const ref = pool(channel(input, ch), 32, 32, prm);
        assert.deepEqual(channel(pooled, ch), Array.from(ref.values), `pooled channel ${ch}`);
      }
    });

    test(`${name}: a screenshot (test-results/demo-${name}.png), and still no console error`, async () => {
      await setControls(page, { source: 'grid' });
      await click(page, 'fill-seq');
      await setControls(page, { kernel: 2, stride: 2, padding: 0, 'out-mode': 'input' });
      await settled(page);
      mkdirSync('test-results', { recursive: true });
      await page.screenshot(`test-results/demo-${name}.png`);
      assert.deepEqual(await page.errors(), []);
    });
  });
}
