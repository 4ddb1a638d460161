// unpool/onnx on the CPU execution providers (onnxruntime-node's cpu,
// onnxruntime-web's wasm in Node), on small graphs in ONNX's own terms: the
// runner against ORT alone, its rules (what it runs on unpool and why), its
// errors, and the lifetimes of what it makes. The exported models
// (tests/models/make-fixtures.py) are models.node.test.ts's.
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web';
import { beforeAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import { createSession } from '../../dist/onnx/index.js';
import { DOUBLE, FLOAT, INT64, model, poolUnpool } from './graphs.js';

ortWeb.env.wasm.numThreads = 1;
ortWeb.env.wasm.proxy = false;

const RUNTIMES = [
  { name: 'onnxruntime-node (cpu)', ort: ortNode as never, ep: 'cpu' },
  { name: 'onnxruntime-web (wasm)', ort: ortWeb as never, ep: 'wasm' },
] as const;

/** A seeded input with ties (values on a coarse grid) and negatives. */
function input(n: number, seed = 1): Float32Array {
  let s = seed;
  return Float32Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return ((s >> 8) % 17) - 8;
  });
}

const bits = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

beforeAll(async () => {
  await unpool.init();
});

describe.each(RUNTIMES)('$name', ({ ort, ep }) => {
  const Tensor = (ort as typeof ortNode).Tensor;

  it.each([
    ['k2 s2', { kernel_shape: [2, 2], strides: [2, 2] }, [2, 3, 8, 10]],
    ['k3 s2 pads 1, overlapping windows', { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] }, [2, 3, 9, 7]],
    ['k3 s2 dilation 2 ceil_mode', { kernel_shape: [3, 3], strides: [2, 2], dilations: [2, 2], ceil_mode: 1 }, [1, 2, 11, 12]],
  ])('MaxPool + MaxUnpool with flat indices (%s): the runner, whole and cut, equals ORT alone', async (_, attrs, dims) => {
    const bytes = poolUnpool(attrs);
    const x = new Tensor('float32', input(dims.reduce((a, b) => a * b, 1)), dims);
    const alone = await (ort as typeof ortNode).InferenceSession.create(bytes, { executionProviders: [ep] });
    const want = await alone.run({ x });
    for (const unpoolNodes of ['auto', 'all'] as const) {
      const s = await createSession(bytes, { ort, executionProviders: [ep], unpoolNodes });
      expect(s.steps.filter((st) => st.kind === 'unpool').length).toBe(unpoolNodes === 'all' ? 2 : 0);
      const got = await s.run({ x });
      expect(got.y.dims).toEqual(want.y.dims);
      expect(bits(got.i.data as BigInt64Array)).toEqual(bits(want.i.data as BigInt64Array));
      expect(bits(got.y.data as Float32Array)).toEqual(bits(want.y.data as Float32Array));
      await s.release();
    }
    await alone.release();
  });

  it('a float64 MaxUnpool, which ORT refuses, runs on unpool', async () => {
    const bytes = model({
      inputs: [['x', DOUBLE]], outputs: [['y', DOUBLE]],
      nodes: [
        { op: 'MaxPool', name: 'pool', inputs: ['x'], outputs: ['p', 'i'], attrs: { kernel_shape: [2, 2], strides: [2, 2] } },
        { op: 'MaxUnpool', name: 'unpool', inputs: ['p', 'i'], outputs: ['y'], attrs: { kernel_shape: [2, 2], strides: [2, 2] } },
      ],
    });
    await expect((ort as typeof ortNode).InferenceSession.create(bytes, { executionProviders: [ep] }))
      .rejects.toThrow(/Could not find an implementation for MaxUnpool/);
    const s = await createSession(bytes, { ort, executionProviders: [ep] });
    expect(s.steps.map((st) => (st.kind === 'unpool' ? `${st.op}: ${st.why}` : 'ort'))).toEqual(
      ['ort', 'MaxUnpool: ONNX Runtime refused it on this execution provider']);
    const data = Float64Array.from(input(2 * 3 * 6 * 8));
    const got = await s.run({ x: new Tensor('float64', data, [2, 3, 6, 8]) });
    const p = unpool.maxPool2d({ data, shape: [2, 3, 6, 8] }, { kernelSize: 2 });
    const want = unpool.maxUnpool2d(p.output, p.indices, { kernelSize: 2 });
    expect(bits(got.y.data as Float64Array)).toEqual(bits(want.data));
    await s.release();
  });

  it('MaxUnpool scatters ONNX\'s flat indices as ORT does (across planes too); one out of range rejects run()', async () => {
    const bytes = model({
      inputs: [['x', FLOAT], ['i', INT64]], outputs: [['y', FLOAT]],
      nodes: [{ op: 'MaxUnpool', name: 'the_unpool', inputs: ['x', 'i'], outputs: ['y'], attrs: { kernel_shape: [2, 2], strides: [2, 2] } }],
    });
    const alone = await (ort as typeof ortNode).InferenceSession.create(bytes, { executionProviders: [ep] });
    const s = await createSession(bytes, { ort, executionProviders: [ep], unpoolNodes: 'all' });
    const x = new Tensor('float32', Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]), [1, 2, 2, 2]);
    // Flat indices into a 1x2x4x4 output: 17 lies in plane 1 though its value is of plane 0, and 19
    // comes twice (the later value wins); 32 is past the output.
    const i = new Tensor('int64', BigInt64Array.from([0n, 3n, 17n, 19n, 16n, 19n, 24n, 31n]), [1, 2, 2, 2]);
    const bad = new Tensor('int64', BigInt64Array.from([0n, 3n, 32n, 15n, 16n, 19n, 24n, 31n]), [1, 2, 2, 2]);
    const want = (await alone.run({ x, i })).y.data as Float32Array;
    expect(bits((await s.run({ x, i })).y.data as Float32Array)).toEqual(bits(want));
    expect(want[19]).toBe(6);
    const e = await s.run({ x, i: bad }).then(() => undefined, (err: unknown) => err);
    expect(unpool.isUnpoolError(e)).toBe(true);
    expect((e as Error).message).toMatch(/^unpool\/onnx: MaxUnpool node 'the_unpool': maxUnpool1d: indices\[2\]=32 is out of range/);
    await expect(alone.run({ x, i: bad })).rejects.toThrow(/Index value out of bounds/);
    await s.release();
    await alone.release();
  });

  it('refuses what it cannot run, naming the node, the attribute and what to do', async () => {
    const withAttrs = (attrs: Record<string, number | number[] | string>) => model({
      inputs: [['x', FLOAT]], outputs: [['y', FLOAT], ['i', INT64]],
      nodes: [{ op: 'MaxPool', name: 'p', inputs: ['x'], outputs: ['y', 'i'], attrs: { kernel_shape: [2, 2], ...attrs } }],
    });
    const run = async (bytes: Uint8Array) => {
      const s = await createSession(bytes, { ort, executionProviders: [ep], unpoolNodes: 'all' });
      try {
        await s.run({ x: new Tensor('float32', new Float32Array(2 * 5 * 5), [1, 2, 5, 5]) });
      } finally {
        await s.release();
      }
    };
    await expect(run(withAttrs({ storage_order: 1 }))).rejects.toThrow(
      "unpool/onnx: MaxPool node 'p': storage_order=1 (column-major Indices) is not supported");
    await expect(run(withAttrs({ pads: [0, 0, 1, 1] }))).rejects.toThrow(
      "unpool/onnx: MaxPool node 'p': pads=[0,0,1,1] pad the two ends of a dim differently");
    await expect(run(withAttrs({ auto_pad: 'SAME_LOWER', strides: [2, 2] }))).rejects.toThrow(/from auto_pad=SAME_LOWER/);
    await expect(createSession(withAttrs({}), {} as never)).rejects.toThrow(
      /options.ort must be the ONNX Runtime namespace you imported/);
    await expect(createSession(withAttrs({}), { ort, executionProviders: ['webnn'] })).rejects.toThrow(
      /executionProviders "webnn" is not one the runner knows what to cut for/);
    await expect(createSession(new Uint8Array([1, 2, 3]), { ort })).rejects.toThrow(/not an ONNX model/);
    const s = await createSession(withAttrs({}), { ort, executionProviders: [ep] });
    await expect(s.run({})).rejects.toThrow("run: feeds.x must be an ort.Tensor (input 'x'), got undefined");
    await expect(s.run({ x: new Tensor('float32', new Float32Array(4), [1, 1, 2, 2]) }, ['nope']))
      .rejects.toThrow("run: fetches has 'nope', which this session cannot give; it gives 'y', 'i'");
    await s.release();
  });

  it('releases every intermediate: the module heap is where it was after 2,000 runs', async () => {
    const s = await createSession(poolUnpool(), { ort, executionProviders: [ep], unpoolNodes: 'all' });
    const x = new Tensor('float32', input(1 * 4 * 16 * 16), [1, 4, 16, 16]);
    await s.run({ x });
    const before = unpool.memoryUsage().inUseBytes;
    for (let k = 0; k < 2000; ++k) await s.run({ x });
    expect(unpool.memoryUsage().inUseBytes).toBe(before);
    await s.release();
  });
});
