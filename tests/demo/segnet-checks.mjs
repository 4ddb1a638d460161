// The model page's checks that every engine runs (Chromium, Firefox ESR,
// WebKitGTK), on the page interface of tests/engines/engines.mjs (goto,
// evaluate with one JSON argument, waitFor, screenshot, errors): controls
// are set and events fired in the page, as a user's input fires them.
import assert from 'node:assert/strict';
import { labelsOf, labelDiff, hoverCells, SIZE } from './segnet-ref.mjs';

/** Waits for the first run (data-ready) and for no run or read under way (data-busy). */
export const settled = (page, timeout = 300000) =>
  page.waitFor(() => document.body.dataset.ready === 'true' && !('busy' in document.body.dataset), timeout);

/** Sets controls ({ id: value }) and fires input and change on each, then waits. */
export async function set(page, values) {
  await page.evaluate((v) => {
    for (const [id, value] of Object.entries(v)) {
      const el = document.getElementById(id);
      el.value = String(value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    }
  }, values);
  await settled(page);
}

export async function click(page, id) {
  await page.evaluate((i) => document.getElementById(i).click(), id);
  await settled(page);
}

export const text = (page, id) => page.evaluate((i) => document.getElementById(i).textContent, id);
const hidden = (page, id) => page.evaluate((i) => document.getElementById(i).hidden, id);

/** The labels the page draws: decoded from the labels canvas's bytes. */
export async function shownLabels(page) {
  const rgba = await page.evaluate(() => {
    const c = document.querySelector('#labels canvas.labels');
    return c ? Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data) : null;
  });
  assert.ok(rgba, 'a labels canvas');
  assert.equal(rgba.length, SIZE * SIZE * 4);
  return labelsOf(rgba);
}

/** The highlight boxes of every map: { panel: { cls: [r0, c0, r1, c1] } }. */
export const boxes = (page) => page.evaluate(() => {
  const out = {};
  for (const id of ['encoder', 'pooled', 'switches', 'decoder', 'unpooled']) {
    out[id] = {};
    for (const b of document.querySelectorAll(`#${id} .box`)) {
      out[id][b.className.replace('box ', '')] = ['r0', 'c0', 'r1', 'c1'].map((k) => Number(b.dataset[k]));
    }
  }
  return out;
});

/** Moves a (synthetic) pointer over the centre of cell (r, c) of a map. */
export const hover = (page, panel, r, c) => page.evaluate(([id, row, col]) => {
  const stage = document.getElementById(id);
  const rect = stage.firstElementChild.getBoundingClientRect();
  const [H, W] = [Number(stage.dataset.rows), Number(stage.dataset.cols)];
  stage.dispatchEvent(new PointerEvent('pointermove', {
    bubbles: true, clientX: rect.left + ((col + 0.5) * rect.width) / W, clientY: rect.top + ((row + 0.5) * rect.height) / H,
  }));
}, [panel, r, c]);

/** Each example's labels on the current backend equal PyTorch's. */
export async function checkExamples(page, ref, what) {
  for (const [i, e] of ref.examples.entries()) {
    await set(page, { source: `example:${i}` });
    assert.equal(await hidden(page, 'error'), true, `${what}, ${e.name}: no error (${await text(page, 'error')})`);
    const diff = labelDiff(await shownLabels(page), e.labels);
    assert.equal(diff, '', `${what}, ${e.name}: the page's labels are PyTorch's`);
    assert.match(await text(page, 'accuracy'), new RegExp(`^${(100 * e.accuracy).toFixed(1)} % of the 2304 pixels as drawn`));
  }
}

/**
 * Hovering an unpooled cell a switch points at, and an unpooled 0, on stage
 * `stage` (1..3): the window, its maximum and the pooled cell the page marks
 * are where the Node run of the model says.
 */
export async function checkHover(page, node, stage, channel) {
  await set(page, { stage: stage - 1 });
  await set(page, { channel });
  const maps = node.stages[stage - 1];
  const cells = hoverCells(maps, channel);
  assert.ok(cells.written && cells.zero, `stage ${stage} channel ${channel} has windows with a clear maximum`);
  for (const [kind, want] of Object.entries(cells)) {
    await hover(page, 'unpooled', ...want.cell);
    const b = await boxes(page);
    const what = `stage ${stage}, channel ${channel}, ${kind} cell (${want.cell})`;
    assert.deepEqual(b.encoder.window, want.window, `${what}: the window in the encoder map`);
    assert.deepEqual(b.encoder.argmax, want.argmax, `${what}: the window's maximum`);
    assert.deepEqual(b.pooled.selected, [...want.pooled, want.pooled[0] + 1, want.pooled[1] + 1], `${what}: the pooled cell`);
    assert.deepEqual(b.switches.selected, b.pooled.selected, `${what}: its switch`);
    assert.deepEqual(b.unpooled.selected, [...want.cell, want.cell[0] + 1, want.cell[1] + 1], `${what}: the hovered cell`);
    const info = await text(page, 'info');
    const [ar, ac] = want.argmax;
    assert.match(info, new RegExp(`^Unpooled \\(${want.cell[0]}, ${want.cell[1]}\\) of stage ${stage}, channel ${channel}`), what);
    assert.ok(info.includes(`at (${ar}, ${ac}) (switch ${want.index} = `), `${what}: ${info}`);
    if (kind === 'zero') {
      assert.match(info, /no switch points here/, what);
      assert.deepEqual(b.unpooled.argmax, want.argmax, `${what}: where its window's value went`);
    }
  }
}

