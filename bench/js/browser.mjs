#!/usr/bin/env node
// The benchmark in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core; nothing is downloaded): serves the repository on a free
// localhost port, opens bench/js/browser.html with the SIMD build (plus the
// hand-written JS and ONNX Runtime Web) and with the scalar build, and
// prints the same tables as bench.mjs (no native column).
//
// Usage: node bench/js/browser.mjs [--quick] [--filter REGEX] [--no-ort] [--write]
//   --write  replaces the "JavaScript API in Chromium" section of bench/RESULTS.md
import os from 'node:os';
import { withChromium } from './chromium.mjs';
import { flag, option, writeResults } from './cli.mjs';
import { tables } from './report.mjs';
import { WORKLOADS } from './workloads.mjs';

const quick = flag('--quick');
const filterText = option('--filter') ?? '.';
const filter = new RegExp(filterText);

const merge = (into, from, rename = (k) => k) => {
  for (const [w, r] of Object.entries(from ?? {})) {
    for (const [k, v] of Object.entries(r)) (into[w] ??= {})[rename(k)] = v;
  }
};
const all = {};
let ortVersion;
let version;
await withChromium({ flags: ['--disable-gpu'], timeoutMs: 15 * 60 * 1000 }, async (open) => {
  const run = async (query) => {
    const result = await open(`browser.html?${query}&quick=${quick ? 1 : 0}&filter=${encodeURIComponent(filterText)}`);
    version = result.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? result.userAgent;
    return result;
  };
  console.error('bench (chromium): SIMD build, hand-written JS' + (flag('--no-ort') ? '' : ', ONNX Runtime Web'));
  const simd = await run(`simd=1&ort=${flag('--no-ort') ? 0 : 1}`);
  merge(all, simd.side);
  ortVersion = simd.ortVersion;
  console.error('bench (chromium): scalar build');
  const scalar = await run('simd=0');
  merge(all, scalar.unpool, (k) => k.replace(/ (copy|resident)$/, ' scalar $1'));
});

const workloads = WORKLOADS.filter((w) => filter.test(w.name));
const { lines, ratioLines } = tables(all, workloads,
  ['copy', 'out', 'resident', 'float16', 'bfloat16', 'uint8', 'int8', 'uint8 resident', 'scalar copy', 'scalar resident', 'js', 'ort', 'floor',
   'out floor', 'uint8 floor']);
const text = [
  `Median time per call in headless ${version} (float32, int32 indices, k = s = 2 but where the workload names its window, one thread):`, '',
  ...lines, '', 'Ratios (> 1: unpool is faster):', '', ...ratioLines, '',
  `- onnxruntime-web ${ortVersion ?? 'not run'} (ort.wasm.min.mjs, \`numThreads = 1\`, \`proxy = false\`)`,
  `- load average after the run: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${new Date().toISOString()}`,
].join('\n');
console.log(text);

if (flag('--write')) {
  writeResults('js-bench-browser', ['## JavaScript API in Chromium', '',
    'Command: `node bench/js/browser.mjs --write` (the same cases as `npm run bench`, in headless',
    'Debian Chromium driven by playwright-core; no native column).', '', text]);
}
