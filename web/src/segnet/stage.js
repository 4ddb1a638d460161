// One pool/unpool stage of the model page, for one channel: the stage and
// channel controls, the five maps (encoder, pooled, switches, decoder,
// unpooled) read from the run's result and drawn at one size, and the
// hovered or focused cell with its explanation (explain.js).
import { cellFromPointer } from '../view.js';
import { renderLegend } from '../panels.js';
import { boxSide, drawSwitches, drawValues, planeMax } from './render.js';
import { explain, moveSelection } from './explain.js';

const $ = (id) => document.getElementById(id);
const MAPS = ['encoder', 'pooled', 'switches', 'decoder', 'unpooled'];
const HINT = 'Hover a cell of the unpooled or pooled map (or focus one and use the arrow keys) to see which encoder window its value came from.';

export class StageView {
  /** `channels`: per stage, the channel shown first (reference.json's). */
  constructor(channels) {
    this.channels = channels ?? [];
    this.maps = Object.fromEntries(MAPS.map((k) => [k, $(k)]));
    this.drawn = null;  // {stage, channel, geo, planes}
    this.sel = null;    // {panel: 'unpooled' | 'pooled', r, c}
    this.channelsOf = null;
    this.wire();
  }

  /** The stage and channel controls, from the model's stages and the result's shapes. */
  controls(model, r) {
    const sel = $('stage');
    if (sel.options.length !== model.stages.length) {
      sel.replaceChildren(...model.stages.map((s) => {
        const [, C, H, W] = r.dims(s.values.encoder);
        const [, , h, w] = r.dims(s.values.pooled);
        return new Option(`${s.number}: ${H}×${W} → ${h}×${w}, ${C} channels`, String(s.number - 1));
      }));
    }
    const stage = model.stages[Number(sel.value)];
    const C = r.dims(stage.values.encoder)[1];
    const ch = $('channel');
    if (this.channelsOf !== stage.number) {
      // A new stage starts on its most active channel (reference.json's channels, from PyTorch).
      this.channelsOf = stage.number;
      ch.replaceChildren(...Array.from({ length: C }, (_, c) => new Option(String(c), String(c))));
      ch.value = String(Math.min(C - 1, this.channels[stage.number - 1] ?? 0));
    }
    $('network').replaceChildren(...model.stages.flatMap((s) => {
      const [, C1, H, W] = r.dims(s.values.encoder);
      const [, , h, w] = r.dims(s.values.pooled);
      const li = document.createElement('li');
      li.textContent = `stage ${s.number}: encoder ${H}×${W}×${C1} → pool ${s.kernel.join('×')} → ${h}×${w}; ` +
        `decoder ${h}×${w} → unpool → ${H}×${W}`;
      li.classList.toggle('current', s === stage);
      return [li];
    }));
    return stage;
  }

  /** Reads and draws the chosen stage's five planes of the chosen channel (only those are read back). */
  async draw(r, model, current) {
    const stage = this.controls(model, r);
    const channel = Number($('channel').value);
    const v = stage.values;
    const planes = await r.planes(MAPS.map((k) => ({ name: v[k], channel })));
    if (!current()) return;
    const p = Object.fromEntries(MAPS.map((k, i) => [k, planes[i]]));
    const [, C, H, W] = r.dims(v.encoder);
    const [, , h, w] = r.dims(v.pooled);
    const s = boxSide(this.maps.encoder.parentElement);
    const hiEnc = planeMax(p.encoder), hiDec = planeMax(p.decoder, p.unpooled);
    drawValues(this.maps.encoder, H, W, s, p.encoder, hiEnc);
    drawValues(this.maps.pooled, h, w, s, p.pooled, hiEnc);
    const geo = { kernel: stage.kernel, stride: stage.stride, pads: stage.pads, dilation: stage.dilation, H, W, h, w };
    drawSwitches(this.maps.switches, h, w, s, p.switches, p.pooled, geo);
    renderLegend($('switch-legend'), stage.kernel[0]);
    drawValues(this.maps.decoder, h, w, s, p.decoder, hiDec);
    drawValues(this.maps.unpooled, H, W, s, p.unpooled, hiDec);
    for (const k of MAPS) {
      $(`s-${k}`).textContent = `[1, ${C}, ${k === 'encoder' || k === 'unpooled' ? `${H}, ${W}` : `${h}, ${w}`}] ${r.type(v[k])}`;
    }
    $('stage-title').textContent = `Stage ${stage.number}, channel ${channel}: ${stage.pool} and ${stage.unpool}`;
    $('decoder-note').textContent = v.decoder === v.pooled
      ? 'The innermost unpool takes the pool\'s own output: the same map as Pooled.'
      : 'The unpool\'s input: the decoder\'s features at the pooled size.';
    this.drawn = { stage: stage.number, channel, geo, planes: p };
    if (this.sel && !this.inside(this.sel)) this.sel = null;
    this.select(this.sel);
  }

  /** Whether a selection lies inside the drawn maps. */
  inside(sel) {
    const g = this.drawn.geo;
    const [H, W] = sel.panel === 'pooled' ? [g.h, g.w] : [g.H, g.W];
    return sel.r < H && sel.c < W;
  }

  select(sel) {
    this.sel = sel;
    $('info').textContent = (this.drawn && sel && explain(this.maps, this.drawn, sel)) || HINT;
    if (!sel) explain(this.maps, null, null);
  }

  /** The pointer over the unpooled map (or a pooled-size map), focus and the arrow keys. */
  wire() {
    const panels = { unpooled: 'unpooled', pooled: 'pooled', switches: 'pooled', decoder: 'pooled' };
    for (const [id, panel] of Object.entries(panels)) {
      const stage = this.maps[id];
      stage.addEventListener('pointermove', (e) => {
        const cell = cellFromPointer(stage, e);
        const s = this.sel;
        if (cell && (cell.r !== s?.r || cell.c !== s?.c || s?.panel !== panel)) this.select({ panel, ...cell });
      });
    }
    for (const panel of ['unpooled', 'pooled']) {
      this.maps[panel].addEventListener('focus', () => { if (this.sel?.panel !== panel) this.select({ panel, r: 0, c: 0 }); });
      this.maps[panel].addEventListener('keydown', (e) => {
        const g = this.drawn?.geo;
        if (!g) return;
        const [H, W] = panel === 'pooled' ? [g.h, g.w] : [g.H, g.W];
        const next = moveSelection(e, this.sel, panel, H, W);
        if (next) this.select(next);
      });
    }
  }
}
