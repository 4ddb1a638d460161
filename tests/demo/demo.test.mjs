// End-to-end test of the demo page (web/) in headless Chromium. Run by
// scripts/test-demo.sh, which serves the page and sets DEMO_URL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { openDemo, cellTexts, marked, canvasOf, channel, setPool, sequenceGrid, hoverCanvasCell } from './browser.mjs';
import { pool, unpool, pooledSize, roundTo } from './reference.mjs';
import { modeTests } from './modes.mjs';

const url = process.env.DEMO_URL;
let demo;
let page;

before(async () => {
  assert.ok(url, 'DEMO_URL must name the served demo (scripts/test-demo.sh sets it)');
  demo = await openDemo(url);
  page = demo.page;
});
after(async () => { await demo?.close(); });

const sorted = (cells) => [...cells].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
const boxOf = (panel, cls) => page.$eval(`#${panel} .box.${cls}`, (b) => [+b.dataset.r0, +b.dataset.c0, +b.dataset.r1, +b.dataset.c1]);

test('the page loads without console errors, serves wasm as application/wasm, shows SIMD and timings', async () => {
  assert.deepEqual(demo.errors, []);
  assert.ok(demo.wasmTypes.length > 0, 'the page loaded a .wasm file');
  for (const type of demo.wasmTypes) assert.equal(type, 'application/wasm');
  assert.match(await page.textContent('#simd'), /^SIMD: (yes|no)$/);
  assert.match(await page.textContent('#t-pool'), /^maxPool2d: \d+(\.\d+)? (ms|µs)$/);
  assert.match(await page.textContent('#t-unpool'), /^maxUnpool2d: \d+(\.\d+)? (ms|µs)$/);
  // This browser runs without --enable-unsafe-webgpu: no adapter, so no
  // switch, and the page says why (webgpu.test.mjs runs the switch).
  assert.equal(await page.getAttribute('body', 'data-webgpu'), 'none');
  assert.equal(await page.isVisible('#backend-switch'), false);
  assert.match(await page.textContent('#gpu-note'), /^WebGPU: not available: navigator\.gpu gave no adapter/);
});

test('grid mode reproduces the PyTorch documentation example, and edits re-run it', async () => {
  await sequenceGrid(page, 4, 4);
  await setPool(page, { kernel: 2, stride: 2 });
  await page.selectOption('#out-mode', 'default');
  assert.deepEqual(await cellTexts(page, 'input'), Array.from({ length: 16 }, (_, i) => String(i + 1)));
  assert.deepEqual(await cellTexts(page, 'pooled'), ['6', '8', '14', '16']);
  assert.deepEqual(await cellTexts(page, 'indices'), ['5', '7', '13', '15']);
  const expected = Array(16).fill('0');
  Object.assign(expected, { 5: '6', 7: '8', 13: '14', 15: '16' });
  assert.deepEqual(await cellTexts(page, 'unpool'), expected);
  assert.equal(await page.textContent('#s-unpool'), '[1, 1, 4, 4] Float32Array');

  await page.fill('#input .cell[data-r="0"][data-c="0"]', '99');
  await page.press('#input .cell[data-r="0"][data-c="0"]', 'Enter');
  assert.deepEqual(await cellTexts(page, 'pooled'), ['99', '8', '14', '16']);
  assert.deepEqual(await cellTexts(page, 'indices'), ['0', '7', '13', '15']);
  const unpooled = await cellTexts(page, 'unpool');
  assert.equal(unpooled[0], '99');
  assert.equal(unpooled[5], '0');
});

