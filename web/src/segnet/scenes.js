// The model page's images: 48x48 scenes of discs, squares, triangles and
// lines, drawn as web/model/scenes.py draws the training scenes (pixel
// centres, no antialiasing), with the class of every pixel, so the page can
// say how many pixels the model got right. A scene is
// {rgb: Uint8ClampedArray(H*W*3), truth: Uint8Array(H*W) | null, name}.
import { rng } from '../sources.js';

export const SIZE = 48;
export const CLASSES = ['background', 'disc', 'square', 'triangle', 'line'];
/** Colours of the classes on the labels panel ([r, g, b]; background is drawn clear). */
export const CLASS_RGB = [[0, 0, 0], [230, 57, 70], [46, 196, 110], [64, 120, 242], [250, 204, 21]];

/** Pixel centres (x, y) of pixel i. */
const centre = (i) => [(i % SIZE) + 0.5, Math.floor(i / SIZE) + 0.5];

/** The masks of the four shape kinds (1..4): functions of a pixel centre. */
export const SHAPES = {
  disc: { kind: 1, mask: ({ cx, cy, r }) => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r },
  square: { kind: 2, mask: ({ x0, y0, side }) => (x, y) => x >= x0 && x < x0 + side && y >= y0 && y < y0 + side },
  triangle: {
    kind: 3,
    mask: ({ cx, cy, r, angle }) => {
      const px = [0, 2, 4].map((k) => cx + r * Math.sin(angle + (k * Math.PI) / 3));
      const py = [0, 2, 4].map((k) => cy - r * Math.cos(angle + (k * Math.PI) / 3));
      return (x, y) => [0, 1, 2].every((i) => {
        const j = (i + 1) % 3;
        return (px[j] - px[i]) * (y - py[i]) - (py[j] - py[i]) * (x - px[i]) >= 0;
      });
    },
  },
  line: {
    kind: 4,
    mask: ({ x0, y0, x1, y1, width }) => {
      const dx = x1 - x0, dy = y1 - y0, len2 = dx * dx + dy * dy || 1e-9;
      return (x, y) => {
        const t = Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / len2));
        return (x - x0 - t * dx) ** 2 + (y - y0 - t * dy) ** 2 <= (width / 2) ** 2;
      };
    },
  },
};

/** Paints shape `{type, ...params}` in colour rgb ([0..255] x 3) onto a scene, labels included. */
export function paint(scene, shape, rgb) {
  const inside = SHAPES[shape.type].mask(shape);
  const { kind } = SHAPES[shape.type];
  for (let i = 0; i < SIZE * SIZE; i++) {
    const [x, y] = centre(i);
    if (!inside(x, y)) continue;
    scene.rgb.set(rgb, i * 3);
    if (scene.truth) scene.truth[i] = kind;
  }
}

/** A shape of `type` at a random place and size, as scenes.py draws them. */
export function randomShape(next, type) {
  const u = (a, b) => a + (b - a) * next();
  if (type === 'disc') return { type, cx: u(4, SIZE - 4), cy: u(4, SIZE - 4), r: u(3.5, 9) };
  if (type === 'square') {
    const side = u(6, 15);
    return { type, x0: u(-2, SIZE - side + 2), y0: u(-2, SIZE - side + 2), side };
  }
  if (type === 'triangle') return { type, cx: u(5, SIZE - 5), cy: u(5, SIZE - 5), r: u(5.5, 11), angle: u(0, 2 * Math.PI) };
  const length = u(14, 40), angle = u(0, 2 * Math.PI), x0 = u(4, SIZE - 4), y0 = u(4, SIZE - 4);
  return { type, x0, y0, x1: x0 + length * Math.cos(angle), y1: y0 + length * Math.sin(angle), width: u(1.2, 2.6) };
}

/** A colour (0..1 x 3) whose largest channel difference from `bg` is at least 0.45. */
function colourApart(next, bg) {
  for (;;) {
    const c = [next(), next(), next()];
    if (Math.max(...c.map((v, k) => Math.abs(v - bg[k]))) >= 0.45) return c;
  }
}

const toByte = (v) => Math.round(Math.min(1, Math.max(0, v)) * 255);

/** A standard normal draw (Box-Muller). */
function normal(next) {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

/** A random scene of the training distribution (not the same draws as Python's: the same recipe). */
export function randomScene(seed) {
  const next = rng(seed);
  const bg = [next(), next(), next()];
  const [gx, gy] = [next() * 0.3 - 0.15, next() * 0.3 - 0.15];
  const img = new Float64Array(SIZE * SIZE * 3);
  for (let i = 0; i < SIZE * SIZE; i++) {
    const [x, y] = centre(i);
    const ramp = gx * (x / SIZE - 0.5) + gy * (y / SIZE - 0.5);
    for (let k = 0; k < 3; k++) img[i * 3 + k] = Math.min(1, Math.max(0, bg[k] + ramp));
  }
  const truth = new Uint8Array(SIZE * SIZE);
  const count = 2 + Math.floor(next() * 4);
  for (let s = 0; s < count; s++) {
    const type = Object.keys(SHAPES)[Math.floor(next() * 4)];
    const shape = randomShape(next, type);
    const colour = colourApart(next, bg);
    const inside = SHAPES[type].mask(shape);
    for (let i = 0; i < SIZE * SIZE; i++) {
      if (!inside(...centre(i))) continue;
      img.set(colour, i * 3);
      truth[i] = SHAPES[type].kind;
    }
  }
  const sigma = 0.02 + 0.06 * next();
  const rgb = Uint8ClampedArray.from(img, (v) => toByte(v + sigma * normal(next)));
  return { rgb, truth, name: `Random scene ${seed}` };
}

/** A plain background to draw on. */
export function blankScene(rgb = [28, 30, 44]) {
  const scene = { rgb: new Uint8ClampedArray(SIZE * SIZE * 3), truth: new Uint8Array(SIZE * SIZE), name: 'Your drawing' };
  for (let i = 0; i < SIZE * SIZE; i++) scene.rgb.set(rgb, i * 3);
  return scene;
}

const fromBase64 = (s) => Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0));

/** The example scenes of reference.json, with PyTorch's labels of each. */
export function examplesOf(reference) {
  return reference.examples.map((e) => ({
    name: e.name, rgb: new Uint8ClampedArray(fromBase64(e.image)), truth: fromBase64(e.truth),
    pytorch: fromBase64(e.labels), accuracy: e.accuracy,
  }));
}

/** A copy of a scene (drawing changes it). */
export const copyScene = (s, name = s.name) =>
  ({ rgb: s.rgb.slice(), truth: s.truth ? s.truth.slice() : null, name });

/** The model's input: the RGB bytes as planar float32 in [0, 1], (1, 3, H, W), as train.py makes it. */
export function inputOf(scene) {
  const n = SIZE * SIZE;
  const x = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) x[k * n + i] = scene.rgb[i * 3 + k] / 255;
  }
  return x;
}
