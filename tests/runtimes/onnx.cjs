// onnx.mjs from CommonJS: require('unpool/onnx'), an ES module only, which
// Node.js >= 20.19 and 22.12 and Bun load synchronously, and
// require('onnxruntime-web') (ORT Web's CommonJS build).
//   <runtime> onnx.cjs model.onnx
const { readFileSync } = require('node:fs');
const ort = require('onnxruntime-web');
const { createSession } = require('unpool/onnx');
const { isReady } = require('unpool');

ort.env.wasm.numThreads = 1;
import('./onnx-example.js')
  .then(({ onnxExample }) => onnxExample({ createSession, isReady, ort, model: readFileSync(process.argv[2]), ep: 'wasm' }))
  .then((result) => process.stdout.write(`${JSON.stringify(result)}\n`))
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
