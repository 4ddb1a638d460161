// A naive 2D max pool / unpool of one plane, written from PyTorch's
// definition, to check the demo's pixels independently of the library.

/** Pooled size of one dim (PyTorch's formula, ceil mode included). */
export function pooledSize(n, { kernel: k, stride: s, padding: p, dilation: d, ceilMode }) {
  const span = n + 2 * p - d * (k - 1) - 1;
  let out = Math.floor((span + (ceilMode ? s - 1 : 0)) / s) + 1;
  if (ceilMode && (out - 1) * s >= n + p) out -= 1;
  return out;
}

/** Pools one H x W plane: {OH, OW, values, indices}; the first maximum wins ties. */
export function pool(plane, H, W, prm) {
  const OH = pooledSize(H, prm);
  const OW = pooledSize(W, prm);
  const values = new Float64Array(OH * OW);
  const indices = new Int32Array(OH * OW);
  for (let r = 0; r < OH; r++) {
    for (let c = 0; c < OW; c++) {
      let best = -Infinity;
      let at = -1;
      for (let a = 0; a < prm.kernel; a++) {
        for (let b = 0; b < prm.kernel; b++) {
          const h = r * prm.stride - prm.padding + a * prm.dilation;
          const w = c * prm.stride - prm.padding + b * prm.dilation;
          if (h < 0 || h >= H || w < 0 || w >= W) continue;
          if (at < 0 || plane[h * W + w] > best) { best = plane[h * W + w]; at = h * W + w; }
        }
      }
      values[r * OW + c] = best;
      indices[r * OW + c] = at;
    }
  }
  return { OH, OW, values, indices };
}

/** Unpools into an outH x outW plane of zeros: later duplicates overwrite earlier ones. */
export function unpool(values, indices, outH, outW) {
  const out = new Float64Array(outH * outW);
  indices.forEach((idx, i) => { out[idx] = values[i]; });
  return out;
}

/** Default unpooled size of one dim. */
export const unpooledSize = (n, prm) => (n - 1) * prm.stride + prm.kernel - 2 * prm.padding;

/** Max of plane over rows `rows` x cols `cols` (first maximum wins): [value, index]. */
function windowMax(plane, W, rows, cols) {
  let best = -Infinity;
  let at = -1;
  for (const h of rows) {
    for (const w of cols) {
      if (at < 0 || plane[h * W + w] > best) { best = plane[h * W + w]; at = h * W + w; }
    }
  }
  return [best, at];
}

const range = (a, b) => Array.from({ length: b - a }, (_, i) => a + i);

/** Adaptive window of output o along a dim: [floor(o*I/O), ceil((o+1)*I/O)). */
export const adaptiveWindow = (o, I, O) => range(Math.floor((o * I) / O), Math.ceil(((o + 1) * I) / O));

/** Window starts of a fractional pool (PyTorch's generate_intervals, in float32). */
export function fractionalStarts(u, I, O, k) {
  const f = Math.fround;
  const alpha = O > 1 ? f(f(I - k) / f(O - 1)) : 0;
  return range(0, O).map((i) => (i === O - 1 ? I - k
    : Math.trunc(f(f(i + f(u)) * alpha)) - Math.trunc(f(f(u) * alpha))));
}

function poolBy(plane, W, OH, OW, rowsOf, colsOf) {
  const values = new Float64Array(OH * OW);
  const indices = new Int32Array(OH * OW);
  for (let r = 0; r < OH; r++) {
    for (let c = 0; c < OW; c++) [values[r * OW + c], indices[r * OW + c]] = windowMax(plane, W, rowsOf(r), colsOf(c));
  }
  return { OH, OW, values, indices };
}

/** adaptive_max_pool2d of one H x W plane to OH x OW. */
export const adaptivePool = (plane, H, W, OH, OW) =>
  poolBy(plane, W, OH, OW, (r) => adaptiveWindow(r, H, OH), (c) => adaptiveWindow(c, W, OW));

/** fractional_max_pool2d of one plane with samples [uW, uH]: k x k windows at the starts. */
export function fractionalPool(plane, H, W, k, OH, OW, [uW, uH]) {
  const hs = fractionalStarts(uH, H, OH, k);
  const ws = fractionalStarts(uW, W, OW, k);
  return poolBy(plane, W, OH, OW, (r) => range(hs[r], hs[r] + k), (c) => range(ws[c], ws[c] + k));
}

/**
 * `v` rounded to float16 or bfloat16 (nearest, ties to even), by the
 * spacing of the type's values around `v` (p mantissa bits, smallest
 * normal exponent emin); finite values in range only.
 */
export function roundTo(dtype, v) {
  const [p, emin] = dtype === 'float16' ? [10, -14] : [7, -126];
  if (v === 0) return v;
  const e = Math.max(Math.floor(Math.log2(Math.abs(v))), emin);
  const ulp = 2 ** (e - p);
  const q = v / ulp, r = Math.round(q);
  return (Math.abs(q - Math.trunc(q)) === 0.5 && r % 2 !== 0 ? r - Math.sign(q) : r) * ulp;
}
