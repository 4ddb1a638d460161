// The demo page: reads the controls, runs the library through its public
// entry ('unpool'), draws the four panels and explains the hovered cell.
import * as unpool from 'unpool';
import { numberGrid, resizeGrid, IMAGES, imageFromFile } from './sources.js';
import { readPoolParams, outputRanges, chooseOutputSize, showSourceControls, arrowMove } from './controls.js';
import { renderPanels, renderLegend } from './panels.js';
import { highlight } from './highlight.js';
import { cellFromPointer, onFileDrop } from './view.js';
import { formatMs, simdStatus } from './timing.js';
import { POOL_FN, readModeParams, newSamples, showMode } from './modes.js';
import { windowSpan, writesOf, pooledPlane } from './geometry.js';
import { inputOf } from './dtypes.js';
import { BACKEND_NAME, probeWebGPU, runWasm, runGpu, sameResults } from './backend.js';

const $ = (id) => document.getElementById(id);
const stages = { input: $('input'), pooled: $('pooled'), indices: $('indices'), unpool: $('unpool') };
const state = {
  src: numberGrid(4, 4, 'sequence'), grid: null, file: null, res: null, sel: null,
  gpu: null, backend: 'wasm', runId: 0, runs: {},
};
state.grid = state.src;

const HINT = 'Hover a pooled or index cell (or focus one and use the arrow keys) to see its window and where its value lands.';

function showErrors(errors) {
  const el = $('error');
  el.hidden = errors.length === 0;
  el.replaceChildren(...errors.map((e) => {
    const line = document.createElement('code');
    line.textContent = `${e.name}: ${e.message}`;
    return line;
  }));
}

/** The unpool's output size: chosen in max mode, the input's size in the others. */
function unpoolSize(src, prm, pooledShape) {
  if (prm.mode !== 'max') return [src.H, src.W];
  const ranges = outputRanges(unpool, pooledShape, prm);
  return chooseOutputSize(ranges, [src.H, src.W]);
}

/** Says how many unpooled cells of the shown plane were written more than once. */
function showDuplicates(res) {
  const { pooled, out } = res;
  const writes = pooled && out ? writesOf(pooled.indices, pooledPlane(pooled, res.channel), pooled.OH, pooled.OW) : new Map();
  const multi = [...writes.values()].filter((w) => w.length > 1).length;
  $('dup-note').hidden = multi === 0;
  $('dup-note').textContent = `${multi} cell${multi === 1 ? ' was' : 's were'} written by several pooled cells ` +
    '(duplicate indices); they are written in order, so the last one wins.';
  return writes;
}

const shapeText = (t) => (t ? `[${t.join(', ')}]` : '');
/** A tensor's shape and array class, as the library took or gave it ('[1, 32, 32, 4] Uint8ClampedArray'). */
const tensorText = (t) => (t ? `${shapeText(t.shape)} ${t.data.constructor.name}` : '');

/** The time of each call on each backend that has run it ('…' while the GPU works). */
function showTimes(prm) {
  const fmt = (r, op) => (r === 'pending' ? '…' : r?.ms[op] !== undefined ? formatMs(r.ms[op]) : '—');
  for (const [id, op, fn] of [['t-pool', 'pool', POOL_FN[prm.mode]], ['t-unpool', 'unpool', 'maxUnpool2d']]) {
    const el = $(id);
    if (!state.gpu) {
      el.textContent = `${fn}: ${fmt(state.runs.wasm, op)}`;
      continue;
    }
    el.textContent = `${fn}: ${BACKEND_NAME.wasm} ${fmt(state.runs.wasm, op)} · ` +
      `${BACKEND_NAME.webgpu} ${fmt(state.runs.webgpu, op)}`;
  }
}

/**
 * Draws one backend's result of the call on tensor `x`: errors, panels,
 * shapes and the selection. A result that arrives later (the GPU's) leaves
 * the input grid alone while a cell of it is being edited, so the typing is
 * not lost.
 */
