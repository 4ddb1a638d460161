// The model page: the image, the model run by unpool/onnx on the chosen
// backend, its labels, and one pool/unpool stage's planes for one channel,
// with the hovered cell explained. body[data-ready] is set once the first
// run is drawn, body[data-busy] while a run or a read is under way.
import reference from '../../model/reference.json';
import card from '../../model/model.json';
import { findAdapter } from '../adapter.js';
import { formatMs } from '../timing.js';
import { examplesOf, inputOf, SIZE } from './scenes.js';
import { ImageInput } from './input.js';
import { fetchModel, openModel, runModel } from './model.js';
import { boxSide, drawLabels, drawLegend, drawScene } from './render.js';
import { StageView } from './stage.js';

const $ = (id) => document.getElementById(id);
const NAME = { wasm: 'WebAssembly', webgpu: 'WebGPU' };
const state = { bytes: null, models: {}, backend: 'wasm', adapter: null, result: null, other: null, runId: 0, busy: 0 };
const view = new StageView(reference.channels);

function showErrors(errors) {
  $('error').hidden = errors.length === 0;
  $('error').replaceChildren(...errors.map((e) => {
    const line = document.createElement('code');
    line.textContent = e instanceof Error ? `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}` : String(e);
    return line;
  }));
}
const fail = (e) => showErrors([e]);

/** Runs `fn` with body[data-busy] set (nested calls count). */
async function busy(fn) {
  state.busy++;
  document.body.dataset.busy = 'true';
  try {
    return await fn();
  } finally {
    if (--state.busy === 0) delete document.body.dataset.busy;
  }
}

const side = () => boxSide($('p-input'));

function drawInput(scene) {
  drawScene($('input'), scene, side());
}

/** Labels of the shown result, and how many pixels are right where the scene knows its classes. */
function drawResult(scene, r) {
  drawLabels($('labels'), scene, r.labels, side());
  drawLegend($('class-legend'), r.labels);
  $('s-labels').textContent = `[1, ${SIZE}, ${SIZE}] ${NAME[r.backend]}`;
  if (scene.truth) {
    let right = 0;
    for (let i = 0; i < r.labels.length; i++) right += r.labels[i] === scene.truth[i] ? 1 : 0;
    $('accuracy').textContent = `${(100 * right / r.labels.length).toFixed(1)} % of the ${r.labels.length} pixels ` +
      `as drawn (${r.labels.length - right} wrong).`;
  } else {
    $('accuracy').textContent = 'Your image: the page does not know its true classes.';
  }
}

function showTimes() {
  const t = (b) => {
    const m = state.models[b];
    if (m?.ms === undefined) return '—';
    return `${formatMs(m.ms)}${m.runs === 1 ? ` (first run${b === 'webgpu' ? ', compiles shaders' : ''})` : ''}`;
  };
  $('t-run').textContent = state.adapter
    ? `Inference: ${NAME.wasm} ${t('wasm')} · ${NAME.webgpu} ${t('webgpu')}`
    : `Inference: ${NAME.wasm} ${t('wasm')}`;
}

/** Opens the model on a backend once (WebGPU: on first use). */
async function modelOn(backend) {
  if (!state.models[backend]) {
    const t0 = performance.now();
    state.models[backend] = await openModel(state.bytes, backend);
    state.models[backend].openMs = performance.now() - t0;
  }
  return state.models[backend];
}

/**
 * Runs the model on the scene: on WebAssembly always, and on WebGPU too
 * when it is chosen (its labels are then compared with WebAssembly's).
 */
