#!/usr/bin/env node
// Adaptive and fractional max pooling and the unpool without kernel, side by
// side in one run (issue 17's targets), 2d 1x64x112x112 float32:
//   - adaptive to 56x56 (regular windows: the max pool's kernels) against
//     maxPool2d with k = s = 2;
//   - adaptive to 40x40 (uneven, overlapping windows) and fractional with
//     kernel 2 to 56x56 against a straightforward hand-written JS loop
//     (reference.mjs), with the copying API and with resident tensors. The
//     fractional windows of kernel 2 at in = 2 out sit at 2 o for every
//     sample (alpha = 2), so they run the max pool's kernels; fractional
//     with kernel 2 to 45x45 (alpha = 2.5: windows that overlap and skip)
//     times the window kernel;
//   - the unpool without kernel against the kernel one, same indices;
//   - the floor: copying the tensors in and the results out, no kernel.
//
// Usage: node bench/js/modes.mjs [dist] [--reps 21] [--scalar]
import { runCases, input } from './suite.mjs';
import { openDist } from './cli.mjs';
import { jsAdaptiveMaxPool2d, jsFractionalMaxPool2d } from './reference.mjs';

const { u, reps } = await openDist();
const shape = [1, 64, 112, 112];
const x = { data: input(shape), shape };
const samples = { data: new Float32Array(64 * 2).map((_, i) => ((i * 0.6180339887) % 1)), shape: [1, 64, 2] };
const frac = { kernelSize: 2, outputSize: [56, 56], randomSamples: samples };
const frac45 = { kernelSize: 2, outputSize: [45, 45], randomSamples: samples };
const xr = u.uploadTensor(x);
const pooled = u.maxPool2d(x, { kernelSize: 2 });
const held = [xr];
const resident = (f) => () => {
  const r = f();
  r.output.dispose();
  r.indices.dispose();
};

// The same results from the library and the JS loops, before timing them.
const check = (name, a, b) => {
  const same = a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
  if (!same) throw new Error(`modes: ${name} differs from the JS loop`);
};
check('adaptive 40', u.adaptiveMaxPool2d(x, { outputSize: 40 }).indices.data,
  jsAdaptiveMaxPool2d(x.data, shape, 40, 40).idx);
check('fractional', u.fractionalMaxPool2d(x, frac).indices.data,
  jsFractionalMaxPool2d(x.data, shape, 2, 56, 56, samples.data).idx);
check('fractional 45', u.fractionalMaxPool2d(x, frac45).indices.data,
  jsFractionalMaxPool2d(x.data, shape, 2, 45, 45, samples.data).idx);

const cases = {
  'maxPool2d k2 s2': () => u.maxPool2d(x, { kernelSize: 2 }),
  'adaptive 56 (regular)': () => u.adaptiveMaxPool2d(x, { outputSize: 56 }),
  'adaptive 40': () => u.adaptiveMaxPool2d(x, { outputSize: 40 }),
  'adaptive 40 resident': resident(() => u.adaptiveMaxPool2d(xr, { outputSize: 40, resident: true })),
  'adaptive 40 js': () => jsAdaptiveMaxPool2d(x.data, shape, 40, 40),
  'fractional k2 56': () => u.fractionalMaxPool2d(x, frac),
  'fractional k2 56 resident': resident(() => u.fractionalMaxPool2d(xr, { ...frac, resident: true })),
  'fractional k2 56 js': () => jsFractionalMaxPool2d(x.data, shape, 2, 56, 56, samples.data),
  'fractional k2 45': () => u.fractionalMaxPool2d(x, frac45),
  'fractional k2 45 resident': resident(() => u.fractionalMaxPool2d(xr, { ...frac45, resident: true })),
  'fractional k2 45 js': () => jsFractionalMaxPool2d(x.data, shape, 2, 45, 45, samples.data),
  'unpool k2': () => u.maxUnpool2d(pooled.output, pooled.indices, { kernelSize: 2 }),
  'unpool without kernel': () => u.maxUnpool2d(pooled.output, pooled.indices, { outputSize: [112, 112] }),
  // The floor of a copying API: x in, 40x40 values and indices out.
  'floor: copies of adaptive 40': () => {
    const heap = new Float32Array(x.data.length);
    heap.set(x.data);
    return [new Float32Array(heap.subarray(0, 64 * 1600)), new Int32Array(heap.buffer, 0, 64 * 1600).slice()];
  },
};
const t = await runCases(cases, { reps, minBatchMs: 20, warmupMs: 200 });
held.forEach((h) => h.dispose());
const us = (k) => t[k].toFixed(0).padStart(7);
console.log(`modes: 1x64x112x112 float32, Node ${process.versions.node}, SIMD ${u.backendInfo().simd}, median of ${reps} alternated batches (µs per call)`);
for (const k of Object.keys(cases)) console.log(`${k.padEnd(30)} ${us(k)}`);
const r = (a, b) => (t[b] / t[a]).toFixed(2);
console.log('');
console.log(`adaptive 56 / maxPool2d k2 s2: ${(t['adaptive 56 (regular)'] / t['maxPool2d k2 s2']).toFixed(2)} (target <= 1.2)`);
console.log(`adaptive 40: ${r('adaptive 40', 'adaptive 40 js')}x the JS loop (resident ${r('adaptive 40 resident', 'adaptive 40 js')}x; target >= 8)`);
console.log(`fractional k2 56: ${r('fractional k2 56', 'fractional k2 56 js')}x the JS loop (resident ${r('fractional k2 56 resident', 'fractional k2 56 js')}x; target >= 8)`);
console.log(`fractional k2 45 (irregular): ${r('fractional k2 45', 'fractional k2 45 js')}x the JS loop (resident ${r('fractional k2 45 resident', 'fractional k2 45 js')}x)`);
console.log(`unpool without kernel / with: ${(t['unpool without kernel'] / t['unpool k2']).toFixed(2)} (target ~1)`);
console.log(`floor (copies alone) vs the JS loop, adaptive 40: ${r('floor: copies of adaptive 40', 'adaptive 40 js')}x`);
