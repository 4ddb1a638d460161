// unpool/onnx on the default onnxruntime-web import's WebGPU EP (JSEP), in
// Chromium (SwiftShader) and Firefox ESR (lavapipe), against its wasm EP.
import * as ort from 'onnxruntime-web';
import { browserLeg } from './legs.js';

await browserLeg(ort, 'onnxruntime-web (webgpu, JSEP)', 'webgpu');
