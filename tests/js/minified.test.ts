// No message of the WebAssembly API prints a minified class name (issue 44):
// every op, module method and helper, with each of its arguments, tensor
// fields and options replaced in turn by objects of classes a minifier
// named (tests/js/minified-standins.mjs), throws an error of the package
// whose message names none of them; ONNX Runtime's and TF.js's tensors are
// named as what they are, with what to pass instead. The same for
// unpool/webgpu: tests/webgpu/cases/minified.mjs.
import { describe, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';
import { leakedName, opCalls, standIns } from './minified-standins.mjs';

await unpool.init();

type Args = unknown[];
type Call = { label: string; run: (args: Args) => unknown; args: () => Args; tensors: string[] };
const api = unpool as unknown as Record<string, (...a: unknown[]) => unknown>;
const classes = unpool as unknown as Record<string, new (...a: unknown[]) => Record<string, (...a: unknown[]) => unknown>>;

const calls: Call[] = (opCalls(unpool, (t: unknown) => t) as { label: string; fn: string; tensors: string[]; args: () => Args }[])
  .map((c) => ({ ...c, run: (a: Args) => api[c.fn](...a) }));
const p2 = unpool.maxPool2d({ data: Float32Array.from({ length: 16 }, (_, i) => (i * 7) % 23), shape: [1, 1, 4, 4] }, { kernelSize: 2 });
const copy = <T extends { data: { slice(): unknown }; shape: number[] }>(t: T) => ({ data: t.data.slice(), shape: t.shape.slice() });
const x2 = () => ({ data: Float32Array.from({ length: 16 }, (_, i) => i), shape: [1, 1, 4, 4] });
calls.push(
  { label: 'MaxPool2d.forward', tensors: ['x'], args: () => [x2(), {}], run: ([x, o]) => new classes.MaxPool2d(2).forward(x, o) },
  { label: 'MaxPool2d.backward', tensors: ['gradOutput', 'indices'], args: () => [{ data: new Float32Array(4), shape: [1, 1, 2, 2] }, copy(p2.indices), {}],
    run: ([g, i, o]) => new classes.MaxPool2d(2).backward(g, i, [1, 1, 4, 4], o) },
  { label: 'MaxUnpool2d.forward', tensors: ['x', 'indices'], args: () => [copy(p2.output), copy(p2.indices), {}],
    run: ([x, i, o]) => new classes.MaxUnpool2d(2).forward(x, i, [4, 4], o) },
  { label: 'MaxUnpool2d.backward', tensors: ['gradOutput', 'indices'], args: () => [x2(), copy(p2.indices), {}],
    run: ([g, i, o]) => new classes.MaxUnpool2d(2).backward(g, i, o) },
  { label: 'AdaptiveMaxPool2d.forward', tensors: ['x'], args: () => [x2(), {}], run: ([x, o]) => new classes.AdaptiveMaxPool2d(2).forward(x, o) },
  { label: 'FractionalMaxPool2d.forward', tensors: ['x', 'randomSamples'],
    args: () => [x2(), { data: Float32Array.of(0.3, 0.6), shape: [1, 1, 2] }, {}],
    run: ([x, s, o]) => new classes.FractionalMaxPool2d(2, { outputSize: 2 }).forward(x, s, o) },
  { label: 'uploadTensor', tensors: ['t'], args: () => [x2()], run: ([t]) => unpool.uploadTensor(t as never) },
  { label: 'maxUnpool2dOutputRange', tensors: [], args: () => [[1, 1, 2, 2], { kernelSize: 2 }],
    run: ([s, o]) => unpool.maxUnpool2dOutputRange(s as number[], o as never) },
  { label: 'outputSizeRange', tensors: [], args: () => [[1, 1, 2, 2], { kernelSize: 2 }],
    run: ([s, o]) => unpool.outputSizeRange(s as number[], o as never) },
);

/** Every place of a call's arguments a stand-in goes: [path, set]. */
function places(c: Call): [string, (a: Args, v: unknown) => void][] {
  const out: [string, (a: Args, v: unknown) => void][] = [];
  const base = c.args();
  base.forEach((arg, k) => {
    const name = c.tensors[k] ?? (k === base.length - 1 && arg !== null && typeof arg === 'object' && !Array.isArray(arg) ? 'options' : `argument ${k}`);
    out.push([name, (a, v) => { a[k] = v; }]);
    if (arg === null || typeof arg !== 'object') return;
    if (Array.isArray(arg)) {
      out.push([`${name}[0]`, (a, v) => { (a[k] as unknown[])[0] = v; }]);
      return;
    }
    const keys = c.tensors[k] !== undefined ? ['data', 'shape', 'dtype'] : [...Object.keys(arg), 'out'];
    for (const key of keys) out.push([`${name}.${key}`, (a, v) => { (a[k] as Record<string, unknown>)[key] = v; }]);
  });
  return out;
}

describe('no message prints a minified class name (WebAssembly API)', () => {
  it('every base call works', () => {
    for (const c of calls) expect(() => c.run(c.args()), c.label).not.toThrow();
  });

  it('every argument, tensor field and option, each stand-in: an error of the package, no minified name', () => {
    const problems: string[] = [];
    let tried = 0;
    for (const c of calls) {
      for (const [path, set] of places(c)) {
        for (const s of standIns(16)) {
          const a = c.args();
          set(a, s.value);
          let thrown: unknown;
          try {
            c.run(a);
          } catch (e) {
            thrown = e;
          }
          tried++;
          const what = `${c.label} ${path} = ${s.label}`;
          // Objects are valid options, and `out: {}` a valid pool's `out`.
          if (thrown === undefined) {
            if (c.tensors.includes(path) || path.endsWith('.data')) problems.push(`${what}: no error`);
            continue;
          }
          const m = (thrown as Error).message;
          if (!unpool.isUnpoolError(thrown)) problems.push(`${what}: not an error of the package: ${m}`);
          const leaked = leakedName(m);
          if (leaked !== undefined) problems.push(`${what}: prints ${leaked}: ${m}`);
          // A tensor argument that is another library's tensor: named, with what to pass.
          if (c.tensors.includes(path) || path === 'options.randomSamples') {
            const name = path.replace(/^options\./, '');
            if (s.kind === 'ort-gpu' && !m.includes(`is an ort.Tensor (float32, dims [1, 1, 16], on gpu-buffer), whose data is not on the CPU: pass { data: await ${name}.getData(), dims: ${name}.dims }`)) {
              problems.push(`${what}: no ort.Tensor hint: ${m}`);
            }
            if (s.kind === 'tf' && !m.includes(`is a TF.js tensor (float32, shape [1, 1, 16]), whose data is not a typed array: pass { data: await ${name}.data(), shape: ${name}.shape }`)) {
              problems.push(`${what}: no TF.js hint: ${m}`);
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(tried).toBeGreaterThan(3000);
  });

  it('describe\'s other cases: readable names stay, a typed array subclass is its class, keys stand in for a name', () => {
    class MyTensor { data = 'x'; }
    const message = (f: () => unknown) => { try { f(); } catch (e) { return (e as Error).message; } return ''; };
    expect(message(() => unpool.maxPool2d(x2(), { kernelSize: new MyTensor() as never })))
      .toBe('maxPool2d: kernelSize must be a number or an array of numbers, got a MyTensor');
    const Ze = ({ ze: class {} }).ze;
    expect(message(() => unpool.maxPool2d(x2(), { kernelSize: Object.assign(new Ze(), { a: 1, b: 2 }) as never })))
      .toBe('maxPool2d: kernelSize must be a number or an array of numbers, got an object { a, b }');
    expect(message(() => unpool.maxPool2d(x2(), { kernelSize: new Map() as never })))
      .toBe('maxPool2d: kernelSize must be a number or an array of numbers, got a Map');
    const r = unpool.maxPool2d(x2(), { kernelSize: 2, resident: true });
    expect(message(() => unpool.uploadTensor(r.output as never))).toBe('uploadTensor: t is already a WasmTensor');
    expect(Object.prototype.toString.call(r.output)).toBe('[object WasmTensor]');
    r.output.dispose(); r.indices.dispose();
    // A minified subclass of a module class is named by its family.
    const Sub = ({ ze: class extends unpool.MaxPool2d { static override readonly dims = 5 as never; } }).ze;
    expect(message(() => new Sub(2))).toBe('a subclass of MaxPool: static dims=5 must be one of 1, 2, 3 (a MaxPool class\'s spatial dims)');
  });
});