async function run(scene) {
  drawInput(scene);
  if (!state.bytes) return;
  const id = ++state.runId;
  const x = inputOf(scene);
  await busy(async () => {
    try {
      const results = {};
      for (const b of state.backend === 'webgpu' ? ['wasm', 'webgpu'] : ['wasm']) {
        const first = !state.models[b]?.runs;
        $('t-run').textContent = `Inference: running on ${NAME[b]}…${first && b === 'webgpu' ? ' (the first run compiles its shaders)' : ''}`;
        const model = await modelOn(b);
        results[b] = await runModel(model, x);
        model.ms = results[b].ms;
        model.runs = (model.runs ?? 0) + 1;
      }
      if (id !== state.runId) {
        for (const r of Object.values(results)) r.dispose();
        return;
      }
      state.result?.dispose();
      state.other?.dispose();
      state.result = results[state.backend];
      state.other = state.backend === 'webgpu' ? results.wasm : null;
      showTimes();
      showSame(results);
      showErrors([]);
      drawResult(scene, state.result);
      await drawStage(id);
    } catch (e) {
      showTimes();
      if (id === state.runId) fail(e);
      if (state.backend === 'webgpu' && !state.models.webgpu) useBackendAfterFailure(e);
    }
  });
}

function showSame(results) {
  const el = $('same');
  el.hidden = !results.webgpu;
  if (!results.webgpu) return;
  const a = results.wasm.labels, b = results.webgpu.labels;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff += a[i] === b[i] ? 0 : 1;
  el.textContent = diff === 0 ? `WebGPU labels = WebAssembly labels (all ${a.length} pixels)`
    : `WebGPU labels DIFFER from WebAssembly's at ${diff} of ${a.length} pixels`;
  el.classList.toggle('bad', diff !== 0);
}

/** WebGPU could not open the model: say so, and go on on WebAssembly. */
function useBackendAfterFailure(e) {
  state.backend = 'wasm';
  $('backend').value = 'wasm';
  $('backend').querySelector('option[value=webgpu]').disabled = true;
  $('gpu-note').textContent = `WebGPU: the model could not run there (${e.message}); it runs on WebAssembly`;
  run(input.scene);
}

async function setUpBackends() {
  const found = await findAdapter();
  const note = $('gpu-note');
  if (!found.adapter) {
    note.textContent = `WebGPU: not available: ${found.reason}. The model runs on WebAssembly.`;
    document.body.dataset.webgpu = 'none';
    return;
  }
  state.adapter = found.name;
  note.textContent = `WebGPU adapter: ${found.name}`;
  document.body.dataset.webgpu = 'available';
  $('backend-switch').hidden = false;
  $('backend').addEventListener('change', () => {
    state.backend = $('backend').value;
    document.body.dataset.backend = state.backend;
    run(input.scene);
  });
}

function wireRedraws() {
  for (const id of ['stage', 'channel']) {
    $(id).addEventListener('change', () => busy(() => drawStage(state.runId)).catch(fail));
  }
  let t;
  window.addEventListener('resize', () => {
    clearTimeout(t);
    t = setTimeout(() => {
      drawInput(input.scene);
      if (!state.result) return;
      drawResult(input.scene, state.result);
      busy(() => drawStage(state.runId)).catch(fail);
    }, 100);
  });
}

/** Draws the chosen stage of the shown result, unless a newer run came meanwhile. */
const drawStage = (id) => {
  const r = state.result;
  return r ? view.draw(r, state.models[r.backend], () => id === state.runId && r === state.result) : undefined;
};

const examples = examplesOf(reference);
const input = new ImageInput($('input'), examples, (scene) => run(scene), fail);

async function main() {
  const acc = card.held_out;
  drawInput(input.scene);
  wireRedraws();
  await setUpBackends();
  try {
    state.bytes = await fetchModel();
    $('m-model').textContent = `Model: SegNet, ${(state.bytes.length / 1024).toFixed(0)} KiB, ` +
      `${(100 * acc.pixel_accuracy).toFixed(1)} % pixel accuracy on held-out scenes (mean IoU ${acc.mean_iou.toFixed(2)})`;
  } catch (e) {
    $('m-model').textContent = 'Model: not loaded';
    fail(e);
  }
  await run(input.scene);
  document.body.dataset.ready = 'true';
}

main().catch((e) => {
  fail(e);
  console.error(e);
});
