// Hover or focus of a cell of a stage: for an unpooled cell, the pooled cell
// whose switch put a value there (or, for a 0, the window that holds it and
// where its maximum was instead), and that window in the encoder map; for a
// pooled cell, its window, its maximum and where the decoder's value lands.
// Works on the planes the page drew (one channel of a stage).
import { windowLine, cellOf } from '../geometry.js';
import { addBox, clearMarks } from '../view.js';

const rc = (r, c) => `(${r}, ${c})`;
const num = (v) => (v === 0 ? '0' : Math.abs(v) >= 100 ? v.toFixed(1) : v.toPrecision(3));

/** Rows and cols of the window of pooled cell (pr, pc), clipped to the map. */
function windowOf(pr, pc, geo) {
  const line = (o, a) => windowLine(o, geo.kernel[a], geo.stride[a], geo.pads[a], geo.dilation[a])
    .filter((v) => v >= 0 && v < (a === 0 ? geo.H : geo.W));
  return { rows: line(pr, 0), cols: line(pc, 1) };
}

/** The pooled cells whose windows hold encoder cell (r, c). */
function windowsHolding(r, c, geo) {
  const found = [];
  for (let pr = 0; pr < geo.h; pr++) {
    for (let pc = 0; pc < geo.w; pc++) {
      const win = windowOf(pr, pc, geo);
      if (win.rows.includes(r) && win.cols.includes(c)) found.push({ r: pr, c: pc });
    }
  }
  return found;
}

/** The pooled cells whose switch points at flat index `index`, in order (the last one's write wins). */
function writersOf(switches, index) {
  const found = [];
  for (let i = 0; i < switches.length; i++) if (Number(switches[i]) === index) found.push(i);
  return found;
}

function markWindow(stages, win, argmax) {
  const { rows, cols } = win;
  if (rows.length && cols.length) addBox(stages.encoder, rows[0], cols[0], rows[rows.length - 1] + 1, cols[cols.length - 1] + 1, 'window');
  if (argmax) addBox(stages.encoder, argmax.r, argmax.c, argmax.r + 1, argmax.c + 1, 'argmax');
}

function markPooled(stages, p) {
  for (const k of ['pooled', 'switches', 'decoder']) addBox(stages[k], p.r, p.c, p.r + 1, p.c + 1, 'selected');
}

/** What pooled cell p of the stage means: its window, maximum, and where the decoder's value goes. */
function poolText(d, p) {
  const { geo, planes } = d;
  const i = p.r * geo.w + p.c;
  const index = Number(planes.switches[i]);
  const at = cellOf(index, geo.W);
  const win = windowOf(p.r, p.c, geo);
  const span = (v) => `${v[0]}..${v[v.length - 1]}`;
  return {
    index, at, win,
    text: `the encoder's pool took the maximum of rows ${span(win.rows)}, cols ${span(win.cols)}: ` +
      `${num(planes.encoder[index])} at ${rc(at.r, at.c)} (switch ${index} = ${at.r}·${geo.W} + ${at.c})`,
  };
}

/**
 * Highlights for a selection {panel: 'unpooled' | 'pooled', r, c} of drawn
 * stage `d` ({geo, planes, channel, stage}); returns the explanation.
 */
export function explain(stages, d, sel) {
  for (const s of Object.values(stages)) clearMarks(s);
  if (!d || !sel) return '';
  const { geo, planes } = d;
  const ch = `channel ${d.channel}`;
  if (sel.panel === 'pooled') {
    const p = { r: sel.r, c: sel.c };
    const i = p.r * geo.w + p.c;
    const why = poolText(d, p);
    markWindow(stages, why.win, why.at);
    markPooled(stages, p);
    addBox(stages.unpooled, why.at.r, why.at.c, why.at.r + 1, why.at.c + 1, 'argmax');
    return `Pooled ${rc(p.r, p.c)} of stage ${d.stage}, ${ch} = ${num(planes.pooled[i])}: ${why.text}. ` +
      `The decoder's value there, ${num(planes.decoder[i])}, is unpooled to ${rc(why.at.r, why.at.c)}.`;
  }
  const { r, c } = sel;
  const index = r * geo.W + c;
  const value = planes.unpooled[index];
  addBox(stages.unpooled, r, c, r + 1, c + 1, 'selected');
  const writers = writersOf(planes.switches, index);
  if (writers.length > 0) {
    const last = writers[writers.length - 1];
    const p = { r: Math.floor(last / geo.w), c: last % geo.w };
    const why = poolText(d, p);
    markWindow(stages, why.win, why.at);
    markPooled(stages, p);
    const dup = writers.length > 1 ? ` ${writers.length} switches point here; the last written, ${rc(p.r, p.c)}, wins.` : '';
    return `Unpooled ${rc(r, c)} of stage ${d.stage}, ${ch} = ${num(value)}: the decoder's value at pooled ` +
      `${rc(p.r, p.c)}, put here by its switch: ${why.text}.${dup}`;
  }
  const holders = windowsHolding(r, c, geo);
  if (holders.length === 0) return `Unpooled ${rc(r, c)}, ${ch} = ${num(value)}: no window of the pool holds it.`;
  const p = holders[0];
  const why = poolText(d, p);
  markWindow(stages, why.win, why.at);
  markPooled(stages, p);
  addBox(stages.unpooled, why.at.r, why.at.c, why.at.r + 1, why.at.c + 1, 'argmax');
  return `Unpooled ${rc(r, c)} of stage ${d.stage}, ${ch} = ${num(value)}: no switch points here. It lies in the ` +
    `window of pooled ${rc(p.r, p.c)}, and ${why.text}, so the decoder's value went to ${rc(why.at.r, why.at.c)} instead.`;
}

/** A selection moved by an arrow key inside an H x W panel; null for other keys. */
export function moveSelection(event, sel, panel, H, W) {
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const d = moves[event.key];
  if (!d) return null;
  event.preventDefault();
  if (!sel || sel.panel !== panel) return { panel, r: 0, c: 0 };
  return { panel, r: Math.max(0, Math.min(H - 1, sel.r + d[0])), c: Math.max(0, Math.min(W - 1, sel.c + d[1])) };
}
