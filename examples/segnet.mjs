// A whole SegNet (the demo's, web/model/: trained on synthetic shapes,
// exported from PyTorch with unpool_onnx) run in Node.js by unpool/onnx on
// onnxruntime-node, on the demo's example scenes; prints each scene's labels
// as a count per class, and how many pixels agree with PyTorch's labels.
//
//   node examples/segnet.mjs            ORT runs the whole model (it can, on its CPU EP)
//   node examples/segnet.mjs --switches unpool runs the pools and unpools (unpoolNodes: 'all'),
//                                       and the first pool's switches are fetched and described
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { createSession } from 'unpool/onnx';

const model = new URL('../web/model/', import.meta.url);
const reference = JSON.parse(readFileSync(new URL('reference.json', model), 'utf8'));
const switches = process.argv.includes('--switches');
const session = await createSession(new URL('segnet.onnx', model).pathname, {
  ort, ...(switches ? { unpoolNodes: 'all' } : {}),
});
// With unpoolNodes: 'all', the first pool's values and per-plane indices can be fetched by name.
const pool = session.steps.find((s) => s.kind === 'unpool' && s.op === 'MaxPool');
const fetches = switches ? ['labels', ...pool.outputs] : ['labels'];

const { size, classes } = reference;
for (const { name, image, labels: want } of reference.examples) {
  // RGB bytes, row-major (H, W, 3) -> float32 (1, 3, H, W) in [0, 1], as the model was trained.
  const rgb = Buffer.from(image, 'base64');
  const x = new Float32Array(3 * size * size);
  for (let p = 0; p < size * size; ++p) for (let c = 0; c < 3; ++c) x[c * size * size + p] = rgb[p * 3 + c] / 255;
  const out = await session.run({ image: new ort.Tensor('float32', x, [1, 3, size, size]) }, fetches);
  const labels = out.labels.data;
  const pytorch = Buffer.from(want, 'base64');
  const same = labels.filter((l, p) => Number(l) === pytorch[p]).length;
  const counts = classes.map((c, k) => `${c} ${labels.filter((l) => Number(l) === k).length}`);
  console.log(`${name}: ${counts.join(', ')}; ${same}/${labels.length} pixels as PyTorch labels them`);
  if (switches) {
    const [values, indices] = pool.outputs.map((n) => out[n]);
    const [, channels, h, w] = values.dims;
    // Each switch is the flat offset, in its 48x48 plane, of the maximum its 2x2 window kept.
    const first = indices.data.slice(0, 4).join(', ');
    console.log(`  ${pool.node}: ${channels} channels of ${h}x${w} switches (${indices.type}), ` +
        `channel 0 starts ${first}`);
  }
}
await session.release();
