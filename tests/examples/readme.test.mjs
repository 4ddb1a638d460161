// The JavaScript blocks of README.md and docs/*.md, run as a user runs them:
// each is written to a module inside the package (build/readme-snippets/, so
// `import ... from 'unpool'` resolves to dist/ by the package's own name) and
// run with node in a child process. A `console.log(...)` line with a comment after it, or on
// the line below, must print exactly that comment. A block that uses names
// it does not define (a fragment) gets them from its fixture's prelude; the
// epilogue then checks what the block computed. Every js block must have a
// fixture, so a new example cannot go unrun; a block fenced as `js no-run`
// is one a reader should see but that cannot run (it is listed, not run),
// and one fenced `js node-webgpu` runs in the WebGPU stage
// (tests/webgpu/harness/node-docs.mjs).
// Run by the examples stage (bash scripts/test.sh examples): node --test tests/examples/
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { docBlocks, DOCS, expectedOutput, root } from './blocks.mjs';

const dir = join(root, 'build', `readme-snippets-${process.pid}`);
mkdirSync(dir, { recursive: true });
after(() => rmSync(dir, { recursive: true, force: true }));

const onnxModel = pathToFileURL(join(root, 'tests/js/onnx-model.mjs')).href;
const wasmPath = join(root, 'dist/unpool.wasm');

/** Runs prelude + code + epilogue as one module; returns { status, stdout, stderr }. */
function runModule(name, prelude, code, epilogue) {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `${prelude}\n${code}\n${epilogue}\n`);
  return spawnSync(process.execPath, [file], { cwd: root, encoding: 'utf8', timeout: 60_000 });
}

const ASSERT = "import __assert from 'node:assert/strict';";

