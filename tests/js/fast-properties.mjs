// Run by fast-properties.node.test.ts as `node --allow-natives-syntax
// tests/js/fast-properties.mjs`: after a call of every op family, prints
// (JSON) which of the objects a call reads by property name V8 holds as a
// dictionary instead of with fast properties. A dictionary object costs a
// hash lookup per read: the block layout was one, and cost 2-4% of every
// small call before it was caught (bench/RESULTS.md).
import * as unpool from '../../dist/index.js';
import { wasm } from '../../dist/loader.js';
import { runtimeOf } from '../../dist/runtime.js';
import { DTYPES } from '../../dist/dtypes.js';
import { OPS } from '../../dist/optable.js';
import { P } from '../../dist/parse.js';
import { wasmBackend } from '../../dist/engine.js';
import { DTYPE_CODES, ENTRIES, FAMILIES } from '../../dist/webgpu/kernels.js';
import { ENCODERS } from '../../dist/webgpu/encode.js';

// Built at run time: the file parses without the flag (lint, editors).
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)');

await unpool.init();
const x = { data: Float32Array.from({ length: 2 * 3 * 8 * 8 }, (_, i) => Math.sin(i)), shape: [2, 3, 8, 8] };
const nhwc = { data: x.data, shape: [2, 8, 8, 3] };
const p = unpool.maxPool2d(x, { kernelSize: 2 });
unpool.maxPool2d(nhwc, { kernelSize: 2, stride: 2, layout: 'NHWC', indexType: 'int64' });
const y = unpool.maxUnpool2d(p.output, p.indices, { kernelSize: 2, outputSize: [8, 8] });
unpool.maxPool2dBackward(p.output, p.indices, { kernelSize: 2, inputShape: x.shape });
unpool.maxUnpool2dBackward(y, p.indices);
unpool.adaptiveMaxPool2d(x, { outputSize: [3, null] });
unpool.fractionalMaxPool2d(x, { kernelSize: 2, outputRatio: 0.5 });
const r = unpool.maxPool2d(unpool.uploadTensor(x), { kernelSize: 2, resident: true });
r.output.dispose();
r.indices.dispose();

const rt = runtimeOf(wasm('fast-properties'));
const objects = {
  'runtime': rt,
  'runtime.params': rt.params,
  'runtime.params.layout': rt.params.layout,
  'runtime.params.written': rt.params.written,
  'runtime.codes': rt.codes,
  'runtime.valueCodes': rt.valueCodes,
  'runtime.ops': rt.ops,
  'runtime.plans': rt.plans,
  'runtime.heapViews': rt.heapViews,
  'wasmBackend': wasmBackend,
  'DTYPES': DTYPES,
  'OPS': OPS,
  'P': P,
  // unpool/webgpu's tables, read on every GPU dispatch (no device needed here)
  'DTYPE_CODES': DTYPE_CODES,
  'ENTRIES': ENTRIES,
  'FAMILIES': FAMILIES,
  'ENCODERS': ENCODERS,
};
for (const [name, t] of Object.entries(DTYPES)) objects[`DTYPES.${name}`] = t;
for (const [name, spec] of Object.entries(OPS)) objects[`OPS.${name}`] = spec;
for (const [name, parser] of Object.entries(P)) objects[`P.${name}`] = parser;
for (const [name, e] of Object.entries(ENTRIES)) objects[`ENTRIES.${name}`] = e;
for (const [name, f] of Object.entries(FAMILIES)) objects[`FAMILIES.${name}`] = f;
const dictionaries = Object.entries(objects).filter(([, o]) => !hasFastProperties(o)).map(([name]) => name);
console.log(JSON.stringify({ checked: Object.keys(objects).length, dictionaries }));
