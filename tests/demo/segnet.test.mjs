// The model page (web/segnet.html) end to end in headless Chromium without
// WebGPU: the checks every engine runs (segnet-checks.mjs), then what needs
// Playwright's real input: the mouse, the keyboard, a picked file, a narrow
// screen, a model that cannot be fetched, and the screenshots. Run by
// scripts/test-demo.sh, which serves the page and sets DEMO_URL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { openDemo } from './browser.mjs';
import { loadReference, nodeRun, labelDiff } from './segnet-ref.mjs';
import { settled, set, text, boxes, shownLabels, checkExamples, checkHover, checkKeyboard, checkBadFiles, checkDrawing } from './segnet-checks.mjs';

const url = process.env.DEMO_URL && new URL('segnet.html', process.env.DEMO_URL).href;
const ref = loadReference();
let demo;
let page;
let view;  // page as the shared checks use it (engines.mjs's interface)

before(async () => {
  assert.ok(url, 'DEMO_URL must name the served demo (scripts/test-demo.sh sets it)');
  demo = await openDemo(url);
  page = demo.page;
  view = {
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    waitFor: (fn, timeout) => page.waitForFunction(fn, undefined, { timeout, polling: 50 }),
  };
  await settled(view);
});
after(async () => { await demo?.close(); });

test('the page loads without console errors, serves wasm as application/wasm, says why there is no WebGPU', async () => {
  assert.deepEqual(demo.errors, []);
  assert.ok(demo.wasmTypes.length >= 2, 'unpool\'s and ORT\'s .wasm');
  for (const type of demo.wasmTypes) assert.equal(type, 'application/wasm');
  assert.match(await page.textContent('#m-model'), /^Model: SegNet, \d+ KiB, \d+\.\d % pixel accuracy on held-out scenes/);
  assert.match(await page.textContent('#t-run'), /^Inference: WebAssembly \d+(\.\d+)? (ms|µs|s)/);
  assert.equal(await page.isVisible('#backend-switch'), false);
  assert.match(await page.textContent('#gpu-note'), /^WebGPU: not available: navigator\.gpu gave no adapter.*The model runs on WebAssembly\.$/);
  assert.equal(await page.locator('#stage option').count(), 3);
  assert.match(await page.textContent('#stage option:first-child'), /^1: 48×48 → 24×24, 16 channels$/);
});

test('every example\'s labels are PyTorch\'s (reference.json)', () => checkExamples(view, ref, 'WebAssembly'));

test('hover: the unpooled cell\'s window and maximum are where the model run in Node says, on every stage', async () => {
  await set(view, { source: 'example:0' });
  const node = await nodeRun(ref.examples[0].rgb);
  assert.equal(labelDiff(node.labels, ref.examples[0].labels), '', 'Node\'s unpool/onnx gives PyTorch\'s labels too');
  for (const stage of [1, 2, 3]) await checkHover(view, node, stage, ref.channels[stage - 1]);
  // The real mouse on stage 1, over a cell a switch points at.
  await set(view, { stage: 0 });
  await set(view, { channel: ref.channels[0] });
  const box = await page.locator('#unpooled canvas').boundingBox();
  const node1 = node.stages[0];
  const [, , H, W] = node1.unpooled.dims;
  const plane = node1.unpooled.data.subarray(ref.channels[0] * H * W, (ref.channels[0] + 1) * H * W);
  const at = plane.findIndex((v) => v > 0);
  const [r, c] = [Math.floor(at / W), at % W];
  await page.mouse.move(box.x + ((c + 0.5) * box.width) / W, box.y + ((r + 0.5) * box.height) / H);
  const b = await boxes(view);
  assert.deepEqual(b.unpooled.selected, [r, c, r + 1, c + 1]);
  assert.deepEqual(b.encoder.argmax, [r, c, r + 1, c + 1], 'a written cell is its window\'s maximum');
  assert.match(await page.textContent('#info'), /put here by its switch/);
});

test('by keyboard: Tab reaches the maps, arrows move, buttons draw', async () => {
  await checkKeyboard(view);
  await page.focus('#pooled');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual((await boxes(view)).pooled.selected, [1, 1, 2, 2]);
  assert.match(await page.textContent('#info'), /^Pooled \(1, 1\) of stage/);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'unpooled', 'Tab goes on to the unpooled map');
  // Draw with the keyboard only: focus "Add at random" and press Enter.
  await set(view, { source: 'blank' });
  const blank = await shownLabels(view);
  await page.focus('#add-shape');
  await page.keyboard.press('Enter');
  await settled(view);
  assert.notEqual(labelDiff(await shownLabels(view), blank), '', 'a shape was added and labelled');
  assert.match(await page.textContent('#accuracy'), /% of the 2304 pixels as drawn/);
});