// Keyed by the block's first line. `runs`: the programs made from the block
// (by default one, the whole block); `fails`: the program must fail with
// stderr matching it.
const FIXTURES = {
  "// An RGBA image's bytes, channels last: (H, W, C) = (2, 2, 4), one 2x2 window.": {
    epilogue: `__assert.ok(output.data instanceof Uint8ClampedArray);
__assert.ok(back.data instanceof Uint8ClampedArray);
__assert.deepEqual(Array.from(back.data.slice(8)), [0, 0, 0, 0, 0, 0, 3, 0]);`,
  },
  "import { init, maxPool2d, maxUnpool2d } from 'unpool';": {
    epilogue: `__assert.deepEqual(Array.from(y.data), [0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 14, 0, 16]);`,
  },
  "import { init, MaxPool2d, MaxUnpool2d } from 'unpool';": {
    prelude: `${ASSERT}\nglobalThis.document = { body: { textContent: '' } };`,
    epilogue: `
__assert.equal(document.body.textContent, '3,32,32 -> 3,64,64');
__assert.deepEqual(output.shape, [3, 32, 32]);
// the unpooled image: each window's maximum in place, zeros elsewhere
const want = new Float32Array(image.data.length);
indices.data.forEach((at, i) => { want[Math.floor(i / 1024) * 4096 + at] = output.data[i]; });
__assert.deepEqual(restored.data, want);
for (let i = 0; i < output.data.length; ++i) {
  const c = Math.floor(i / 1024), oh = Math.floor((i % 1024) / 32), ow = i % 32;
  const win = [0, 1, 64, 65].map((d) => image.data[c * 4096 + oh * 128 + ow * 2 + d]);
  __assert.equal(output.data[i], Math.max(...win));
}`,
  },
  'await init({ locateFile: (file) => `/static/${file}` });  // file is \'unpool.wasm\'': {
    runs: [
      // In Node the file is read from the path locateFile gives for 'unpool.wasm'.
      { line: 0, prelude: "import { init } from 'unpool';", fails: /\/static\/unpool\.wasm/ },
      {
        line: 1,
        prelude: `${ASSERT}\nimport { init, maxPool2d, isReady } from 'unpool';\n` +
                 `import { readFileSync } from 'node:fs';\nconst bytes = readFileSync(${JSON.stringify(wasmPath)});`,
        epilogue: `__assert.ok(isReady());
__assert.deepEqual(Array.from(maxPool2d({ data: Float32Array.of(1, 3, 2, 0), shape: [1, 1, 2, 2] },
                                        { kernelSize: 2 }).indices.data), [1]);`,
      },
    ],
  },
  "import { init, maxPool2d, maxUnpool2d, uploadTensor } from 'unpool';": {
    prelude: `${ASSERT}
import { init as __init, maxPool2d as __pool, maxUnpool2d as __unpool, memoryUsage as __usage } from 'unpool';
await __init();
const __inUse = __usage().inUseBytes;  // the module's own buffers`,
    epilogue: `
__assert.equal(y.data, yArray);
const p = __pool(x, { kernelSize: 2 });
__assert.deepEqual(y.data, __unpool(p.output, p.indices, { kernelSize: 2 }).data);
__assert.ok(y.data.some((v) => v !== 0));
__assert.equal(__usage().inUseBytes, __inUse);  // all three disposed`,
  },
  "import { isUnpoolError } from 'unpool';": {
    prelude: `${ASSERT}\nimport { init, maxUnpool2d } from 'unpool';\nawait init();
const x = { data: Float32Array.of(1, 2, 3, 4), shape: [1, 1, 2, 2] };
const indices = { data: Int32Array.of(0, 1, 2, 3), shape: [1, 1, 2, 2] };`,
    replace: [['/* ... */', 'globalThis.caught = e.message;']],
    epilogue: `__assert.match(globalThis.caught ?? '', /^maxUnpool2d: .*outputSize/);`,
  },
  "import * as ort from 'onnxruntime-web';": {
    prelude: `${ASSERT}
import * as __ort from 'onnxruntime-web';
import { maxPool2d as __pool } from 'unpool';
import { oneNodeModel, FLOAT, INT64 } from ${JSON.stringify(onnxModel)};
__ort.env.wasm.numThreads = 1;
__ort.env.wasm.proxy = false;
const shape = [2, 3, 6, 6];
const session = await __ort.InferenceSession.create(oneNodeModel({
  opType: 'MaxPool',
  inputs: [{ name: 'X', type: FLOAT, shape }],
  outputs: [{ name: 'Y', type: FLOAT, shape: [2, 3, 3, 3] }, { name: 'Indices', type: INT64, shape: [2, 3, 3, 3] }],
  attributes: { kernel_shape: [2, 2], strides: [2, 2] },
}), { executionProviders: ['wasm'] });
const x = new __ort.Tensor('float32', Float32Array.from({ length: 216 }, (_, i) => Math.sin(i * 12.9898) * 100), shape);`,
    epilogue: `
const p = __pool({ data: x.data, shape: x.dims }, { kernelSize: 2 });
__assert.deepEqual(indices.data, p.indices.data);
__assert.deepEqual(restored.shape, shape);
__assert.deepEqual(restored.data, maxUnpool2d(p.output, p.indices, { kernelSize: 2 }).data);
await session.release();`,
  },
  "import * as ort from 'onnxruntime-node';": {
    prelude: `${ASSERT}
import * as __ort from 'onnxruntime-node';
import { oneNodeModel, FLOAT } from ${JSON.stringify(onnxModel)};
const negate = await __ort.InferenceSession.create(oneNodeModel({
  opType: 'Neg', inputs: [{ name: 'X', type: FLOAT, shape: [1, 1, 2, 2] }],
  outputs: [{ name: 'Y', type: FLOAT, shape: [1, 1, 2, 2] }], attributes: {},
}));`,
    epilogue: `
__assert.ok(Y instanceof ort.Tensor);
__assert.equal(toOrtTensor(output, ort).data.buffer, output.data.buffer);  // no copy
__assert.deepEqual(Array.from(indices.data), [1, 6, 8, 15]);
await negate.release();`,
  },
  "import { init, maxPool1d, maxPool1dBackward } from 'unpool';": {
    epilogue: `
__assert.ok(output.data instanceof Uint16Array && grad.data instanceof Uint16Array);
__assert.equal(grad.dtype, 'float16');
__assert.deepEqual(Array.from(indices.data), [1, 1, 2]);`,
  },
  "import { init, adaptiveMaxPool2d, fractionalMaxPool2d } from 'unpool';": {
    epilogue: `
__assert.deepEqual(a.output.shape, [2, 3, 4, 9]);
__assert.deepEqual(f.output.shape, [2, 3, 5, 4]);
// Rows 0-2 of each plane are output row 0's window (floor(0 * 10 / 4) to ceil(10 / 4)).
for (let p = 0; p < 6; ++p) {
  const col = (r) => x.data[p * 90 + r * 9];
  __assert.equal(a.output.data[p * 36], Math.max(col(0), col(1), col(2)));
}`,
  },
  "import { init, maxUnpool2d, maxPool2d } from 'unpool';": {
    epilogue: `__assert.ok(restored.data.every((v, i) => i % 4 !== 3 || v === 255));
__assert.equal(restored.data.filter((v, i) => i % 4 !== 3 && v !== 0).length, output.data.length * 3 / 4);`,
  },
  'console.log(outputSizeRange([1, 3, 2, 2], { kernelSize: 3, stride: 2 }));': {
    prelude: "import { init, outputSizeRange } from 'unpool';\nawait init();",
  },
};

