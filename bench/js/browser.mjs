#!/usr/bin/env node
// The benchmark in headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core; nothing is downloaded): serves the repository on a free
// localhost port, opens bench/js/browser.html with the SIMD build (plus the
// hand-written JS and ONNX Runtime Web) and with the scalar build, and
// prints the same tables as bench.mjs (no native column).
//
// Usage: node bench/js/browser.mjs [--quick] [--filter REGEX] [--no-ort] [--write]
//   --write  replaces the "JavaScript API in Chromium" section of bench/RESULTS.md
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { tables, WORKLOADS } from './suite.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = flag('--quick');
const filterText = option('--filter') ?? '.';
const filter = new RegExp(filterText);

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
                '.wasm': 'application/wasm', '.json': 'application/json' };
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
  if (!file.startsWith(root) || !existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

const profile = mkdtempSync(path.join(os.tmpdir(), 'unpool-bench-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let version;
async function run(query) {
  const page = await context.newPage();
  page.on('request', (r) => {
    if (!r.url().startsWith(base)) throw new Error(`bench: the page fetched ${r.url()}`);
  });
  await page.goto(`${base}/bench/js/browser.html?${query}&quick=${quick ? 1 : 0}&filter=${encodeURIComponent(filterText)}`);
  await page.waitForFunction(() => window.benchResult !== undefined, null, { timeout: 15 * 60 * 1000 });
  const result = await page.evaluate(() => window.benchResult);
  await page.close();
  if (result.error) throw new Error(`bench: the page failed: ${result.error}`);
  version = result.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? result.userAgent;
  return result;
}

const merge = (into, from, rename = (k) => k) => {
  for (const [w, r] of Object.entries(from ?? {})) {
    for (const [k, v] of Object.entries(r)) (into[w] ??= {})[rename(k)] = v;
  }
};
const all = {};
let ortVersion;
try {
  console.error('bench (chromium): SIMD build, hand-written JS' + (flag('--no-ort') ? '' : ', ONNX Runtime Web'));
  const simd = await run(`simd=1&ort=${flag('--no-ort') ? 0 : 1}`);
  merge(all, simd.side);
  ortVersion = simd.ortVersion;
  console.error('bench (chromium): scalar build');
  const scalar = await run('simd=0');
  merge(all, scalar.unpool, (k) => k.replace(/ (copy|resident)$/, ' scalar $1'));
} finally {
  await context.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}

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
  const file = `${root}bench/RESULTS.md`;
  const begin = '<!-- js-bench-browser:begin -->';
  const end = '<!-- js-bench-browser:end -->';
  const section = [begin, '## JavaScript API in Chromium', '',
    'Command: `node bench/js/browser.mjs --write` (the same cases as `npm run bench`, in headless',
    'Debian Chromium driven by playwright-core; no native column).', '', text, end].join('\n');
  let md = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  if (md.includes(begin) && md.includes(end)) {
    md = md.slice(0, md.indexOf(begin)) + section + md.slice(md.indexOf(end) + end.length);
  } else {
    md = `${md.trimEnd()}\n\n${section}\n`;
  }
  writeFileSync(file, md);
  console.error(`bench: wrote ${file}`);
}
