// Window geometry of 2D max pooling, in plain numbers, for drawing and
// explaining. The pooling itself is done by the library, never here.

/** Rows (or cols) that pooled position `o` reads along one dim, padding included. */
export function windowLine(o, k, s, p, d) {
  const out = [];
  for (let a = 0; a < k; a++) out.push(o * s - p + a * d);
  return out;
}

const span = (start, end) => Array.from({ length: end - start }, (_, i) => start + i);

/** Adaptive window of output `o` of `O` over `I` inputs: [floor(o*I/O), ceil((o+1)*I/O)). */
export function adaptiveLine(o, I, O) {
  return span(Math.floor((o * I) / O), Math.ceil(((o + 1) * I) / O));
}

/**
 * Window starts of a fractional pool along one dim, as PyTorch's
 * generate_intervals computes them in float32 from the sample `u`.
 */
export function fractionalStarts(u, I, O, k) {
  const f = Math.fround;
  const starts = new Array(O);
  if (O > 1) {
    const alpha = f(f(I - k) / f(O - 1));
    const base = Math.trunc(f(f(u) * alpha));
    for (let i = 0; i < O - 1; i++) starts[i] = Math.trunc(f(f(i + f(u)) * alpha)) - base;
  }
  if (O > 0) starts[O - 1] = I - k;
  return starts;
}

/**
 * The window of pooled cell (r, c) of result `res` in the pooling mode it
 * ran: its sampled rows and cols (fractional windows use the plane's samples).
 */
export function windowOf(r, c, res) {
  const { prm, src } = res;
  if (prm.mode === 'adaptive') {
    return { rows: adaptiveLine(r, src.H, prm.outH), cols: adaptiveLine(c, src.W, prm.outW) };
  }
  if (prm.mode === 'fractional') {
    const [uw, uh] = prm.samples.slice(2 * res.channel, 2 * res.channel + 2);
    const h0 = fractionalStarts(uh, src.H, prm.outH, prm.kernel)[r];
    const w0 = fractionalStarts(uw, src.W, prm.outW, prm.kernel)[c];
    return { rows: span(h0, h0 + prm.kernel), cols: span(w0, w0 + prm.kernel) };
  }
  return {
    rows: windowLine(r, prm.kernel, prm.stride, prm.padding, prm.dilation),
    cols: windowLine(c, prm.kernel, prm.stride, prm.padding, prm.dilation),
  };
}

/** The largest window side of a result's mode: the size of the colour legend. */
export function windowSpan(res) {
  const { prm, src } = res;
  if (prm.mode !== 'adaptive') return prm.kernel;
  const most = (I, O) => Math.max(...span(0, O).map((o) => adaptiveLine(o, I, O).length));
  return Math.max(most(src.H, prm.outH), most(src.W, prm.outW));
}

/**
 * Where in its window `win` the maximum at flat `index` was: {a, b} with
 * 0 <= a, b < window sides, or null when the index lies off the window
 * (a window wholly in padding).
 */
export function offsetInWindow(index, win, inW) {
  const h = Math.floor(index / inW);
  const a = win.rows.indexOf(h);
  const b = win.cols.indexOf(index - h * inW);
  return a >= 0 && b >= 0 ? { a, b } : null;
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

/** The spatial [H, W] of a 4D shape in `layout` ('NCHW' or 'NHWC'). */
export const spatialOf = (shape, layout) => (layout === 'NHWC' ? shape.slice(1, 3) : shape.slice(2, 4));

/** The channel count C of a 4D shape in `layout`. */
export const channelsOf = (shape, layout) => (layout === 'NHWC' ? shape[3] : shape[1]);

/**
 * Where the elements of channel `ch` of a tensor with C channels and n
 * spatial elements lie in its data: element i at base + i * step
 * (channels first: one plane after another; channels last: interleaved,
 * as an image's RGBA bytes are).
 */
export function planeOf(ch, C, n, layout) {
  return layout === 'NHWC' ? { base: ch, step: C } : { base: ch * n, step: 1 };
}

/** Plane `ch` of pooled result `pooled` ({OH, OW, C, layout}): planeOf's {base, step}. */
export const pooledPlane = (pooled, ch) => planeOf(ch, pooled.C, pooled.OH * pooled.OW, pooled.layout);

/**
 * Pooled cells (in output order) of one plane per index they chose: the
 * unpool's writes. `plane`: the plane's {base, step} (planeOf).
 */
export function writesOf(indices, plane, outH, outW) {
  const writes = new Map();
  for (let i = 0; i < outH * outW; i++) {
    const index = Number(indices[plane.base + i * plane.step]);
    if (!writes.has(index)) writes.set(index, []);
    writes.get(index).push(cellOf(i, outW));
  }
  return writes;
}

/** Pooled cells (in output order) of one plane ({base, step}) whose index equals `index`. */
export function cellsWithIndex(indices, plane, outH, outW, index) {
  const found = [];
  for (let i = 0; i < outH * outW; i++) {
    if (Number(indices[plane.base + i * plane.step]) === index) found.push(cellOf(i, outW));
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
