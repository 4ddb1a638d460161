// toOrtTensor of the WebAssembly API (issue 44): a result goes into the next
// ONNX Runtime session as it is, through real sessions of onnxruntime-node
// (its native CPU EP) and onnxruntime-web (its WebAssembly EP, in Node):
// every unpool dtype ORT has, its class as ORT wants it, no copy of the
// data, and ORT's outputs back into unpool's ops. Node only: both read
// their binaries from node_modules.
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as u from '../../dist/index.js';
import type { TensorData } from '../../dist/index.js';
import { oneNodeModel } from './onnx-model.mjs';

/** onnx.TensorProto.DataType of each dtype ORT has a JavaScript tensor of. */
const ONNX_TYPE: Record<string, number> = {
  float32: 1, uint8: 2, int8: 3, int16: 5, int32: 6, int64: 7, float16: 10, float64: 11,
};

type Ort = typeof ortNode;
const RUNTIMES: [string, Ort][] = [['onnxruntime-node', ortNode], ['onnxruntime-web', ortWeb as unknown as Ort]];

const sessions: { release(): Promise<void> }[] = [];
beforeAll(async () => {
  ortWeb.env.wasm.numThreads = 1;
  ortWeb.env.wasm.proxy = false;
  await u.init();
});
afterAll(async () => {
  for (const s of sessions) await s.release();
});

async function oneNode(ort: Ort, opType: string, dtype: string, shape: number[]) {
  const type = ONNX_TYPE[dtype];
  const s = await ort.InferenceSession.create(oneNodeModel({
    opType, inputs: [{ name: 'X', type, shape }], outputs: [{ name: 'Y', type, shape }], attributes: {},
  }), { executionProviders: ['cpu'] } as never);
  sessions.push(s);
  return s;
}

const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const x16 = (seed: number) => Float32Array.from({ length: 32 }, (_, i) => ((i * seed) % 29) - 14);

