// What the model page's tests compare with: PyTorch's labels of the page's
// examples (web/model/reference.json, written by web/model/train.py), and
// the model's five maps per stage computed here in Node, by unpool/onnx on
// onnxruntime-web's wasm EP (the page's own runtime), independently of the
// page, for checking where its hover explanation points.
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-web';
import { createSession } from '../../dist/onnx/index.js';

const root = new URL('../../', import.meta.url);
export const SIZE = 48;
/** The labels panel's class colours (web/src/segnet/scenes.js CLASS_RGB). */
export const CLASS_RGB = [[0, 0, 0], [230, 57, 70], [46, 196, 110], [64, 120, 242], [250, 204, 21]];

const fromBase64 = (s) => new Uint8Array(Buffer.from(s, 'base64'));

/** reference.json with its examples decoded: {name, rgb, truth, labels (PyTorch's)}. */
export function loadReference() {
  const ref = JSON.parse(readFileSync(new URL('web/model/reference.json', root), 'utf8'));
  return {
    ...ref,
    examples: ref.examples.map((e) => ({ ...e, rgb: fromBase64(e.image), truth: fromBase64(e.truth), labels: fromBase64(e.labels) })),
  };
}

/** Class labels from the labels canvas's RGBA bytes (alpha 0: background); -1 for a colour of no class. */
export function labelsOf(rgba) {
  const out = new Int16Array(rgba.length / 4);
  for (let i = 0; i < out.length; i++) {
    if (rgba[i * 4 + 3] === 0) continue;
    const [r, g, b] = rgba.slice(i * 4, i * 4 + 3);
    out[i] = CLASS_RGB.findIndex(([x, y, z], k) => k > 0 && x === r && y === g && z === b);
  }
  return out;
}

/** The pixels where two label arrays differ, as "i: got/want" (the first 10). */
export function labelDiff(got, want) {
  const bad = [];
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) bad.push(`${i}: ${got[i]}/${want[i]}`);
  return bad.length === 0 ? '' : `${bad.length} pixels differ: ${bad.slice(0, 10).join(', ')}`;
}

let session;

/**
 * The model run in Node on an example's RGB bytes: the labels, and per
 * stage (the k-th MaxPool and the MaxUnpool reading its indices) the five
 * maps as {dims, data}.
 */
export async function nodeRun(rgb) {
  ort.env.wasm.numThreads = 1;
  session ??= await createSession(readFileSync(new URL('web/model/segnet.onnx', root)),
    { ort, executionProviders: ['wasm'], unpoolNodes: 'all' });
  const pools = session.steps.filter((s) => s.op === 'MaxPool');
  const unpools = session.steps.filter((s) => s.op === 'MaxUnpool');
  const stages = pools.map((p) => {
    const u = unpools.find((s) => s.inputs[1] === p.outputs[1]);
    return { encoder: p.inputs[0], pooled: p.outputs[0], switches: p.outputs[1], decoder: u.inputs[0], unpooled: u.outputs[0] };
  });
  const n = SIZE * SIZE;
  const x = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) x[k * n + i] = rgb[i * 3 + k] / 255;
  const names = [...new Set(['labels', ...stages.flatMap((s) => Object.values(s))])];
  const out = await session.run({ image: new ort.Tensor('float32', x, [1, 3, SIZE, SIZE]) }, names);
  const t = (name) => ({ dims: out[name].dims, data: out[name].data });
  return {
    labels: Uint8Array.from(out.labels.data, Number),
    stages: stages.map((s) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, t(v)]))),
  };
}

/** Channel `c`'s plane of a map {dims: [1, C, H, W], data}. */
export function planeOf(map, c) {
  const [, , H, W] = map.dims;
  return { H, W, data: map.data.subarray(c * H * W, (c + 1) * H * W) };
}

/**
 * Cells of stage map `maps` (channel c) to hover, each with where the page
 * must point: `written`, an unpooled cell a switch points at; `zero`, an
 * unpooled 0 whose window's maximum lies elsewhere. Only windows whose
 * maximum is clear (the largest value 1e-3 above the next) are picked, so a
 * rounding difference between runtimes cannot move the maximum.
 */
export function hoverCells(maps, c) {
  const enc = planeOf(maps.encoder, c), sw = planeOf(maps.switches, c), pooled = planeOf(maps.pooled, c);
  const found = {};
  for (let i = 0; i < pooled.H * pooled.W && !(found.written && found.zero); i++) {
    const pr = Math.floor(i / pooled.W), pc = i % pooled.W;
    const cells = [0, 1, 2, 3].map((k) => (2 * pr + (k >> 1)) * enc.W + 2 * pc + (k & 1));
    const vals = cells.map((j) => enc.data[j]).sort((a, b) => b - a);
    if (!(vals[0] > 0 && vals[0] - vals[1] > 1e-3)) continue;
    // The window's maximum from the encoder's values (scan order), not from the library's switches.
    const at = cells.reduce((best, j) => (enc.data[j] > enc.data[best] ? j : best), cells[0]);
    if (Number(sw.data[i]) !== at) throw new Error(`Node: pooled (${pr}, ${pc}) switch ${sw.data[i]}, the window's maximum is at ${at}`);
    const window = [2 * pr, 2 * pc, 2 * pr + 2, 2 * pc + 2];
    const argmax = [Math.floor(at / enc.W), at % enc.W];
    const pick = { pooled: [pr, pc], window, argmax: [...argmax, argmax[0] + 1, argmax[1] + 1], index: at };
    if (!found.written) found.written = { ...pick, cell: argmax };
    else if (!found.zero) found.zero = { ...pick, cell: cells.map((j) => [Math.floor(j / enc.W), j % enc.W]).find(([r, cc]) => r * enc.W + cc !== at) };
  }
  return found;
}
