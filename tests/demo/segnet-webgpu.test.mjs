// The model page on WebGPU, in headless Chromium on SwiftShader (the flags
// of vitest.webgpu.config.ts): ONNX Runtime Web's WebGPU EP (JSEP) runs the
// convolutions, unpool/webgpu the pools and unpools, and the labels of
// every example equal PyTorch's and WebAssembly's. Every mapAsync of the
// page is counted: only the labels and the planes drawn are read back.
// Run by scripts/test-demo.sh, which serves the page and sets DEMO_URL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { openDemo, WEBGPU } from './browser.mjs';
import { loadReference, nodeRun, labelDiff } from './segnet-ref.mjs';
import { settled, set, shownLabels, checkExamples, checkHover } from './segnet-checks.mjs';

const url = process.env.DEMO_URL && new URL('segnet.html', process.env.DEMO_URL).href;
const ref = loadReference();
let demo;
let page;
let view;

/** Records the bytes of every GPUBuffer mapped for reading (window.__reads). */
function countReads() {
  window.__reads = [];
  const { mapAsync } = GPUBuffer.prototype;
  GPUBuffer.prototype.mapAsync = function (mode, offset = 0, size) {
    if (mode & GPUMapMode.READ) window.__reads.push(size ?? this.size - offset);
    return mapAsync.call(this, mode, offset, size);
  };
}
const reads = () => page.evaluate(() => window.__reads.splice(0));

before(async () => {
  assert.ok(url, 'DEMO_URL must name the served demo (scripts/test-demo.sh sets it)');
  demo = await openDemo(url, WEBGPU, (p) => p.addInitScript(countReads));
  page = demo.page;
  view = {
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    waitFor: (fn, timeout) => page.waitForFunction(fn, undefined, { timeout, polling: 100 }),
  };
  await settled(view);
});
after(async () => { await demo?.close(); });

test('the backend switch is shown with the adapter; WebGPU runs the model', async () => {
  assert.deepEqual(demo.errors, []);
  assert.equal(await page.getAttribute('body', 'data-webgpu'), 'available');
  assert.match(await page.textContent('#gpu-note'), /^WebGPU adapter: .*swiftshader/i);
  await set(view, { backend: 'webgpu' });
  assert.equal(await page.isHidden('#error'), true, await page.textContent('#error'));
  assert.match(await page.textContent('#s-labels'), /WebGPU$/);
  const t = String.raw`\d+(\.\d+)? (ms|µs|s)`;
  assert.match(await page.textContent('#t-run'), new RegExp(`^Inference: WebAssembly ${t}.* · WebGPU ${t} \\(first run, compiles shaders\\)$`));
});

test('every example\'s labels on WebGPU are PyTorch\'s, and WebAssembly\'s', async () => {
  await checkExamples(view, ref, 'WebGPU');
  assert.equal(await page.textContent('#same'), 'WebGPU labels = WebAssembly labels (all 2304 pixels)');
});

test('only what is drawn is read back: the labels, and one channel of the stage\'s five maps', async (t) => {
  // The bytes of one channel of each map, from the shapes and types the page shows ('[1, 16, 24, 24] int64').
  const planeBytes = async () => {
    const bytes = { float32: 4, int32: 4, int64: 8 };
    return Promise.all(['encoder', 'pooled', 'switches', 'decoder', 'unpooled'].map(async (k) => {
      const [, dims, type] = /^\[(.*)\] (\w+)$/.exec(await page.textContent(`#s-${k}`));
      const [, , H, W] = dims.split(', ').map(Number);
      return H * W * bytes[type];
    }));
  };
  const sorted = (a) => [...a].sort((x, y) => x - y);
  await set(view, { stage: 0 });
  await reads();
  await set(view, { channel: 3 });
  const plane = await planeBytes();
  assert.equal(plane[0], 48 * 48 * 4, 'stage 1\'s encoder map: 48 x 48 float32');
  assert.deepEqual(sorted(await reads()), sorted(plane), 'a channel switch reads its five planes');
  await set(view, { stage: 2 });
  const inner = await planeBytes();
  assert.equal(inner[0], 12 * 12 * 4, 'stage 3\'s encoder map: 12 x 12 float32');
  assert.deepEqual(sorted(await reads()), sorted(inner), 'stage 3\'s five planes');
  await set(view, { source: 'example:1' });
  const run = await reads();
  const total = run.reduce((a, b) => a + b, 0);
  const labels = 48 * 48 * 8;  // int64
  const drawn = labels + inner.reduce((a, b) => a + b, 0);
  t.diagnostic(`a run read ${total} bytes in ${run.length} maps (${run.join(', ')}); drawn: ${drawn}`);
  // Besides: the runner's content checks (a few bytes per unpool call) and ORT's alignment of its download.
  assert.ok(total >= drawn && total <= drawn + 1024, `a run reads ${total} bytes in ${run.length} maps (${run.join(', ')}); drawn: ${drawn}`);
});

test('hover on WebGPU: the same windows as the model run in Node', async () => {
  await set(view, { source: 'example:0' });
  const node = await nodeRun(ref.examples[0].rgb);
  for (const stage of [1, 3]) await checkHover(view, node, stage, ref.channels[stage - 1]);
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/segnet-webgpu.png', fullPage: true });
});

test('back to WebAssembly, and no console errors', async () => {
  await set(view, { backend: 'wasm' });
  assert.match(await page.textContent('#s-labels'), /WebAssembly$/);
  assert.equal(await page.isHidden('#same'), true);
  assert.deepEqual(demo.errors, []);
});

test('WebGPU that cannot open the model: the page says so and goes on on WebAssembly', async () => {
  // The adapter is found, but its device cannot be made: ONNX Runtime's WebGPU session fails.
  const broken = await openDemo(url, WEBGPU, (p) => p.addInitScript(() => {
    GPUAdapter.prototype.requestDevice = () => Promise.reject(new Error('no device for this test'));
  }));
  try {
    const p = broken.page;
    const v = { evaluate: (fn, arg) => p.evaluate(fn, arg), waitFor: (fn, timeout) => p.waitForFunction(fn, undefined, { timeout }) };
    await set(v, { backend: 'webgpu' });
    assert.match(await p.textContent('#gpu-note'), /^WebGPU: the model could not run there \(.+\); it runs on WebAssembly$/);
    assert.equal(await p.inputValue('#backend'), 'wasm');
    assert.equal(await p.locator('#backend option[value=webgpu]').isDisabled(), true);
    assert.match(await p.textContent('#s-labels'), /WebAssembly$/);
    await set(v, { source: 'example:2' });
    assert.equal(labelDiff(await shownLabels(v), ref.examples[2].labels), '', 'WebAssembly still gives PyTorch\'s labels');
    assert.equal(await p.isHidden('#error'), true, 'a later run clears the message');
  } finally {
    await broken.close();
  }
});
