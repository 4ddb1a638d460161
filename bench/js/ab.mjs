// `bench.mjs --ab <distA> <distB>`: two builds of the package in one
// process, each case of A and B alternated batch by batch so that both see
// the same machine state; for changes smaller than the run-to-run noise of
// the comparison (per-call overhead, one kernel). Pool and unpool with the
// copying API, with `out` and with resident tensors (in and out).
//
// Options (see bench.mjs's usage): --shape, --reps, --dtype, --layout,
// --kernel, --stride, --adaptive, --nan, --scalar, --no-check, --quick,
// --runs (runABProcesses).
// Prints the median and the fastest batch of A and B (µs per call) and the
// median's A / B (> 1: B is faster). On a loaded machine the fastest batch
// is the steadier figure of a kernel's own cost.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { flag, loadDist, numberOption, option, shapeOption } from './cli.mjs';
import { median } from './timing.mjs';
import { input, tensorOf } from './workloads.mjs';

export async function runAB([distA, distB], quick) {
  const scalar = flag('--scalar');
  const [a, b] = [await loadDist(distA, scalar), await loadDist(distB, scalar)];
  const shape = shapeOption('--shape', '1,8,16,16');
  const reps = numberOption('--reps', quick ? 9 : 41);
  const dims = shape.length - 2;
  const n = shape.reduce((p, d) => p * d, 1);
  const dtype = option('--dtype', 'float32');
  const values = input(shape);
  // --nan F: a NaN in a fraction F of the input's rows (the last dim; 1:
  // every row), which the kernels' NaN-free passes must then do again. Rows
  // r with frac(r * golden) < F: spread evenly, the NaN at a column that
  // moves from row to row.
  const nanRows = numberOption('--nan', 0, (f) => f >= 0 && f <= 1);
  const rowLen = shape[shape.length - 1];
  for (let r = 0; r < n / rowLen; ++r) {
    if ((r * 0.6180339887) % 1 < nanRows) values[r * rowLen + ((r * 37) % rowLen)] = NaN;
  }
  const x = tensorOf(values, shape, dtype);
  const Values = x.data.constructor;
  // --layout: the channels-last name of the shape's rank (NLC, NHWC, NDHWC);
  // the shape is then given channels last, e.g. 1,56,56,64.
  const layout = option('--layout');
  const kernel = numberOption('--kernel', 2);
  const opts = { kernelSize: kernel, stride: numberOption('--stride', kernel) };
  if (layout) opts.layout = layout;
  // The unpools restore the input's size (a kernel or stride that leaves
  // columns over, as k3 s2 on 112, would otherwise give a smaller plane).
  const unpoolOpts = { ...opts, outputSize: layout ? shape.slice(1, -1) : shape.slice(2) };
  // --adaptive 40 (or 40,40): also the adaptive pool to that output size.
  const adaptiveSize = option('--adaptive')?.split(',').map(Number);
  const adaptiveOpts = adaptiveSize && { outputSize: adaptiveSize.length === 1 ? adaptiveSize[0] : adaptiveSize };
  if (adaptiveOpts && layout) adaptiveOpts.layout = layout;

  // Both builds must give the same bits, or the comparison is of two
  // different ops (--no-check: B is a measurement-only build, e.g. a kernel
  // that only loads and stores).
  if (!flag('--no-check')) {
    const [ra, rb] = [a, b].map((u) => u[`maxPool${dims}d`](x, opts));
    const bytes = (t) => new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    const same = (p, q) => p.length === q.length && p.every((v, i) => v === q[i]);
    if (!same(bytes(ra.output), bytes(rb.output)) || !same(bytes(ra.indices), bytes(rb.indices))) {
      throw new Error('bench --ab: A and B pool to different bits (--no-check to time them anyway)');
    }
  }

  const disposeAll = (r) => {
    r.output.dispose();
    r.indices.dispose();
  };
  function cases(u) {
    const pool = u[`maxPool${dims}d`];
    const unpool = u[`maxUnpool${dims}d`];
    const p = pool(x, opts);
    const m = p.output.data.length;
    const poolOut = { ...opts, out: { output: new Values(m), indices: new Int32Array(m) } };
    const unpoolOut = { ...unpoolOpts, out: new Values(n) };
    // Resident: inputs uploaded once, results kept in module memory and
    // disposed at once (what a chain of ops does between its ends).
    const resident = { ...opts, resident: true };
    const xr = u.uploadTensor(x);
    const pr = pool(xr, resident);
    const adaptive = u[`adaptiveMaxPool${dims}d`];
    const adaptiveCases = adaptiveOpts ? {
      'adaptive copy': () => adaptive(x, adaptiveOpts),
      'adaptive resident': () => disposeAll(adaptive(xr, { ...adaptiveOpts, resident: true })),
    } : {};
    return {
      ...adaptiveCases,
      'pool copy': () => pool(x, opts),
      'pool out': () => pool(x, poolOut),
      'unpool copy': () => unpool(p.output, p.indices, unpoolOpts),
      'unpool out': () => unpool(p.output, p.indices, unpoolOut),
      'pool resident': () => disposeAll(pool(xr, resident)),
      'unpool resident': () => unpool(pr.output, pr.indices, { ...unpoolOpts, resident: true }).dispose(),
    };
  }

  const ca = cases(a);
  const cb = cases(b);
  // Calls per batch: ~2 ms of the slower build.
  const batch = {};
  for (const name of Object.keys(ca)) {
    let calls = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < (quick ? 50 : 200)) {
      ca[name]();
      cb[name]();
      ++calls;
    }
    batch[name] = Math.max(1, Math.round(calls / (quick ? 25 : 100)));
  }
  // A and B take turns going first: the first batch of a pair can pay for
  // the second (page faults of fresh results, a GC), which gave B a lead in
  // A/A runs when A always went first.
  const times = {};
  for (let r = 0; r < reps; ++r) {
    for (const name of Object.keys(ca)) {
      const pair = [['A', ca[name]], ['B', cb[name]]];
      if (r % 2 === 1) pair.reverse();
      for (const [side, fn] of pair) {
        const t0 = performance.now();
        for (let i = 0; i < batch[name]; ++i) fn();
        (times[`${name} ${side}`] ??= []).push(((performance.now() - t0) / batch[name]) * 1000);
      }
    }
  }
  console.log(`A = ${distA}, B = ${distB} (${scalar ? 'scalar' : 'SIMD'} builds); ` +
              `${shape.join('x')} ${layout ?? 'channels first'}, ${dtype}, k = ${opts.kernelSize}, s = ${opts.stride}` +
              `${nanRows > 0 ? `, NaN in ${nanRows} of the rows` : ''}; ` +
              `${reps} alternated batches, µs per call`);
  console.log('| op | A median | B median | A fastest | B fastest | A / B |\n|---|---:|---:|---:|---:|---:|');
  for (const name of Object.keys(ca)) {
    const [ta, tb] = ['A', 'B'].map((s) => times[`${name} ${s}`]);
    console.log(`| ${name} | ${median(ta).toFixed(2)} | ${median(tb).toFixed(2)} | ${Math.min(...ta).toFixed(2)} | ` +
                `${Math.min(...tb).toFixed(2)} | ${(median(ta) / median(tb)).toFixed(2)} |`);
  }
}

