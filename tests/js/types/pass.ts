// Must compile under tsc --strict (tests/js/types.node.test.ts, and the
// lint stage): the exact result types of issue 32. Type-checked only, never run.
import type * as ortWeb from 'onnxruntime-web';
import {
  AdaptiveMaxPool2d, convertIndices, FractionalMaxPool2d, isUnpoolError, maxPool2d, MaxPool2d,
  MaxUnpool2d, type MaxPoolOptions, type Tensor, toOrtTensor, type UnpoolErrorCode, type WasmTensor,
} from '../../../dist/index.js';

export function uses(x: Tensor<Float32Array>, e: unknown, opts: MaxPoolOptions, ort: typeof ortWeb): unknown[] {
  // Module classes: indices typed by the constructor's indexType (int32 by default).
  const i: Int32Array = new MaxPool2d(2).forward(x).indices.data;
  const i32: Int32Array = new MaxPool2d(2, { stride: 1, indexType: 'int32' }).forward(x).indices.data;
  const i64: BigInt64Array = new MaxPool2d(2, { indexType: 'int64' }).forward(x).indices.data;
  const values: Float32Array = new MaxPool2d(2).forward(x).output.data;
  const a: Int32Array = new AdaptiveMaxPool2d(2).forward(x).indices.data;
  const f: BigInt64Array = new FractionalMaxPool2d(2, { outputSize: 2, indexType: 'int64' }).forward(x).indices.data;
  // forward's out and resident, as the functions'.
  const pool = new MaxPool2d(2);
  const r = pool.forward(x, { resident: true });
  const ri: WasmTensor<Int32Array> = r.indices;
  const ro: WasmTensor<Float32Array> = r.output;
  const un: WasmTensor<Float32Array> = new MaxUnpool2d(2).forward(ro, ri, null, { resident: true });
  const into: Float32Array = new MaxUnpool2d(2).forward(ro, ri, undefined, { out: new Float32Array(16) }).data;
  // convertIndices: the result's class follows `to` and indexType.
  const p: Int32Array = convertIndices({ data: new BigInt64Array(4), shape: [1, 1, 2, 2] },
                                       { from: 'onnx', to: 'pytorch', inputShape: [1, 1, 4, 4] }).data;
  const o: BigInt64Array = convertIndices({ data: i, shape: [1, 1, 2, 2] },
                                          { from: 'pytorch', to: 'onnx', inputShape: [1, 1, 4, 4] }).data;
  const o32: Int32Array = convertIndices({ data: i, shape: [1, 1, 2, 2] },
                                         { from: 'pytorch', to: 'onnx', inputShape: [1, 1, 4, 4], indexType: 'int32' }).data;
  // The functions keep their inference; an options variable of the declared type is fine.
  const fi: BigInt64Array = maxPool2d(x, { kernelSize: 2, indexType: 'int64' }).indices.data;
  const fo = maxPool2d(x, opts);
  // Every error's code is one of the documented ones.
  const code: UnpoolErrorCode | undefined = isUnpoolError(e) ? e.code : undefined;
  // A result, or a WasmTensor, as ORT's own Tensor class (the namespace passed in), no cast.
  const t: ortWeb.Tensor = toOrtTensor(fo.output, ort);
  const tr: ortWeb.Tensor = toOrtTensor(ro, ort);
  return [i, i32, i64, values, a, f, un, into, p, o, o32, fi, fo, code, t, tr];
}