function show(src, x, prm, r, later = false) {
  const channel = src.kind === 'image' ? Number($('channel').value) : 0;
  const res = { src, prm, pooled: r.pooled, out: r.out, channel };
  showErrors(r.errors);
  res.writes = showDuplicates(res);
  const editing = later && document.activeElement?.tagName === 'INPUT' && stages.input.contains(document.activeElement);
  renderPanels(stages, res, editCell, editing);
  const side = res.pooled || prm.mode === 'max' ? windowSpan(res) : 0;
  renderLegend($('legend'), Number.isInteger(side) && side > 0 && side <= 8 ? side : 0);
  // The shapes and array classes the library took and gave: an image's
  // Uint8ClampedArray goes in and comes out as it is.
  $('s-input').textContent = tensorText(x);
  $('s-pooled').textContent = tensorText(res.pooled?.tensors.output);
  $('s-indices').textContent = tensorText(res.pooled?.tensors.indices);
  $('s-unpool').textContent = tensorText(res.out?.tensor);
  document.body.dataset.shown = state.backend;
  state.res = res;
  if (state.sel && !(res.pooled && state.sel.r < res.pooled.OH && state.sel.c < res.pooled.OW)) state.sel = null;
  select(state.sel);
}

/**
 * Pools, unpools and redraws everything from the current controls. The
 * WebAssembly API runs every time (synchronously); with a GPU, the WebGPU API
 * runs too (asynchronously; body[data-busy] is set meanwhile), so both
 * backends' times are shown and their results compared; the panels show the
 * chosen backend's result.
 */
function run() {
  const prm = readModeParams(readPoolParams(), state.src.C);
  // A grid: what the chosen value type keeps of it (the page shows and pools
  // that). An image: its RGBA bytes as they are, channels last.
  const { src, x, dtype, layout } = inputOf(state.src, $('dtype').value, prm.mode);
  prm.layout = layout;
  showMode(prm);
  $('image-note').textContent = src.kind !== 'image' ? ''
    : layout === 'NHWC' ? 'Pooled as the canvas holds it: ImageData.data, a Uint8ClampedArray of RGBA bytes, ' +
      "shape [1, H, W, 4], layout 'NHWC'. The results are drawn as they come back, but the unpooled " +
      "alpha, 0 off its own maxima, is shown as 255."
      : 'Fractional pooling takes float32 or float64 values, channels first, only (as PyTorch): ' +
      'here the RGBA bytes are copied to float32 planes [1, 4, H, W].';
  $('out-range').textContent = '';
  const sizeOf = (shape) => unpoolSize(src, prm, shape);
  const id = ++state.runId;
  state.runs = { wasm: runWasm(x, prm, sizeOf, dtype), webgpu: state.gpu ? 'pending' : undefined };
  showTimes(prm);
  if (!state.gpu || state.backend === 'wasm') show(src, x, prm, state.runs.wasm);
  if (!state.gpu) return;
  document.body.dataset.busy = 'true';
  $('same').textContent = 'WebGPU = WebAssembly: …';
  runGpu(state.gpu, x, prm, sizeOf, dtype).catch((e) => ({ pooled: null, out: null, errors: [e], ms: {} }))
    .then((g) => {
      if (id !== state.runId) return;  // a newer run is under way
      state.runs.webgpu = g;
      showTimes(prm);
      const same = sameResults(state.runs.wasm, g);
      $('same').textContent = `WebGPU = WebAssembly: ${same ? 'same bits' : 'DIFFERENT'}`;
      $('same').classList.toggle('bad', !same);
      if (state.backend === 'webgpu') show(src, x, prm, g, true);
      delete document.body.dataset.busy;
    });
}

function select(sel) {
  state.sel = sel;
  const text = state.res?.pooled ? highlight(stages, state.res, sel) : '';
  $('info').textContent = text || HINT;
}

function editCell(i, text) {
  const v = Number(text.trim());
  if (text.trim() !== '' && Number.isFinite(v)) state.src.data[i] = v;
  run();
}

