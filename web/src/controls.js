// Reading the form, and the unpool output-size chooser with its valid range.
import { unpoolRange, defaultUnpoolSize, spatialOf } from './geometry.js';

const $ = (id) => document.getElementById(id);
const int = (id) => Number.parseInt($(id).value, 10);

/** Pool parameters as typed (validation is the library's job). */
export function readPoolParams() {
  return {
    kernel: int('kernel'),
    stride: int('stride'),
    padding: int('padding'),
    dilation: int('dilation'),
    ceilMode: $('ceil').checked,
  };
}

/**
 * Valid unpool output sizes per spatial dim of the pooled tensor, with the
 * default size: from the package's maxUnpool2dOutputRange when it has it.
 */
export function outputRanges(unpool, pooledShape, prm) {
  const hw = spatialOf(pooledShape, prm.layout);
  if (typeof unpool.maxUnpool2dOutputRange !== 'function') return hw.map((n) => unpoolRange(n, prm));
  const opts = { kernelSize: prm.kernel, stride: prm.stride, padding: prm.padding };
  if (prm.layout === 'NHWC') opts.layout = 'NHWC';
  return unpool.maxUnpool2dOutputRange(pooledShape, opts)
    .map((r, i) => ({ min: r.min, max: r.max, def: defaultUnpoolSize(hw[i], prm) }));
}

/**
 * The outputSize option for the chosen mode: undefined (default), the input
 * size, or the custom numbers. Also shows the valid range.
 */
export function chooseOutputSize(ranges, inputHW) {
  const mode = $('out-mode').value;
  const custom = mode === 'custom';
  for (const [id, r] of [['out-h', ranges[0]], ['out-w', ranges[1]]]) {
    const el = $(id);
    el.disabled = !custom;
    if (!custom) el.value = mode === 'input' ? inputHW[id === 'out-h' ? 0 : 1] : r.def;
  }
  const [rh, rw] = ranges;
  $('out-range').textContent = `valid: rows ${rh.min}..${rh.max}, cols ${rw.min}..${rw.max}` +
    ` (default ${rh.def}×${rw.def})`;
  if (mode === 'default') return undefined;
  if (mode === 'input') return [...inputHW];
  return [int('out-h'), int('out-w')];
}

/** Shows or hides the controls that belong to one kind of source. */
export function showSourceControls(source, kind) {
  document.body.dataset.kind = kind;
  document.body.dataset.source = source;
}

/** Moves a pooled-cell cursor with the arrow keys; returns the new cell or null. */
export function arrowMove(event, sel, OH, OW) {
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const d = moves[event.key];
  if (!d) return null;
  event.preventDefault();
  const cur = sel ?? { r: 0, c: 0 };
  if (!sel) return cur;
  return {
    r: Math.max(0, Math.min(OH - 1, cur.r + d[0])),
    c: Math.max(0, Math.min(OW - 1, cur.c + d[1])),
  };
}