test('kernel, stride, padding, dilation and ceil mode change the canvases as PyTorch would', async () => {
  await page.selectOption('#source', 'shapes');
  await page.selectOption('#out-mode', 'input');
  const input = await canvasOf(page, 'input');
  assert.deepEqual([input.width, input.height], [32, 32]);
  // The image is pooled as its RGBA bytes: ImageData.data, channels last, no float copy.
  assert.equal(await page.textContent('#s-input'), '[1, 32, 32, 4] Uint8ClampedArray');
  assert.match(await page.textContent('#image-note'), /ImageData\.data, a Uint8ClampedArray .*'NHWC'/);
  assert.equal(await page.isVisible('#dtype'), false, 'the value type is the grid\'s: an image is uint8');
  const planes = [0, 1, 2, 3].map((ch) => channel(input.rgba, ch));
  assert.ok(planes[3].every((a) => a === 255), 'the built-in images are opaque');
  const configs = [
    { kernel: 2, stride: 2 }, { kernel: 3, stride: 1 }, { kernel: 3, stride: 2, padding: 1 },
    { kernel: 2, stride: 3, ceilMode: true }, { kernel: 4, stride: 3, padding: 2 },
  ];
  const widths = new Set();
  for (const cfg of configs) {
    const prm = { padding: 0, dilation: 1, ceilMode: false, ...cfg };
    await setPool(page, prm);
    const OH = pooledSize(32, prm);
    const pooled = await canvasOf(page, 'pooled');
    assert.deepEqual([pooled.width, pooled.height], [OH, OH], JSON.stringify(cfg));
    const indices = await canvasOf(page, 'indices');
    assert.deepEqual([indices.width, indices.height], [OH, OH]);
    const unpooled = await canvasOf(page, 'unpool');
    assert.deepEqual([unpooled.width, unpooled.height], [32, 32]);
    // The library took and gave Uint8ClampedArrays (a result has its input's class).
    assert.equal(await page.textContent('#s-pooled'), `[1, ${OH}, ${OH}, 4] Uint8ClampedArray`);
    assert.equal(await page.textContent('#s-indices'), `[1, ${OH}, ${OH}, 4] Int32Array`);
    assert.equal(await page.textContent('#s-unpool'), '[1, 32, 32, 4] Uint8ClampedArray');
    // The pooled canvas is the result's bytes, alpha included: the max of every channel's window.
    for (let ch = 0; ch < 4; ch++) {
      const ref = pool(planes[ch], 32, 32, prm);
      assert.deepEqual(channel(pooled.rgba, ch), Array.from(ref.values), `pooled ${JSON.stringify(cfg)} ch ${ch}`);
      if (ch === 3) continue;
      const back = unpool(ref.values, ref.indices, 32, 32);
      assert.deepEqual(channel(unpooled.rgba, ch), Array.from(back), `unpooled ${JSON.stringify(cfg)} ch ${ch}`);
    }
    // The unpooled alpha is 0 off its maxima: the panel draws the colours opaque.
    assert.ok(channel(unpooled.rgba, 3).every((a) => a === 255), 'the unpooled panel is opaque');
    widths.add(pooled.cssWidth);
  }
  assert.ok(widths.size > 1, 'the pooled canvas is drawn at different sizes');
});

