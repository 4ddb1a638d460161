// The valid calls of hostile.test.ts: one per public entry point (each
// function and module class method, 1d to 3d), built fresh for every case,
// with the paths of their arguments that a hostile value may replace.
import * as unpool from '../../dist/index.js';
import { pooled, prod, rep } from './hostile-suite.js';

type Fn = (...args: unknown[]) => any;
type Ctor = new (...args: unknown[]) => any;
const api = unpool as unknown as Record<string, Fn & Ctor>;
export type Args = Record<string, any>;

export interface Entry {
  /** What the user calls, e.g. maxPool2d or MaxPool2d.forward. */
  label: string;
  /** Function names the messages may start with (the class or the functional op). */
  names: string[];
  base: () => Args;
  run: (a: Args) => unknown;
  /** Mutable paths: tensors, size options, shapes. */
  tensors: { path: string; kind: 'float' | 'index' }[];
  sizes: string[];
  shapes: string[];
  objects: string[];
}

export const entries: Entry[] = [];
for (const d of [1, 2, 3]) {
  const size = (v: number) => rep(v, d);
  entries.push({
    label: `maxPool${d}d`, names: [`maxPool${d}d`],
    base: () => ({
      x: pooled(d).x,
      options: { kernelSize: size(2), stride: size(2), padding: size(0), dilation: size(1), ceilMode: false, indexType: 'int32' },
    }),
    run: (a) => api[`maxPool${d}d`](a.x, a.options),
    tensors: [{ path: 'x', kind: 'float' }],
    sizes: ['options.kernelSize', 'options.stride', 'options.padding', 'options.dilation'],
    shapes: ['x.shape'], objects: ['options'],
  });
  entries.push({
    label: `maxUnpool${d}d`, names: [`maxUnpool${d}d`],
    base: () => {
      const p = pooled(d);
      return { x: p.output, indices: p.indices, options: { kernelSize: size(2), stride: size(2), padding: size(0), outputSize: size(4) } };
    },
    run: (a) => api[`maxUnpool${d}d`](a.x, a.indices, a.options),
    tensors: [{ path: 'x', kind: 'float' }, { path: 'indices', kind: 'index' }],
    sizes: ['options.kernelSize', 'options.stride', 'options.padding'],
    shapes: ['x.shape', 'indices.shape', 'options.outputSize'], objects: ['options'],
  });
  entries.push({
    label: `maxPool${d}dBackward`, names: [`maxPool${d}dBackward`],
    base: () => {
      const p = pooled(d);
      return {
        gradOutput: { data: new Float32Array(prod(p.outShape)).fill(1), shape: p.outShape }, indices: p.indices,
        options: { inputShape: p.inShape, kernelSize: size(2), stride: size(2), padding: size(0), dilation: size(1), ceilMode: false },
      };
    },
    run: (a) => api[`maxPool${d}dBackward`](a.gradOutput, a.indices, a.options),
    tensors: [{ path: 'gradOutput', kind: 'float' }, { path: 'indices', kind: 'index' }],
    sizes: ['options.kernelSize', 'options.stride', 'options.padding', 'options.dilation'],
    shapes: ['gradOutput.shape', 'indices.shape', 'options.inputShape'], objects: ['options'],
  });
  entries.push({
    label: `maxUnpool${d}dBackward`, names: [`maxUnpool${d}dBackward`],
    base: () => {
      const p = pooled(d);
      return { gradOutput: p.x, indices: p.indices };
    },
    run: (a) => api[`maxUnpool${d}dBackward`](a.gradOutput, a.indices),
    tensors: [{ path: 'gradOutput', kind: 'float' }, { path: 'indices', kind: 'index' }],
    sizes: [], shapes: ['gradOutput.shape', 'indices.shape'], objects: [],
  });
  entries.push({
    label: `maxUnpool${d}dOutputRange`, names: [`maxUnpool${d}dOutputRange`],
    base: () => ({ inputShape: [1, 1, ...size(2)], options: { kernelSize: size(2), stride: size(2), padding: size(0) } }),
    run: (a) => api[`maxUnpool${d}dOutputRange`](a.inputShape, a.options),
    tensors: [], sizes: ['options.kernelSize', 'options.stride', 'options.padding'],
    shapes: ['inputShape'], objects: ['options'],
  });
  const geometry = () => ({ stride: size(2), padding: size(0), dilation: size(1), ceilMode: false, indexType: 'int32' });
  entries.push({
    label: `MaxPool${d}d.forward`, names: [`MaxPool${d}d`, `MaxPool${d}d.forward`],
    base: () => ({ kernelSize: size(2), options: geometry(), x: pooled(d).x }),
    run: (a) => new api[`MaxPool${d}d`](a.kernelSize, a.options).forward(a.x),
    tensors: [{ path: 'x', kind: 'float' }],
    sizes: ['kernelSize', 'options.stride', 'options.padding', 'options.dilation'],
    shapes: ['x.shape'], objects: ['options'],
  });
  entries.push({
    label: `MaxPool${d}d.backward`, names: [`MaxPool${d}d`, `MaxPool${d}d.backward`],
    base: () => {
      const p = pooled(d);
      return {
        kernelSize: size(2), options: geometry(),
        gradOutput: { data: new Float32Array(prod(p.outShape)).fill(1), shape: p.outShape }, indices: p.indices, inputShape: p.inShape,
      };
    },
    run: (a) => new api[`MaxPool${d}d`](a.kernelSize, a.options).backward(a.gradOutput, a.indices, a.inputShape),
    tensors: [{ path: 'gradOutput', kind: 'float' }, { path: 'indices', kind: 'index' }],
    sizes: ['kernelSize', 'options.stride', 'options.padding', 'options.dilation'],
    shapes: ['gradOutput.shape', 'indices.shape', 'inputShape'], objects: ['options'],
  });
  entries.push({
    label: `MaxUnpool${d}d.forward`, names: [`MaxUnpool${d}d`, `MaxUnpool${d}d.forward`],
    base: () => {
      const p = pooled(d);
      return { kernelSize: size(2), options: { stride: size(2), padding: size(0) }, x: p.output, indices: p.indices, outputSize: p.inShape };
    },
    run: (a) => new api[`MaxUnpool${d}d`](a.kernelSize, a.options).forward(a.x, a.indices, a.outputSize),
    tensors: [{ path: 'x', kind: 'float' }, { path: 'indices', kind: 'index' }],
    sizes: ['kernelSize', 'options.stride', 'options.padding'],
    shapes: ['x.shape', 'indices.shape', 'outputSize'], objects: ['options'],
  });
  entries.push({
    label: `MaxUnpool${d}d.backward`, names: [`MaxUnpool${d}d`, `MaxUnpool${d}d.backward`],
    base: () => {
      const p = pooled(d);
      return { kernelSize: size(2), options: {}, gradOutput: p.x, indices: p.indices };
    },
    run: (a) => new api[`MaxUnpool${d}d`](a.kernelSize, a.options).backward(a.gradOutput, a.indices),
    tensors: [{ path: 'gradOutput', kind: 'float' }, { path: 'indices', kind: 'index' }],
    sizes: [], shapes: ['gradOutput.shape', 'indices.shape'], objects: ['options'],
  });
}
