// The measurements of one build that bench.mjs runs instead of the
// comparison when given their option (the build: --dist DIR, default dist;
// --scalar: without SIMD). Each answers a question the comparison's tables
// cannot:
//
//   --dtypes [LIST]  each value type against float32, alternated
//   --modes          adaptive and fractional pooling, the unpool without kernel
//   --layouts        channels first against channels last
//   --gc             where the garbage collector's time lands
//   --faults         back-to-back calls: time and minor page faults
//   --steady         one small call in a steady loop, one build a process
//
// --gc and --faults, what the copying API's fresh results cost in GC time
// and page faults, are in probes-memory.mjs.
import { flag, loadDist, numberOption, option, shapeOption } from './cli.mjs';
import { faults, gc } from './probes-memory.mjs';
import { jsAdaptiveMaxPool2d, jsFractionalMaxPool2d } from './reference.mjs';
import { median, pageFaults, ratioRange, runCases, us } from './timing.mjs';
import { freshCopy, input, tensorOf } from './workloads.mjs';

const disposeAll = (r) => {
  r.output.dispose();
  r.indices.dispose();
};

export async function runProbe(name, quick) {
  const u = await loadDist(option('--dist', 'dist'), flag('--scalar'));
  const reps = numberOption('--reps', quick ? 5 : 21);
  const timing = { reps, minBatchMs: quick ? 5 : 20, warmupMs: quick ? 50 : 200 };
  console.log(`${name}: Node ${process.versions.node}, SIMD ${u.backendInfo().simd}`);
  await PROBES[name](u, { quick, reps, timing });
}

// ---- --dtypes: each value type against float32 ----------------------------------------------

/**
 * Each listed type against float32 on one shape (default 2d 1x64x112x112,
 * k = s = 2; --shape and --layout for others): the pool and unpool with the
 * copying API, the resident pool, a resident adaptive pool to 5/14 of each
 * size (uneven overlapping windows) and resident pools of other windows, and
 * the floor (the copies of the pool alone: values in, values and int32
 * indices out into fresh arrays; no kernel). Then the robust form of the
 * copying ratios: rounds of batches of the type and of float32 alternated
 * (each going first in turn), the median of the rounds' ratios with their
 * range, apart for rounds with and without page faults (the copying calls'
 * time moves 2-4x with the faults of their fresh results), and the results
 * alone (fresh arrays of the pool's result sizes, filled), which is where
 * the copying ratio tends when those faults dominate.
 */
