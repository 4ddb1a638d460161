// A naive reference of adaptive and fractional max pooling in plain
// JavaScript, written from PyTorch's rules (AdaptivePooling.h and
// FractionalMaxPooling.h) independently of the package: windows per dim,
// then every tap of every window visited. Fractional intervals are computed
// in the values' dtype (float32 rounded with Math.fround at every step).
import type { Floats } from './reference.js';

const prod = (a: readonly number[]) => a.reduce((p, v) => p * v, 1);

/** Windows of one dim: [start[o], end[o]). */
export interface RefWindows {
  start: number[];
  end: number[];
}

/** Adaptive windows: [floor(o*I/O), ceil((o+1)*I/O)). */
export function adaptiveWindows(inSize: number, outSize: number): RefWindows {
  const start: number[] = [], end: number[] = [];
  for (let o = 0; o < outSize; ++o) {
    start.push(Math.floor((o * inSize) / outSize));
    end.push(Math.ceil(((o + 1) * inSize) / outSize));
  }
  return { start, end };
}

/**
 * PyTorch's generate_intervals: alpha = (in - pool) / (out - 1), seq[i] =
 * int((i + u) * alpha) - int(u * alpha) for i < out - 1, seq[out - 1] =
 * in - pool; windows [seq[i], seq[i] + pool). `f32`: every operation
 * rounded to float32.
 */
export function fractionalWindows(u: number, inSize: number, outSize: number, pool: number,
                                  f32: boolean): RefWindows {
  const r = f32 ? Math.fround : (v: number) => v;
  const start: number[] = [];
  if (outSize > 1) {
    const alpha = r(r(inSize - pool) / r(outSize - 1));
    for (let i = 0; i < outSize - 1; ++i) {
      start.push(Math.trunc(r(r(r(i) + r(u)) * alpha)) - Math.trunc(r(r(u) * alpha)));
    }
  }
  start.push(inSize - pool);
  return { start, end: start.map((s) => s + pool) };
}

/**
 * Max over the windows of each plane (channels-first, `dims` spatial dims):
 * the first maximum in scan order wins, a NaN wins (the last NaN's index),
 * and a window of -inf only keeps its first position's index.
 * `windows(plane)` gives the plane's windows per spatial dim.
 */
export function refWindowPool(x: Floats, shape: readonly number[], dims: number,
                              windows: (plane: number) => RefWindows[]):
    { output: Floats; indices: number[]; shape: number[] } {
  const lead = shape.slice(0, shape.length - dims);
  const inS = shape.slice(shape.length - dims);
  while (inS.length < 3) inS.unshift(1);
  const planes = prod(lead), inPlane = prod(inS);
  const windows3 = (pl: number) => {
    const w = windows(pl).slice();
    while (w.length < 3) w.unshift({ start: [0], end: [1] });
    return w;
  };
  // Every plane has the same number of windows (plane 0's, also with no planes).
  const outS0 = windows3(0).map((e) => e.start.length);
  const outShape = [...lead, ...outS0.slice(3 - dims)];
  const output = new (x.constructor as { new (n: number): Floats })(planes * prod(outS0));
  const indices: number[] = [];
  for (let pl = 0; pl < planes; ++pl) {
    const w = windows3(pl);
    const outS = w.map((e) => e.start.length);
    for (let a = 0; a < outS[0]; ++a) {
      for (let b = 0; b < outS[1]; ++b) {
        for (let c = 0; c < outS[2]; ++c) {
          let best = -Infinity;
          let bestIndex = (w[0].start[a] * inS[1] + w[1].start[b]) * inS[2] + w[2].start[c];
          for (let i = w[0].start[a]; i < w[0].end[a]; ++i) {
            for (let j = w[1].start[b]; j < w[1].end[b]; ++j) {
              for (let k = w[2].start[c]; k < w[2].end[c]; ++k) {
                const flat = (i * inS[1] + j) * inS[2] + k;
                const v = x[pl * inPlane + flat];
                if (v > best || Number.isNaN(v)) {
                  best = v;
                  bestIndex = flat;
                }
              }
            }
          }
          output[indices.length] = best;
          indices.push(bestIndex);
        }
      }
    }
  }
  return { output, indices, shape: outShape };
}

/** Adaptive max pool of a channels-first x; `outSize` one entry per spatial dim. */
export function refAdaptivePool(x: Floats, shape: readonly number[], outSize: readonly number[]) {
  const dims = outSize.length;
  const inS = shape.slice(shape.length - dims);
  const w = inS.map((s, i) => adaptiveWindows(s, outSize[i]));
  return refWindowPool(x, shape, dims, () => w);
}

/**
 * Fractional max pool of a channels-first x. `samples` holds `dims` values
 * a plane: in 2d [0] drives W and [1] H; in 3d [0] D, [1] H, [2] W.
 */
export function refFractionalPool(x: Floats, shape: readonly number[], kernel: readonly number[],
                                  outSize: readonly number[], samples: Floats) {
  const dims = outSize.length;
  const inS = shape.slice(shape.length - dims);
  const f32 = x instanceof Float32Array;
  return refWindowPool(x, shape, dims, (pl) => inS.map((s, i) => {
    const which = dims === 2 ? 1 - i : i;
    return fractionalWindows(samples[pl * dims + which], s, outSize[i], kernel[i], f32);
  }));
}
