// The exporter's fixtures (tests/models/make-fixtures.py) on ONNX Runtime's
// CPU EP alone (onnxruntime-node): every case equals PyTorch as its JSON
// says (indices bit for bit, values within atol, logits within atol and
// every label). The usual workaround (per-plane indices straight into ONNX
// MaxUnpool, "expectWrong") must give wrong labels: the comparison can fail.
// A case that ORT cannot run alone ("ortCpuAlone": false) must still fail
// as recorded, so the JSON stays true when ORT changes.
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { compareOutputs, diffStats } from './fixtures.js';
import { loadFixtures } from './load-fixtures.js';
import type { Fixture, FixtureRun } from './fixtures.js';

const dir = process.env.UNPOOL_MODELS_DIR ?? 'build/models';
const fixtures = loadFixtures(dir);

async function session(f: Fixture): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(f.modelPath, { executionProviders: ['cpu'] });
}

async function run(s: ort.InferenceSession, r: FixtureRun) {
  const feeds: Record<string, ort.Tensor> = {};
  for (const t of r.inputs) feeds[t.name] = new ort.Tensor(t.dtype as 'float32', t.data as Float32Array, t.shape);
  return s.run(feeds);
}

function report(f: Fixture, r: FixtureRun, got: Record<string, ort.Tensor>) {
  const stats = diffStats(got, r).map((s) => `${s.output} ${s.kind === 'indices' ? 'indices' : `max |diff| ${s.maxAbsDiff.toExponential(2)}`}` +
    (s.kind === 'logits' ? `, ${s.wrongLabels}/${s.pixels} labels wrong` : ''));
  console.log(`${f.name} run ${r.index} [${r.inputs[0]?.shape}]: ${stats.join('; ')}`);
  return diffStats(got, r);
}

describe('fixtures', () => {
  it(`are in ${dir}`, () => {
    const names = fixtures.map((f) => f.name);
    for (const n of ['segnet', 'segnet-small', 'encdec1d', 'encdec3d', 'pools', 'indices-out', 'unbatched',
      'float64', 'segnet-workaround']) expect(names).toContain(n);
    for (const f of fixtures) expect(f.runs.length, f.name).toBeGreaterThan(0);
  });
});

describe('compareOutputs', () => {
  it('names the case, run, output, element, got and want', () => {
    const want = fixtures.find((f) => f.name === 'indices-out')!.runs[1]!;
    const got = Object.fromEntries(want.outputs.map((o) => [o.name, { data: o.data.slice(), dims: o.shape }]));
    expect(compareOutputs(got, want)).toEqual([]);
    (got.pooled!.data as Float32Array)[7]! += 1e-3;
    (got.indices!.data as BigInt64Array)[5] = -1n;
    const w = want.outputs.map((o) => o.data);
    expect(compareOutputs(got, want).map((m) => m.message)).toEqual([
      `indices-out run 1: pooled element 7: value (atol 0.00001) got ${(got.pooled!.data as Float32Array)[7]}, ` +
        `want ${w[0]![7]}`,
      `indices-out run 1: indices element 5: index got -1, want ${w[1]![5]}`,
    ]);
    expect(compareOutputs({ pooled: { data: [], dims: [1] } }, want).map((m) => m.message)).toEqual([
      'indices-out run 1: pooled: shape got [1], want [3,3,5,6]',
      'indices-out run 1: indices: output missing: got nothing, want [3,3,5,6]',
    ]);
  });
});

describe.each(fixtures.map((f) => [f.name, f] as const))('%s on ORT CPU', (_, f) => {
  if (f.ortCpuAlone === false) {
    it(`fails as recorded: ${f.ortCpuAloneError}`, async () => {
      await expect((async () => run(await session(f), f.runs[0]!))()).rejects.toThrow(f.ortCpuAloneError!);
    });
  } else if (f.expectWrong) {
    it('gives wrong labels (the comparison can fail)', async () => {
      const s = await session(f);
      for (const r of f.runs) {
        const got = await run(s, r);
        const wrong = report(f, r, got).reduce((a, st) => a + st.wrongLabels, 0);
        expect(wrong, `${f.name} run ${r.index}: wrong labels`).toBeGreaterThan(0);
        expect(compareOutputs(got, r).length).toBeGreaterThan(0);
      }
    });
  } else {
    it('equals PyTorch', async () => {
      const s = await session(f);
      for (const r of f.runs) {
        const got = await run(s, r);
        report(f, r, got);
        const bad = compareOutputs(got, r);
        expect(bad.slice(0, 10).map((m) => m.message), `${bad.length} mismatches`).toEqual([]);
      }
    });
  }
});
