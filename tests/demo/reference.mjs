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
