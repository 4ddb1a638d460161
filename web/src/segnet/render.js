// Drawing of the model page: the input, the labels over it, and a stage's
// five planes (encoder map, pooled map, switches, decoder map, unpooled map),
// each at the same display size, so a pooled cell covers exactly its window
// in the encoder panel and an unpooled cell its place.
import { drawImage } from '../view.js';
import { offsetRgb, css } from '../geometry.js';
import { CLASS_RGB, CLASSES, SIZE } from './scenes.js';

/** Display side in CSS pixels of every map: the panel's width, 96..240. */
export function boxSide(panel) {
  return Math.max(96, Math.min(240, panel.clientWidth - 26));
}

/** RGBA of H x W RGB bytes. */
function rgbaOf(rgb, n) {
  const rgba = new Uint8ClampedArray(n * 4);
  for (let i = 0; i < n; i++) {
    rgba.set(rgb.subarray(i * 3, i * 3 + 3), i * 4);
    rgba[i * 4 + 3] = 255;
  }
  return rgba;
}

/** The input scene on `stage` (a canvas of SIZE x SIZE pixels). */
export function drawScene(stage, scene, side) {
  return drawImage(stage, SIZE, SIZE, side / SIZE, rgbaOf(scene.rgb, SIZE * SIZE));
}

/**
 * The labels on `stage`: the input, and over it a canvas of the class
 * colours (background clear), one pixel a label, its bytes exactly
 * CLASS_RGB (the tests read them back); its opacity is CSS's.
 */
export function drawLabels(stage, scene, labels, side) {
  const canvas = drawScene(stage, scene, side);
  canvas.classList.add('under');
  const over = document.createElement('canvas');
  over.width = over.height = SIZE;
  over.className = 'labels';
  over.style.width = `${side}px`;
  const rgba = new Uint8ClampedArray(SIZE * SIZE * 4);
  for (let i = 0; i < SIZE * SIZE; i++) {
    if (labels[i] === 0) continue;
    rgba.set([...CLASS_RGB[labels[i]], 255], i * 4);
  }
  over.getContext('2d').putImageData(new ImageData(rgba, SIZE, SIZE), 0, 0);
  canvas.after(over);
  return over;
}

/** The legend of the classes with how many pixels of each the model labelled. */
export function drawLegend(el, labels) {
  const counts = new Array(CLASSES.length).fill(0);
  for (const l of labels ?? []) counts[l]++;
  el.replaceChildren(...CLASSES.map((name, k) => {
    const item = document.createElement('span');
    const sw = document.createElement('i');
    sw.style.background = k === 0 ? 'transparent' : css(CLASS_RGB[k]);
    item.append(sw, `${name}${labels ? ` ${counts[k]}` : ''}`);
    return item;
  }));
}

// Viridis at 9 stops: dark blue (small) to yellow (the plane's largest value).
const STOPS = [[68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
  [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37]];
const ZERO = [14, 16, 26];

/** Colour of value v in 0..hi: exact zeros (what unpooling fills in) darker than any colour. */
export function valueRgb(v, hi) {
  if (!(v > 0) || !(hi > 0)) return ZERO;
  const t = Math.min(1, v / hi) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(t));
  const f = t - i;
  return STOPS[i].map((a, k) => Math.round(a + f * (STOPS[i + 1][k] - a)));
}

/** The largest value of some planes (the shared scale of a stage's two sides). */
export const planeMax = (...planes) => planes.reduce((m, p) => p.reduce((a, v) => (v > a ? v : a), m), 0);

function drawMap(stage, H, W, side, colour) {
  const rgba = new Uint8ClampedArray(H * W * 4);
  for (let i = 0; i < H * W; i++) rgba.set([...colour(i), 255], i * 4);
  return drawImage(stage, H, W, side / W, rgba);
}

/** A float plane, coloured on the scale 0..hi. */
export const drawValues = (stage, H, W, side, plane, hi) => drawMap(stage, H, W, side, (i) => valueRgb(plane[i], hi));

/**
 * The switches of a pool (geometry `geo`) over an encoder map geo.W wide:
 * each pooled cell coloured by where in its window the maximum was, dimmed
 * where the whole window was 0 (ReLU's zeros: the first cell wins the tie).
 */
export function drawSwitches(stage, h, w, side, plane, pooled, geo) {
  const [k] = geo.kernel;
  return drawMap(stage, h, w, side, (i) => {
    const idx = Number(plane[i]);
    const r = Math.floor(idx / geo.W), c = idx - r * geo.W;
    const a = r - (Math.floor(i / w) * geo.stride[0] - geo.pads[0]);
    const b = c - ((i % w) * geo.stride[1] - geo.pads[1]);
    const rgb = a >= 0 && a < k && b >= 0 && b < k ? offsetRgb(a, b, k) : [150, 150, 150];
    return pooled[i] > 0 ? rgb : rgb.map((v, j) => Math.round(0.3 * v + 0.7 * ZERO[j]));
  });
}
