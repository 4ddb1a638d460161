// Runs every example in examples/ as a user would (node, a child process,
// the package imported by its name) and checks what it wrote or printed
// against a plain JavaScript reference of max pooling (first maximum wins).
// Run by the examples stage (bash scripts/test.sh examples): node --test tests/examples/
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pngjs from 'pngjs';

const { PNG } = pngjs;
const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'unpool-examples-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const run = (script, args = []) =>
  execFileSync(process.execPath, [join(root, 'examples', script), ...args], { cwd: root, encoding: 'utf8' });

/** Reference 2d max pool of one (n, c) plane (kernel = stride, no padding), first maximum wins. */
function refPool(get, H, W, k) {
  const oh = Math.floor(H / k), ow = Math.floor(W / k);
  const values = [], indices = [];
  for (let y = 0; y < oh; ++y) {
    for (let x = 0; x < ow; ++x) {
      let best = -Infinity, at = -1;
      for (let dy = 0; dy < k; ++dy) {
        for (let dx = 0; dx < k; ++dx) {
          const off = (y * k + dy) * W + (x * k + dx);
          if (get(off) > best) { best = get(off); at = off; }
        }
      }
      values.push(best);
      indices.push(at);
    }
  }
  return { oh, ow, values, indices };
}

/** A small RGBA test image: gradients, a checker pattern, ties, varying alpha. */
function makePng(width, height) {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; ++y) {
    for (let x = 0; x < width; ++x) {
      const i = (y * width + x) * 4;
      png.data[i] = (x * 7 + y * 3) & 255;
      png.data[i + 1] = ((x ^ y) & 4) ? 200 : 20;  // blocks of equal values: ties
      png.data[i + 2] = (x * y * 13) & 255;
      png.data[i + 3] = 128 + ((x + y) % 128);
    }
  }
  return png;
}

for (const k of [2, 3]) {
  test(`png-unpool.mjs: kernel ${k}, pooled and unpooled PNGs per RGBA channel`, () => {
    const W = 37, H = 29;
    const input = join(dir, `in-${k}.png`);
    const png = makePng(W, H);
    writeFileSync(input, PNG.sync.write(png));
    const out = join(dir, `out-${k}`);
    const log = run('png-unpool.mjs', [input, out, String(k)]);
    assert.match(log, new RegExp(`37x29 -> pooled ${Math.floor(W / k)}x${Math.floor(H / k)} -> unpooled 37x29`));
    const pooled = PNG.sync.read(readFileSync(join(out, 'pooled.png')));
    const unpooled = PNG.sync.read(readFileSync(join(out, 'unpooled.png')));
    assert.equal(unpooled.width, W);
    assert.equal(unpooled.height, H);
    const want = new Uint8Array(W * H * 4);  // zeros but the maxima, in place
    for (let c = 0; c < 4; ++c) {
      const r = refPool((off) => png.data[off * 4 + c], H, W, k);
      assert.equal(pooled.width, r.ow);
      assert.equal(pooled.height, r.oh);
      r.values.forEach((v, i) => {
        assert.equal(pooled.data[i * 4 + c], v, `pooled channel ${c} pixel ${i}`);
        want[r.indices[i] * 4 + c] = v;
      });
    }
    assert.deepEqual(new Uint8Array(unpooled.data), want);
  });
}

test('worker.mjs: pools in a worker_threads Worker; results equal the reference', () => {
  const lines = run('worker.mjs').trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.name), ['ramp', 'batch', 'error']);
  const [ramp, batch, error] = lines;
  assert.deepEqual(ramp.output, { shape: [1, 1, 2, 2], data: [6, 8, 14, 16] });
  assert.deepEqual(ramp.indices.data, [5, 7, 13, 15]);
  assert.deepEqual(ramp.restored.data, [0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 14, 0, 16]);
  // the batch: (2, 3, 8, 8) of Math.fround(sin(i * 12.9898) * 100), kernel 3
  const x = Float32Array.from({ length: 2 * 3 * 64 }, (_, i) => Math.sin(i * 12.9898) * 100);
  assert.deepEqual(batch.output.shape, [2, 3, 2, 2]);
  for (let p = 0; p < 6; ++p) {
    const r = refPool((off) => x[p * 64 + off], 8, 8, 3);
    assert.deepEqual(batch.output.data.slice(p * 4, p * 4 + 4), r.values);
    assert.deepEqual(batch.indices.data.slice(p * 4, p * 4 + 4), r.indices);
    const plane = batch.restored.data.slice(p * 64, p * 64 + 64);
    r.indices.forEach((at, i) => assert.equal(plane[at], r.values[i]));
    assert.equal(plane.filter((v) => v !== 0).length, new Set(r.indices).size);
  }
  assert.equal(error.message, 'maxPool2d: kernelSize=0 must be >= 1');
});

for (const flags of [[], ['--switches']]) {
  test(`segnet.mjs ${flags.join(' ')}: the demo's SegNet, each scene's labels PyTorch's`.trim(), () => {
    const reference = JSON.parse(readFileSync(join(root, 'web/model/reference.json'), 'utf8'));
    const lines = run('segnet.mjs', flags).trim().split('\n');
    const scenes = lines.filter((l) => !l.startsWith('  '));
    assert.deepEqual(scenes.map((l) => l.split(':')[0]), reference.examples.map((e) => e.name));
    reference.examples.forEach((e, k) => {
      const want = Buffer.from(e.labels, 'base64');
      const counts = reference.classes.map((c, i) => `${c} ${want.filter((l) => l === i).length}`);
      assert.equal(scenes[k], `${e.name}: ${counts.join(', ')}; ${want.length}/${want.length} pixels as PyTorch labels them`);
    });
    if (flags.length > 0) {
      const switches = lines.filter((l) => l.startsWith('  '));
      assert.equal(switches.length, reference.examples.length);
      for (const l of switches) {
        const m = /^ {2}\S+: 16 channels of 24x24 switches \(int64\), channel 0 starts (\d+), (\d+), (\d+), (\d+)$/.exec(l);
        assert.ok(m, l);
        // Switch j of row 0 lies in its own 2x2 window of the 48x48 plane: rows 0-1, columns 2j, 2j+1.
        m.slice(1).map(Number).forEach((at, j) => assert.ok([2 * j, 2 * j + 1, 48 + 2 * j, 49 + 2 * j].includes(at), l));
      }
    }
  });
}
