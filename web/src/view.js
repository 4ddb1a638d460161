// Drawing of the four panels: pixels on a canvas (one canvas pixel per
// tensor element, scaled up by CSS) or a grid of numbered cells, plus an
// overlay layer for highlight boxes placed in tensor coordinates.

/** Empties a stage and gives it a content element and an overlay. */
function reset(stage, content) {
  stage.replaceChildren(content);
  const overlay = document.createElement('div');
  overlay.className = 'overlay';
  stage.append(overlay);
  stage.dataset.rows = content.dataset.rows;
  stage.dataset.cols = content.dataset.cols;
}

const byte = (v) => (v > 0 ? (v < 255 ? Math.round(v) : 255) : 0);  // -inf, NaN -> 0

/**
 * Draws the H x W RGBA bytes `rgba` (a Uint8ClampedArray, as ImageData holds
 * them; not copied) at `scale` CSS pixels per element.
 */
export function drawImage(stage, H, W, scale, rgba) {
  const canvas = document.createElement('canvas');
  canvas.width = W;
  canvas.height = H;
  canvas.style.width = `${W * scale}px`;
  canvas.dataset.rows = H;
  canvas.dataset.cols = W;
  canvas.getContext('2d').putImageData(new ImageData(rgba, W, H), 0, 0);
  reset(stage, canvas);
  return canvas;
}

/** Draws H x W opaque pixels, `pixel(i)` giving [r, g, b] of flat position i. */
export function drawPixels(stage, H, W, scale, pixel) {
  const rgba = new Uint8ClampedArray(H * W * 4);
  for (let i = 0; i < H * W; i++) {
    const [r, g, b] = pixel(i);
    rgba.set([byte(r), byte(g), byte(b), 255], i * 4);
  }
  return drawImage(stage, H, W, scale, rgba);
}

/** Text of a number in a cell: integers as they are, others rounded. */
export function formatValue(v) {
  if (v === -Infinity) return '−∞';
  if (Number.isNaN(v)) return 'NaN';
  return Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/\.?0+$/, '');
}

/**
 * Draws an H x W grid of cells; `cell(i)` gives {text, bg, cls, title}.
 * With `editable`, cells are text inputs and `onEdit(i, text)` is called.
 */
export function drawGrid(stage, H, W, cellPx, cell, onEdit) {
  const grid = document.createElement('div');
  grid.className = 'grid';
  grid.style.gridTemplateColumns = `repeat(${W}, ${cellPx}px)`;
  grid.style.setProperty('--cell', `${cellPx}px`);
  grid.dataset.rows = H;
  grid.dataset.cols = W;
  for (let i = 0; i < H * W; i++) {
    const spec = cell(i);
    const el = document.createElement(onEdit ? 'input' : 'div');
    el.className = `cell ${spec.cls ?? ''}`;
    el.dataset.r = Math.floor(i / W);
    el.dataset.c = i % W;
    if (spec.bg) el.style.background = spec.bg;
    if (spec.fg) el.style.color = spec.fg;
    if (spec.title) el.title = spec.title;
    if (onEdit) {
      el.value = spec.text;
      el.inputMode = 'decimal';
      el.setAttribute('aria-label', `input row ${el.dataset.r} column ${el.dataset.c}`);
      el.addEventListener('change', () => onEdit(i, el.value));
    } else {
      el.textContent = spec.text;
    }
    grid.append(el);
  }
  reset(stage, grid);
  return grid;
}

/** Grey level and text colour for value v among values lo..hi. */
export function greyCell(v, lo, hi) {
  const t = hi > lo && Number.isFinite(v) ? (v - lo) / (hi - lo) : 0;
  const l = Math.round(96 - t * 60);
  return { bg: `hsl(220 20% ${l}%)`, fg: l < 60 ? '#fff' : '#1b1f2a' };
}

/** Shows a message instead of a panel's content. */
export function drawEmpty(stage, text) {
  const p = document.createElement('p');
  p.className = 'empty';
  p.textContent = text;
  p.dataset.rows = 0;
  p.dataset.cols = 0;
  reset(stage, p);
}

/** Adds a box over rows r0..r1-1 and cols c0..c1-1 (may extend into padding). */
export function addBox(stage, r0, c0, r1, c1, cls, label) {
  const H = Number(stage.dataset.rows);
  const W = Number(stage.dataset.cols);
  const overlay = stage.querySelector('.overlay');
  if (!overlay || !H || !W) return null;
  const box = document.createElement('div');
  box.className = `box ${cls}`;
  Object.assign(box.style, {
    left: `${(100 * c0) / W}%`, top: `${(100 * r0) / H}%`,
    width: `${(100 * (c1 - c0)) / W}%`, height: `${(100 * (r1 - r0)) / H}%`,
  });
  Object.assign(box.dataset, { r0, c0, r1, c1 });
  if (label) box.textContent = label;
  overlay.append(box);
  return box;
}

/** Removes all boxes and highlight classes of a stage. */
export function clearMarks(stage) {
  stage.querySelector('.overlay')?.replaceChildren();
  for (const el of stage.querySelectorAll('.in-window, .is-max, .lands, .sel, .dup')) {
    el.classList.remove('in-window', 'is-max', 'lands', 'sel', 'dup');
  }
}

/** The grid cell element at (r, c) of a stage, if the stage is a grid. */
export function cellAt(stage, r, c) {
  return stage.querySelector(`.cell[data-r="${r}"][data-c="${c}"]`);
}

/** The (row, col) of the stage's content under a pointer event, or null. */
export function cellFromPointer(stage, event) {
  const cell = event.target.closest?.('.cell');
  if (cell && stage.contains(cell)) return { r: Number(cell.dataset.r), c: Number(cell.dataset.c) };
  const content = stage.firstElementChild;
  const H = Number(stage.dataset.rows);
  const W = Number(stage.dataset.cols);
  if (!content || !H || !W) return null;
  const rect = content.getBoundingClientRect();
  const r = Math.floor(((event.clientY - rect.top) / rect.height) * H);
  const c = Math.floor(((event.clientX - rect.left) / rect.width) * W);
  return r >= 0 && r < H && c >= 0 && c < W ? { r, c } : null;
}

/** Calls `load(file)` with a file dropped on `panel`, which has class 'drag' while one is over it. */
export function onFileDrop(panel, load) {
  panel.addEventListener('dragover', (e) => { e.preventDefault(); panel.classList.add('drag'); });
  panel.addEventListener('dragleave', () => panel.classList.remove('drag'));
  panel.addEventListener('drop', (e) => {
    e.preventDefault();
    panel.classList.remove('drag');
    load(e.dataTransfer?.files?.[0]);
  });
}