async function dtypes(u, { quick, timing }) {
  const list = (option('--dtypes') ?? 'float16,bfloat16,uint8,int8').split(',');
  const shape = shapeOption('--shape', '1,64,112,112');
  const dims = shape.length - 2;
  const layout = option('--layout');
  const pool = u[`maxPool${dims}d`], unpool = u[`maxUnpool${dims}d`], adaptive = u[`adaptiveMaxPool${dims}d`];
  const k2 = layout ? { kernelSize: 2, layout } : { kernelSize: 2 };
  const spatial = layout ? shape.slice(1, -1) : shape.slice(2);
  // The unpool restores the input's size (an odd size leaves a column over).
  const k2Unpool = { ...k2, outputSize: spatial };
  const uneven = { outputSize: spatial.map((d) => Math.max(1, Math.floor((d * 5) / 14))), ...(layout ? { layout } : {}) };
  const windows = { 'k3 s2 p1': { kernelSize: 3, stride: 2, padding: 1 }, 'k3 s1 p1': { kernelSize: 3, stride: 1, padding: 1 },
                    'k3 s3': { kernelSize: 3 } };
  const f32 = input(shape);
  const tensors = Object.fromEntries(['float32', ...list.filter((d) => d !== 'float32')].map((d) => [d, tensorOf(f32, shape, d)]));
  if (tensors.float16 && globalThis.Float16Array) {
    tensors.Float16Array = { data: new Float16Array(tensors.float16.data.buffer), shape };
  }
  // bfloat16's values are float32's top halves: their indices must be float32's on those values.
  if (tensors.bfloat16) {
    const widened = new Float32Array(new Uint32Array(Array.from(tensors.bfloat16.data, (h) => h << 16)).buffer);
    const want = pool({ data: widened, shape }, k2).indices.data;
    const got = pool(tensors.bfloat16, k2).indices.data;
    if (!got.every((v, i) => v === want[i])) throw new Error('bench --dtypes: bfloat16 indices differ from float32 ones on the same values');
  }

  const n = pool(tensors.float32, k2).output.data.length;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((f32.length * 4 + n * 8) / 65536) });
  const pooled = {}, resident = {}, cases = {};
  for (const [d, x] of Object.entries(tensors)) {
    pooled[d] = pool(x, k2);
    resident[d] = u.uploadTensor(x);
    cases[`pool ${d}`] = () => pool(x, k2);
    cases[`unpool ${d}`] = () => unpool(pooled[d].output, pooled[d].indices, k2Unpool);
    cases[`pool ${d} resident`] = () => disposeAll(pool(resident[d], { ...k2, resident: true }));
    cases[`adaptive ${d} resident`] = () => disposeAll(adaptive(resident[d], { ...uneven, resident: true }));
    for (const [w, o] of Object.entries(windows)) {
      cases[`pool ${w} ${d} resident`] = () => disposeAll(pool(resident[d], { ...k2, ...o, resident: true }));
    }
    // The copies of the pool alone, through a wasm memory as the library's are.
    const xs = new x.data.constructor(memory.buffer, 0, x.data.length);
    const ys = new x.data.constructor(memory.buffer, x.data.byteLength, n);
    const is = new Int32Array(memory.buffer, x.data.byteLength + ys.byteLength, n);
    cases[`floor ${d}`] = () => {
      xs.set(x.data);
      return [freshCopy(ys), freshCopy(is)];
    };
  }
  const t = await runCases(cases, timing);
  Object.values(resident).forEach((r) => r.dispose());
  console.log(`${shape.join('x')}${layout ? ` ${layout}` : ''} k2 s2, int32 indices, median of ${timing.reps} alternated batches (µs per call)`);
  for (const k of Object.keys(cases)) console.log(`${k.padEnd(32)} ${us(t[k])}`);
  const r = (a, b) => `${(t[a] / t[b]).toFixed(2)}x`;
  console.log('\nTime / float32 time:');
  for (const d of Object.keys(tensors).filter((d) => d !== 'float32')) {
    console.log(`${d}: pool ${r(`pool ${d}`, 'pool float32')}, unpool ${r(`unpool ${d}`, 'unpool float32')}, ` +
      `resident pool ${r(`pool ${d} resident`, 'pool float32 resident')}, adaptive ${r(`adaptive ${d} resident`, 'adaptive float32 resident')}, ` +
      Object.keys(windows).map((w) => `${w} ${r(`pool ${w} ${d} resident`, `pool ${w} float32 resident`)}`).join(', ') +
      `; floor ${r(`floor ${d}`, 'floor float32')}; floor + resident pool (the copying pool with no GC nor call costs) ` +
      `${((t[`floor ${d}`] + t[`pool ${d} resident`]) / (t['floor float32'] + t['pool float32 resident'])).toFixed(2)}x`);
  }

  const rounds = numberOption('--rounds', quick ? 5 : 31);
  const batch = numberOption('--batch', quick ? 5 : 20);
  const time = (f) => {
    const f0 = pageFaults(), t0 = performance.now();
    for (let i = 0; i < batch; ++i) f();
    return { us: ((performance.now() - t0) / batch) * 1000, faults: f0 === undefined ? 0 : (pageFaults() - f0) / batch };
  };
  console.log(`\nAlternated with float32, ${rounds} rounds of ${batch} calls each (median of the rounds' ratios, range; ` +
              'rounds with < 10 page faults a call count as without):');
  console.log('| ratio | all rounds | without page faults | with | type µs | float32 µs |\n|---|---|---|---|---|---|');
  for (const d of Object.keys(tensors).filter((d) => d !== 'float32')) {
    const pairs = {
      'pool copy': [cases[`pool ${d}`], cases['pool float32']],
      'unpool copy': [cases[`unpool ${d}`], cases['unpool float32']],
      'pool results alone': [() => [freshCopy(pooled[d].output.data), freshCopy(pooled[d].indices.data)],
                             () => [freshCopy(pooled.float32.output.data), freshCopy(pooled.float32.indices.data)]],
    };
    for (const [what, [a, b]] of Object.entries(pairs)) {
      for (let i = 0; i < 3; ++i) a(), b();
      const rs = [];
      for (let k = 0; k < rounds; ++k) {
        const [ta, tb] = k % 2 ? [time(a), time(b)] : [time(b), time(a)].reverse();
        rs.push({ ratio: ta.us / tb.us, a: ta.us, b: tb.us, quiet: ta.faults < 10 && tb.faults < 10 });
      }
      const cell = (sel) => (sel.length ? `${ratioRange(sel.map((x) => x.ratio))} (${sel.length})` : '–');
      console.log(`| ${d} / float32, ${what} | ${cell(rs)} | ${cell(rs.filter((x) => x.quiet))} | ` +
        `${cell(rs.filter((x) => !x.quiet))} | ${median(rs.map((x) => x.a)).toFixed(0)} | ${median(rs.map((x) => x.b)).toFixed(0)} |`);
    }
  }
}

