#!/usr/bin/env node
// `npm run bench:webgpu`: unpool/webgpu against ONNX Runtime Web, today's
// read-back chain and the adapter's copy floor (bench/js/webgpu-suite.mjs),
// on two stacks, each side by side on one device in one run:
//
//   chromium  headless Debian Chromium (playwright-core), Dawn on SwiftShader:
//             --enable-unsafe-webgpu --use-webgpu-adapter=swiftshader, the page
//             on http://127.0.0.1 (vitest.webgpu.config.ts explains the flags)
//   deno      Deno's navigator.gpu (wgpu) on Mesa's lavapipe
//             (DENO_WEBGPU_BACKEND=vulkan VK_ICD_FILENAMES=<lvp_icd>), deno from
//             tests/runtimes/install-tools.sh
//   node      (not by default) Node.js 24 + the webgpu package, Dawn on the
//             SwiftShader Vulkan driver of Debian's chromium
//
// Benchmarks, not tests. Software adapters are not GPU speeds: the ratios
// that count are those of one adapter in one run.
//
// Usage: node bench/js/webgpu.mjs [--quick] [--filter REGEX] [--dtypes float32,float16]
//          [--stacks chromium,deno,node] [--no-ort] [--write] [--real-gpu]
//   --real-gpu  on a machine with a GPU: Chromium headed, not pinned to
//               SwiftShader (needs a display), and Deno on its default adapter
//   --write     replaces the "WebGPU" section of bench/RESULTS.md
//   --ab <distA> <distB>  instead: two builds' unpool/webgpu on one device, their
//               calls alternated (webgpu-ab.mjs, abWebGPU), on the stacks
//               outside the browser (default deno; node too): [--op pool|unpool]
//               [--shape 1,64,112,112] [--dtype float32|float16|int32] [--rounds 3]
//               [--reps 9] [--options '{"kernelSize":3}'] [--moved]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withChromium } from './chromium.mjs';
import { abDists, argsWithout, flag, numberOption, option, shapeOption, writeResults } from './cli.mjs';
import { GPU_WORKLOADS, GPU_DTYPES } from './webgpu-suite.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const quick = flag('--quick');
const realGpu = flag('--real-gpu');
const filterText = option('--filter') ?? '.';
const dtypes = (option('--dtypes') ?? GPU_DTYPES.join(',')).split(',');
const ab = abDists();
const stacks = (option('--stacks') ?? (ab ? 'deno' : 'chromium,deno')).split(',');
const noOrt = flag('--no-ort');
const command = `node bench/js/webgpu.mjs ${argsWithout('--write').join(' ')}`.trim();
const loadBefore = os.loadavg().map((l) => l.toFixed(2)).join(' ');

// ---- chromium -------------------------------------------------------------------------------

async function chromiumStack() {
  // A real GPU on Linux: WebGPU goes through Vulkan, which Chromium keeps
  // behind --enable-features=Vulkan there (harmless elsewhere).
  const flags = realGpu ? ['--enable-unsafe-webgpu', '--enable-features=Vulkan']
    : ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--enable-unsafe-swiftshader'];
  const q = new URLSearchParams({ quick: quick ? '1' : '0', filter: filterText, dtypes: dtypes.join(','), ort: noOrt ? '0' : '1' });
  const result = await withChromium({ flags, headless: !realGpu, timeoutMs: 60 * 60 * 1000 },
                                    (open) => open(`webgpu.html?${q}`, (s) => console.error(`  ${s}`)));
  result.stack = realGpu ? 'Chromium (headed, default adapter)' : 'Chromium (headless), Dawn on SwiftShader';
  return result;
}

// ---- deno -----------------------------------------------------------------------------------

/**
 * A stack outside the browser (webgpu-headless.mjs): 'deno' (wgpu on
 * lavapipe) or 'node' (Node.js 24 + the webgpu package, Dawn on
 * SwiftShader's Vulkan driver), from the runtime tools. `extra`: more
 * options for webgpu-headless.mjs (`ab`).
 */