/**
 * `--ab A B --runs N` (N > 1): N runs of the alternated comparison, each a
 * process of its own, every other one with the builds' order swapped (a
 * process's first-loaded build can be favoured); prints each op's A / B
 * per run and their geometric mean. A single run's ratios move by 2-3%
 * between runs; the mean of 6-8 moves by under 1% in an A/A comparison.
 */
export function runABProcesses([distA, distB], runs) {
  const script = fileURLToPath(new URL('./bench.mjs', import.meta.url));
  const given = process.argv.slice(2);
  const rest = [];
  for (let i = 0; i < given.length; ++i) {
    if (given[i] === '--ab') i += 2;
    else if (given[i] === '--runs') i += 1;
    else rest.push(given[i]);
  }
  const ratios = new Map();
  for (let r = 0; r < runs; ++r) {
    const swapped = r % 2 === 1;
    const pair = swapped ? [distB, distA] : [distA, distB];
    const run = spawnSync(process.execPath, [script, '--ab', ...pair, ...rest], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`bench --ab --runs: run ${r + 1} failed:\n${run.stderr}`);
    if (r === 0) console.log(run.stdout.split('\n')[0].replace(/^A = \S+, B = \S+/, `A = ${distA}, B = ${distB}`));
    for (const line of run.stdout.split('\n')) {
      const cells = line.split('|').map((c) => c.trim());
      if (cells.length !== 8 || !/^\d/.test(cells[6])) continue;
      const ratio = swapped ? 1 / Number(cells[6]) : Number(cells[6]);
      ratios.set(cells[1], [...(ratios.get(cells[1]) ?? []), ratio]);
    }
  }
  console.log(`${runs} runs, each its own process, the builds' order swapped in every other; ` +
              'A / B of the medians (> 1: B is faster)');
  console.log('| op | A / B, geometric mean | each run |\n|---|---:|---|');
  for (const [op, v] of ratios) {
    const mean = Math.exp(v.reduce((a, x) => a + Math.log(x), 0) / v.length);
    console.log(`| ${op} | ${mean.toFixed(3)} | ${v.map((x) => x.toFixed(2)).join(' ')} |`);
  }
}
