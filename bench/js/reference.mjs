// Straightforward hand-written JavaScript max pool with indices and max
// unpool, as an app would write them: typed arrays in and out, one loop nest
// per op, fresh result arrays, PyTorch's rules (first maximum wins, NaN
// wins, indices are offsets inside each (n, c) plane). No dilation, and
// padding only in jsMaxPool2dPadded: the benchmark workloads need no more.

/** Pool of an (N, C, L) Float32Array with kernel k and stride s. */
export function jsMaxPool1d(x, shape, k, s) {
  const [N, C, L] = shape;
  const OL = Math.floor((L - k) / s) + 1;
  const y = new Float32Array(N * C * OL);
  const idx = new Int32Array(N * C * OL);
  let o = 0;
  for (let p = 0; p < N * C; ++p) {
    const base = p * L;
    for (let ol = 0; ol < OL; ++ol) {
      let bi = ol * s;
      let best = x[base + bi];
      for (let kl = 1; kl < k; ++kl) {
        const i = ol * s + kl;
        const v = x[base + i];
        if (v > best || v !== v) { best = v; bi = i; }
      }
      y[o] = best;
      idx[o++] = bi;
    }
  }
  return { y, idx, shape: [N, C, OL] };
}

/** Pool of an (N, C, H, W) Float32Array with kernel k and stride s. */
export function jsMaxPool2d(x, shape, k, s) {
  const [N, C, H, W] = shape;
  const OH = Math.floor((H - k) / s) + 1;
  const OW = Math.floor((W - k) / s) + 1;
  const y = new Float32Array(N * C * OH * OW);
  const idx = new Int32Array(N * C * OH * OW);
  let o = 0;
  for (let p = 0; p < N * C; ++p) {
    const base = p * H * W;
    for (let oh = 0; oh < OH; ++oh) {
      for (let ow = 0; ow < OW; ++ow) {
        let bi = oh * s * W + ow * s;
        let best = x[base + bi];
        for (let kh = 0; kh < k; ++kh) {
          const row = (oh * s + kh) * W;
          for (let kw = 0; kw < k; ++kw) {
            const i = row + ow * s + kw;
            const v = x[base + i];
            if (v > best || v !== v) { best = v; bi = i; }
          }
        }
        y[o] = best;
        idx[o++] = bi;
      }
    }
  }
  return { y, idx, shape: [N, C, OH, OW] };
}

/**
 * Output o of a 2d pool: the first maximum (or the last NaN) of rows
 * [h0, h1) and columns [w0, w1) of the plane at x[base] (W wide), from -inf
 * at the window's first position, into y[o] and idx[o]. One function for
 * the padded, adaptive and fractional pools (V8 inlines it).
 */
function windowMax2d(x, base, W, h0, h1, w0, w1, y, idx, o) {
  let bi = h0 * W + w0;
  let best = -Infinity;
  for (let h = h0; h < h1; ++h) {
    for (let w = w0; w < w1; ++w) {
      const v = x[base + h * W + w];
      if (v > best || v !== v) { best = v; bi = h * W + w; }
    }
  }
  y[o] = best;
  idx[o] = bi;
}

/**
 * Pool of an (N, C, H, W) Float32Array with kernel k, stride s and padding
 * p (ResNet's k3 s2 p1): windows clipped to the input, each starting from
 * -inf at its first input position, as PyTorch's.
 */
export function jsMaxPool2dPadded(x, shape, k, s, p) {
  const [N, C, H, W] = shape;
  const OH = Math.floor((H + 2 * p - k) / s) + 1;
  const OW = Math.floor((W + 2 * p - k) / s) + 1;
  const y = new Float32Array(N * C * OH * OW);
  const idx = new Int32Array(N * C * OH * OW);
  let o = 0;
  for (let q = 0; q < N * C; ++q) {
    const base = q * H * W;
    for (let oh = 0; oh < OH; ++oh) {
      const h0 = Math.max(oh * s - p, 0), h1 = Math.min(oh * s - p + k, H);
      for (let ow = 0; ow < OW; ++ow) {
        const w0 = Math.max(ow * s - p, 0), w1 = Math.min(ow * s - p + k, W);
        windowMax2d(x, base, W, h0, h1, w0, w1, y, idx, o++);
      }
    }
  }
  return { y, idx, shape: [N, C, OH, OW] };
}

