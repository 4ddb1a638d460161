// The demo page: reads the controls, runs the library through its public
// entry ('unpool'), draws the four panels and explains the hovered cell.
import * as unpool from 'unpool';
import { numberGrid, resizeGrid, IMAGES, imageFromFile } from './sources.js';
import { readPoolParams, outputRanges, chooseOutputSize, showSourceControls, arrowMove } from './controls.js';
import { renderPanels, renderLegend } from './panels.js';
import { highlight } from './highlight.js';
import { cellFromPointer } from './view.js';
import { timed, formatMs, simdStatus } from './timing.js';
import { POOL_FN, readModeParams, poolCall, unpoolCall, newSamples, showMode } from './modes.js';
import { windowSpan, writesOf } from './geometry.js';
import { rounded, tensorOf, valuesOf } from './dtypes.js';

const $ = (id) => document.getElementById(id);
const stages = { input: $('input'), pooled: $('pooled'), indices: $('indices'), unpool: $('unpool') };
const state = { src: numberGrid(4, 4, 'sequence'), grid: null, file: null, res: null, sel: null };
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

function pool(src, prm, dtype) {
  const x = tensorOf(src, dtype);
  const { value, ms } = timed(() => poolCall(unpool, x, prm));
  $('t-pool').textContent = `${POOL_FN[prm.mode]}: ${formatMs(ms)}`;
  const [OH, OW] = value.output.shape.slice(-2);
  return { OH, OW, data: valuesOf(value.output.data, dtype), indices: value.indices.data, tensors: value };
}

function unpoolResult(pooled, prm, outputSize, dtype) {
  const { value, ms } = timed(() => unpoolCall(unpool, pooled.tensors, prm, outputSize));
  $('t-unpool').textContent = `maxUnpool2d: ${formatMs(ms)}`;
  const [H, W] = value.shape.slice(-2);
  return { H, W, data: valuesOf(value.data, dtype) };
}

/** The unpool's output size: chosen in max mode, the input's size in the others. */
function unpoolSize(res) {
  if (res.prm.mode !== 'max') return [res.src.H, res.src.W];
  const ranges = outputRanges(unpool, res.pooled.tensors.output.shape, res.prm);
  return chooseOutputSize(ranges, [res.src.H, res.src.W]);
}

/** Says how many unpooled cells of the shown plane were written more than once. */
function showDuplicates(res) {
  const { pooled, out } = res;
  const writes = pooled && out ? writesOf(pooled.indices, res.channel, pooled.OH, pooled.OW) : new Map();
  const multi = [...writes.values()].filter((w) => w.length > 1).length;
  $('dup-note').hidden = multi === 0;
  $('dup-note').textContent = `${multi} cell${multi === 1 ? ' was' : 's were'} written by several pooled cells ` +
    '(duplicate indices); they are written in order, so the last one wins.';
  return writes;
}

const shapeText = (t) => (t ? `[${t.join(', ')}]` : '');

/** Pools, unpools and redraws everything from the current controls. */
function run() {
  const dtype = $('dtype').value;
  // What the chosen value type keeps of the input: the page shows and pools that.
  const src = rounded(state.src, dtype);
  const prm = readModeParams(readPoolParams(), src.C);
  showMode(prm);
  const res = { src, prm, pooled: null, out: null, channel: src.C === 3 ? Number($('channel').value) : 0 };
  const errors = [];
  try { res.pooled = pool(src, prm, dtype); } catch (e) { errors.push(e); }
  $('out-range').textContent = '';
  if (res.pooled) {
    try {
      res.out = unpoolResult(res.pooled, prm, unpoolSize(res), dtype);
    } catch (e) { errors.push(e); }
  }
  if (!res.pooled) $('t-pool').textContent = `${POOL_FN[prm.mode]}: —`;
  if (!res.out) $('t-unpool').textContent = 'maxUnpool2d: —';
  showErrors(errors);
  res.writes = showDuplicates(res);
  renderPanels(stages, res, editCell);
  const side = res.pooled || prm.mode === 'max' ? windowSpan(res) : 0;
  renderLegend($('legend'), Number.isInteger(side) && side > 0 && side <= 8 ? side : 0);
  $('s-input').textContent = shapeText([1, src.C, src.H, src.W]);
  $('s-pooled').textContent = shapeText(res.pooled?.tensors.output.shape);
  $('s-indices').textContent = res.pooled ? `${shapeText(res.pooled.tensors.indices.shape)} ${res.pooled.indices.constructor.name}` : '';
  $('s-unpool').textContent = res.out ? shapeText([1, src.C, res.out.H, res.out.W]) : '';
  state.res = res;
  if (state.sel && !(res.pooled && state.sel.r < res.pooled.OH && state.sel.c < res.pooled.OW)) state.sel = null;
  select(state.sel);
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
  const panel = $('p-input');
  panel.addEventListener('dragover', (e) => { e.preventDefault(); panel.classList.add('drag'); });
  panel.addEventListener('dragleave', () => panel.classList.remove('drag'));
  panel.addEventListener('drop', (e) => {
    e.preventDefault();
    panel.classList.remove('drag');
    loadFile(e.dataTransfer.files[0]);
  });
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

async function main() {
  await unpool.init();
  const { simd, source } = simdStatus(unpool);
  $('simd').textContent = `SIMD: ${simd ? 'yes' : 'no'}`;
  $('simd').title = `From ${source}`;
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