test('a picked image and a dropped image are pooled per channel', async () => {
  await setPool(page, { kernel: 2, stride: 2 });
  await page.selectOption('#out-mode', 'input');
  // An 80x40 PNG made by the browser itself; the page scales it to fit 64x64.
  const png = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 80;
    c.height = 40;
    const ctx = c.getContext('2d');
    for (let x = 0; x < 80; x += 5) {
      ctx.fillStyle = `rgb(${x * 3} ${200 - x * 2} ${(x * 7) % 256})`;
      ctx.fillRect(x, (x * 3) % 40, 5, 12);
    }
    return c.toDataURL('image/png').split(',')[1];
  });
  await page.setInputFiles('#file', { name: 'pick.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
  await page.waitForFunction(() => document.querySelector('#input canvas')?.width === 64);
  assert.equal(await page.inputValue('#source'), 'file');
  const input = await canvasOf(page, 'input');
  const pooled = await canvasOf(page, 'pooled');
  assert.deepEqual([input.width, input.height, pooled.width, pooled.height], [64, 32, 32, 16]);
  assert.equal(await page.textContent('#s-input'), '[1, 32, 64, 4] Uint8ClampedArray');
  assert.equal(await page.textContent('#s-pooled'), '[1, 16, 32, 4] Uint8ClampedArray');
  for (let ch = 0; ch < 4; ch++) {
    const ref = pool(channel(input.rgba, ch), 32, 64, { kernel: 2, stride: 2, padding: 0, dilation: 1 });
    assert.deepEqual(channel(pooled.rgba, ch), Array.from(ref.values));
  }

  await page.evaluate(async () => {
    const c = document.createElement('canvas');
    c.width = 20;
    c.height = 30;
    c.getContext('2d').fillRect(3, 3, 5, 5);
    const blob = await new Promise((resolve) => c.toBlob(resolve, 'image/png'));
    const dt = new DataTransfer();
    dt.items.add(new File([blob], 'drop.png', { type: 'image/png' }));
    document.getElementById('p-input').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => document.querySelector('#input canvas')?.width === 20);
  assert.deepEqual([(await canvasOf(page, 'input')).height, (await canvasOf(page, 'pooled')).width], [30, 10]);
});

test('an output size outside the valid range shows the library error instead of a result', async () => {
  await sequenceGrid(page, 4, 4);
  await setPool(page, { kernel: 2, stride: 2 });
  await page.selectOption('#out-mode', 'custom');
  await page.fill('#out-w', '4');
  assert.match(await page.textContent('#out-range'), /rows 3\.\.5, cols 3\.\.5/);
  await page.fill('#out-h', '5');
  assert.equal(await page.isVisible('#error'), false);
  assert.equal((await cellTexts(page, 'unpool')).length, 20);
  await page.fill('#out-h', '6');
  assert.equal(await page.isVisible('#error'), true);
  const message = await page.textContent('#error');
  assert.match(message, /maxUnpool2d: outputSize\[0\]=6 is outside 3\.\.5 for input 2, kernel 2, stride 2, padding 0/);
  assert.equal(await page.$('#unpool .cell'), null);
  assert.match(await page.textContent('#unpool'), /maxUnpool2d failed/);
  // 3 is in range, but index 13 does not fit a 3x4 plane: the library says so.
  await page.fill('#out-h', '3');
  assert.match(await page.textContent('#error'), /maxUnpool2d: .*13/);
  await page.fill('#out-h', '4');
  assert.equal(await page.isVisible('#error'), false);
  assert.equal((await cellTexts(page, 'unpool')).length, 16);
  await page.selectOption('#out-mode', 'input');
});

test('hovering or focusing a pooled cell highlights its window, its maximum and where it lands', async () => {
  await page.selectOption('#out-mode', 'input');
  await sequenceGrid(page, 4, 4);
  await setPool(page, { kernel: 2, stride: 2 });
  await page.hover('#pooled .cell[data-r="0"][data-c="1"]');
  assert.deepEqual(sorted(await marked(page, 'input', 'in-window')), [[0, 2], [0, 3], [1, 2], [1, 3]]);
  assert.deepEqual(await marked(page, 'input', 'is-max'), [[1, 3]]);
  assert.deepEqual(await marked(page, 'unpool', 'lands'), [[1, 3]]);
  await page.hover('#indices .cell[data-r="1"][data-c="0"]');
  assert.deepEqual(sorted(await marked(page, 'input', 'in-window')), [[2, 0], [2, 1], [3, 0], [3, 1]]);
  assert.deepEqual(await marked(page, 'unpool', 'lands'), [[3, 1]]);

  // Overlapping windows: 100 at (1, 1) is the maximum of four windows.
  await page.fill('#input .cell[data-r="1"][data-c="1"]', '100');
  await page.press('#input .cell[data-r="1"][data-c="1"]', 'Enter');
  await setPool(page, { kernel: 2, stride: 1 });
  await page.hover('#pooled .cell[data-r="0"][data-c="0"]');
  assert.deepEqual(await marked(page, 'input', 'is-max'), [[1, 1]]);
  assert.deepEqual(sorted(await marked(page, 'pooled', 'dup')), [[0, 0], [0, 1], [1, 0], [1, 1]]);
  assert.deepEqual(await boxOf('pooled', 'winner'), [1, 1, 2, 2]);
  assert.match(await page.textContent('#info'), /the last, \(1, 1\), wins/);

  await page.focus('#pooled');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await marked(page, 'pooled', 'sel'), [[1, 1]]);
  assert.deepEqual(sorted(await marked(page, 'input', 'in-window')), [[1, 1], [1, 2], [2, 1], [2, 2]]);

  // Image mode: the window and argmax boxes sit where the reference says.
  await page.selectOption('#source', 'checker');
  await setPool(page, { kernel: 3, stride: 2, padding: 1 });
  await hoverCanvasCell(page, 'pooled', 2, 3);
  assert.deepEqual(await boxOf('input', 'window'), [3, 5, 6, 8]);
  const red = channel((await canvasOf(page, 'input')).rgba, 0);
  const ref = pool(red, 32, 32, { kernel: 3, stride: 2, padding: 1, dilation: 1 });
  const at = ref.indices[2 * ref.OW + 3];
  const [r, c] = [Math.floor(at / 32), at % 32];
  assert.deepEqual(await boxOf('input', 'argmax'), [r, c, r + 1, c + 1]);
  assert.deepEqual(await boxOf('unpool', 'argmax'), [r, c, r + 1, c + 1]);
  assert.match(await page.textContent('#info'), /of the R channel/);
  // The other channels' indices are read from the interleaved (channels-last)
  // result: green's maximum, and alpha's, which is all 255, so the first
  // pixel of the window wins the tie.
  await page.selectOption('#channel', '1');
  await hoverCanvasCell(page, 'pooled', 2, 3);
  const green = pool(channel((await canvasOf(page, 'input')).rgba, 1), 32, 32, { kernel: 3, stride: 2, padding: 1, dilation: 1 });
  const g = green.indices[2 * green.OW + 3];
  assert.deepEqual(await boxOf('input', 'argmax'), [Math.floor(g / 32), g % 32, Math.floor(g / 32) + 1, (g % 32) + 1]);
  assert.match(await page.textContent('#info'), new RegExp(`of the G channel = ${green.values[2 * green.OW + 3]}:`));
  await page.selectOption('#channel', '3');
  await hoverCanvasCell(page, 'pooled', 2, 3);
  assert.deepEqual(await boxOf('input', 'argmax'), [3, 5, 4, 6]);
  assert.match(await page.textContent('#info'), /of the A channel = 255: .*found at \(3, 5\)/);
  await page.selectOption('#channel', '0');
});