/** Pool of an (N, C, D, H, W) Float32Array with kernel k and stride s. */
export function jsMaxPool3d(x, shape, k, s) {
  const [N, C, D, H, W] = shape;
  const OD = Math.floor((D - k) / s) + 1;
  const OH = Math.floor((H - k) / s) + 1;
  const OW = Math.floor((W - k) / s) + 1;
  const y = new Float32Array(N * C * OD * OH * OW);
  const idx = new Int32Array(N * C * OD * OH * OW);
  let o = 0;
  for (let p = 0; p < N * C; ++p) {
    const base = p * D * H * W;
    for (let od = 0; od < OD; ++od) {
      for (let oh = 0; oh < OH; ++oh) {
        for (let ow = 0; ow < OW; ++ow) {
          let bi = (od * s * H + oh * s) * W + ow * s;
          let best = x[base + bi];
          for (let kd = 0; kd < k; ++kd) {
            for (let kh = 0; kh < k; ++kh) {
              const row = ((od * s + kd) * H + oh * s + kh) * W;
              for (let kw = 0; kw < k; ++kw) {
                const i = row + ow * s + kw;
                const v = x[base + i];
                if (v > best || v !== v) { best = v; bi = i; }
              }
            }
          }
          y[o] = best;
          idx[o++] = bi;
        }
      }
    }
  }
  return { y, idx, shape: [N, C, OD, OH, OW] };
}

/**
 * Unpool: zeros of `outShape`, then x[i] at idx[i] in its plane. Indices are
 * checked (an app must not write outside the array).
 */
export function jsMaxUnpool(x, idx, inShape, outShape) {
  const planes = inShape[0] * inShape[1];
  const inPlane = x.length / planes;
  const outPlane = outShape.slice(2).reduce((a, b) => a * b, 1);
  const y = new Float32Array(planes * outPlane);
  for (let p = 0; p < planes; ++p) {
    const ib = p * inPlane;
    const ob = p * outPlane;
    for (let i = 0; i < inPlane; ++i) {
      const j = idx[ib + i];
      if (j < 0 || j >= outPlane) throw new RangeError(`index ${j} out of range`);
      y[ob + j] = x[ib + i];
    }
  }
  return y;
}

/**
 * Adaptive max pool of an (N, C, H, W) Float32Array to OH x OW: window
 * [floor(o * I / O), ceil((o + 1) * I / O)) per dim, as PyTorch.
 */
export function jsAdaptiveMaxPool2d(x, shape, OH, OW) {
  const [N, C, H, W] = shape;
  const y = new Float32Array(N * C * OH * OW);
  const idx = new Int32Array(N * C * OH * OW);
  let o = 0;
  for (let p = 0; p < N * C; ++p) {
    const base = p * H * W;
    for (let oh = 0; oh < OH; ++oh) {
      const h0 = Math.floor((oh * H) / OH), h1 = Math.ceil(((oh + 1) * H) / OH);
      for (let ow = 0; ow < OW; ++ow) {
        const w0 = Math.floor((ow * W) / OW), w1 = Math.ceil(((ow + 1) * W) / OW);
        windowMax2d(x, base, W, h0, h1, w0, w1, y, idx, o++);
      }
    }
  }
  return { y, idx, shape: [N, C, OH, OW] };
}

/**
 * Fractional max pool of an (N, C, H, W) Float32Array with a k x k kernel to
 * OH x OW, `samples` (N * C * 2: W then H per plane) as PyTorch's
 * generate_intervals uses them, in float32 arithmetic.
 */
export function jsFractionalMaxPool2d(x, shape, k, OH, OW, samples) {
  const [N, C, H, W] = shape;
  const f = Math.fround;
  const starts = (u, I, O) => {
    const r = new Int32Array(O);
    const alpha = f((I - k) / (O - 1));
    for (let i = 0; i < O - 1; ++i) r[i] = Math.trunc(f(f(i + u) * alpha)) - Math.trunc(f(u * alpha));
    r[O - 1] = I - k;
    return r;
  };
  const y = new Float32Array(N * C * OH * OW);
  const idx = new Int32Array(N * C * OH * OW);
  let o = 0;
  for (let p = 0; p < N * C; ++p) {
    const base = p * H * W;
    const sw = starts(samples[2 * p], W, OW), sh = starts(samples[2 * p + 1], H, OH);
    for (let oh = 0; oh < OH; ++oh) {
      const h0 = sh[oh];
      for (let ow = 0; ow < OW; ++ow) {
        const w0 = sw[ow];
        windowMax2d(x, base, W, h0, h0 + k, w0, w0 + k, y, idx, o++);
      }
    }
  }
  return { y, idx, shape: [N, C, OH, OW] };
}