function headlessStack(which, extra = {}) {
  const tools = execFileSync('bash', [`${root}tests/runtimes/install-tools.sh`], { encoding: 'utf8' }).trim().split('\n').pop();
  const env = { ...process.env, DENO_NO_UPDATE_CHECK: '1', DENO_DIR: `${tools}/.deno` };
  if (!env.XDG_RUNTIME_DIR || !existsSync(env.XDG_RUNTIME_DIR)) {
    env.XDG_RUNTIME_DIR = mkdtempSync(path.join(os.tmpdir(), 'unpool-xdg-'));
  }
  const opt = { quick, filter: filterText, dtypes, ort: !noOrt, ...extra };
  const file = `${root}bench/js/webgpu-headless.mjs`;
  let cmd;
  let stack;
  if (which === 'deno') {
    if (!realGpu) Object.assign(env, { DENO_WEBGPU_BACKEND: 'vulkan', VK_ICD_FILENAMES: readdirIcd() });
    cmd = [`${tools}/node_modules/.bin/deno`, 'run', '--allow-read', '--allow-env', file];
    stack = realGpu ? 'Deno (wgpu, default adapter)' : 'Deno (wgpu), Vulkan on lavapipe';
  } else {
    env.WEBGPU_PACKAGE = `${tools}/node_modules/webgpu`;
    if (!realGpu) env.VK_ICD_FILENAMES = '/usr/lib/chromium/vk_swiftshader_icd.json';
    cmd = [`${tools}/node_modules/node24/bin/node`, file];
    stack = realGpu ? 'Node.js 24 + webgpu (Dawn, default adapter)' : 'Node.js 24 + webgpu (Dawn), Vulkan on SwiftShader';
  }
  const r = spawnSync(cmd[0], [...cmd.slice(1), JSON.stringify(opt)],
                      { env, encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = r.stdout.split('\n').find((l) => l.startsWith('{'));
  if (!line) throw new Error(`bench: ${which} printed no result (exit ${r.status})`);
  const result = JSON.parse(line);
  if (result.error) throw new Error(`bench: ${which} failed: ${result.error}`);
  result.stack = stack;
  return result;
}

function readdirIcd() {
  const dir = '/usr/share/vulkan/icd.d';
  const f = existsSync(dir) ? execFileSync('ls', [dir], { encoding: 'utf8' }).split('\n').find((n) => /^lvp_icd\./.test(n)) : undefined;
  if (!f) throw new Error('bench: no lavapipe ICD in /usr/share/vulkan/icd.d (mesa-vulkan-drivers)');
  return `${dir}/${f}`;
}

// ---- report ---------------------------------------------------------------------------------

const fmt = (us) => (us === undefined ? '–' : us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(us < 10 ? 2 : 1)} µs`);
const ratio = (a, b) => (a === undefined || b === undefined ? '–' : `${(a / b).toFixed(2)}x`);

function table(r) {
  const ts = r.timestamps;
  const head = ['workload', 'dtype', 'op', 'unpool gpu', 'copy floor', 'gpu / copy', 'ORT gpu MaxPool (no indices)',
    'gpu / ORT gpu', 'ORT pool→unpool (CPU EP)', 'readback + wasm', 'readback + wasm + upload',
    ...(ts ? ['gpu (ts)', 'copy (ts)', 'gpu / copy (ts)', 'ORT gpu (ts)'] : [])];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const w of GPU_WORKLOADS) {
    for (const dtype of dtypes) {
      const c = r.results[`${w.name} ${dtype}`];
      if (!c) continue;
      for (const op of ['pool', 'unpool', 'chain']) {
        const g = (k) => c[`${op} ${k}`];
        lines.push(`| ${w.name} | ${dtype} | ${op} | ${fmt(g('gpu'))} | ${fmt(g('copy'))} | ${ratio(g('gpu'), g('copy'))} | ` +
          `${fmt(g('ort-gpu'))} | ${ratio(g('gpu'), g('ort-gpu'))} | ${fmt(g('ort-cpu'))} | ${fmt(g('readback-host'))} | ${fmt(g('readback'))} |` +
          (ts ? ` ${fmt(g('gpu ts'))} | ${fmt(g('copy ts'))} | ${ratio(g('gpu ts'), g('copy ts'))} | ${fmt(g('ort-gpu ts'))} |` : ''));
      }
    }
  }
  return lines;
}

function targets(r) {
  const c = r.results['2d 1x64x112x112 float32'];
  if (!c) return ['(the target workload, 2d 1x64x112x112 float32, was not run)'];
  const line = (what, a, b, limit) => {
    const v = a / b;
    return `- ${what}: ${fmt(a)} / ${fmt(b)} = ${v.toFixed(2)}x (target ≤ ${limit}x): **${v <= limit ? 'met' : 'missed'}**`;
  };
  const out = [
    line('pool with indices / copyBufferToBuffer of its bytes', c['pool gpu'], c['pool copy'], 3),
    line('unpool / copyBufferToBuffer of its bytes', c['unpool gpu'], c['unpool copy'], 3),
  ];
  if (c['pool ort-gpu'] !== undefined) {
    out.push(line("pool with indices / ORT Web's WebGPU MaxPool without indices", c['pool gpu'], c['pool ort-gpu'], 1));
  } else {
    out.push("- pool with indices / ORT Web's WebGPU MaxPool: ORT's WebGPU EP did not run here");
  }
  if (r.timestamps) {
    out.push(`- the same on GPU timestamps: pool / copy ${(c['pool gpu ts'] / c['pool copy ts']).toFixed(2)}x, ` +
      `unpool / copy ${(c['unpool gpu ts'] / c['unpool copy ts']).toFixed(2)}x` +
      (c['pool ort-gpu ts'] !== undefined ? `, pool / ORT MaxPool ${(c['pool gpu ts'] / c['pool ort-gpu ts']).toFixed(2)}x` : ''));
  }
  return out;
}

function section(r) {
  const b = r.results['2d 1x64x112x112 float32']?.bytes;
  return [
    `### ${r.stack}`, '',
    `- adapter: ${r.adapter}`,
    `- runtime: ${r.runtime}; device: ${r.device}; features: ${r.features || '(none)'}`,
    `- onnxruntime-web ${r.ortVersion ?? 'not run'}; timing: each call followed by \`onSubmittedWorkDone\`, median of ` +
      `${quick ? '5 reps (quick)' : '15 reps'}; GPU timestamps: ${r.timestamps ? 'yes (columns "(ts)": median of 11 bracketed calls)' : 'no (the adapter has no timestamp-query)'}`,
    ...(b ? [`- copy floor bytes of 2d 1x64x112x112 float32: pool ${b.pool}, unpool ${b.unpool}`] : []),
    ...(dtypes.includes('float16') && !/shader-f16/.test(r.features)
      ? ['- float16: this device has no `shader-f16`. Where ORT\'s float16 MaxPool output was not unpool\'s ' +
         'pooled tensor, it has no figure (see "Not run")'] : []),
    '', ...table(r), '', 'Targets (2d 1x64x112x112 float32, int32 indices, work on the GPU, each call followed by onSubmittedWorkDone):', '',
    ...targets(r),
    ...(r.notes.length ? ['', 'Not run:', '', ...[...new Set(r.notes)].map((n) => `- ${n}`)] : []),
  ];
}

