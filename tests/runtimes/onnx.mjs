// The unpool/onnx cell of one runtime (Node.js, Deno or Bun), run from the
// folder where the tarball and onnxruntime-web are installed: imports both
// by name, runs tests/js/pack/onnx-example.js (the pack stage's model and
// computation: unpoolNodes 'all' against ORT alone, bit for bit) on ORT
// Web's wasm EP and prints its result as JSON.
//   <runtime> onnx.mjs model.onnx
import process from 'node:process';
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-web';
import { isReady } from 'unpool';
import { createSession } from 'unpool/onnx';
import { onnxExample } from './onnx-example.js';

ort.env.wasm.numThreads = 1;
const model = readFileSync(process.argv[2]);
process.stdout.write(`${JSON.stringify(await onnxExample({ createSession, isReady, ort, model, ep: 'wasm' }))}\n`);
