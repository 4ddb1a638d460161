// The WebGPU case modules (tests/webgpu/cases/*.mjs, every one: a backend
// suite dropped there runs with no edit here) in Vitest, in a browser
// (vitest.webgpu.config.ts): Chromium on SwiftShader (Dawn), or Firefox ESR
// on Mesa's lavapipe (wgpu). The same cases run in Deno and in Node.js + Dawn
// through tests/webgpu/harness/run-*.mjs; the case format and ctx are in
// tests/webgpu/harness/core.mjs. ctx.label is the browser's name.
import { describe, expect, test } from 'vitest';
import { server } from 'vitest/browser';
// Plain JavaScript, shared with the Node.js and Deno runners.
import * as core from './harness/core.mjs';

type Case = { id: string; file: string; name: string; requires?: string[] };
const { adapterSummary, collectCases, formatAdapter, requestAdapter, runCase } = core as {
  adapterSummary: (a: unknown, o: object) => Record<string, unknown>;
  collectCases: (m: Record<string, unknown>) => Case[];
  formatAdapter: (label: string, s: Record<string, unknown>) => string[];
  requestAdapter: (gpu: unknown, o: object, label: string) => Promise<{ info: { architecture: string } }>;
  runCase: (c: Case, env: object) => Promise<string>;
};

const label = server.browser;
const adapterOptions = {};
const gpu = (navigator as unknown as { gpu?: unknown }).gpu;
const cases = collectCases(import.meta.glob('./cases/*.mjs', { eager: true }));
const vectorFiles = import.meta.glob('../vectors/*.json', { import: 'default' });

function vectors(name: string): Promise<unknown> {
  const file = `../vectors/${name.endsWith('.json') ? name : `${name}.json`}`;
  const load = vectorFiles[file];
  return load ? load() : Promise.reject(new Error(`no tests/vectors file ${name}`));
}

// Where the stack is wrong, every case below fails too; these say why first.
// The one adapter each browser's stack must find here (not a hardware GPU
// the machine may have): what can be checked from the page.
//   chromium  Dawn names SwiftShader in adapter.info.architecture.
//   firefox   Firefox gives pages an empty GPUAdapterInfo (vendor,
//             architecture, device, description all ''), so lavapipe cannot
//             be named from here; it is a CPU adapter, which Firefox reports
//             as isFallbackAdapter. (scripts/test-webgpu.sh pins wgpu to
//             lavapipe with VK_ICD_FILENAMES.)
const expectedAdapter: Record<string, (s: Record<string, unknown>) => void> = {
  chromium: (s) => expect(s.architecture).toBe('swiftshader'),
  firefox: (s) => {
    expect(s.fallback).toBe(true);
    expect([s.vendor, s.architecture, s.device, s.description]).toEqual(['', '', '', '']);
  },
};

describe(`webgpu-${label} stack`, () => {
  test('the page is on http://127.0.0.1 (a secure context)', () => {
    expect(location.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(isSecureContext).toBe(true);
  });
  test(`an adapter, and it is the one of ${label}'s stack`, async () => {
    const adapter = await requestAdapter(gpu, adapterOptions, label);
    const summary = adapterSummary(adapter, adapterOptions);
    for (const line of formatAdapter(label, summary)) console.log(line);
    const check = expectedAdapter[label];
    expect(check, `no adapter expectation for the browser ${label}`).toBeTypeOf('function');
    check(summary);
  });
});

const byFile = new Map<string, Case[]>();
for (const c of cases) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
for (const [file, list] of byFile) {
  describe(file, () => {
    for (const c of list) {
      test(c.name, async (t) => {
        const result = await runCase(c, { gpu, label, adapterOptions, vectors, log: (...a: unknown[]) => console.log(...a) });
        if (result !== 'passed') t.skip(result);
      });
    }
  });
}
