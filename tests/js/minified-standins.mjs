// Objects as a minified bundle makes them, for the tests that no message
// prints a minified class name (issue 44): ONNX Runtime Web's bundles name
// its Tensor class `ze` (`ce` in the native-EP bundle), so a message built
// from constructor.name said "got a ze". Shared by tests/js/minified.test.ts
// (the WebAssembly API) and tests/webgpu/cases/minified.mjs (unpool/webgpu):
// the stand-ins, the name check, and one valid call of every op whose
// arguments a stand-in replaces in turn.

/** Class names a minifier gives: one or two characters. */
export const MINIFIED = ['ze', 'ce', 'Jt', '$e', 'q'];

const named = (name, base = class {}) => ({ [name]: class extends base {} })[name];

/** The first minified name `message` prints as a word, or undefined. */
export function leakedName(message) {
  return MINIFIED.find((n) => new RegExp(`(^|[^\\w$])${n.replace('$', '\\$')}(?![\\w$])`).test(message));
}

/**
 * Fresh stand-ins, each of a class with a minified name: `kind` says what
 * a message should recognise ('ort-gpu', 'ort-cpu', 'tf': the libraries'
 * tensors; 'object': nothing but an object). `n` sizes the tensors.
 */
export function standIns(n = 16) {
  const out = [];
  for (const name of MINIFIED) {
    const Plain = named(name);
    out.push({ label: `an empty ${name}`, kind: 'object', value: new Plain() });
    const keyed = new Plain();
    keyed.v = 1;
    out.push({ label: `a ${name} with a key`, kind: 'object', value: keyed });
    out.push({ label: `a function ${name}`, kind: 'object', value: ({ [name]: () => 1 })[name] });
  }
  // onnxruntime-common's Tensor as its bundle has it: a getter `location`,
  // own dims, type, and a `data` getter that throws off the CPU.
  const OrtTensor = named('ze');
  Object.defineProperty(OrtTensor.prototype, 'location', { get() { return this.dataLocation; } });
  Object.defineProperty(OrtTensor.prototype, 'data', {
    get() {
      if (this.dataLocation !== 'cpu') throw new Error('The data is not on CPU. Use `getData()` to download GPU data to CPU');
      return this.cpuData;
    },
  });
  const ort = (location, cpuData) => Object.assign(new OrtTensor(), {
    dataLocation: location, type: 'float32', dims: [1, 1, n], cpuData, gpuBuffer: location === 'gpu-buffer' ? {} : undefined,
  });
  out.push({ label: 'an ort.Tensor on gpu-buffer (class ze)', kind: 'ort-gpu', value: ort('gpu-buffer') });
  // On the CPU, of a class no op takes (a subclass of Uint32Array named ce).
  const U32 = named('ce', Uint32Array);
  out.push({ label: 'an ort.Tensor on cpu of uint32 (class ze)', kind: 'ort-cpu', value: Object.assign(ort('cpu', new U32(n)), { type: 'uint32' }) });
  // tfjs-core's Tensor: dataId, shape, dtype, data() and dataSync().
  const TfTensor = named('Jt');
  TfTensor.prototype.dataSync = function dataSync() { return new Float32Array(n); };
  TfTensor.prototype.data = async function data() { return new Float32Array(n); };
  out.push({ label: 'a TF.js tensor (class Jt)', kind: 'tf', value: Object.assign(new TfTensor(), { dataId: {}, shape: [1, 1, n], dtype: 'float32', id: 3 }) });
  // Typed arrays of minified subclasses, and a Proxy of one.
  const U32b = named('$e', Uint32Array);
  out.push({ label: 'a Uint32Array subclass $e', kind: 'object', value: new U32b(n) });
  const F64 = named('q', Float64Array);
  out.push({ label: 'a Proxy of a Float64Array subclass q', kind: 'object', value: new Proxy(new F64(n), {}) });
  return out;
}

const rep = (v, d) => Array.from({ length: d }, () => v);
const prod = (a) => a.reduce((p, v) => p * v, 1);

/**
 * One valid call of every op of the functional API (1d to 3d), as
 * `{ label, fn, args, tensors }`: `args()` gives fresh arguments (tensors
 * made by `up` from host tensors), `tensors` the names of its positional
 * tensor arguments. `host` is the WebAssembly API (it makes the fixtures).
 */
export function opCalls(host, made) {
  // A fresh copy each time: a stand-in replaces a field of it.
  const up = (t) => made({ data: t.data.slice(), shape: t.shape.slice() });
  const calls = [];
  for (const d of [1, 2, 3]) {
    const inShape = [1, 1, ...rep(4, d)], outShape = [1, 1, ...rep(2, d)];
    const x = { data: Float32Array.from({ length: prod(inShape) }, (_, i) => (i * 7) % 23), shape: inShape };
    const p = host[`maxPool${d}d`](x, { kernelSize: 2 });
    const a = host[`adaptiveMaxPool${d}d`](x, { outputSize: 2 });
    const g = { data: new Float32Array(prod(outShape)).fill(1), shape: outShape };
    calls.push(
      { label: `maxPool${d}d`, fn: `maxPool${d}d`, tensors: ['x'], args: () => [up(x), { kernelSize: 2, stride: 2 }] },
      { label: `maxUnpool${d}d`, fn: `maxUnpool${d}d`, tensors: ['x', 'indices'], args: () => [up(p.output), up(p.indices), { kernelSize: 2, outputSize: rep(4, d) }] },
      { label: `maxPool${d}dBackward`, fn: `maxPool${d}dBackward`, tensors: ['gradOutput', 'indices'], args: () => [up(g), up(p.indices), { inputShape: inShape, kernelSize: 2 }] },
      { label: `maxUnpool${d}dBackward`, fn: `maxUnpool${d}dBackward`, tensors: ['gradOutput', 'indices'], args: () => [up(x), up(p.indices), {}] },
      { label: `adaptiveMaxPool${d}d`, fn: `adaptiveMaxPool${d}d`, tensors: ['x'], args: () => [up(x), { outputSize: 2 }] },
      { label: `adaptiveMaxPool${d}dBackward`, fn: `adaptiveMaxPool${d}dBackward`, tensors: ['gradOutput', 'indices'], args: () => [up(g), up(a.indices), { inputShape: inShape }] },
    );
    if (d > 1) {
      const samples = { data: Float32Array.from({ length: d }, (_, i) => 0.25 + 0.2 * i), shape: [1, 1, d] };
      const f = host[`fractionalMaxPool${d}d`](x, { kernelSize: 2, outputSize: 2, randomSamples: samples });
      calls.push(
        { label: `fractionalMaxPool${d}d`, fn: `fractionalMaxPool${d}d`, tensors: ['x'], args: () => [up(x), { kernelSize: 2, outputSize: 2, randomSamples: up(samples) }] },
        { label: `fractionalMaxPool${d}dBackward`, fn: `fractionalMaxPool${d}dBackward`, tensors: ['gradOutput', 'indices'], args: () => [up(g), up(f.indices), { inputShape: inShape }] },
      );
    }
    if (d === 2) {
      calls.push({ label: 'convertIndices', fn: 'convertIndices', tensors: ['indices'], args: () => [up(p.indices), { from: 'pytorch', to: 'onnx', inputShape: inShape }] });
    }
  }
  return calls;
}
