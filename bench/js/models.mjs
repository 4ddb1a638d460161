#!/usr/bin/env node
// The model runner (unpool/onnx) on the CPU execution providers against the
// ways a user runs the same SegNet without it, one run of the model each,
// side by side in one process (timing.mjs's runCases), on onnxruntime-node's
// cpu EP and onnxruntime-web's wasm EP, one thread each (intraOpNumThreads 1,
// numThreads 1: several would fight for the 2 cores here, and the figures
// are of the runner's overhead, not of ORT's threading):
//
//   ort        one ORT session of the unpool_onnx export (ORT runs the pools
//              and unpools itself)
//   runner     createSession(export) with the defaults: on a CPU EP that is
//              the same one session, run through the runner
//   runner-cut createSession(export, { unpoolNodes: 'all' }): four ORT
//              sub-sessions, unpool's WebAssembly pools and unpools between
//   hand       the hand split: four ORT sessions of the separately exported
//              blocks, with unpool's maxPool2d / maxUnpool2d between them and
//              ort.Tensor made by hand (what a user writes without the runner)
//
// The goals (issue "Whole models"): runner <= 1.1x ort and <= 1.05x hand;
// runner-cut / hand is the runner's cost at the hand split's own cut. The
// models: bench/models/make-models.py (the fixtures' segnet weights,
// 3x64x64, batch 1), made into build/bench-models when missing.
//
// Usage: node bench/js/models.mjs [--runs N] [--reps N] [--model segnet|segnet-small]
//   Each run is one side-by-side comparison; ratios are the median over runs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web';
import * as unpool from '../../dist/index.js';
import { createSession } from '../../dist/onnx/index.js';
import { median, ratioRange, runCases, us } from './timing.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const runs = Number(arg('--runs', 3));
const reps = Number(arg('--reps', 15));
const name = arg('--model', 'segnet');
const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = `${root}build/bench-models`;
if (!existsSync(`${dir}/${name}-dec1.onnx`)) {
  execFileSync('/usr/bin/python3', [`${root}bench/models/make-models.py`, dir], { stdio: 'inherit' });
}
const bytes = (part) => readFileSync(`${dir}/${name}${part ? `-${part}` : ''}.onnx`);

ortWeb.env.wasm.numThreads = 1;
ortWeb.env.wasm.proxy = false;
await unpool.init();

/** The hand split: four sessions and unpool between them, as docs/models.md's "without the runner" shows. */
const options = (ep) => ({ executionProviders: [ep], intraOpNumThreads: 1, interOpNumThreads: 1 });

async function handSplit(ort, ep) {
  const s = {};
  for (const p of ['enc1', 'enc2', 'dec2', 'dec1']) {
    s[p] = await ort.InferenceSession.create(bytes(p), options(ep));
  }
  const tensor = (t) => new ort.Tensor('float32', t.data, t.shape);
  return async (x) => {
    const { a } = await s.enc1.run({ x });
    const p1 = unpool.maxPool2d(a, { kernelSize: 2 });
    const { b } = await s.enc2.run({ p1: tensor(p1.output) });
    const p2 = unpool.maxPool2d(b, { kernelSize: 2 });
    const u2 = unpool.maxUnpool2d(p2.output, p2.indices, { kernelSize: 2, outputSize: b.dims.slice(2) });
    const { c } = await s.dec2.run({ u2: tensor(u2) });
    const u1 = unpool.maxUnpool2d(c, p1.indices, { kernelSize: 2, outputSize: a.dims.slice(2) });
    return (await s.dec1.run({ u1: tensor(u1) })).logits;
  };
}

async function setup(ort, ep) {
  const whole = await ort.InferenceSession.create(bytes(), options(ep));
  const runner = await createSession(bytes(), { ort, ...options(ep) });
  const cut = await createSession(bytes(), { ort, ...options(ep), unpoolNodes: 'all' });
  const hand = await handSplit(ort, ep);
  const shape = [1, ...whole.inputMetadata[0].shape.slice(1)];
  const data = Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * 0.37));
  const x = new ort.Tensor('float32', data, shape);
  // The four give the same logits (the runner's bit for bit with ORT's; the split's within ORT's rounding).
  const outs = [(await whole.run({ x })).logits, (await runner.run({ x })).logits, (await cut.run({ x })).logits, await hand(x)];
  const diff = Math.max(...outs.slice(1).map((o) => Math.max(...o.data.map((v, i) => Math.abs(v - outs[0].data[i])))));
  if (!(diff < 1e-4)) throw new Error(`models bench: the four ways disagree (max |diff| ${diff})`);
  return {
    shape,
    cases: {
      ort: () => whole.run({ x }),
      runner: () => runner.run({ x }),
      'runner-cut': () => cut.run({ x }),
      hand: () => hand(x),
    },
  };
}

for (const [label, ort, ep] of [['onnxruntime-node cpu', ortNode, 'cpu'], ['onnxruntime-web wasm', ortWeb, 'wasm']]) {
  const { shape, cases } = await setup(ort, ep);
  const all = [];
  for (let r = 0; r < runs; ++r) all.push(await runCases(cases, { reps, minBatchMs: 50, warmupMs: 300 }));
  const t = (n) => median(all.map((x) => x[n]));
  const ratio = (a, b) => ratioRange(all.map((x) => x[a] / x[b]));
  console.log(`${label}, ${name} [${shape}], ${runs} runs x ${reps} reps (median µs per model run):`);
  for (const n of Object.keys(cases)) console.log(`  ${n.padEnd(11)}${us(t(n))}`);
  console.log(`  runner / ort       ${ratio('runner', 'ort')}   (goal <= 1.1)`);
  console.log(`  runner / hand      ${ratio('runner', 'hand')}   (goal <= 1.05)`);
  console.log(`  runner-cut / hand  ${ratio('runner-cut', 'hand')}   (the same cut as the hand split)`);
  console.log(`  runner-cut / ort   ${ratio('runner-cut', 'ort')}`);
}
