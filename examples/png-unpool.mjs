#!/usr/bin/env node
// Pools a PNG per channel and unpools it again, straight on its RGBA pixels:
// decoded PNG data is (H, W, 4), i.e. NHWC with N = 1, so `layout: 'NHWC'`
// needs no transpose.
//
//   node examples/png-unpool.mjs input.png [outDir] [kernelSize]
//
// writes outDir/pooled.png (each kernelSize x kernelSize window's maximum,
// per channel, alpha included) and outDir/unpooled.png (the input's size,
// only the maxima kept in place, everything else 0, i.e. transparent black).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pngjs from 'pngjs';
import { init, maxPool2d, maxUnpool2d } from 'unpool';

const { PNG } = pngjs;

function readPng(path) {
  const png = PNG.sync.read(readFileSync(path));  // RGBA, 8 bits per channel
  return { data: Float32Array.from(png.data), shape: [1, png.height, png.width, 4] };
}

function writePng(path, tensor) {
  const [, height, width] = tensor.shape;
  const png = new PNG({ width, height });
  png.data = Buffer.from(Uint8Array.from(tensor.data));  // values are the input's bytes
  writeFileSync(path, PNG.sync.write(png));
}

const [input, outDir = '.', k = '2'] = process.argv.slice(2);
if (!input) {
  console.error('usage: node examples/png-unpool.mjs input.png [outDir] [kernelSize]');
  process.exit(2);
}
const kernelSize = Number(k);

await init();
const image = readPng(input);
const { output, indices } = maxPool2d(image, { kernelSize, layout: 'NHWC' });
// outputSize in the layout's order: (N, H, W, C) of the original, so odd
// sizes come back exactly (the default would drop a last partial window).
const restored = maxUnpool2d(output, indices, { kernelSize, layout: 'NHWC', outputSize: image.shape });

mkdirSync(outDir, { recursive: true });
writePng(join(outDir, 'pooled.png'), output);
writePng(join(outDir, 'unpooled.png'), restored);
console.log(`${input}: ${image.shape[2]}x${image.shape[1]} -> pooled ${output.shape[2]}x${output.shape[1]} ` +
  `-> unpooled ${restored.shape[2]}x${restored.shape[1]} (kernel ${kernelSize}), written to ${outDir}`);
