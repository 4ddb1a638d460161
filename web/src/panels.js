// Renders one result into the four panels: numbers in grid mode, pixels in
// image mode. A result is {src, prm, pooled: {OH, OW, C, layout, data,
// indices}, out, channel}; an image's results are RGBA bytes, channels last.
import { offsetInWindow, offsetRgb, css, windowOf, windowSpan, pooledPlane } from './geometry.js';
import { POOL_FN } from './modes.js';
import { drawImage, drawPixels, drawGrid, greyCell, formatValue, drawEmpty } from './view.js';

const GREY = [150, 150, 150];

/** Display box side in CSS pixels: the width of a panel, at most 272. */
function boxSide(stages) {
  const panel = stages.input.parentElement;
  return Math.max(120, Math.min(272, panel.clientWidth - 26));
}

function range(data) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of data) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  return lo <= hi ? { lo, hi } : { lo: 0, hi: 1 };
}

/** Colour of pooled cell i's index: the place of the maximum in its window. */
function indexRgb(res, i) {
  const { pooled, src } = res;
  const { base, step } = pooledPlane(pooled, res.channel);
  const index = Number(pooled.indices[base + i * step]);
  const off = offsetInWindow(index, windowOf(Math.floor(i / pooled.OW), i % pooled.OW, res), src.W);
  return off ? offsetRgb(off.a, off.b, res.span) : GREY;
}

function renderGridMode(stages, res, onEdit, keepInput) {
  const { src, pooled, out } = res;
  const maxDim = Math.max(src.H, src.W, out?.H ?? 0, out?.W ?? 0);
  // Each cell takes cellPx plus a 1px gap; the grid has a 1px border.
  const cellPx = Math.max(18, Math.min(52, Math.floor((boxSide(stages) - 1) / maxDim) - 1));
  const { lo, hi } = range(src.data);
  const valueCell = (v) => ({ text: formatValue(v), ...greyCell(v, lo, hi) });
  if (!keepInput) drawGrid(stages.input, src.H, src.W, cellPx, (i) => valueCell(src.data[i]), onEdit);
  if (!pooled) return;
  drawGrid(stages.pooled, pooled.OH, pooled.OW, cellPx, (i) => valueCell(pooled.data[i]));
  drawGrid(stages.indices, pooled.OH, pooled.OW, cellPx, (i) => ({
    text: String(pooled.indices[i]), bg: css(indexRgb(res, i)), fg: '#fff', cls: 'index',
  }));
  if (!out) return;
  drawGrid(stages.unpool, out.H, out.W, cellPx, (i) => {
    const v = out.data[i];
    const cell = v === 0 ? { text: '0', cls: 'zero' } : valueCell(v);
    const writes = res.writes?.get(i) ?? [];
    if (writes.length < 2) return cell;
    const last = writes[writes.length - 1];
    return { ...cell, cls: `${cell.cls ?? ''} multi`,
      title: `written ${writes.length} times; the last write, from pooled (${last.r}, ${last.c}), wins` };
  });
}

/**
 * The RGBA bytes of an image result: the library's Uint8ClampedArray as it
 * is (the image was pooled as its bytes, channels last), or, after a
 * fractional pool (float32, channels first), its planes interleaved.
 */
function rgbaOf(t, H, W) {
  if (t.layout === 'NHWC' && t.data instanceof Uint8ClampedArray) return t.data;
  const n = H * W;
  const rgba = new Uint8ClampedArray(4 * n);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 4; c++) rgba[i * 4 + c] = t.data[c * n + i];
  }
  return rgba;
}

/**
 * The unpooled bytes made opaque, for drawing: the unpool writes 0 to every
 * channel where the window's maximum was not, alpha included, and a canvas
 * keeps no colour under alpha 0, so drawn as they are only the pixels where
 * alpha's own maximum landed would show. A copy: the result itself stays as
 * the library gave it (the two backends' results are compared afterwards).
 */
function opaque(rgba) {
  const shown = rgba.slice();
  for (let i = 3; i < shown.length; i += 4) shown[i] = 255;
  return shown;
}

function renderImageMode(stages, res) {
  const { src, pooled, out } = res;
  const maxDim = Math.max(src.H, src.W, out?.H ?? 0, out?.W ?? 0);
  const scale = Math.max(1, Math.min(24, Math.floor(boxSide(stages) / maxDim)));
  drawImage(stages.input, src.H, src.W, scale, src.rgba);
  if (!pooled) return;
  drawImage(stages.pooled, pooled.OH, pooled.OW, scale, rgbaOf(pooled, pooled.OH, pooled.OW));
  drawPixels(stages.indices, pooled.OH, pooled.OW, scale, (i) => indexRgb(res, i));
  if (!out) return;
  drawImage(stages.unpool, out.H, out.W, scale, opaque(rgbaOf(out, out.H, out.W)));
}

/**
 * Draws everything `res` has; panels it lacks (after an error) say why.
 * `keepInput`: leave the input grid as it is (a cell is being edited).
 */
export function renderPanels(stages, res, onEdit, keepInput = false) {
  res.span = res.pooled ? windowSpan(res) : 0;
  if (res.src.kind === 'grid') renderGridMode(stages, res, onEdit, keepInput);
  else renderImageMode(stages, res);
  if (!res.pooled) {
    for (const k of ['pooled', 'indices']) drawEmpty(stages[k], `${POOL_FN[res.prm.mode]} failed (see the message above)`);
  }
  if (!res.out) drawEmpty(stages.unpool, res.pooled ? 'maxUnpool2d failed (see the message above)' : '—');
}

/** The k x k legend of index colours. */
export function renderLegend(el, k) {
  el.replaceChildren();
  el.style.gridTemplateColumns = `repeat(${k}, 12px)`;
  for (let a = 0; a < k; a++) {
    for (let b = 0; b < k; b++) {
      const sw = document.createElement('span');
      sw.style.background = css(offsetRgb(a, b, k));
      sw.title = `row ${a}, col ${b} of the window`;
      el.append(sw);
    }
  }
}
