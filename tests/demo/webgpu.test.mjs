// The demo's backend switch, in headless Chromium with WebGPU on SwiftShader
// (the flags of vitest.webgpu.config.ts; the page is on http://127.0.0.1).
// Every scenario is drawn by both backends, and the four panels (pixels or
// cell texts), their shapes, the error and duplicate notes must be the same.
// Run by scripts/test-demo.sh, which serves the page and sets DEMO_URL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { openDemo, WEBGPU, settled, setPool, sequenceGrid, cellTexts } from './browser.mjs';
import { pool, unpool } from './reference.mjs';

const url = process.env.DEMO_URL;
let demo;
let page;

before(async () => {
  assert.ok(url, 'DEMO_URL must name the served demo (scripts/test-demo.sh sets it)');
  demo = await openDemo(url, WEBGPU);
  page = demo.page;
});
after(async () => { await demo?.close(); });

/** What the page shows: each panel's pixels or cell texts, the shapes, the notes. */
const snapshot = () => page.evaluate(() => {
  const panel = (id) => {
    const stage = document.getElementById(id);
    const c = stage.querySelector('canvas');
    if (c) return { size: [c.width, c.height], rgba: Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data) };
    const cells = [...stage.querySelectorAll('.cell')].map((e) => (e.tagName === 'INPUT' ? e.value : e.textContent));
    return { cells, text: cells.length ? '' : stage.textContent, titles: [...stage.querySelectorAll('.cell')].map((e) => e.title) };
  };
  const text = (id) => document.getElementById(id).textContent;
  const hidden = (id) => document.getElementById(id).hidden;
  return {
    panels: Object.fromEntries(['input', 'pooled', 'indices', 'unpool'].map((id) => [id, panel(id)])),
    shapes: ['s-input', 's-pooled', 's-indices', 's-unpool'].map(text),
    error: hidden('error') ? '' : text('error'),
    dup: hidden('dup-note') ? '' : text('dup-note'),
    shown: document.body.dataset.shown,
  };
});

async function useBackend(name) {
  await settled(page);
  if (await page.inputValue('#backend') !== name) await page.selectOption('#backend', name);
  await settled(page);
}

const TIME = String.raw`\d+(\.\d+)? (ms|µs)`;

/** Draws the current scenario on both backends and checks they show the same; returns the view. */
async function bothSame(what) {
  await useBackend('wasm');
  const wasm = await snapshot();
  await useBackend('webgpu');
  const gpu = await snapshot();
  assert.equal(wasm.shown, 'wasm', what);
  assert.equal(gpu.shown, 'webgpu', what);
  delete wasm.shown;
  delete gpu.shown;
  assert.deepEqual(gpu, wasm, `${what}: WebGPU panels equal WebAssembly's`);
  assert.equal(await page.textContent('#same'), 'WebGPU = WebAssembly: same bits', what);
  return wasm;
}

test('the backend switch is shown with the adapter, and the calls are timed on both backends', async () => {
  assert.deepEqual(demo.errors, []);
  assert.equal(await page.getAttribute('body', 'data-webgpu'), 'available');
  assert.equal(await page.isVisible('#backend-switch'), true);
  assert.match(await page.textContent('#gpu-note'), /^WebGPU adapter: .*(swiftshader|SwiftShader|google)/i);
  await useBackend('webgpu');
  const re = (fn) => new RegExp(`^${fn}: WebAssembly ${TIME} · WebGPU ${TIME}$`);
  assert.match(await page.textContent('#t-pool'), re('maxPool2d'));
  assert.match(await page.textContent('#t-unpool'), re('maxUnpool2d'));
  await useBackend('wasm');
  assert.match(await page.textContent('#t-pool'), re('maxPool2d'));
});

