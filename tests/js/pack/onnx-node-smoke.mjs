// Run from the folder the tarball was installed into (with onnxruntime-web
// and onnxruntime-node beside it): imports 'unpool/onnx' the way a user's
// Node script does and runs onnx-example.js on onnxruntime-web's wasm EP
// and on onnxruntime-node's cpu EP, which must give the same result;
// prints it as JSON (the pages must print the same).
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-web';
import * as ortNode from 'onnxruntime-node';
import { isReady } from 'unpool';
import { createSession } from 'unpool/onnx';
import { onnxExample } from './onnx-example.js';

ort.env.wasm.numThreads = 1;
const model = readFileSync(process.argv[2] ?? 'model.onnx');
const web = JSON.stringify(await onnxExample({ createSession, isReady, ort, model, ep: 'wasm' }));
const node = JSON.stringify(await onnxExample({ createSession, isReady, ort: ortNode, model, ep: 'cpu' }));
if (web !== node) throw new Error(`onnxruntime-web (wasm) and onnxruntime-node (cpu) differ:\n${web}\n${node}`);
process.stdout.write(web);
