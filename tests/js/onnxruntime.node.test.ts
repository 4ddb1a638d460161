// ONNX Runtime Web (its WebAssembly CPU backend, run in Node) as the other
// side of the bridge: its MaxPool Indices (row- and column-major), converted
// with convertIndices, are exactly unpool's indices, and unpooling ORT's
// output with them gives ORT's own MaxUnpool. Node only (*.node.test.ts):
// ORT's .wasm is read from node_modules; nothing is fetched from a network.
import * as ort from 'onnxruntime-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as u from '../../dist/index.js';
import type { FloatArray, IndexArray, Tensor } from '../../dist/index.js';
import { rng, sameBits } from './layout-helpers.js';
import { FLOAT, INT64, oneNodeModel } from './onnx-model.mjs';

/** onnx.TensorProto.DataType FLOAT16. */
const FLOAT16 = 10;

type Dims = 1 | 2 | 3;
interface Geom { k: number; s: number; p: number; dil: number; ceil: boolean }

const fetched: string[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  // Record every fetch: ORT must not download anything (its wasm ships in the package).
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    fetched.push(String(input instanceof Request ? input.url : input));
    return realFetch(input, init);
  }) as typeof fetch;
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  await u.init();
});

afterAll(() => {
  globalThis.fetch = realFetch;
  expect(unpooledByOrt).toBeGreaterThan(0);
  expect(fetched.filter((url) => /^https?:/i.test(url))).toEqual([]);
});

const pool = (d: Dims, x: unknown, o: object) =>
  (u as unknown as Record<string, (x: unknown, o: object) => {
    output: Tensor<FloatArray>; indices: Tensor<IndexArray>;
  }>)[`maxPool${d}d`](x, o);
const unpool = (d: Dims, x: unknown, i: unknown, o: object) =>
  (u as unknown as Record<string, (x: unknown, i: unknown, o: object) => Tensor<FloatArray>>)[`maxUnpool${d}d`](x, i, o);

async function session(model: Uint8Array): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(model, { executionProviders: ['wasm'] });
}

/** Runs ONNX MaxPool (Y and Indices) in ORT Web. */
async function ortMaxPool(d: Dims, x: Float32Array, shape: number[], g: Geom, storageOrder: 0 | 1,
                          outShape: number[]) {
  const rep = (v: number) => Array.from({ length: d }, () => v);
  const s = await session(oneNodeModel({
    opType: 'MaxPool',
    inputs: [{ name: 'X', type: FLOAT, shape }],
    outputs: [{ name: 'Y', type: FLOAT, shape: outShape }, { name: 'I', type: INT64, shape: outShape }],
    attributes: {
      kernel_shape: rep(g.k), strides: rep(g.s), pads: rep(g.p).concat(rep(g.p)),
      dilations: rep(g.dil), ceil_mode: g.ceil ? 1 : 0, storage_order: storageOrder,
    },
  }));
  const r = await s.run({ X: new ort.Tensor('float32', x, shape) });
  await s.release();
  return { Y: r.Y, I: r.I };
}

/** Runs ONNX MaxUnpool with its optional output_shape input. */
async function ortMaxUnpool(d: Dims, y: ort.Tensor, i: ort.Tensor, g: Geom, outShape: number[]) {
  const rep = (v: number) => Array.from({ length: d }, () => v);
  const s = await session(oneNodeModel({
    opType: 'MaxUnpool',
    inputs: [{ name: 'X', type: FLOAT, shape: y.dims }, { name: 'I', type: INT64, shape: i.dims },
      { name: 'S', type: INT64, shape: [outShape.length] }],
    outputs: [{ name: 'Y', type: FLOAT, shape: outShape }],
    attributes: { kernel_shape: rep(g.k), strides: rep(g.s), pads: rep(g.p).concat(rep(g.p)) },
  }));
  const size = new ort.Tensor('int64', BigInt64Array.from(outShape, BigInt), [outShape.length]);
  const r = await s.run({ X: y, I: i, S: size });
  await s.release();
  return r.Y;
}

let unpooledByOrt = 0;

const GEOMS: Geom[] = [
  { k: 2, s: 2, p: 0, dil: 1, ceil: false },
  { k: 3, s: 2, p: 1, dil: 1, ceil: false },
  { k: 3, s: 2, p: 0, dil: 1, ceil: true },
  { k: 3, s: 1, p: 1, dil: 2, ceil: false },
];

