// Integer values against float32 on issue 31's workload (2d 1x64x112x112,
// k2 s2, int32 indices), alternated call batch by call batch so that the
// load of a shared machine hits both sides alike: the median over rounds of
// each round's time ratio, with its range. `npm run bench` has the same
// cells in its uint8 / int8 columns; this is the robust form of the ratios.
// The last row times the copying API's results alone: fresh arrays of the
// two calls' result sizes (as streamed.ts makes them in Node) filled by
// TypedArray.set. In a loop of copying calls Node often gives that memory
// back to the OS at a GC and faults it in again; where those page faults
// dominate both calls, the copying ratio tends to this row's.
//   node bench/js/int.mjs [--rounds N] [--batch 20]
import * as u from '../../dist/index.js';
import { freshCopy, input, intValues } from './suite.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? dflt : Number(process.argv[i + 1]);
};
const ROUNDS = arg('--rounds', 41);
const BATCH = arg('--batch', 20);

await u.init();
const shape = [1, 64, 112, 112];
const opts = { kernelSize: 2 };
const uopts = { kernelSize: 2, outputSize: [112, 112] };
const x32 = { data: input(shape), shape };
const xu8 = { data: intValues(x32.data, 'uint8'), shape };
const xi8 = { data: intValues(x32.data, 'int8'), shape };
const p32 = u.maxPool2d(x32, opts), pu8 = u.maxPool2d(xu8, opts), pi8 = u.maxPool2d(xi8, opts);
const r32 = u.uploadTensor(x32), ru8 = u.uploadTensor(xu8);
const resident = (xr) => () => {
  const r = u.maxPool2d(xr, { kernelSize: 2, resident: true });
  r.output.dispose();
  r.indices.dispose();
};
const pairs = {
  'uint8 pool (copy) / float32': [() => u.maxPool2d(xu8, opts), () => u.maxPool2d(x32, opts)],
  'uint8 pool (resident) / float32 resident': [resident(ru8), resident(r32)],
  'uint8 unpool (copy) / float32': [() => u.maxUnpool2d(pu8.output, pu8.indices, uopts),
                                    () => u.maxUnpool2d(p32.output, p32.indices, uopts)],
  'int8 pool (copy) / float32': [() => u.maxPool2d(xi8, opts), () => u.maxPool2d(x32, opts)],
  'int8 unpool (copy) / float32': [() => u.maxUnpool2d(pi8.output, pi8.indices, uopts),
                                   () => u.maxUnpool2d(p32.output, p32.indices, uopts)],
  'uint8 pool results alone / float32 (copying, page-fault bound)': [
    () => [freshCopy(pu8.output.data), freshCopy(pu8.indices.data)],
    () => [freshCopy(p32.output.data), freshCopy(p32.indices.data)]],
};
const time = (f) => {
  const t0 = performance.now();
  for (let i = 0; i < BATCH; ++i) f();
  return ((performance.now() - t0) / BATCH) * 1000;  // µs a call
};
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
console.log(`| ratio (2d 1x64x112x112 k2 s2, int32 indices) | median | range | int µs | float32 µs |`);
console.log('|---|---|---|---|---|');
for (const [name, [a, b]] of Object.entries(pairs)) {
  for (let i = 0; i < 3; ++i) a(), b();  // warm up
  const ratios = [], ta = [], tb = [];
  for (let r = 0; r < ROUNDS; ++r) {
    // Alternate which side goes first.
    let tA, tB;
    if (r % 2) {
      tA = time(a);
      tB = time(b);
    } else {
      tB = time(b);
      tA = time(a);
    }
    ratios.push(tA / tB);
    ta.push(tA);
    tb.push(tB);
  }
  const s = (v) => v.toFixed(2);
  console.log(`| ${name} | ${s(median(ratios))}x | ${s(Math.min(...ratios))}-${s(Math.max(...ratios))} | ` +
              `${median(ta).toFixed(0)} | ${median(tb).toFixed(0)} |`);
}
r32.dispose();
ru8.dispose();