// ---- --modes: adaptive and fractional pooling -----------------------------------------------

/**
 * Adaptive and fractional max pooling and the unpool without kernel, 2d
 * 1x64x112x112 float32: adaptive to 56x56 (regular windows: the max pool's
 * kernels) against maxPool2d k = s = 2; adaptive to 40x40 (uneven,
 * overlapping windows) and fractional with kernel 2 to 56x56 (alpha = 2:
 * the max pool's kernels again) and to 45x45 (alpha = 2.5: windows that
 * overlap and skip, the window kernel) against the hand-written JS loops of
 * reference.mjs, copying and resident; the unpool without kernel against
 * the kernel one; the floor of a copying adaptive 40.
 */
async function modes(u, { timing }) {
  const shape = [1, 64, 112, 112];
  const x = { data: input(shape), shape };
  const samples = { data: new Float32Array(64 * 2).map((_, i) => ((i * 0.6180339887) % 1)), shape: [1, 64, 2] };
  const frac = { kernelSize: 2, outputSize: [56, 56], randomSamples: samples };
  const frac45 = { kernelSize: 2, outputSize: [45, 45], randomSamples: samples };
  const xr = u.uploadTensor(x);
  const pooled = u.maxPool2d(x, { kernelSize: 2 });
  // The same results from the library and the JS loops, before timing them.
  const check = (name, a, b) => {
    if (!(a.length === b.length && a.every((v, i) => Object.is(v, b[i])))) throw new Error(`bench --modes: ${name} differs from the JS loop`);
  };
  check('adaptive 40', u.adaptiveMaxPool2d(x, { outputSize: 40 }).indices.data, jsAdaptiveMaxPool2d(x.data, shape, 40, 40).idx);
  check('fractional', u.fractionalMaxPool2d(x, frac).indices.data, jsFractionalMaxPool2d(x.data, shape, 2, 56, 56, samples.data).idx);
  check('fractional 45', u.fractionalMaxPool2d(x, frac45).indices.data, jsFractionalMaxPool2d(x.data, shape, 2, 45, 45, samples.data).idx);
  const cases = {
    'maxPool2d k2 s2': () => u.maxPool2d(x, { kernelSize: 2 }),
    'adaptive 56 (regular)': () => u.adaptiveMaxPool2d(x, { outputSize: 56 }),
    'adaptive 40': () => u.adaptiveMaxPool2d(x, { outputSize: 40 }),
    'adaptive 40 resident': () => disposeAll(u.adaptiveMaxPool2d(xr, { outputSize: 40, resident: true })),
    'adaptive 40 js': () => jsAdaptiveMaxPool2d(x.data, shape, 40, 40),
    'fractional k2 56': () => u.fractionalMaxPool2d(x, frac),
    'fractional k2 56 resident': () => disposeAll(u.fractionalMaxPool2d(xr, { ...frac, resident: true })),
    'fractional k2 56 js': () => jsFractionalMaxPool2d(x.data, shape, 2, 56, 56, samples.data),
    'fractional k2 45': () => u.fractionalMaxPool2d(x, frac45),
    'fractional k2 45 resident': () => disposeAll(u.fractionalMaxPool2d(xr, { ...frac45, resident: true })),
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
  const t = await runCases(cases, timing);
  xr.dispose();
  console.log(`1x64x112x112 float32, median of ${timing.reps} alternated batches (µs per call)`);
  for (const k of Object.keys(cases)) console.log(`${k.padEnd(30)} ${us(t[k])}`);
  const faster = (a, b) => `${(t[b] / t[a]).toFixed(2)}x`;
  console.log('');
  console.log(`adaptive 56 / maxPool2d k2 s2: ${(t['adaptive 56 (regular)'] / t['maxPool2d k2 s2']).toFixed(2)} (target <= 1.2)`);
  for (const c of ['adaptive 40', 'fractional k2 56', 'fractional k2 45']) {
    console.log(`${c}: ${faster(c, `${c} js`)} the JS loop (resident ${faster(`${c} resident`, `${c} js`)}; target >= 8)`);
  }
  console.log(`unpool without kernel / with: ${(t['unpool without kernel'] / t['unpool k2']).toFixed(2)} (target ~1)`);
  console.log(`floor (copies alone) vs the JS loop, adaptive 40: ${faster('floor: copies of adaptive 40', 'adaptive 40 js')}`);
}

// ---- --layouts: channels first against channels last ----------------------------------------

/** maxPool2d and maxUnpool2d on the same data as NCHW and NHWC, copies included: median ms. */
async function layouts(u, { timing }) {
  const shapes = [
    // N, C, H, W, kernel: a feature map, an RGBA image, an RGB image, many channels
    [1, 64, 128, 128, 2], [1, 4, 512, 512, 2], [1, 3, 512, 512, 2], [1, 256, 32, 32, 3],
  ];
  console.log(`median of ${timing.reps} alternated batches`);
  console.log('| N, C, H, W | kernel | pool NCHW ms | pool NHWC ms | unpool NCHW ms | unpool NHWC ms |\n|---|---|---|---|---|---|');
  for (const [N, C, H, W, k] of shapes) {
    const data = input([N, C, H, W]);
    const cf = { data, shape: [N, C, H, W] };
    const cl = { data, shape: [N, H, W, C] };
    const o = { kernelSize: k };
    const ol = { kernelSize: k, layout: 'NHWC' };
    const pf = u.maxPool2d(cf, o);
    const pl = u.maxPool2d(cl, ol);
    const t = await runCases({
      'pool NCHW': () => u.maxPool2d(cf, o),
      'pool NHWC': () => u.maxPool2d(cl, ol),
      'unpool NCHW': () => u.maxUnpool2d(pf.output, pf.indices, { ...o, outputSize: [H, W] }),
      'unpool NHWC': () => u.maxUnpool2d(pl.output, pl.indices, { ...ol, outputSize: [H, W] }),
    }, timing);
    console.log(`| ${N}, ${C}, ${H}, ${W} | ${k} | ${Object.values(t).map((v) => (v / 1000).toFixed(2)).join(' | ')} |`);
  }
}

// ---- --steady: one small call in a steady loop ------------------------------------------------

/**
 * One build, one call in a steady loop: the per-call time of a small pool
 * into `out` (2d 1x8x16x16) without another build's calls in between, as
 * --ab alternates them: run it once per build, one process each.
 */
async function steady(u, { quick }) {
  const shape = [1, 8, 16, 16];
  const x = { data: input(shape), shape };
  const options = { kernelSize: 2, out: { output: new Float32Array(512), indices: new Int32Array(512) } };
  const calls = numberOption('--calls', quick ? 20000 : 200000);
  for (let i = 0; i < calls / 10; ++i) u.maxPool2d(x, options);
  const t = performance.now();
  for (let i = 0; i < calls; ++i) u.maxPool2d(x, options);
  console.log(`${option('--dist', 'dist')}: maxPool2d 1x8x16x16 k2 into out: ${(((performance.now() - t) / calls) * 1000).toFixed(3)} µs a call (${calls} calls)`);
}

const PROBES = { '--dtypes': dtypes, '--modes': modes, '--layouts': layouts, '--gc': gc, '--faults': faults, '--steady': steady };
export const PROBE_FLAGS = Object.keys(PROBES);