// ---- main -----------------------------------------------------------------------------------

if (ab) {
  const opts = option('--options');
  const spec = {
    dists: ab, op: option('--op', 'pool'), shape: shapeOption('--shape', '1,64,112,112'), dtype: option('--dtype', 'float32'),
    rounds: numberOption('--rounds', quick ? 1 : 3), reps: numberOption('--reps', quick ? 5 : 9),
    options: opts ? JSON.parse(opts) : {}, moved: flag('--moved'),
  };
  if (!['pool', 'unpool'].includes(spec.op)) throw new Error(`bench:webgpu: --op must be pool or unpool, got ${spec.op}`);
  for (const s of stacks) {
    if (s === 'chromium') throw new Error('bench:webgpu: --ab runs on the deno and node stacks (--stacks deno,node)');
    const r = headlessStack(s, { ab: spec });
    console.log(`### ${r.stack}: A = ${ab[0]}, B = ${ab[1]}\n\n- adapter: ${r.adapter}; runtime: ${r.runtime}\n` +
      `- ${r.op} ${r.shape.join('x')} ${r.dtype}, ${JSON.stringify(r.options)}${r.moved ? ', index 0 moved out of its window' : ''}; ` +
      `call + onSubmittedWorkDone, ${r.reps} alternated calls a side a round\n`);
    console.log('| round | A median | B median | B / A | A fastest | B fastest | B / A (fastest) |\n|---|---|---|---|---|---|---|');
    r.rounds.forEach((x, i) => console.log(`| ${i + 1} | ${fmt(x.a * 1000)} | ${fmt(x.b * 1000)} | ${ratio(x.b, x.a)} | ` +
      `${fmt(x.minA * 1000)} | ${fmt(x.minB * 1000)} | ${ratio(x.minB, x.minA)} |`));
    console.log('');
  }
  process.exit(0);
}

const results = [];
for (const s of stacks) {
  console.error(`bench:webgpu: ${s}`);
  try {
    results.push(s === 'chromium' ? await chromiumStack() : headlessStack(s));
  } catch (e) {
    console.error(`bench:webgpu: ${s} failed: ${e.message}`);
    results.push({ stack: s, failed: e.message });
  }
}
const text = [
  ...results.flatMap((r) => (r.failed ? [`### ${r.stack}`, '', `Failed: ${r.failed}`, ''] : [...section(r), ''])),
  `- machine: ${execFileSync('sh', ['-c', "lscpu | grep 'Model name' | sed 's/.*: *//'"], { encoding: 'utf8' }).trim()}, ` +
    `nproc ${os.cpus().length}; load average before: ${loadBefore}, after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ` +
    `${new Date().toISOString()}`,
].join('\n');
console.log(text);

if (flag('--write')) {
  writeResults('webgpu-bench', ['## WebGPU (issue 30)', '',
    `Command: \`${command} --write\` (\`npm run bench:webgpu\` is \`npm run build\` and ` +
      '`node bench/js/webgpu.mjs --write`). Columns: `unpool gpu` unpool/webgpu',
    '(results into preallocated GpuTensors), `copy floor` one `copyBufferToBuffer` of the bytes the op',
    'must read plus those it must write, `ORT gpu MaxPool` ONNX Runtime Web\'s WebGPU EP (pool rows',
    'only: it has no GPU MaxPool with indices and no GPU MaxUnpool), `ORT pool→unpool` its',
    'MaxPool-with-Indices → MaxUnpool model on its CPU (wasm) EP with the read-back and upload',
    '(chain rows), `readback + wasm + upload` the chain users write today with unpool\'s',
    'WebAssembly API, `readback + wasm` the same with the results left on the host (pool rows).',
    'Each time is one call followed by `onSubmittedWorkDone`. Software',
    'adapters: only ratios within one table mean anything (bench/js/webgpu-suite.mjs).', '',
    text]);
  mkdirSync(`${root}build`, { recursive: true });
  writeFileSync(`${root}build/bench-webgpu.json`, JSON.stringify(results, null, 1));
}