function setSource(src) {
  state.src = src;
  if (src.kind === 'grid') state.grid = src;
  showSourceControls($('source').value, src.kind);
  run();
}

async function loadFile(file) {
  if (!file || !file.type.startsWith('image/')) return;
  try {
    state.file = await imageFromFile(file);
    $('source').value = 'file';
    setSource(state.file);
  } catch (e) {
    showErrors([e]);
  }
}

function onSourceChange() {
  const v = $('source').value;
  if (v === 'grid') setSource(state.grid);
  else if (v === 'file') {
    showSourceControls(v, state.file ? 'image' : 'none');
    if (state.file) setSource(state.file);
    else $('file').click();
  } else setSource(IMAGES[v]());
}

function gridSize() {
  const clamp = (v) => Math.max(4, Math.min(12, Number.parseInt(v, 10) || 4));
  return [clamp($('rows').value), clamp($('cols').value)];
}

function wireInputs() {
  $('source').addEventListener('change', onSourceChange);
  $('rows').addEventListener('change', () => setSource(resizeGrid(state.grid, ...gridSize())));
  $('cols').addEventListener('change', () => setSource(resizeGrid(state.grid, ...gridSize())));
  $('fill-seq').addEventListener('click', () => setSource(numberGrid(...gridSize(), 'sequence')));
  let seed = 1;
  $('fill-rand').addEventListener('click', () => setSource(numberGrid(...gridSize(), 'random', seed++)));
  $('file').addEventListener('change', (e) => loadFile(e.target.files[0]));
  onFileDrop($('p-input'), loadFile);
  $('new-samples').addEventListener('click', () => { newSamples(); run(); });
  const controls = ['dtype', 'mode', 'a-out-h', 'a-out-w', 'f-kernel', 'f-out-h', 'f-out-w',
    'kernel', 'stride', 'padding', 'dilation', 'ceil', 'out-mode', 'out-h', 'out-w', 'channel'];
  for (const id of controls) {
    $(id).addEventListener('input', run);
  }
  $('controls').addEventListener('submit', (e) => e.preventDefault());
  let resizeTimer;
  window.addEventListener('resize', () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(run, 100); });
}

function wirePicking() {
  for (const stage of [stages.pooled, stages.indices]) {
    stage.addEventListener('pointermove', (e) => {
      const cell = cellFromPointer(stage, e);
      if (cell && (cell.r !== state.sel?.r || cell.c !== state.sel?.c)) select(cell);
    });
    stage.addEventListener('focus', () => { if (!state.sel && state.res?.pooled) select({ r: 0, c: 0 }); });
    stage.addEventListener('keydown', (e) => {
      const p = state.res?.pooled;
      const next = p && arrowMove(e, state.sel, p.OH, p.OW);
      if (next) select(next);
    });
  }
}

/** Shows the backend switch where WebGPU has an adapter, and otherwise why not. */
async function setUpBackends() {
  const found = await probeWebGPU();
  const note = $('gpu-note');
  if (!found.gpu) {
    note.textContent = `WebGPU: not available: ${found.reason}`;
    document.body.dataset.webgpu = 'none';
    return;
  }
  state.gpu = found.gpu;
  note.textContent = `WebGPU adapter: ${found.adapter}`;
  document.body.dataset.webgpu = 'available';
  $('backend-switch').hidden = false;
  $('same').hidden = false;
  $('backend').addEventListener('change', () => {
    state.backend = $('backend').value;
    run();
  });
  state.backend = $('backend').value;
}

async function main() {
  await unpool.init();
  const { simd, source } = simdStatus(unpool);
  $('simd').textContent = `SIMD: ${simd ? 'yes' : 'no'}`;
  $('simd').title = `From ${source}`;
  await setUpBackends();
  wireInputs();
  wirePicking();
  showSourceControls('grid', 'grid');
  run();
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  showErrors([e]);
  console.error(e);
});