test('grid mode: the PyTorch example and edits, in float32, float16 and bfloat16', async () => {
  await sequenceGrid(page, 4, 4);
  await setPool(page, { kernel: 2, stride: 2 });
  await page.selectOption('#out-mode', 'default');
  const v = await bothSame('4x4 sequence');
  assert.deepEqual(v.panels.pooled.cells, ['6', '8', '14', '16']);
  assert.deepEqual(v.panels.indices.cells, ['5', '7', '13', '15']);
  for (const [r, c, val] of [[0, 0, '1233'], [0, 1, '1234.567'], [3, 3, '0.1']]) {
    await settled(page);
    await page.fill(`#input .cell[data-r="${r}"][data-c="${c}"]`, val);
    await page.press(`#input .cell[data-r="${r}"][data-c="${c}"]`, 'Enter');
  }
  for (const dtype of ['float32', 'float16', 'bfloat16']) {
    await page.selectOption('#dtype', dtype);
    await bothSame(`edited grid, ${dtype}`);
  }
  assert.deepEqual(await cellTexts(page, 'indices'), ['0', '7', '13', '14'], 'bfloat16: the tie goes to the first');
  await page.selectOption('#dtype', 'float32');
});

test('random grids with padding, dilation, ceil mode and overlapping windows', async () => {
  await page.selectOption('#out-mode', 'input');
  await sequenceGrid(page, 9, 11);
  await page.click('#fill-rand');
  const configs = [
    { kernel: 2, stride: 1 }, { kernel: 3, stride: 2, padding: 1 }, { kernel: 2, stride: 2, dilation: 2 },
    { kernel: 3, stride: 2, ceilMode: true }, { kernel: 4, stride: 3, padding: 2 },
  ];
  for (const cfg of configs) {
    await setPool(page, cfg);
    for (const dtype of ['float32', 'float16']) {
      await page.selectOption('#dtype', dtype);
      const v = await bothSame(`9x11 random ${JSON.stringify(cfg)} ${dtype}`);
      assert.ok(v.panels.pooled.cells.length > 0);
    }
  }
  await page.selectOption('#dtype', 'float32');
});

test('images: the same pixels in all four panels, per channel', async () => {
  await page.selectOption('#out-mode', 'input');
  for (const source of ['shapes', 'rings', 'checker', 'stars']) {
    await page.selectOption('#source', source);
    for (const cfg of [{ kernel: 2, stride: 2 }, { kernel: 3, stride: 2, padding: 1 }]) {
      await setPool(page, cfg);
      const v = await bothSame(`${source} ${JSON.stringify(cfg)}`);
      assert.ok(v.panels.pooled.size[0] > 0, `${source}: a pooled canvas`);
    }
  }
  // And the pixels are PyTorch's (the reference), not merely equal to each
  // other; the GPU took and gave the RGBA bytes as Uint8ClampedArrays too.
  await page.selectOption('#source', 'shapes');
  await setPool(page, { kernel: 2, stride: 2 });
  await useBackend('webgpu');
  const v = await snapshot();
  assert.deepEqual(v.shapes, ['[1, 32, 32, 4] Uint8ClampedArray', '[1, 16, 16, 4] Uint8ClampedArray',
    '[1, 16, 16, 4] Int32Array', '[1, 32, 32, 4] Uint8ClampedArray']);
  const ch = (rgba, c) => rgba.filter((_, i) => i % 4 === c);
  for (let c = 0; c < 4; c++) {
    const ref = pool(ch(v.panels.input.rgba, c), 32, 32, { kernel: 2, stride: 2, padding: 0, dilation: 1 });
    assert.deepEqual(ch(v.panels.pooled.rgba, c), Array.from(ref.values), `WebGPU pooled, channel ${c}`);
    if (c < 3) assert.deepEqual(ch(v.panels.unpool.rgba, c), Array.from(unpool(ref.values, ref.indices, 32, 32)), `WebGPU unpooled, channel ${c}`);
  }
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/demo-webgpu.png' });
});

