// Hover/focus of a pooled cell: its window in the input, its argmax, the
// cell where unpooling puts its value, and the pooled cells that share that
// index when windows overlap (the last one written wins).
import { windowOf, cellOf, cellsWithIndex, pooledPlane } from './geometry.js';
import { addBox, clearMarks, cellAt, formatValue } from './view.js';

const rc = (r, c) => `(${r}, ${c})`;

function markInput(stage, win, arg, prm) {
  const { rows, cols } = win;
  addBox(stage, rows[0], cols[0], rows[rows.length - 1] + 1, cols[cols.length - 1] + 1, 'window');
  for (const r of rows) {
    for (const c of cols) {
      if (prm.mode === 'max' && prm.dilation > 1) addBox(stage, r, c, r + 1, c + 1, 'sample');
      cellAt(stage, r, c)?.classList.add('in-window');
    }
  }
  if (arg) {
    addBox(stage, arg.r, arg.c, arg.r + 1, arg.c + 1, 'argmax');
    cellAt(stage, arg.r, arg.c)?.classList.add('is-max');
  }
}

function markPooled(stages, sel, dups) {
  for (const stage of stages) {
    if (dups.length > 1) {
      dups.forEach((d, i) => {
        const last = i === dups.length - 1;
        addBox(stage, d.r, d.c, d.r + 1, d.c + 1, last ? 'dup winner' : 'dup', last ? 'wins' : '');
        cellAt(stage, d.r, d.c)?.classList.add('dup');
      });
    }
    addBox(stage, sel.r, sel.c, sel.r + 1, sel.c + 1, 'selected');
    cellAt(stage, sel.r, sel.c)?.classList.add('sel');
  }
}

function describe(res, sel, win, index, arg, land, dups) {
  const { prm, pooled, src } = res;
  const ch = src.kind === 'image' ? ` of the ${'RGBA'[res.channel]} channel` : '';
  const { base, step } = pooledPlane(pooled, res.channel);
  const value = pooled.data[base + (sel.r * pooled.OW + sel.c) * step];
  const span = (v) => `${v[0]}..${v[v.length - 1]}${prm.dilation > 1 ? ` step ${prm.dilation}` : ''}`;
  const kind = { max: '', adaptive: 'adaptive window, ', fractional: 'fractional window, ' }[prm.mode];
  let text = `Pooled ${rc(sel.r, sel.c)}${ch} = ${formatValue(value)}: the maximum of ${kind}rows ` +
    `${span(win.rows)}, cols ${span(win.cols)} of the input`;
  text += arg ? `, found at ${rc(arg.r, arg.c)} (flat index ${index} = ${arg.r}·${src.W} + ${arg.c}).`
    : `; the window lies in padding (index ${index}).`;
  if (land) text += ` Unpooling writes it at ${rc(land.r, land.c)} of the ${res.out.H}×${res.out.W} result.`;
  else if (res.out) text += ` Index ${index} lies outside the ${res.out.H}×${res.out.W} result.`;
  if (dups.length > 1) {
    const w = dups[dups.length - 1];
    text += ` Windows overlap: ${dups.length} pooled cells, ${dups.map((d) => rc(d.r, d.c)).join(', ')},` +
      ` all chose index ${index}; unpooling writes them in order, so the last, ${rc(w.r, w.c)}, wins` +
      ' (with the same value).';
  }
  return text;
}

/** Highlights pooled cell `sel` of result `res` on the four stages; returns the explanation. */
export function highlight(stages, res, sel) {
  for (const stage of Object.values(stages)) clearMarks(stage);
  if (!res || !sel) return '';
  const { pooled, src, prm } = res;
  if (sel.r >= pooled.OH || sel.c >= pooled.OW) return '';
  const plane = pooledPlane(pooled, res.channel);
  const index = Number(pooled.indices[plane.base + (sel.r * pooled.OW + sel.c) * plane.step]);
  const win = windowOf(sel.r, sel.c, res);
  const inside = index >= 0 && index < src.H * src.W;
  const arg = inside ? cellOf(index, src.W) : null;
  markInput(stages.input, win, arg, prm);
  const dups = cellsWithIndex(pooled.indices, plane, pooled.OH, pooled.OW, index);
  markPooled([stages.pooled, stages.indices], sel, dups);
  let land = null;
  if (res.out && index >= 0 && index < res.out.H * res.out.W) {
    land = cellOf(index, res.out.W);
    addBox(stages.unpool, land.r, land.c, land.r + 1, land.c + 1, 'argmax');
    cellAt(stages.unpool, land.r, land.c)?.classList.add('lands');
  }
  return describe(res, sel, win, index, arg, land, dups);
}
