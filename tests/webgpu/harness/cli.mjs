// The command-line side of the runners (run-node.mjs, run-deno.mjs): finds
// the case modules, prints the adapter, runs every case, prints one line per
// failure and then exactly `webgpu-<stack>: N passed, N failed`. Exit code 1
// on any failure and on no adapter. Only node: built-ins that Deno has too.
//   WEBGPU_CASES=a.mjs,b.mjs   only these files of tests/webgpu/cases/
//   WEBGPU_CASE_TIMEOUT_MS     per case (default in core.mjs)
import { readdir, readFile } from 'node:fs/promises';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { adapterSummary, collectCases, formatAdapter, requestAdapter, runCase } from './core.mjs';

const casesDir = fileURLToPath(new URL('../cases/', import.meta.url));
const vectorsDir = fileURLToPath(new URL('../../vectors/', import.meta.url));

export async function loadCaseModules() {
  // Every .mjs in tests/webgpu/cases/ is a case module: the backend's suites
  // land there and run on every stack without being listed anywhere.
  const only = process.env.WEBGPU_CASES ? process.env.WEBGPU_CASES.split(',') : null;
  const files = (await readdir(casesDir)).filter((f) => f.endsWith('.mjs') && (!only || only.includes(f)));
  if (files.length === 0) throw new Error(`no case modules in ${casesDir}${only ? ` matching ${only}` : ''}`);
  const modules = {};
  for (const f of files) modules[`cases/${f}`] = await import(pathToFileURL(casesDir + f).href);
  return modules;
}

const vectorCache = new Map();
export function vectors(name) {
  const file = name.endsWith('.json') ? name : `${name}.json`;
  if (!/^[\w.-]+$/.test(file)) return Promise.reject(new Error(`bad vectors name ${name}`));
  if (!vectorCache.has(file)) vectorCache.set(file, readFile(vectorsDir + file, 'utf8').then(JSON.parse));
  return vectorCache.get(file);
}

/** Runs the suite on `gpu` and exits the process (Dawn keeps Node alive otherwise). */
export async function main({ label, gpu, adapterOptions = {}, expect }) {
  const started = Date.now();
  const prefix = `webgpu-${label}`;
  let passed = 0;
  let failed = 0;
  const skipped = [];
  try {
    const adapter = await requestAdapter(gpu, adapterOptions, label);
    const summary = adapterSummary(adapter, adapterOptions);
    for (const line of formatAdapter(label, summary)) console.log(line);
    // The stack must be the one it is named after (e.g. not a hardware GPU
    // or another ICD that the environment let in).
    const wrong = expect?.(summary);
    if (wrong) throw new Error(`${prefix}: not the expected adapter: ${wrong}`);
    const timeoutMs = process.env.WEBGPU_CASE_TIMEOUT_MS ? Number(process.env.WEBGPU_CASE_TIMEOUT_MS) : undefined;
    const cases = collectCases(await loadCaseModules());
    for (const c of cases) {
      try {
        const result = await runCase(c, {
          gpu, label, adapterOptions, vectors, timeoutMs, log: (...a) => console.log(`${prefix}:`, ...a),
        });
        if (result === 'passed') passed++;
        else skipped.push(`${c.id} (${result})`);
      } catch (e) {
        failed++;
        console.log(`${prefix}: FAIL ${c.id}: ${String(e?.stack ?? e).split('\n').slice(0, 4).join(' | ')}`);
      }
    }
  } catch (e) {
    // No GPU object, no adapter, the wrong adapter, a case module that does
    // not load: the stack failed as a whole.
    failed++;
    console.log(`${prefix}: FAIL ${String(e?.message ?? e).replace(`${prefix}: `, '')}`);
  }
  for (const s of skipped) console.log(`${prefix}: skipped ${s}`);
  if (passed === 0 && failed === 0) {
    failed++;
    console.log(`${prefix}: FAIL no case ran`);
  }
  console.log(`${prefix}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${prefix}: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}