test('the value type rounds the input, pools and unpools in it; rounding can make a tie the first maximum wins', async () => {
  await sequenceGrid(page, 4, 4);
  await setPool(page, { kernel: 2, stride: 2 });
  await page.selectOption('#out-mode', 'default');
  // Window 0 holds cells 0, 1, 4, 5: 1233 and 1234.567 are 1233 and 1235 in
  // float16 but both 1232 in bfloat16 (8 apart near 1200).
  const typed = [[0, 0, '1233'], [0, 1, '1234.567'], [3, 3, '0.1']];
  for (const [r, c, v] of typed) {
    await page.fill(`#input .cell[data-r="${r}"][data-c="${c}"]`, v);
    await page.press(`#input .cell[data-r="${r}"][data-c="${c}"]`, 'Enter');
  }
  const plane = Array.from({ length: 16 }, (_, i) => i + 1);
  for (const [r, c, v] of typed) plane[r * 4 + c] = Math.fround(Number(v));
  const text = (v) => (Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/\.?0+$/, ''));
  const seen = {};
  for (const dtype of ['float32', 'float16', 'bfloat16']) {
    await page.selectOption('#dtype', dtype);
    const values = dtype === 'float32' ? plane : plane.map((v) => roundTo(dtype, v));
    const ref = pool(values, 4, 4, { kernel: 2, stride: 2, padding: 0, dilation: 1 });
    assert.deepEqual(await cellTexts(page, 'input'), values.map(text), dtype);
    assert.deepEqual(await cellTexts(page, 'pooled'), Array.from(ref.values, text), dtype);
    assert.deepEqual(await cellTexts(page, 'indices'), Array.from(ref.indices, String), dtype);
    assert.deepEqual(await cellTexts(page, 'unpool'), Array.from(unpool(ref.values, ref.indices, 4, 4), text), dtype);
    seen[dtype] = await cellTexts(page, 'indices');
  }
  assert.equal(seen.float32[0], '1');
  assert.equal(seen.float16[0], '1');
  assert.equal(seen.bfloat16[0], '0', 'the tie goes to the first maximum');
  // Fractional pooling takes float32 and float64 only: the page shows the library's error.
  await page.selectOption('#mode', 'fractional');
  await page.selectOption('#dtype', 'float16');
  assert.match(await page.textContent('#error'), /fractionalMaxPool2d: .*float16/);
  await page.selectOption('#dtype', 'float32');
  await page.selectOption('#mode', 'max');
  assert.equal(await page.isHidden('#error'), true);
});

modeTests(() => page);

// Screenshots go to test-results/; UPDATE_SCREENSHOT=1 also refreshes the
// docs/demo.md's web/screenshot-pool.png (its timings change on every run).
test('screenshots for people (test-results/, and web/screenshot-pool.png on request)', async () => {
  await sequenceGrid(page, 4, 4);
  await setPool(page, { kernel: 2, stride: 2 });
  await page.selectOption('#out-mode', 'input');
  await page.evaluate(() => document.activeElement?.blur());
  await page.hover('#pooled .cell[data-r="0"][data-c="1"]');
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/demo.png' });
  if (process.env.UPDATE_SCREENSHOT === '1') await page.screenshot({ path: 'web/screenshot-pool.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);  // the page redraws after a resize
  await page.screenshot({ path: 'test-results/demo-narrow.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('no console errors after all of the above', () => {
  assert.deepEqual(demo.errors, []);
});
