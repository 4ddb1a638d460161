// Hostile values at the JS boundary, for every public function and module
// class and every parameter: each must throw a TypeError or RangeError whose
// message names the function, the parameter and the value; afterwards the
// module must still compute a known result and hold no more heap than before.
import { afterAll, describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import { applyCase, buildCases } from './hostile-cases.js';
import { entries } from './hostile-entries.js';
import { moduleStillWorks, pooled } from './hostile-suite.js';
import { detached } from './hostile-values.js';

// Top-level: the cases are built (from real pool results) when the file is collected.
await unpool.init();

// One hostile value (hostile-values.ts) at one path of one valid call
// (hostile-entries.ts) a case (hostile-cases.ts).
const cases = buildCases();
// UNPOOL_HOSTILE_LOG=1 prints every input and the error it gave.
const LOG = (globalThis as { process?: { env: Record<string, string> } }).process?.env.UNPOOL_HOSTILE_LOG === '1';
const tried = { count: 0 };

describe('hostile values at the JS boundary', () => {
  it('every valid base call works', () => {
    for (const e of entries) expect(() => e.run(e.base()), e.label).not.toThrow();
  });

  it(`${cases.length} hostile inputs: a clear TypeError or RangeError, then a working module with its heap as before`, () => {
    moduleStillWorks();
    const before = unpool.memoryUsage().inUseBytes;
    const problems: string[] = [];
    for (const c of cases) {
      const what = `${c.entry.label} ${c.path}${c.at !== undefined ? `[${c.at}]` : ''} = ${c.hostile.text ?? typeof c.hostile.value}`;
      let thrown: unknown;
      try {
        c.entry.run(applyCase(c));
      } catch (e) {
        thrown = e;
      }
      tried.count += 1;
      const err = thrown as Error & { code?: string };
      if (LOG) console.log(`${what} -> ${err?.constructor?.name}${err?.code ? `(${err.code})` : ''}: ${err?.message}`);
      if (!(thrown instanceof c.hostile.type)) {
        problems.push(`${what}: expected ${c.hostile.type.name}, got ${thrown === undefined ? 'no error' : `${err?.constructor?.name}: ${err?.message}`}`);
      } else {
        const m = err.message;
        const okName = c.entry.names.some((n) => m.startsWith(`${n}: `));
        const okParam = c.params.some((p) => m.includes(p)) || /cannot allocate \d+ bytes/.test(m);
        const okValue = c.hostile.text === undefined || m.includes(c.hostile.text) || /cannot allocate \d+ bytes/.test(m);
        // Every error has a code (issue 32): the case's when it names one.
        const okCode = unpool.isUnpoolError(thrown) && (c.hostile.code === undefined || err.code === c.hostile.code);
        if (!(okName && okParam && okValue && okCode)) {
          problems.push(`${what}: ${okName ? '' : '[function] '}${okParam ? '' : '[parameter] '}${okValue ? '' : '[value] '}` +
            `${okCode ? '' : `[code ${err.code}] `}${err.constructor.name}: ${m}`);
        }
      }
      if (unpool.memoryUsage().inUseBytes !== before) problems.push(`${what}: leaked ${unpool.memoryUsage().inUseBytes - before} bytes`);
      moduleStillWorks();
    }
    expect(problems).toEqual([]);
    expect(unpool.memoryUsage().inUseBytes).toBe(before);
  });
});

describe('hostile layout, out, resident and WasmTensor arguments', () => {
  it('each throws a TypeError or RangeError naming function, parameter and value; out is untouched; nothing leaks', () => {
    const p = pooled(2);
    const genuineInt = unpool.uploadTensor(p.indices);
    const genuineFloat = unpool.uploadTensor(p.output);
    const disposed = unpool.uploadTensor(p.output);
    disposed.dispose();
    disposed.dispose();  // idempotent
    const WasmTensor = (unpool as unknown as { WasmTensor: { prototype: object } }).WasmTensor;
    const forged = Object.create(WasmTensor.prototype, {
      address: { value: 2 ** 32 - 8 }, dtype: { value: 'float32' }, shape: { value: [1, 1, 2, 2] }, size: { value: 4 },
    });
    const detachedOut = detached(new Float32Array(16));
    const badIndices = unpool.uploadTensor({ data: Int32Array.from([0, 1, 2, 16]), shape: [1, 1, 2, 2] });
    const u = { kernelSize: 2 };
    type C = [string, () => unknown, typeof TypeError | typeof RangeError, RegExp];
    const cases: C[] = [];
    for (const layout of ['NLC', 'NCDHW', 'nchw', 'NCHW ', '', 5, null, {}, true]) {
      const text = typeof layout === 'string' ? JSON.stringify(layout) : String(layout === null ? 'null' : typeof layout === 'object' ? 'Object' : layout);
      const re = new RegExp(`layout.*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
      // A string that is no layout of this op is a bad value (RangeError); anything else a bad type.
      const type = typeof layout === 'string' ? RangeError : TypeError;
      cases.push(
        [`maxPool2d layout ${text}`, () => unpool.maxPool2d(p.x, { kernelSize: 2, layout } as never), type, re],
        [`maxUnpool2d layout ${text}`, () => unpool.maxUnpool2d(p.output, p.indices, { ...u, layout } as never), type, re],
        [`maxPool2dBackward layout ${text}`, () => unpool.maxPool2dBackward(p.output, p.indices, { inputShape: p.inShape, layout } as never), type, re],
        [`maxUnpool2dBackward layout ${text}`, () => unpool.maxUnpool2dBackward(p.x, p.indices, { layout } as never), type, re],
        [`MaxPool2d layout ${text}`, () => new unpool.MaxPool2d(2, { layout } as never).forward(p.x), type, re],
      );
    }
    for (const resident of ['yes', 1, null, {}]) {
      const text = resident === null ? 'null' : typeof resident === 'object' ? 'Object' : JSON.stringify(resident);
      cases.push([`maxPool2d resident ${text}`, () => unpool.maxPool2d(p.x, { kernelSize: 2, resident } as never), TypeError,
        new RegExp(`^maxPool2d: resident=.*${text}`)]);
      cases.push([`maxUnpool2d resident ${text}`, () => unpool.maxUnpool2d(p.output, p.indices, { ...u, resident } as never), TypeError,
        new RegExp(`^maxUnpool2d: resident=.*${text}`)]);
    }
    const out16 = () => new Float32Array(16).fill(-7);
    cases.push(
      ['out with resident', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: out16(), resident: true }), TypeError, /^maxUnpool2d: out and resident/],
      ['pool out a number', () => unpool.maxPool2d(p.x, { kernelSize: 2, out: 5 } as never), TypeError, /^maxPool2d: out must be an object .*5/],
      ['pool out a typed array', () => unpool.maxPool2d(p.x, { kernelSize: 2, out: new Float32Array(4) } as never), TypeError, /^maxPool2d: out must be an object .*Float32Array\(4\)/],
      ['pool out.output Float64Array', () => unpool.maxPool2d(p.x, { kernelSize: 2, out: { output: new Float64Array(4) } } as never), TypeError, /^maxPool2d: out\.output must be a Float32Array .*Float64Array\(4\)/],
      ['pool out.output length 3', () => unpool.maxPool2d(p.x, { kernelSize: 2, out: { output: new Float32Array(3) } }), RangeError, /^maxPool2d: out\.output has length 3/],
      ['pool out.indices BigInt64Array for int32', () => unpool.maxPool2d(p.x, { kernelSize: 2, out: { indices: new BigInt64Array(4) } } as never), TypeError, /^maxPool2d: out\.indices must be an Int32Array .*BigInt64Array\(4\)/],
      ['pool out.indices plain array', () => unpool.maxPool2d(p.x, { kernelSize: 2, out: { indices: [0, 0, 0, 0] } } as never), TypeError, /^maxPool2d: out\.indices must be .*\[0, 0/],
      ['unpool out Float64Array', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: new Float64Array(16) } as never), TypeError, /^maxUnpool2d: out must be a Float32Array .*Float64Array\(16\)/],
      ['unpool out length 15', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: new Float32Array(15) }), RangeError, /^maxUnpool2d: out has length 15/],
      ['unpool out length 17', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: new Float32Array(17) }), RangeError, /^maxUnpool2d: out has length 17/],
      ['unpool out detached', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: detachedOut }), RangeError, /^maxUnpool2d: out has length 0/],
      ['unpool out Proxy', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: new Proxy(new Float32Array(16), {}) } as never), TypeError, /^maxUnpool2d: out must be a Float32Array .*posing as a Float32Array/],
      ['unpool out DataView', () => unpool.maxUnpool2d(p.output, p.indices, { ...u, out: new DataView(new ArrayBuffer(64)) } as never), TypeError, /^maxUnpool2d: out must be a Float32Array .*DataView/],
      ['pool backward out Float64Array', () => unpool.maxPool2dBackward(p.output, p.indices, { inputShape: p.inShape, out: new Float64Array(16) } as never), TypeError, /^maxPool2dBackward: out must be a Float32Array/],
      ['unpool backward out length 5', () => unpool.maxUnpool2dBackward(p.x, p.indices, { out: new Float32Array(5) }), RangeError, /^maxUnpool2dBackward: out has length 5/],
      ['forged WasmTensor as x', () => unpool.maxPool2d(forged, { kernelSize: 2 }), TypeError, /^maxPool2d: x is not a WasmTensor made by uploadTensor\(\) or an op$/],
      ['forged WasmTensor as indices', () => unpool.maxUnpool2d(p.output, forged, u), TypeError, /^maxUnpool2d: indices is not a WasmTensor made by/],
      ['disposed WasmTensor as x', () => unpool.maxUnpool2d(disposed, p.indices, u), TypeError, /^maxUnpool2d: x is a WasmTensor that was disposed$/],
      ['int32 WasmTensor as gradOutput', () => unpool.maxPool2dBackward(genuineInt as never, p.indices, { inputShape: p.inShape }), TypeError, /^maxPool2dBackward: gradOutput is a WasmTensor of int32 values; a pool's gradient adds/],
      ['float WasmTensor as indices', () => unpool.maxUnpool2d(p.output, genuineFloat as never, u), TypeError, /^maxUnpool2d: indices must hold int32 or int64 data, got a WasmTensor of float32$/],
      ['WasmTensor with an out-of-range index', () => unpool.maxUnpool2d(genuineFloat, badIndices, { ...u, out: out16() }),
        RangeError, /^maxUnpool2d: indices\[3\]=16 is out of range/],
      ['new WasmTensor()', () => new (WasmTensor as unknown as new (...a: unknown[]) => unknown)(Symbol('WasmTensor'), {}, 8, 'float32', [2]), TypeError, /^WasmTensor: use uploadTensor\(\)/],
      ['uploadTensor(null)', () => unpool.uploadTensor(null as never), TypeError, /^uploadTensor: t must be a tensor .*null/],
      ['uploadTensor(Uint32Array data)', () => unpool.uploadTensor({ data: new Uint32Array(4), shape: [4] } as never), TypeError, /^uploadTensor: t\.data must be .*Uint32Array\(4\)/],
      ['uploadTensor(detached)', () => unpool.uploadTensor({ data: detached(new Float64Array(4)), shape: [4] }), TypeError, /^uploadTensor: t\.data is a view of a detached ArrayBuffer$/],
      ['uploadTensor(WasmTensor)', () => unpool.uploadTensor(genuineFloat as never), TypeError, /^uploadTensor: t is already a WasmTensor$/],
      ['uploadTensor(length mismatch)', () => unpool.uploadTensor({ data: new Int32Array(3), shape: [2, 2] }), RangeError, /^uploadTensor: t\.data has length 3/],
    );
    moduleStillWorks();
    const before = unpool.memoryUsage().inUseBytes;
    const problems: string[] = [];
    for (const [name, call, type, message] of cases) {
      let thrown: unknown;
      try {
        call();
      } catch (e) {
        thrown = e;
      }
      tried.count += 1;
      if (!(thrown instanceof type) || !message.test((thrown as Error).message)) {
        problems.push(`${name}: expected ${type.name} ${message}, got ${thrown === undefined ? 'no error' : `${(thrown as Error).constructor.name}: ${(thrown as Error).message}`}`);
      }
      expect(unpool.memoryUsage().inUseBytes, name).toBe(before);
      moduleStillWorks();
    }
    expect(problems).toEqual([]);
    // Mutating a WasmTensor's shape, dtype or size (which size every read) is refused.
    for (const key of ['shape', 'dtype', 'size', 'address']) {
      expect(() => { (genuineFloat as unknown as Record<string, unknown>)[key] = 1; }, key).toThrow(TypeError);
    }
    (forged as { dispose(): void }).dispose();  // frees nothing: not a tensor of this module
    expect(unpool.memoryUsage().inUseBytes).toBe(before);
    // An out array is written only by a successful call.
    const out = out16();
    expect(() => unpool.maxUnpool2d(p.output, { data: Int32Array.from([0, 1, 2, 99]), shape: [1, 1, 2, 2] }, { ...u, out })).toThrow(RangeError);
    expect(out.every((v) => v === -7)).toBe(true);
    const ok = unpool.maxUnpool2d(genuineFloat, genuineInt, { ...u, out });
    expect(ok.data).toBe(out);
    expect(Array.from(out)).toEqual(Array.from(unpool.maxUnpool2d(p.output, p.indices, u).data));
    const held = unpool.memoryUsage().inUseBytes;
    for (const t of [genuineInt, genuineFloat, badIndices]) t.dispose();
    expect(unpool.memoryUsage().inUseBytes).toBeLessThan(held);
    moduleStillWorks();
  });
});

afterAll(() => {
  // The count for the issue's closing note.
  console.log(`hostile.test.ts: ${tried.count} hostile inputs tried`);
});