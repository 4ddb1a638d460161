// The model page's image: an example (reference.json), a random scene, a
// blank to draw on, or the visitor's file; drawing shapes on it with the
// pointer (drag) or the keyboard ("Add at random"), with undo. Calls
// onChange(scene) with every new image.
import { SIZE, SHAPES, blankScene, copyScene, paint, randomScene, randomShape } from './scenes.js';
import { sceneFromFile } from './image-file.js';
import { rng } from '../sources.js';
import { onFileDrop } from '../view.js';

const $ = (id) => document.getElementById(id);

const hexRgb = (hex) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));

/** The shape of `type` dragged from p0 to p1 (tensor coordinates). */
export function draggedShape(type, p0, p1) {
  const dx = p1.x - p0.x, dy = p1.y - p0.y;
  const dist = Math.hypot(dx, dy);
  if (type === 'disc') return { type, cx: p0.x, cy: p0.y, r: Math.max(3, dist) };
  if (type === 'square') {
    const half = Math.max(3, Math.abs(dx), Math.abs(dy));
    return { type, x0: p0.x - half, y0: p0.y - half, side: 2 * half };
  }
  if (type === 'triangle') return { type, cx: p0.x, cy: p0.y, r: Math.max(5, dist), angle: dist > 1 ? Math.atan2(dx, -dy) : 0 };
  const [x1, y1] = dist > 3 ? [p1.x, p1.y] : [p0.x + 12, p0.y];
  return { type, x0: p0.x, y0: p0.y, x1, y1, width: 2 };
}

export class ImageInput {
  /** `examples`: the scenes of reference.json; `onChange(scene)`, `onError(error)`. */
  constructor(stage, examples, onChange, onError) {
    Object.assign(this, { stage, examples, onChange, onError });
    this.scene = copyScene(examples[0]);
    this.history = [];
    this.seed = 1;
    this.file = null;
    this.fillSources();
    this.wire();
  }

  fillSources() {
    const group = (label, items) => {
      const g = document.createElement('optgroup');
      g.label = label;
      for (const [value, text] of items) g.append(new Option(text, value));
      return g;
    };
    $('source').replaceChildren(
      group('Examples (PyTorch labels checked)', this.examples.map((e, i) => [`example:${i}`, e.name])),
      group('Other', [['random', 'Random scene'], ['blank', 'Blank (draw on it)'], ['file', 'Your image…']]),
    );
  }

  set(scene, keepHistory = false) {
    if (!keepHistory) this.history = [];
    this.scene = scene;
    $('undo').disabled = this.history.length === 0;
    this.onChange(scene);
  }

  pickSource() {
    const v = $('source').value;
    if (v.startsWith('example:')) this.set(copyScene(this.examples[Number(v.slice(8))]));
    else if (v === 'random') this.set(randomScene(this.seed));
    else if (v === 'blank') this.set(blankScene());
    else if (v === 'file') {
      if (this.file) this.set(copyScene(this.file));
      else $('file').click();
    }
  }

  async loadFile(file) {
    if (!file) return;
    try {
      this.file = await sceneFromFile(file);
      $('source').value = 'file';
      this.set(copyScene(this.file));
    } catch (e) {
      this.onError(e);
    }
  }

  /** Draws `shape` on (a copy of) the scene; undo goes back. */
  draw(shape) {
    this.history.push(this.scene);
    if (this.history.length > 30) this.history.shift();
    const scene = copyScene(this.scene, this.scene.name.startsWith('Your drawing') ? this.scene.name : `Your drawing (on ${this.scene.name})`);
    paint(scene, shape, hexRgb($('colour').value));
    this.set(scene, true);
  }

  /** Tensor coordinates (0..SIZE) of a pointer event over the input canvas. */
  point(e) {
    const rect = this.stage.firstElementChild.getBoundingClientRect();
    return { x: ((e.clientX - rect.left) / rect.width) * SIZE, y: ((e.clientY - rect.top) / rect.height) * SIZE };
  }

  wire() {
    $('source').addEventListener('change', () => this.pickSource());
    $('new-scene').addEventListener('click', () => {
      this.seed += 1;
      $('source').value = 'random';
      this.set(randomScene(this.seed));
    });
    $('file').addEventListener('change', (e) => this.loadFile(e.target.files[0]));
    $('add-shape').addEventListener('click', () => {
      const next = rng(0x9e3779b9 ^ (this.seed++ * 7919));
      this.draw(randomShape(next, $('tool').value));
    });
    $('undo').addEventListener('click', () => {
      const prev = this.history.pop();
      if (prev) this.set(prev, true);
    });
    $('blank').addEventListener('click', () => { $('source').value = 'blank'; this.set(blankScene()); });
    onFileDrop($('p-input'), (f) => this.loadFile(f));
    let start = null;
    this.stage.addEventListener('pointerdown', (e) => {
      if (!this.stage.firstElementChild) return;
      start = this.point(e);
      try {
        this.stage.setPointerCapture(e.pointerId);  // the drag may end outside the canvas
      } catch { /* not an active pointer (a synthetic event) */ }
      e.preventDefault();
    });
    this.stage.addEventListener('pointerup', (e) => {
      if (!start) return;
      const shape = draggedShape($('tool').value, start, this.point(e));
      start = null;
      if (SHAPES[shape.type]) this.draw(shape);
    });
    this.stage.addEventListener('pointercancel', () => { start = null; });
  }
}
