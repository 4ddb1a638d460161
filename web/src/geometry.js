// Window geometry of 2D max pooling, in plain numbers, for drawing and
// explaining. The pooling itself is done by the library, never here.

/** Rows (or cols) that pooled position `o` reads along one dim, padding included. */
export function windowLine(o, k, s, p, d) {
  const out = [];
  for (let a = 0; a < k; a++) out.push(o * s - p + a * d);
  return out;
}

/** The window of pooled cell (r, c): its sampled rows and cols. */
export function windowOf(r, c, prm) {
  return {
    rows: windowLine(r, prm.kernel, prm.stride, prm.padding, prm.dilation),
    cols: windowLine(c, prm.kernel, prm.stride, prm.padding, prm.dilation),
  };
}

/**
 * Where in its window the maximum of pooled cell (r, c) was: {a, b} with
 * 0 <= a, b < kernel, or null when the index lies off the window grid
 * (a window wholly in padding).
 */
export function offsetInWindow(index, r, c, inW, prm) {
  const h = Math.floor(index / inW);
  const w = index - h * inW;
  const a = (h - (r * prm.stride - prm.padding)) / prm.dilation;
  const b = (w - (c * prm.stride - prm.padding)) / prm.dilation;
  const ok = (v) => Number.isInteger(v) && v >= 0 && v < prm.kernel;
  return ok(a) && ok(b) ? { a, b } : null;
}

/** Default unpool size of one dim: (in - 1) * stride + kernel - 2 * padding. */
export function defaultUnpoolSize(inSize, prm) {
  return (inSize - 1) * prm.stride + prm.kernel - 2 * prm.padding;
}

/** Valid unpool sizes of one dim: default - stride + 1 .. default + stride - 1, at least 1. */
export function unpoolRange(inSize, prm) {
  const def = defaultUnpoolSize(inSize, prm);
  return { min: Math.max(1, def - prm.stride + 1), max: def + prm.stride - 1, def };
}

/** Cell (row, col) of a flat index in a plane `width` wide. */
export function cellOf(index, width) {
  const r = Math.floor(index / width);
  return { r, c: index - r * width };
}

/** Pooled cells (in output order) of one plane whose index equals `index`. */
export function cellsWithIndex(indices, plane, outH, outW, index) {
  const found = [];
  const base = plane * outH * outW;
  for (let i = 0; i < outH * outW; i++) {
    if (Number(indices[base + i]) === index) found.push(cellOf(i, outW));
  }
  return found;
}

function hslToRgb(h, s, l) {
  const k = (n) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255));
}

/** Colour [r, g, b] of window offset (a, b) in a k x k kernel: one hue per position. */
export function offsetRgb(a, b, k) {
  if (k === 1) return hslToRgb(210, 0.7, 0.5);
  const hue = ((a * k + b) * 360) / (k * k);
  return hslToRgb(hue, 0.75, 0.45 + 0.12 * (a % 2));
}

export const css = ([r, g, b]) => `rgb(${r} ${g} ${b})`;
