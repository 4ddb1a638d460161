// The report of bench.mjs and browser.mjs: medians over runs and the
// Markdown tables of times and ratios.
import { median } from './timing.mjs';

const fmt = (us) => (us === undefined ? '–' : us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(us < 10 ? 2 : 1)} µs`);
const ratio = (a, b) => (a === undefined || b === undefined ? undefined : a / b);
const fmtRatio = (r) => (r === undefined ? '–' : `${r.toFixed(r < 10 ? 2 : 1)}x`);

const ALL_COLUMNS = ['copy', 'out', 'resident', 'float16', 'bfloat16', 'uint8', 'int8', 'uint8 resident',
                     'scalar copy', 'scalar resident', 'js', 'ort', 'native', 'floor', 'out floor',
                     'uint8 floor'];

/** Cell by cell, the median over `runs` (each `{ workload: { case: µs } }`). */
export function medianOfRuns(runs) {
  const out = {};
  for (const w of new Set(runs.flatMap((r) => Object.keys(r)))) {
    for (const k of new Set(runs.flatMap((r) => Object.keys(r[w] ?? {})))) {
      const v = runs.map((r) => r[w]?.[k]).filter((x) => x !== undefined);
      (out[w] ??= {})[k] = median(v);
    }
  }
  return out;
}

/**
 * Markdown tables of times and ratios; `all[workload]['<op> <column>']` in µs.
 * With `runs` (several such objects), each ratio is the median over the runs
 * of that run's ratio, followed by its range.
 */
export function tables(all, workloads, columns = ALL_COLUMNS, runs = undefined) {
  const COLUMNS = columns;
  const rows = [];
  for (const w of workloads) {
    for (const op of ['pool', 'unpool']) {
      const r = all[w.name] ?? {};
      const t = (c) => r[`${op} ${c}`];
      const ratios = (r) => {
        const tt = (c) => r[w.name]?.[`${op} ${c}`];
        return [ratio(tt('js'), tt('copy')), ratio(tt('ort'), tt('copy')), ratio(tt('ort'), tt('out')),
                ratio(tt('resident'), tt('native')), ratio(tt('scalar copy'), tt('copy')),
                ratio(tt('js'), tt('floor')), ratio(tt('ort'), tt('floor')), ratio(tt('ort'), tt('out floor')),
                ratio(tt('float16'), tt('copy')), ratio(tt('bfloat16'), tt('copy')),
                ratio(tt('uint8'), tt('copy')), ratio(tt('int8'), tt('copy')),
                ratio(tt('uint8 resident'), tt('resident')), ratio(tt('uint8 floor'), tt('copy'))];
      };
      let cells = ratios(all).map(fmtRatio);
      if (runs !== undefined && runs.length > 1) {
        const per = runs.map(ratios);
        cells = cells.map((_, i) => {
          const v = per.map((p) => p[i]).filter((x) => x !== undefined);
          if (v.length === 0) return '–';
          return `${fmtRatio(median(v))} (${fmtRatio(Math.min(...v))}-${fmtRatio(Math.max(...v))})`;
        });
      }
      rows.push({ workload: w.name, op, times: COLUMNS.map(t), cells });
    }
  }

  const header = ['workload', 'op', ...COLUMNS];
  const lines = [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.workload} | ${r.op} | ${r.times.map(fmt).join(' | ')} |`),
  ];
  const ratioHeader = ['workload', 'op', 'js / copy', 'ort / copy', 'ort / out', 'resident / native', 'scalar / SIMD (copy)',
                       'js / floor', 'ort / floor', 'ort / out floor', 'float16 / float32 time (copy)',
                       'bfloat16 / float32 time (copy)', 'uint8 / float32 time (copy)', 'int8 / float32 time (copy)',
                       'uint8 / float32 time (resident)', 'uint8 floor / float32 time (copy)'];
  const ratioLines = [
    `| ${ratioHeader.join(' | ')} |`,
    `|${ratioHeader.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.workload} | ${r.op} | ${r.cells.join(' | ')} |`),
  ];
  return { lines, ratioLines };
}