/** Arrow keys on the focused unpooled map move the selection and its explanation. */
export async function checkKeyboard(page) {
  await page.evaluate(() => document.getElementById('unpooled').focus());
  const key = (k) => page.evaluate((name) => document.getElementById('unpooled')
    .dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true })), k);
  // Focus keeps a cell selected by the pointer; up and left enough go to (0, 0).
  for (let i = 0; i < 48; i++) { await key('ArrowUp'); await key('ArrowLeft'); }
  assert.deepEqual((await boxes(page)).unpooled.selected, [0, 0, 1, 1]);
  for (const k of ['ArrowRight', 'ArrowRight', 'ArrowDown']) await key(k);
  assert.deepEqual((await boxes(page)).unpooled.selected, [1, 2, 2, 3]);
  assert.match(await text(page, 'info'), /^Unpooled \(1, 2\) of stage/);
}

/** Files of every kind of bad input, made in the page and dropped on the input panel: the page's message. */
export async function checkBadFiles(page, ref) {
  const before = await shownLabels(page);
  const cases = [
    ['notes.txt', 'text', /"notes\.txt" is not an image \(type text\/plain\)/],
    ['huge.png', 'huge', /"huge\.png" is a PNG of 30000 × 20000 pixels; the page takes images up to/],
    ['broken.png', 'broken', /"broken\.png" could not be decoded as an image/],
    ['big.png', 'big', /"big\.png" is 26\.0 MB; the page takes image files up to 25\.0 MB/],
  ];
  for (const [name, kind, message] of cases) {
    await page.evaluate(([n, k]) => {
      const png = (w, h) => {
        const b = new Uint8Array(64);
        b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
        new DataView(b.buffer).setUint32(16, w);
        new DataView(b.buffer).setUint32(20, h);
        return b;
      };
      const body = { text: ['just some notes'], huge: [png(30000, 20000)], broken: [png(10, 10), 'garbage'],
        big: [new Uint8Array(26 * 1024 * 1024)] }[k];
      const file = new File(body, n, { type: k === 'text' ? 'text/plain' : 'image/png' });
      const dt = new DataTransfer();
      dt.items.add(file);
      document.getElementById('p-input').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, [name, kind]);
    await page.waitFor(() => !document.getElementById('error').hidden, 30000);
    assert.match(await text(page, 'error'), message, name);
    assert.equal(labelDiff(await shownLabels(page), before), '', `${name}: the labels shown before stay`);
  }
  await set(page, { source: 'example:0' });
  assert.equal(await hidden(page, 'error'), true, 'an example after the bad files: no error');
  assert.equal(labelDiff(await shownLabels(page), ref.examples[0].labels), '', 'and PyTorch\'s labels');
}

/** A disc dragged on a blank image: drawn, labelled, and undone. */
export async function checkDrawing(page) {
  await set(page, { source: 'blank', tool: 'disc', colour: '#e04040' });
  await page.evaluate(() => {
    const stage = document.getElementById('input');
    const r = stage.firstElementChild.getBoundingClientRect();
    const at = (x, y) => ({ bubbles: true, clientX: r.left + (x / 48) * r.width, clientY: r.top + (y / 48) * r.height, pointerId: 1 });
    stage.dispatchEvent(new PointerEvent('pointerdown', at(24, 24)));
    stage.dispatchEvent(new PointerEvent('pointerup', at(32, 24)));
  });
  await settled(page);
  const pixel = (x, y) => page.evaluate(([px, py]) => Array.from(document.querySelector('#input canvas')
    .getContext('2d').getImageData(px, py, 1, 1).data), [x, y]);
  assert.deepEqual(await pixel(24, 24), [224, 64, 64, 255], 'the disc is drawn');
  assert.deepEqual(await pixel(24, 33), [28, 30, 44, 255], 'only inside its radius');
  const labels = await shownLabels(page);
  assert.equal(labels[24 * 48 + 24], 1, 'its centre is labelled a disc');
  assert.match(await text(page, 'accuracy'), /% of the 2304 pixels as drawn/);
  assert.equal(await page.evaluate(() => document.getElementById('undo').disabled), false);
  await click(page, 'add-shape');
  await click(page, 'undo');
  await click(page, 'undo');
  assert.deepEqual(await pixel(24, 24), [28, 30, 44, 255], 'undone');
}
