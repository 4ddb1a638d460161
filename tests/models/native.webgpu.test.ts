// unpool/onnx on onnxruntime-web/webgpu's WebGPU EP (ORT's native one), in
// Chromium (SwiftShader) and Firefox ESR (lavapipe), against its wasm EP.
import * as ort from 'onnxruntime-web/webgpu';
import { browserLeg } from './legs.js';

await browserLeg(ort, 'onnxruntime-web/webgpu', 'webgpu');