test('adaptive and fractional modes, with duplicate indices and new samples', async () => {
  await sequenceGrid(page, 5, 5);
  await page.selectOption('#mode', 'adaptive');
  await page.fill('#a-out-h', '3');
  await page.fill('#a-out-w', '3');
  await settled(page);
  await page.fill('#input .cell[data-r="3"][data-c="3"]', '100');
  await page.press('#input .cell[data-r="3"][data-c="3"]', 'Enter');
  const v = await bothSame('adaptive 5x5 -> 3x3, a shared maximum');
  assert.ok(v.dup.length > 0, 'duplicate indices are noted');
  assert.ok(v.panels.unpool.titles.some((t) => /written 4 times/.test(t)));
  await page.fill('#a-out-h', '7');
  await bothSame('adaptive 5x5 -> 7x3');
  await page.selectOption('#source', 'stars');
  await page.fill('#a-out-w', '10');
  const img = await bothSame('adaptive stars 32x32 -> 7x10, uint8 channels last');
  assert.equal(img.shapes[1], '[1, 7, 10, 4] Uint8ClampedArray');

  await sequenceGrid(page, 7, 7);
  await page.click('#fill-rand');
  await page.selectOption('#mode', 'fractional');
  await page.fill('#f-kernel', '2');
  await page.fill('#f-out-h', '4');
  await page.fill('#f-out-w', '4');
  for (let i = 0; i < 3; i++) {
    await bothSame(`fractional 7x7 -> 4x4, samples ${await page.getAttribute('body', 'data-samples')}`);
    await page.click('#new-samples');
  }
  await page.selectOption('#source', 'rings');
  await page.fill('#f-kernel', '3');
  await page.fill('#f-out-h', '12');
  await page.fill('#f-out-w', '10');
  await bothSame('fractional rings 32x32 -> 12x10');
  await page.selectOption('#mode', 'max');
});

test('errors: the same messages on both backends, also those the GPU finds in the data', async () => {
  await sequenceGrid(page, 4, 4);
  await setPool(page, { kernel: 2, stride: 2 });
  await page.selectOption('#out-mode', 'custom');
  await page.fill('#out-w', '4');
  await page.fill('#out-h', '6');  // outside 3..5: thrown at the call
  let v = await bothSame('outputSize outside its range');
  assert.match(v.error, /maxUnpool2d: outputSize\[0\]=6 is outside 3\.\.5/);
  await page.fill('#out-h', '3');  // index 13 is outside a 3x4 plane: found by the GPU, reported by read()
  v = await bothSame('an index outside the plane');
  assert.match(v.error, /maxUnpool2d: .*13/);
  assert.match(v.panels.unpool.text, /maxUnpool2d failed/);
  await page.fill('#out-h', '4');
  await page.selectOption('#out-mode', 'input');
  // Fractional pooling takes float32 and float64 only.
  await page.selectOption('#mode', 'fractional');
  await page.selectOption('#dtype', 'float16');
  v = await bothSame('fractional float16');
  assert.match(v.error, /fractionalMaxPool2d: .*float16/);
  await page.selectOption('#dtype', 'float32');
  await page.selectOption('#mode', 'max');
  await settled(page);
});

test('a cell being edited while the GPU works keeps what is typed', async () => {
  await sequenceGrid(page, 4, 4);
  await setPool(page, { kernel: 2, stride: 2 });
  await useBackend('webgpu');
  await page.fill('#stride', '1');  // a GPU run starts
  await page.fill('#input .cell[data-r="2"][data-c="2"]', '77');  // typed before it ends
  await settled(page);
  assert.equal(await page.inputValue('#input .cell[data-r="2"][data-c="2"]'), '77');
  await page.press('#input .cell[data-r="2"][data-c="2"]', 'Enter');
  const v = await bothSame('after the edit');
  assert.ok(v.panels.pooled.cells.includes('77'));
  await page.fill('#stride', '2');
  await settled(page);
});

test('no console errors after all of the above', () => {
  assert.deepEqual(demo.errors, []);
});
