// The runner's cases on small graphs in ONNX's own terms, for every ORT it
// runs on: the runner against ORT alone (a CPU EP: the reference, since ORT
// Web's WebGPU EPs cannot run these graphs at all), its rules, errors and
// lifetimes. runner.node.test.ts runs them on onnxruntime-node and
// onnxruntime-web's wasm EP in Node, legs.ts on the wasm EP in the three
// browser engines and on both of ORT Web's WebGPU EPs, where they also count
// what is mapped and what stays alive.
import { describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import { createSession } from '../../dist/onnx/index.js';
import { DOUBLE, FLOAT, INT64, model, poolUnpool } from './graphs.js';

/**
 * The ORT namespace of a case's side: onnxruntime-web's, or onnxruntime-web/webgpu's or
 * onnxruntime-node's (the same onnxruntime-common types). createSession takes each as it is.
 */
export type OrtLike = typeof import('onnxruntime-web');
type TensorLike = import('onnxruntime-web').Tensor;

/** What the WebGPU legs add: the mapAsync count of the page, and its live GPUBuffers. */
export interface GpuWatch {
  maps(): number;
  liveBuffers(): number;
}

export interface RunnerSide {
  /** The ORT the runner runs on, and its execution provider. */
  ort: OrtLike;
  ep: string;
  /** A CPU ORT that runs the graphs alone: the reference. */
  reference: { ort: OrtLike; ep: string };
  /** The WebGPU legs: results stay on the GPU; maps and buffers are counted. */
  gpu?: GpuWatch;
}

/** A seeded input with ties (values on a coarse grid) and negatives. */
export function input(n: number, seed = 1): Float32Array {
  let s = seed;
  return Float32Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return ((s >> 8) % 17) - 8;
  });
}

/** The bytes of a typed array: equal bytes are equal bits (NaN, -0 included). */
const bits = (a: unknown) => {
  const v = a as ArrayBufferView;
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
};
const size = (d: readonly number[]) => d.reduce((a, b) => a * b, 1);

/** The data of a result, read back if it is on the GPU. */
export const dataOf = async (t: TensorLike) => (t.location === 'gpu-buffer' ? await t.getData() : t.data);

