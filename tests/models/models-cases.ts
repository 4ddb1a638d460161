// The exporter's fixtures (tests/models/make-fixtures.py: models exported
// with unpool_onnx, and PyTorch's results) run end to end by unpool/onnx:
// every case equals PyTorch as its JSON says (indices bit for bit, values
// within atol, every label), with the runner's cuts and with its fusions
// off (the same bits). models.node.test.ts runs them on onnxruntime-node and
// onnxruntime-web's wasm EP, legs.ts on the wasm EP in the browsers and (the
// fixtures marked "gpu") on ORT Web's WebGPU EPs, with nothing mapped but the
// content check's one status read.
import { describe, expect, it } from 'vitest';
import { createSession } from '../../dist/onnx/index.js';
import { readModel } from '../../dist/onnx/model.js';
import { compareOutputs, diffStats } from './fixtures.js';
import type { Fixture, FixtureRun, GotTensor } from './fixtures.js';
import { dataOf } from './runner-cases.js';
import type { GpuWatch, OrtLike } from './runner-cases.js';

export interface ModelSide {
  ort: OrtLike;
  ep: string;
  gpu?: GpuWatch;
}

type Results = Record<string, { data: ArrayLike<number | bigint> & ArrayBufferView; dims: readonly number[]; dispose(): void; location?: string; getData(): Promise<ArrayLike<number | bigint> & ArrayBufferView> }>;

/** The bytes of a typed array: equal bytes are equal bits (NaN, -0 included). */
const bits = (a: unknown) => {
  const v = a as ArrayBufferView;
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
};

export function modelCases(fixtures: readonly Fixture[], side: ModelSide): void {
  const { ort, ep, gpu } = side;
  const base = { ort, executionProviders: [ep], ...(gpu ? { preferredOutputLocation: 'gpu-buffer' as const } : {}) };
  const cases = fixtures.filter((f) => !gpu || f.gpu);
  if (gpu) it('has fixtures marked for the GPU legs', () => expect(cases.length).toBeGreaterThan(3));

  /** One run: its results read back (counting maps first), as the comparison takes them. */
  async function run(s: Awaited<ReturnType<typeof createSession>>, r: FixtureRun,
                     fused = true): Promise<Record<string, GotTensor>> {
    const feeds: Record<string, unknown> = {};
    for (const t of r.inputs) feeds[t.name] = new ort.Tensor(t.dtype, t.data, t.shape);
    const before = gpu?.maps() ?? 0;
    const out = await s.run(feeds as never) as unknown as Results;
    // On WebGPU nothing is mapped inside run() but the one read of the content checks (unfused,
    // ORT runs the index arithmetic on int64 tensors, which its WebGPU EPs hand to its CPU EP).
    if (gpu && fused) {
      expect(gpu.maps() - before, 'mapAsync calls inside run()').toBeLessThanOrEqual(1);
      for (const t of Object.values(out)) expect(t.location).toBe('gpu-buffer');
    }
    const got: Record<string, GotTensor> = {};
    for (const [name, t] of Object.entries(out)) {
      got[name] = { data: await dataOf(t as never), dims: t.dims };
      t.dispose();
    }
    return got;
  }

  const report = (f: Fixture, r: FixtureRun, got: Record<string, GotTensor>, how: string) => {
    const stats = diffStats(got, r);
    console.log(`${f.name} run ${r.index} [${r.inputs[0]?.shape}] ${ep} ${how}: ` + stats.map((st) =>
      `${st.output} ${st.kind === 'indices' ? 'indices' : `max |diff| ${st.maxAbsDiff.toExponential(2)}`}` +
      (st.kind === 'logits' ? `, ${st.wrongLabels}/${st.pixels} labels wrong` : '')).join('; '));
    return stats;
  };

  if (!gpu) {
    it('holds each weight once: an initializer goes to the one sub-session that reads it', async () => {
      const f = fixtures.find((x) => x.name === 'segnet')!;
      const held: string[][] = [];
      const counting = {
        ...ort,
        InferenceSession: {
          create: (model: Uint8Array, o: object) => {
            held.push(readModel(model).model.graph!.initializer.map((t) => t.name));
            return ort.InferenceSession.create(model, o);
          },
        },
      } as unknown as OrtLike;
      const s = await createSession(f.modelPath, { ...base, ort: counting, unpoolNodes: 'all' });
      expect(held.length, 'sub-sessions').toBe(s.steps.filter((st) => st.kind === 'ort').length);
      const all = held.flat();
      expect(all.length, 'initializers').toBeGreaterThan(8);
      expect(new Set(all).size, 'initializers held twice').toBe(all.length);
      await s.release();
    });
  }

  const modes = gpu ? (['auto'] as const) : (['auto', 'all'] as const);
  describe.each(cases.map((f) => [f.name, f] as const))('%s', (_, f) => {
    it.each(modes)(f.expectWrong ? 'unpoolNodes %s: wrong labels, as ORT alone gives them (the comparison can fail)'
      : 'unpoolNodes %s: equals PyTorch, fused and unfused alike', async (unpoolNodes) => {
      const fused = await createSession(f.modelPath, { ...base, unpoolNodes });
      const unfused = await createSession(f.modelPath, { ...base, unpoolNodes, fuse: false });
      const cut = fused.steps.filter((s) => s.kind === 'unpool').length;
      if (unpoolNodes === 'all' || gpu) expect(cut, 'steps unpool runs').toBeGreaterThan(0);
      for (const r of f.runs) {
        const got = await run(fused, r);
        const stats = report(f, r, got, `unpoolNodes ${unpoolNodes}, ${cut} unpool steps`);
        if (f.expectWrong) {
          expect(stats.reduce((a, st) => a + st.wrongLabels, 0), 'wrong labels').toBeGreaterThan(0);
        } else {
          expect(compareOutputs(got, r).slice(0, 5).map((m) => m.message)).toEqual([]);
        }
        const other = await run(unfused, r, false);
        for (const [name, t] of Object.entries(got)) {
          expect(bits(other[name].data), `${name} unfused`).toEqual(bits(t.data));
        }
      }
      await fused.release();
      await unfused.release();
    });
  });
}