describe.each([1, 2, 3] as Dims[])('ONNX Runtime Web MaxPool %id', (d) => {
  it.each(GEOMS.map((g, i) => [i, g] as const))('geometry %i: values, indices (both storage orders), MaxUnpool', async (gi, g) => {
    const r = rng(100 * d + gi);
    const sp = Array.from({ length: d }, (_, i) => (d === 3 ? 5 : 7) + ((gi + i) % 3));
    const shape = [2, 3, ...sp];
    const n = shape.reduce((a, b) => a * b, 1);
    // a few ties (ONNX Runtime, like PyTorch, keeps the first maximum); no NaN (ORT differs there)
    const x = Float32Array.from({ length: n }, () => Math.round(r() * 40) / 4 - 5);
    const opts = { kernelSize: g.k, stride: g.s, padding: g.p, dilation: g.dil, ceilMode: g.ceil };
    const ours = pool(d, { data: x, shape }, { ...opts, indexType: 'int64' });
    for (const storageOrder of [0, 1] as const) {
      const { Y, I } = await ortMaxPool(d, x, shape, g, storageOrder, ours.output.shape);
      expect(Y.dims).toEqual(ours.output.shape);
      expect(sameBits(Y.data as Float32Array, ours.output.data)).toBe('');
      // ORT tensors ({ data, dims }) go in as they are
      const from = storageOrder ? 'onnx-column-major' : 'onnx';
      const converted = u.convertIndices(I as unknown as Tensor<BigInt64Array>,
                                         { from, to: 'pytorch', inputShape: shape, indexType: 'int64' });
      expect(sameBits(converted.data, ours.indices.data), `storage_order=${storageOrder}`).toBe('');
      // and back: our indices in ORT's format are ORT's
      const back = u.convertIndices(ours.indices, { from: 'pytorch', to: from, inputShape: shape });
      expect(sameBits(back.data, I.data as BigInt64Array)).toBe('');

      // unpool ORT's output with the converted indices to the input's size
      // (when in the valid range); compare with unpooling our own output and
      // with ORT's MaxUnpool (which reads row-major ONNX indices)
      const ug = { kernelSize: g.k, stride: g.s, padding: g.p };
      const range = u.outputSizeRange(ours.output.shape, ug);
      if (range.some((q, i) => sp[i] < q.min || sp[i] > q.max)) continue;
      const restored = unpool(d, Y as unknown as Tensor<Float32Array>, converted, { ...ug, outputSize: shape });
      const reference = unpool(d, ours.output, ours.indices, { ...ug, outputSize: sp });
      expect(restored.shape).toEqual(shape);
      expect(sameBits(restored.data, reference.data)).toBe('');
      const nonzero = Array.from(restored.data).filter((v) => v !== 0).length;
      expect(nonzero).toBeGreaterThan(0);
      // ONNX's MaxUnpool takes an output_shape of at least the default size
      // only (PyTorch and unpool also take smaller ones in the range)
      const dflt = ours.output.shape.slice(2).map((o) => (o - 1) * g.s + g.k - 2 * g.p);
      if (storageOrder === 0 && sp.every((v, i) => v >= dflt[i])) {
        const theirs = await ortMaxUnpool(d, Y, I, g, shape);
        expect(theirs.dims).toEqual(shape);
        expect(sameBits(theirs.data as Float32Array, restored.data)).toBe('');
        unpooledByOrt += 1;
      }
    }
  }, 60_000);  // the first session compiles ORT's wasm: seconds on a loaded machine
});

describe('ONNX Runtime Web float16 tensors', () => {
  it('go in as they are: ORT\'s float16 MaxPool output and Indices are unpool\'s bits and indices', async () => {
    const shape = [2, 3, 7, 6];
    const n = shape.reduce((a, b) => a * b, 1);
    const r = rng(16);
    // float16 bits of small values with ties (no NaN, no -0: ORT differs there)
    const bits = Uint16Array.from({ length: n }, () => 0x3c00 + Math.floor(r() * 24));
    const x = new ort.Tensor('float16', bits, shape);
    const outShape = [2, 3, 3, 3];
    const s = await session(oneNodeModel({
      opType: 'MaxPool',
      inputs: [{ name: 'X', type: FLOAT16, shape }],
      outputs: [{ name: 'Y', type: FLOAT16, shape: outShape }, { name: 'I', type: INT64, shape: outShape }],
      attributes: { kernel_shape: [3, 2], strides: [2, 2], pads: [0, 0, 0, 0] },
    }));
    const { Y, I } = await s.run({ X: x });
    await s.release();
    expect(Y.type).toBe('float16');
    // ORT's tensor itself: { data, dims, type: 'float16' }, data a Uint16Array (or a Float16Array).
    const ours = pool(2, x, { kernelSize: [3, 2], stride: 2, indexType: 'int64' });
    expect(ours.output.dtype).toBe('float16');
    expect(ours.output.data.constructor).toBe((Y.data as ArrayBufferView).constructor);
    const bitsOf = (a: ArrayBufferView) => new Uint16Array(a.buffer, a.byteOffset, a.byteLength / 2);
    expect(Array.from(bitsOf(ours.output.data))).toEqual(Array.from(bitsOf(Y.data as ArrayBufferView)));
    const converted = u.convertIndices(I as unknown as Tensor<BigInt64Array>,
                                       { from: 'onnx', to: 'pytorch', inputShape: shape, indexType: 'int64' });
    expect(sameBits(converted.data, ours.indices.data)).toBe('');
    // ORT's float16 output unpooled with the converted indices: ours, bit for bit.
    const restored = unpool(2, Y, converted, { kernelSize: [3, 2], stride: 2, outputSize: [7, 6] });
    const reference = unpool(2, ours.output, ours.indices, { kernelSize: [3, 2], stride: 2, outputSize: [7, 6] });
    expect(restored.dtype).toBe('float16');
    expect(Array.from(bitsOf(restored.data))).toEqual(Array.from(bitsOf(reference.data)));
  }, 60_000);
});
