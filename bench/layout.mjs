#!/usr/bin/env node
// Channels-first vs channels-last through the public API (copies in and out
// included): maxPool2d and maxUnpool2d on the same data as NCHW and NHWC.
// A benchmark, not a test: `npm run build && node bench/layout.mjs`.
import { init, maxPool2d, maxUnpool2d } from 'unpool';

await init();
const median = (f, reps) => {
  f();
  const t = [];
  for (let i = 0; i < reps; ++i) {
    const s = performance.now();
    f();
    t.push(performance.now() - s);
  }
  return t.sort((a, b) => a - b)[reps >> 1];
};

const shapes = [
  // N, C, H, W, kernel: a feature map, an RGBA image, many channels
  [1, 64, 128, 128, 2], [1, 4, 512, 512, 2], [1, 3, 512, 512, 2], [1, 256, 32, 32, 3],
];
console.log('| N, C, H, W | kernel | pool NCHW ms | pool NHWC ms | unpool NCHW ms | unpool NHWC ms |');
console.log('|---|---|---|---|---|---|');
for (const [N, C, H, W, k] of shapes) {
  const x = new Float32Array(N * C * H * W).map(Math.random);
  const cf = { data: x, shape: [N, C, H, W] };
  const cl = { data: x, shape: [N, H, W, C] };
  const o = { kernelSize: k };
  const ol = { kernelSize: k, layout: 'NHWC' };
  const pf = maxPool2d(cf, o);
  const pl = maxPool2d(cl, ol);
  const ms = [
    median(() => maxPool2d(cf, o), 21),
    median(() => maxPool2d(cl, ol), 21),
    median(() => maxUnpool2d(pf.output, pf.indices, { ...o, outputSize: [H, W] }), 21),
    median(() => maxUnpool2d(pl.output, pl.indices, { ...ol, outputSize: [H, W] }), 21),
  ];
  console.log(`| ${N}, ${C}, ${H}, ${W} | ${k} | ${ms.map((v) => v.toFixed(2)).join(' | ')} |`);
}