export function runnerCases(side: RunnerSide): void {
  const { ort, ep, reference, gpu } = side;
  const options = { ort, executionProviders: [ep], ...(gpu ? { preferredOutputLocation: 'gpu-buffer' as const } : {}) };
  const alone = (bytes: Uint8Array) => reference.ort.InferenceSession.create(bytes, { executionProviders: [reference.ep] });
  const modes = gpu ? (['auto'] as const) : (['auto', 'all'] as const);

  describe.each([
    ['k2 s2', { kernel_shape: [2, 2], strides: [2, 2] }, [2, 3, 8, 10]],
    ['k3 s2 pads 1, overlapping windows', { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] }, [2, 3, 9, 7]],
    ['k3 s2 dilation 2 ceil_mode', { kernel_shape: [3, 3], strides: [2, 2], dilations: [2, 2], ceil_mode: 1 }, [1, 2, 11, 12]],
  ])('MaxPool + MaxUnpool with flat indices (%s)', (_, attrs, dims) => {
    it.each(modes)('the runner (unpoolNodes %s) equals ORT alone', async (unpoolNodes) => {
      const bytes = poolUnpool(attrs);
      const data = input(size(dims));
      const want = await (await alone(bytes)).run({ x: new reference.ort.Tensor('float32', data, dims) });
      const s = await createSession(bytes, { ...options, unpoolNodes });
      expect(s.steps.filter((st) => st.kind === 'unpool').length).toBe(unpoolNodes === 'all' || gpu ? 2 : 0);
      const before = gpu?.maps() ?? 0;
      const got = await s.run({ x: new ort.Tensor('float32', data, dims) });
      // On WebGPU nothing is mapped but the one read of the unpool's content check.
      if (gpu) expect(gpu.maps() - before).toBeLessThanOrEqual(1);
      expect(got.y.dims).toEqual(want.y.dims);
      expect(bits(await dataOf(got.i as TensorLike))).toEqual(bits(want.i.data));
      expect(bits(await dataOf(got.y as TensorLike))).toEqual(bits(want.y.data));
      got.i.dispose(); got.y.dispose();
      await s.release();
    });
  });

  it('MaxUnpool scatters ONNX\'s flat indices as ORT does (across planes too); one out of range rejects run()', async () => {
    const bytes = model({
      inputs: [['x', FLOAT], ['i', INT64]], outputs: [['y', FLOAT]],
      nodes: [{ op: 'MaxUnpool', name: 'the_unpool', inputs: ['x', 'i'], outputs: ['y'], attrs: { kernel_shape: [2, 2], strides: [2, 2] } }],
    });
    const x = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    // Flat indices into a 1x2x4x4 output: 17 lies in plane 1 though its value is of plane 0, and 19
    // comes twice (the later value wins); 32 is past the output.
    const i = BigInt64Array.from([0n, 3n, 17n, 19n, 16n, 19n, 24n, 31n]);
    const bad = BigInt64Array.from([0n, 3n, 32n, 15n, 16n, 19n, 24n, 31n]);
    const R = reference.ort.Tensor;
    const ref = await alone(bytes);
    const want = (await ref.run({ x: new R('float32', x, [1, 2, 2, 2]), i: new R('int64', i, [1, 2, 2, 2]) })).y.data;
    expect(want[19]).toBe(6);
    await expect(ref.run({ x: new R('float32', x, [1, 2, 2, 2]), i: new R('int64', bad, [1, 2, 2, 2]) }))
      .rejects.toThrow(/Index value out of bounds/);
    const s = await createSession(bytes, { ...options, unpoolNodes: 'all' });
    const got = await s.run({ x: new ort.Tensor('float32', x, [1, 2, 2, 2]), i: new ort.Tensor('int64', i, [1, 2, 2, 2]) });
    expect(bits(await dataOf(got.y as TensorLike))).toEqual(bits(want));
    got.y.dispose();
    const e = await s.run({ x: new ort.Tensor('float32', x, [1, 2, 2, 2]), i: new ort.Tensor('int64', bad, [1, 2, 2, 2]) })
      .then(() => undefined, (err: unknown) => err);
    expect(unpool.isUnpoolError(e)).toBe(true);
    expect((e as Error).message).toMatch(
      /^unpool\/onnx: MaxUnpool node 'the_unpool': maxUnpool1d: indices\[2\]=32 is out of range/);
    await s.release();
  });

  it('a float64 MaxUnpool, which ORT\'s CPU EPs refuse, runs on unpool', async () => {
    const bytes = model({
      inputs: [['x', DOUBLE]], outputs: [['y', DOUBLE]],
      nodes: [
        { op: 'MaxPool', name: 'pool', inputs: ['x'], outputs: ['p', 'i'], attrs: { kernel_shape: [2, 2], strides: [2, 2] } },
        { op: 'MaxUnpool', name: 'unpool', inputs: ['p', 'i'], outputs: ['y'], attrs: { kernel_shape: [2, 2], strides: [2, 2] } },
      ],
    });
    // onnxruntime-web/webgpu's wasm EP refuses the MaxPool already, the others the MaxUnpool.
    await expect(alone(bytes)).rejects.toThrow(/Could not find an implementation for Max(Un)?[Pp]ool\(\d+\) node/);
    const s = await createSession(bytes, options);
    if (!gpu) {
      expect(s.steps.map((st) => (st.kind === 'unpool' ? `${st.op}: ${st.why}` : st.kind)).slice(-1)).toEqual(
        ['MaxUnpool: ONNX Runtime refused it on this execution provider']);
    }
    const data = Float64Array.from(input(2 * 3 * 6 * 8));
    const got = await s.run({ x: new ort.Tensor('float64', data, [2, 3, 6, 8]) });
    const p = unpool.maxPool2d({ data, shape: [2, 3, 6, 8] }, { kernelSize: 2 });
    const want = unpool.maxUnpool2d(p.output, p.indices, { kernelSize: 2 });
    expect(bits(await dataOf(got.y as TensorLike))).toEqual(bits(want.data));
    got.y.dispose();
    await s.release();
  });

  it('run(feeds, fetches, options) gives the fetches alone, as ORT does (a whole model too)', async () => {
    const bytes = model({
      inputs: [['x', FLOAT]], outputs: [['y', FLOAT], ['i', INT64]],
      nodes: [{ op: 'MaxPool', name: 'p', inputs: ['x'], outputs: ['y', 'i'], attrs: { kernel_shape: [2, 2], strides: [2, 2] } }],
    });
    const s = await createSession(bytes, options);
    // On a CPU EP ORT runs this model whole, and run() is its session's run.
    expect(s.steps.map((st) => st.kind)).toEqual(gpu ? ['unpool'] : ['ort']);
    const data = input(2 * 3 * 4 * 6);
    const x = () => new ort.Tensor('float32', data, [2, 3, 4, 6]);
    const ref = await alone(bytes);
    const want = await ref.run({ x: new reference.ort.Tensor('float32', data, [2, 3, 4, 6]) });
    const got = await s.run({ x: x() }, ['i'], { logSeverityLevel: 3 });
    expect(Object.keys(got)).toEqual(['i']);
    expect(bits(await dataOf(got.i as TensorLike))).toEqual(bits(want.i.data));
    got.i.dispose();
    const both = await s.run({ x: x() }, { logSeverityLevel: 3 });
    expect(Object.keys(both).sort()).toEqual(['i', 'y']);
    expect(bits(await dataOf(both.y as TensorLike))).toEqual(bits(want.y.data));
    for (const t of Object.values(both)) t.dispose();
    await ref.release();
    await s.release();
  });

  it('refuses what it cannot run, naming the node, the attribute and what to do', async () => {
    const withAttrs = (attrs: Record<string, number | number[] | string>) => model({
      inputs: [['x', FLOAT]], outputs: [['y', FLOAT], ['i', INT64]],
      nodes: [{ op: 'MaxPool', name: 'p', inputs: ['x'], outputs: ['y', 'i'], attrs: { kernel_shape: [2, 2], ...attrs } }],
    });
    const run = async (bytes: Uint8Array) => {
      const s = await createSession(bytes, { ...options, unpoolNodes: 'all' });
      try {
        await s.run({ x: new ort.Tensor('float32', new Float32Array(2 * 5 * 5), [1, 2, 5, 5]) });
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
    await expect(createSession(withAttrs({}), { ort, unpoolnodes: 'all' } as never)).rejects.toThrow(
      'createSession: options.unpoolnodes is not an option; did you mean unpoolNodes?');
    const noGpuBuffers = { ...ort, Tensor: function Tensor() {} } as unknown as OrtLike;
    await expect(createSession(withAttrs({}), { ort: noGpuBuffers, executionProviders: ['webgpu'] })).rejects.toThrow(
      "unpool/onnx: executionProviders 'webgpu' needs ort.Tensor.fromGpuBuffer (onnxruntime-web >= 1.17); " +
      'this ORT has none: upgrade onnxruntime-web');
    const s = await createSession(withAttrs({}), options);
    await expect(s.run({})).rejects.toThrow("run: feeds.x must be an ort.Tensor (input 'x'), got undefined");
    await expect(s.run({ x: new ort.Tensor('float32', new Float32Array(4), [1, 1, 2, 2]) }, ['nope']))
      .rejects.toThrow("run: fetches has 'nope', which this session cannot give; it gives 'y', 'i'");
    await s.release();
  });

  it('disposes every ORT tensor it makes or receives but what run() returns', async () => {
    // The ORT namespace, counting: every tensor made by new Tensor(), Tensor.fromGpuBuffer() or a
    // sub-session's run(), and every dispose() of one.
    const made: TensorLike[] = [];
    const disposed = new Set<TensorLike>();
    const watch = (t: TensorLike) => {
      made.push(t);
      const dispose = t.dispose.bind(t);
      Object.defineProperty(t, 'dispose', { value: () => { disposed.add(t); dispose(); } });
      return t;
    };
    const Base = ort.Tensor as unknown as new (...a: unknown[]) => TensorLike;
    const Counting = function (...a: unknown[]) { return watch(new Base(...a)); } as unknown as typeof ort.Tensor;
    Object.assign(Counting, { fromGpuBuffer: (...a: unknown[]) => watch((ort.Tensor.fromGpuBuffer as (...x: unknown[]) => TensorLike)(...a)) });
    const InferenceSession = {
      create: async (...a: unknown[]) => {
        const s = await (ort.InferenceSession.create as (...x: unknown[]) => Promise<import('onnxruntime-web').InferenceSession>)(...a);
        const run = s.run.bind(s);
        return Object.assign(Object.create(s) as object, {
          run: async (...r: unknown[]) => {
            const out = await (run as (...x: unknown[]) => Promise<Record<string, TensorLike>>)(...r);
            Object.values(out).forEach(watch);
            return out;
          },
          release: () => s.release(),
        });
      },
    };
    const counting = { ...ort, Tensor: Counting, InferenceSession } as unknown as OrtLike;
    const s = await createSession(poolUnpool(undefined, true), { ...options, ort: counting, unpoolNodes: 'all' });
    expect(s.steps.map((st) => st.kind)).toEqual(['unpool', 'ort', 'unpool']);
    const x = new ort.Tensor('float32', input(2 * 3 * 8 * 10), [2, 3, 8, 10]);
    for (let k = 0; k < 20; ++k) {
      made.length = 0;
      disposed.clear();
      const r = await s.run({ x });
      const returned = new Set(Object.values(r) as TensorLike[]);
      expect(made.filter((t) => !returned.has(t) && !disposed.has(t)).length, 'ORT tensors left undisposed').toBe(0);
      expect([...returned].filter((t) => disposed.has(t)).length, 'returned tensors disposed').toBe(0);
      for (const t of returned) t.dispose();
    }
    await s.release();
  });

  // Firefox's WebGPU on lavapipe takes ~0.2 s a run.
  const runs = gpu ? (/Firefox/.test(globalThis.navigator?.userAgent ?? '') ? 100 : 1000) : 2000;
  it(`releases every intermediate: nothing is left after ${runs} runs`, async () => {
    const s = await createSession(poolUnpool(), { ...options, unpoolNodes: 'all' });
    const x = new ort.Tensor('float32', input(1 * 4 * 16 * 16), [1, 4, 16, 16]);
    const once = async () => {
      const r = await s.run({ x });
      r.y.dispose(); r.i.dispose();
    };
    await once();
    const heap = unpool.memoryUsage().inUseBytes;
    const buffers = gpu?.liveBuffers() ?? 0;
    for (let k = 0; k < runs; ++k) await once();
    expect(unpool.memoryUsage().inUseBytes).toBe(heap);
    if (gpu) expect(gpu.liveBuffers()).toBe(buffers);
    await s.release();
  });
}
