// End-to-end tests of the demo's adaptive and fractional pooling modes,
// registered by demo.test.mjs on its page (the page keeps its state between
// tests, so these run in its order and leave the page in max mode).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { cellTexts, marked, sequenceGrid, canvasOf, channel, hoverCanvasCell } from './browser.mjs';
import { adaptivePool, adaptiveWindow, fractionalPool, fractionalStarts, unpool } from './reference.mjs';

const sorted = (cells) => [...cells].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
const texts = (values) => Array.from(values, String);

/** Registers the mode tests; `getPage()` gives the open demo page. */
export function modeTests(getPage) {
  let page;
  const boxOf = (panel, cls) => page.$eval(`#${panel} .box.${cls}`,
    (b) => [+b.dataset.r0, +b.dataset.c0, +b.dataset.r1, +b.dataset.c1]);
  const inputPlane = async () => (await cellTexts(page, 'input')).map(Number);
  /** Checks pooled values, indices and the unpooled grid against a reference result. */
  async function matches(ref, H, W, what) {
    assert.deepEqual(await cellTexts(page, 'pooled'), texts(ref.values), `${what}: values`);
    assert.deepEqual(await cellTexts(page, 'indices'), texts(ref.indices), `${what}: indices`);
    assert.deepEqual(await cellTexts(page, 'unpool'), texts(unpool(ref.values, ref.indices, H, W)), `${what}: unpooled`);
  }

  test('adaptive mode: overlapping windows on hover, duplicate indices, the last write wins', async () => {
    page = getPage();
    await sequenceGrid(page, 5, 5);
    await page.selectOption('#mode', 'adaptive');
    assert.equal(await page.isVisible('#kernel'), false, 'the maxPool2d controls are hidden');
    await page.fill('#a-out-h', '3');
    await page.fill('#a-out-w', '3');
    assert.match(await page.textContent('#t-pool'), /^adaptiveMaxPool2d: \d+(\.\d+)? (ms|µs)$/);
    assert.equal(await page.textContent('#s-pooled'), '[1, 1, 3, 3] Float32Array');
    await matches(adaptivePool(await inputPlane(), 5, 5, 3, 3), 5, 5, 'adaptive 5x5 -> 3x3');

    // Windows [0, 2), [1, 4), [3, 5): rows 1 and 3 belong to two windows each.
    for (const [r, c] of [[0, 0], [1, 1], [2, 1]]) {
      await page.hover(`#pooled .cell[data-r="${r}"][data-c="${c}"]`);
      const rows = adaptiveWindow(r, 5, 3);
      const cols = adaptiveWindow(c, 5, 3);
      assert.deepEqual(await boxOf('input', 'window'), [rows[0], cols[0], rows.at(-1) + 1, cols.at(-1) + 1]);
      assert.deepEqual(sorted(await marked(page, 'input', 'in-window')), rows.flatMap((h) => cols.map((w) => [h, w])));
    }
    assert.equal(await page.isVisible('#dup-note'), false);

    // 100 at (3, 3) lies in the windows of pooled (1..2, 1..2): index 18 four times.
    await page.fill('#input .cell[data-r="3"][data-c="3"]', '100');
    await page.press('#input .cell[data-r="3"][data-c="3"]', 'Enter');
    const ref = adaptivePool(await inputPlane(), 5, 5, 3, 3);
    await matches(ref, 5, 5, 'adaptive with a shared maximum');
    assert.deepEqual((await cellTexts(page, 'indices')).filter((t) => t === '18').length, 4);
    await page.hover('#pooled .cell[data-r="1"][data-c="1"]');
    assert.deepEqual(sorted(await marked(page, 'pooled', 'dup')), [[1, 1], [1, 2], [2, 1], [2, 2]]);
    assert.deepEqual(await boxOf('pooled', 'winner'), [2, 2, 3, 3]);
    assert.deepEqual(await marked(page, 'unpool', 'lands'), [[3, 3]]);
    assert.match(await page.textContent('#info'), /adaptive window, rows 1\.\.3, cols 1\.\.3/);
    assert.match(await page.textContent('#info'), /the last, \(2, 2\), wins/);
    assert.deepEqual(await marked(page, 'unpool', 'multi'), [[3, 3]]);
    assert.match(await page.getAttribute('#unpool .cell.multi', 'title'),
      /written 4 times; the last write, from pooled \(2, 2\), wins/);
    assert.equal(await page.isVisible('#dup-note'), true);
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/demo-adaptive.png' });

    // More outputs than inputs: windows repeat, and so do indices.
    await page.fill('#a-out-h', '7');
    const more = adaptivePool(await inputPlane(), 5, 5, 7, 3);
    await matches(more, 5, 5, 'adaptive 5x5 -> 7x3');
    assert.ok(new Set(more.indices).size < more.indices.length);

    // An image pools adaptively as its RGBA bytes too (uint8, channels last).
    await page.selectOption('#source', 'rings');
    await page.fill('#a-out-h', '7');
    await page.fill('#a-out-w', '10');
    assert.equal(await page.textContent('#s-input'), '[1, 32, 32, 4] Uint8ClampedArray');
    assert.equal(await page.textContent('#s-pooled'), '[1, 7, 10, 4] Uint8ClampedArray');
    const input = await canvasOf(page, 'input');
    const pooled = await canvasOf(page, 'pooled');
    assert.deepEqual([pooled.width, pooled.height], [10, 7]);
    for (let ch = 0; ch < 4; ch++) {
      const ref = adaptivePool(channel(input.rgba, ch), 32, 32, 7, 10);
      assert.deepEqual(channel(pooled.rgba, ch), Array.from(ref.values), `adaptive image, channel ${ch}`);
    }
    await page.fill('#a-out-h', '3');
    await page.fill('#a-out-w', '3');
  });

  test('fractional mode: the page uses its samples, and "New samples" moves the windows', async () => {
    await sequenceGrid(page, 7, 7);
    await page.click('#fill-rand');
    await page.selectOption('#mode', 'fractional');
    await page.fill('#f-kernel', '2');
    await page.fill('#f-out-h', '4');
    await page.fill('#f-out-w', '4');
    assert.match(await page.textContent('#t-pool'), /^fractionalMaxPool2d: \d+(\.\d+)? (ms|µs)$/);
    const plane = await inputPlane();
    const seen = [];
    for (let click = 0; click < 6; click++) {
      const samples = JSON.parse(await page.getAttribute('body', 'data-samples'));
      assert.equal(samples.length, 2);
      assert.ok(samples.every((u) => u >= 0 && u < 1), `samples in [0, 1): ${samples}`);
      assert.match(await page.textContent('#samples'), /samples \d\.\d{3}, \d\.\d{3}/);
      await matches(fractionalPool(plane, 7, 7, 2, 4, 4, samples), 7, 7, `fractional, samples ${samples}`);
      const hs = fractionalStarts(samples[1], 7, 4, 2);
      const ws = fractionalStarts(samples[0], 7, 4, 2);
      await page.hover('#pooled .cell[data-r="1"][data-c="2"]');
      assert.deepEqual(await boxOf('input', 'window'), [hs[1], ws[2], hs[1] + 2, ws[2] + 2]);
      seen.push(JSON.stringify([hs, ws]));
      await page.click('#new-samples');
      assert.notDeepEqual(JSON.parse(await page.getAttribute('body', 'data-samples')), samples);
    }
    assert.ok(new Set(seen).size > 1, `new samples move the windows: ${seen.join(' ')}`);
    assert.equal(await page.isVisible('#error'), false);

    // A kernel too large for the output shows the library's error, then recovers.
    await page.fill('#f-kernel', '5');
    assert.equal(await page.isVisible('#error'), true);
    assert.match(await page.textContent('#error'), /fractionalMaxPool2d/);
    assert.match(await page.textContent('#pooled'), /fractionalMaxPool2d failed/);
    await page.fill('#f-kernel', '2');
    assert.equal(await page.isVisible('#error'), false);

    // An RGB image: one pair of samples per channel, each placing its plane's windows.
    await page.selectOption('#source', 'shapes');
    await page.fill('#f-kernel', '3');
    await page.fill('#f-out-h', '12');
    await page.fill('#f-out-w', '10');
    const rgb = JSON.parse(await page.getAttribute('body', 'data-samples'));
    assert.equal(rgb.length, 8);
    // Fractional pooling takes floats, channels first, only: the one mode
    // that copies the bytes (to float32 planes), and the page says so.
    assert.equal(await page.textContent('#s-input'), '[1, 4, 32, 32] Float32Array');
    assert.match(await page.textContent('#image-note'), /copied to float32 planes/);
    const input = await canvasOf(page, 'input');
    const pooled = await canvasOf(page, 'pooled');
    assert.deepEqual([pooled.width, pooled.height], [10, 12]);
    for (let ch = 0; ch < 4; ch++) {
      const ref = fractionalPool(channel(input.rgba, ch), 32, 32, 3, 12, 10, rgb.slice(2 * ch, 2 * ch + 2));
      assert.deepEqual(channel(pooled.rgba, ch), Array.from(ref.values), `fractional image, channel ${ch}`);
    }
    await page.selectOption('#channel', '1');
    await hoverCanvasCell(page, 'pooled', 5, 7);
    const [h0, w0] = [fractionalStarts(rgb[3], 32, 12, 3)[5], fractionalStarts(rgb[2], 32, 10, 3)[7]];
    assert.deepEqual(await boxOf('input', 'window'), [h0, w0, h0 + 3, w0 + 3]);
    await page.screenshot({ path: 'test-results/demo-fractional.png' });
    await page.selectOption('#channel', '0');

    await page.selectOption('#mode', 'max');
    assert.match(await page.textContent('#t-pool'), /^maxPool2d: /);
    assert.equal(await page.isVisible('#new-samples'), false);
  });
}
