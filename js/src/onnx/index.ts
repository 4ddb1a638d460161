// `unpool/onnx`: an ONNX model that pools with indices and unpools, run end
// to end on ONNX Runtime, with unpool running the nodes the execution
// provider cannot (MaxPool's Indices and MaxUnpool on ORT Web's WebGPU
// EPs). See docs/models.md.
export { createSession } from './session.js';
export type { CreateSessionOptions, StepInfo, UnpoolSession } from './session.js';
export type { OrtNamespace, OrtSessionLike, OrtTensorLike, TensorOf } from './ort.js';
export type { UnpoolNodes } from './rules.js';
