// The pooling modes of the demo: max (maxPool2d), adaptive
// (adaptiveMaxPool2d) and fractional (fractionalMaxPool2d). Reads each
// mode's controls, keeps the fractional samples, and makes the library call.
import { rng } from './sources.js';

const $ = (id) => document.getElementById(id);
const int = (id) => Number.parseInt($(id).value, 10);

/** The function each mode runs, as the status line names it. */
export const POOL_FN = { max: 'maxPool2d', adaptive: 'adaptiveMaxPool2d', fractional: 'fractionalMaxPool2d' };

// Samples are drawn from a seeded generator, so a page (and its test) is
// reproducible; "New samples" moves on to the next seed.
let seed = 1;
let samples = null;

function draw(n) {
  const next = rng(seed);
  // Float32 rounding could turn a draw just below 1 into 1; keep it in [0, 1).
  return Float32Array.from({ length: n }, () => Math.min(next(), 0.99999994));
}

/** The fractional samples for C planes ([W sample, H sample] per plane), drawn when missing. */
export function samplesFor(C) {
  if (!samples || samples.length !== 2 * C) samples = draw(2 * C);
  return samples;
}

/** Draws new fractional samples. */
export function newSamples() {
  seed += 1;
  samples = draw(samples?.length ?? 2);
}

/** Parameters of the chosen mode as typed (validation is the library's job). */
export function readModeParams(maxParams, C) {
  const mode = $('mode').value;
  if (mode === 'adaptive') return { mode, outH: int('a-out-h'), outW: int('a-out-w') };
  if (mode === 'fractional') {
    return { mode, kernel: int('f-kernel'), outH: int('f-out-h'), outW: int('f-out-w'), samples: samplesFor(C) };
  }
  return { mode, ...maxParams };
}

// The layout option of a call: an image's RGBA bytes are channels last.
const layoutOf = (prm) => (prm.layout === 'NHWC' ? { layout: 'NHWC' } : {});

/**
 * Runs the pool of `prm.mode` on tensor `x` (N = 1) in `prm.layout`:
 * {output, indices}. `unpool` is the WebAssembly API or a WebGPU backend;
 * `samples`, the fractional samples as that API's tensor (default: the host
 * tensor).
 */
export function poolCall(unpool, x, prm, samples) {
  if (prm.mode === 'adaptive') {
    return unpool.adaptiveMaxPool2d(x, { outputSize: [prm.outH, prm.outW], ...layoutOf(prm) });
  }
  if (prm.mode === 'fractional') {
    const C = x.shape[1];  // channels first only
    return unpool.fractionalMaxPool2d(x, {
      kernelSize: prm.kernel,
      outputSize: [prm.outH, prm.outW],
      randomSamples: samples ?? { data: prm.samples, shape: [1, C, 2] },
    });
  }
  return unpool.maxPool2d(x, {
    kernelSize: prm.kernel, stride: prm.stride, padding: prm.padding,
    dilation: prm.dilation, ceilMode: prm.ceilMode, ...layoutOf(prm),
  });
}

/**
 * Unpools a result of `prm.mode`: with the max pool's geometry in max mode;
 * otherwise without a kernel, by index into an outputSize plane.
 */
export function unpoolCall(unpool, tensors, prm, outputSize) {
  const { output, indices } = tensors;
  if (prm.mode !== 'max') return unpool.maxUnpool2d(output, indices, { outputSize, ...layoutOf(prm) });
  const opts = { kernelSize: prm.kernel, stride: prm.stride, padding: prm.padding, ...layoutOf(prm) };
  if (outputSize) opts.outputSize = outputSize;
  return unpool.maxUnpool2d(output, indices, opts);
}

/** Shows the controls of the chosen mode, and the samples the page uses. */
export function showMode(prm) {
  document.body.dataset.mode = prm.mode;
  const text = prm.mode === 'fractional' ? JSON.stringify(Array.from(prm.samples)) : '';
  document.body.dataset.samples = text;
  $('samples').textContent = text &&
    `samples ${Array.from(prm.samples, (v) => v.toFixed(3)).join(', ')} ([W, H] per plane)`;
}
