// Merges the JSON of three kernel benchmark runs (native Google Benchmark,
// em++ SIMD and em++ scalar under Node) into one Markdown table of medians
// in microseconds, with ratios.
// Usage: node bench/native/compare.mjs native.json wasm-simd.json wasm-scalar.json
import { readFileSync } from 'node:fs';

const [nativeFile, simdFile, scalarFile] = process.argv.slice(2);

function medians(file) {
  const scale = { ns: 1e-3, us: 1, ms: 1e3, s: 1e6 };
  const m = new Map(), single = new Map();
  for (const b of JSON.parse(readFileSync(file, 'utf8')).benchmarks) {
    // Skipped benchmarks (a variant whose guard holds nowhere in the
    // workload) report an error, or (minibench) no time.
    if (b.error_occurred || !(b.real_time > 0)) continue;
    const name = b.run_name.replace(/\/real_time$/, '');
    const us = b.real_time * scale[b.time_unit];
    if (b.aggregate_name === 'median') m.set(name, us);
    else if (b.run_type === 'iteration') single.set(name, us);  // one repetition only
  }
  for (const [name, us] of single) if (!m.has(name)) m.set(name, us);
  return m;
}

const native = medians(nativeFile), simd = medians(simdFile), scalar = medians(scalarFile);
const fmt = (v) => (v === undefined ? '-' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const ratio = (a, b) => (a === undefined || b === undefined ? '-' : (a / b).toFixed(2) + 'x');
const names = [...new Set([...simd.keys(), ...scalar.keys(), ...native.keys()])];
console.log('| benchmark | native (us) | wasm SIMD (us) | wasm scalar (us) | SIMD / native | scalar / SIMD |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const n of names) {
  const a = native.get(n), b = simd.get(n), c = scalar.get(n);
  console.log(`| ${n} | ${fmt(a)} | ${fmt(b)} | ${fmt(c)} | ${ratio(b, a)} | ${ratio(c, b)} |`);
}
