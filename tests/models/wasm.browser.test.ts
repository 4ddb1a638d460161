// unpool/onnx on onnxruntime-web's wasm EP in a browser engine (Chromium,
// Firefox ESR, WebKitGTK: vitest.models.browser.config.ts).
import * as ort from 'onnxruntime-web';
import { browserLeg } from './legs.js';

await browserLeg(ort, 'onnxruntime-web (wasm)', 'wasm');