const all = DOCS.flatMap(docBlocks);
const blocks = all.filter((b) => b.fence === '');

test('every js block of the docs has a fixture, and every fixture a block', () => {
  assert.ok(blocks.length >= 7, `only ${blocks.length} js blocks found`);
  assert.ok(blocks.some((b) => b.file === 'README.md'), 'no js block in README.md');
  const firsts = blocks.map((b) => b.code.split('\n')[0]);
  for (const [i, f] of firsts.entries()) {
    assert.ok(f in FIXTURES, `${blocks[i].file}:${blocks[i].line}: no fixture in tests/examples/readme.test.mjs for\n${f}`);
  }
  assert.deepEqual(firsts.filter((f, i) => firsts.indexOf(f) !== i), [], 'blocks that share a first line share a fixture');
  assert.deepEqual(Object.keys(FIXTURES).filter((k) => !firsts.includes(k)), []);
});

for (const [b, block] of blocks.entries()) {
  const fixture = FIXTURES[block.code.split('\n')[0]];
  if (fixture === undefined) continue;
  let code = block.code;
  for (const [from, to] of fixture.replace ?? []) {
    assert.ok(code.includes(from));
    code = code.replace(from, to);
  }
  const runs = fixture.runs ?? [{ prelude: fixture.prelude ?? ASSERT, epilogue: fixture.epilogue ?? '' }];
  for (const [r, run] of runs.entries()) {
    const source = run.line === undefined ? code : code.split('\n')[run.line];
    test(`${block.file}:${block.line + (run.line ?? 0)}: ${source.split('\n')[0]}`, () => {
      const res = runModule(`block-${b}-${r}`, run.prelude ?? '', source, run.epilogue ?? '');
      if (run.fails) {
        assert.notEqual(res.status, 0, `expected a failure, got stdout:\n${res.stdout}`);
        assert.match(res.stderr, run.fails);
        return;
      }
      assert.equal(res.status, 0, `exit ${res.status}\n${res.stderr}`);
      const printed = res.stdout.split('\n').filter((l) => l !== '');
      assert.deepEqual(printed, expectedOutput(source));
    });
  }
}

for (const block of all.filter((b) => b.fence === 'no-run')) {
  test(`${block.file}:${block.line}: not run (fenced js no-run)`, { skip: true }, () => {});
}

test('every js block is fenced js, js no-run or js node-webgpu (run by the WebGPU stage)', () => {
  assert.deepEqual(all.filter((b) => !['', 'no-run', 'node-webgpu'].includes(b.fence))
    .map((b) => `${b.file}:${b.line}: js ${b.fence}`), []);
});