test('drawing with the pointer, and undo', () => checkDrawing(view));

test('bad files: not an image, a header of 30000 x 20000, corrupt, too large; the page keeps working', () => checkBadFiles(view, ref));

test('a picked image file is centre-cropped and scaled to 48 x 48', async () => {
  const png = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 160;
    c.height = 96;
    const ctx = c.getContext('2d');
    ctx.fillStyle = '#203040';
    ctx.fillRect(0, 0, 160, 96);
    ctx.fillStyle = '#f04030';
    ctx.beginPath();
    ctx.arc(80, 48, 14, 0, 2 * Math.PI);  // radius 7 at 48 x 48, as the training's discs
    ctx.fill();
    return c.toDataURL('image/png').split(',')[1];
  });
  await page.setInputFiles('#file', { name: 'disc.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
  await page.waitForFunction(() => document.getElementById('source').value === 'file');
  await settled(view);
  assert.equal(await page.isHidden('#error'), true);
  assert.match(await page.textContent('#accuracy'), /does not know its true classes/);
  const labels = await shownLabels(view);
  assert.equal(labels[24 * 48 + 24], 1, 'the disc in the middle is a disc');
});

test('a narrow screen: nothing wider than the window', async () => {
  await set(view, { source: 'example:0' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(400);  // the page redraws after a resize
  await settled(view);
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(over <= 0, `the page is ${over} px wider than a 390 px window`);
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/segnet-narrow.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(400);
  await settled(view);
});

// UPDATE_SCREENSHOT=1 refreshes the README's web/screenshot.png (this page;
// its timings change on every run).
test('screenshots (test-results/segnet.png, and web/screenshot.png on request)', async () => {
  await page.setInputFiles('#file', []);
  await set(view, { source: 'example:0' });
  await set(view, { stage: 0 });
  await set(view, { channel: ref.channels[0] });
  // Hover the unpooled map's largest value: a switch on the disc's edge.
  const node = await nodeRun(ref.examples[0].rgb);
  const u = node.stages[0].unpooled;
  const plane = u.data.subarray(ref.channels[0] * 48 * 48, (ref.channels[0] + 1) * 48 * 48);
  const at = plane.reduce((best, v, i) => (v > plane[best] ? i : best), 0);
  // A window tall enough for the whole page, so the pointer can reach the maps unscrolled.
  await page.setViewportSize({ width: 1280, height: 1180 });
  await page.waitForTimeout(400);  // the page redraws after a resize
  await settled(view);
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  const box = await page.locator('#unpooled canvas').boundingBox();
  await page.mouse.move(box.x + ((at % 48 + 0.5) * box.width) / 48, box.y + ((Math.floor(at / 48) + 0.5) * box.height) / 48);
  assert.match(await page.textContent('#info'), new RegExp(`^Unpooled \\(${Math.floor(at / 48)}, ${at % 48}\\)`));
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/segnet.png' });
  if (process.env.UPDATE_SCREENSHOT === '1') await page.screenshot({ path: 'web/screenshot.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(400);
  await settled(view);
});

test('no console errors after all of the above', () => {
  assert.deepEqual(demo.errors, []);
});

test('a model that cannot be fetched: a clear message, and the page still draws', async () => {
  const other = await openDemo(url, undefined, async (p) => {
    // The page's fetch of the model; not Vite's module of its URL (segnet.onnx?url).
    const model = (u) => u.pathname.endsWith('/segnet.onnx') && u.search === '';
    await p.route(model, (route) => route.fulfill({ status: 404, body: 'no model here' }));
  });
  try {
    const p = other.page;
    assert.match(await p.textContent('#error'), /the model .*segnet\.onnx could not be fetched: HTTP 404/);
    assert.equal(await p.textContent('#m-model'), 'Model: not loaded');
    await p.selectOption('#source', 'blank');
    await p.click('#add-shape');
    assert.equal(await p.locator('#input canvas').count(), 1, 'the input is still drawn');
    // The only console error is the browser's own line about the 404.
    assert.deepEqual(other.errors.filter((e) => !/404/.test(e)), []);
  } finally {
    await other.close();
  }
});