describe.each(RUNTIMES)('toOrtTensor into %s', (_, ort) => {
  it('a pool\'s results go in as they are (no copy), through Neg and Identity, and ORT\'s outputs go back into maxUnpool2d', async () => {
    const x = new ort.Tensor('float32', x16(7), [1, 2, 4, 4]);
    const p = u.maxPool2d(x, { kernelSize: 2 });  // an ort.Tensor in, as the ops take it
    const out = toOrt(p.output, ort);
    const idx = toOrt(p.indices, ort);
    expect(out).toBeInstanceOf(ort.Tensor);
    expect([out.type, out.dims, idx.type, idx.dims]).toEqual(['float32', [1, 2, 2, 2], 'int32', [1, 2, 2, 2]]);
    // The same memory: ORT's tensor is a view of the result's data.
    expect((out.data as Float32Array).buffer).toBe(p.output.data.buffer);
    expect((idx.data as Int32Array).buffer).toBe(p.indices.data.buffer);
    const neg = await oneNode(ort, 'Neg', 'float32', [1, 2, 2, 2]);
    const { Y } = await neg.run({ X: out });
    expect(Array.from(Y.data as Float32Array)).toEqual(Array.from(p.output.data, (v) => -v));
    const id = await oneNode(ort, 'Identity', 'int32', [1, 2, 2, 2]);
    const I = (await id.run({ X: idx })).Y;
    // ORT's tensors back into unpool: the unpool of -pooled at the same indices.
    const back = u.maxUnpool2d(Y as never, I as never, { kernelSize: 2 });  // ORT types data as any of its arrays
    const want = u.maxUnpool2d({ data: p.output.data.map((v) => -v), shape: p.output.shape }, p.indices, { kernelSize: 2 });
    expect(bytes(back.data)).toEqual(bytes(want.data));
    expect(back.shape).toEqual([1, 2, 4, 4]);
  });

  it('every unpool dtype ORT has, in the class ORT wants: the same bits through Identity', async () => {
    const cases: [string, TensorData, string?][] = [
      ['float32', Float32Array.of(1.5, -0, NaN, -Infinity)],
      ['float64', Float64Array.of(1e300, -0, 2 ** -1074, 3)],
      ['float16', Uint16Array.of(0x3c00, 0x8000, 0x7e00, 0xfc00), 'float16'],
      ['uint8', Uint8Array.of(0, 1, 200, 255)],
      ['uint8', Uint8ClampedArray.of(0, 7, 128, 255)],
      ['int8', Int8Array.of(-128, -1, 0, 127)],
      ['int16', Int16Array.of(-32768, -1, 300, 32767)],
      ['int32', Int32Array.of(-(2 ** 31), -1, 2 ** 24 + 1, 2 ** 31 - 1)],
      ['int64', BigInt64Array.of(-(2n ** 63n), -1n, 2n ** 53n + 1n, 2n ** 63n - 1n)],
    ];
    for (const [dtype, data, given] of cases) {
      // Through a real op of unpool first, so the tensor is a result: a 1x1 pool (identity) in 1d.
      const r = u.maxPool1d({ data, shape: [1, 1, 4], ...(given ? { dtype: given as 'float16' } : {}) }, { kernelSize: 1 }).output;
      expect(r.dtype).toBe(dtype);
      const t = toOrt(r, ort);
      expect([t.type, t.dims], dtype).toEqual([dtype, [1, 1, 4]]);
      // ORT's classes: float16 as Uint16Array bits (no Float16Array in Node 20) or a Float16Array,
      // a Uint8ClampedArray as a Uint8Array (a view: ORT would copy the clamped class).
      const cls = (t.data as object).constructor.name;
      const want = dtype === 'uint8' ? ['Uint8Array'] : dtype === 'float16' ? ['Uint16Array', 'Float16Array'] : [r.data.constructor.name];
      expect(want, dtype).toContain(cls);
      expect((t.data as ArrayBufferView).buffer, `${dtype}: no copy`).toBe(r.data.buffer);
      const { Y } = await (await oneNode(ort, 'Identity', dtype, [1, 1, 4])).run({ X: t });
      expect(Y.type).toBe(dtype);
      expect(bytes(Y.data as ArrayBufferView), dtype).toEqual(bytes(data));
    }
  });

  it('a WasmTensor is copied out once (it stays the caller\'s); the refusals', async () => {
    const x = { data: x16(5), shape: [1, 2, 4, 4] };
    const p = u.maxPool2d(x, { kernelSize: 2, resident: true });
    const t = toOrt(p.output, ort);
    expect(p.output.isDisposed).toBe(false);
    const { Y } = await (await oneNode(ort, 'Identity', 'float32', [1, 2, 2, 2])).run({ X: t });
    expect(Array.from(Y.data as Float32Array)).toEqual(Array.from(p.output.toArray()));
    p.output.dispose(); p.indices.dispose();
    expect(() => toOrt(p.output, ort)).toThrow(/^toOrtTensor: t is a WasmTensor that was disposed$/);
    const bf = u.maxPool1d({ data: Uint16Array.of(0x3f80, 0x4000), shape: [1, 1, 2], dtype: 'bfloat16' }, { kernelSize: 1 }).output;
    let e: unknown;
    try { toOrt(bf, ort); } catch (err) { e = err; }
    expect(e).toBeInstanceOf(u.UnpoolError);
    expect((e as u.UnpoolError).code).toBe('unsupported');
    expect((e as Error).message).toMatch(/^toOrtTensor: ONNX Runtime has no bfloat16 tensor type/);
    expect(() => u.toOrtTensor({ data: x.data, shape: [3] }, ort))
      .toThrow(/^toOrtTensor: t\.data has length 32 but t\.shape=\[3\] holds 3 elements$/);
    expect(() => u.toOrtTensor(x, {} as never)).toThrow(/^toOrtTensor: ort must be an ONNX Runtime namespace with a Tensor class/);
    expect(() => u.toOrtTensor({ data: new Uint32Array(2), shape: [2] } as never, ort)).toThrow(TypeError);
  });
});

function toOrt(t: Parameters<typeof u.toOrtTensor>[0], ort: Ort): ortNode.Tensor {
  // The published types: ORT's own Tensor comes back, no cast.
  return u.toOrtTensor(t, ort);
}
