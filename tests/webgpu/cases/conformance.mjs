// The conformance vectors (tests/vectors/golden_public*.json) through
// unpool/webgpu, against the WebAssembly API on the same inputs: every call
// of a case runs on both, and their results must agree bit for bit (any
// NaN equals any NaN; zero signs count), their errors by class, code and
// message. The WebAssembly API meets every vector bit for bit in the other
// suites, so agreeing with it is meeting the vectors; the expected values
// are compared here too, for the results the GPU gives.
//
// A TypeError about a host array's class (values in an Int32Array, say) has
// no GPU twin: the GPU's tensors are typed by their dtype. Such cases must
// throw a TypeError on both sides.
import * as unpool from '../../../dist/index.js';
import { initWebGPU } from '../../../dist/webgpu/index.js';

const OP = /^(adaptive_|fractional_)?max_(un)?pool([123])d(_backward)?$/;
const decode = (v) => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);
const size = (p) => (p === undefined || p === null ? undefined : p);
const F16 = globalThis.Float16Array;

function values(t, container) {
  if (t.dtype === 'float16' || t.dtype === 'bfloat16') {
    const bits = Uint16Array.from(t.bits);
    if (container === 'Float16Array' && t.dtype === 'float16') return { data: new F16(bits.buffer), shape: t.shape };
    return { data: bits, shape: t.shape, dtype: t.dtype };
  }
  const ints = {
    uint8: Uint8Array, int8: Int8Array, int16: Int16Array, int32: Int32Array, uint16: Uint16Array,
    uint32: Uint32Array,
  };
  const data = t.dtype === 'float32' ? Float32Array.from(t.data, decode)
    : t.dtype === 'float64' ? Float64Array.from(t.data, decode)
    : t.dtype === 'int64' ? BigInt64Array.from(t.data, (v) => BigInt(v))
    : t.dtype === 'uint64' ? BigUint64Array.from(t.data, (v) => BigInt(v))
    : t.dtype in ints ? ints[t.dtype].from(t.data, Number)
    : Uint8Array.from(t.data, Number);
  // uint8 also as ImageData's class: the result must keep it.
  if (container === 'Uint8ClampedArray' && t.dtype === 'uint8') {
    return { data: new Uint8ClampedArray(data.buffer), shape: t.shape };
  }
  return { data, shape: t.shape };
}

const indicesOf = (t, type) => ({
  data: type === 'int64' ? BigInt64Array.from(t.data, (v) => BigInt(v)) : Int32Array.from(t.data, (v) => Number(v)),
  shape: t.shape,
});

/**
 * The calls of a case through `api` (the WebAssembly API, or a GPU backend
 * with `put` uploading host tensors), each result or error observed in turn
 * by `see` (which reads GPU results back).
 */
async function play(c, indexType, container, api, put, see) {
  const m = OP.exec(c.op);
  const dims = Number(m[3]);
  const backward = m[4] !== undefined;
  const p = c.params;
  const x = () => put(values(c.inputs.x, container));
  const grad = () => put(values(c.inputs.grad_output, container));
  if (m[1] === 'adaptive_' || m[1] === 'fractional_') {
    const fn = `${m[1] === 'adaptive_' ? 'adaptiveMaxPool' : 'fractionalMaxPool'}${dims}d`;
    const options = m[1] === 'adaptive_' ? { outputSize: p.output_size, indexType } : {
      kernelSize: size(p.kernel_size), outputSize: size(p.output_size), outputRatio: size(p.output_ratio),
      indexType, randomSamples: put(values(c.inputs.random_samples)),
    };
    const r = await see('pool', () => api[fn](x(), options));
    if (backward) {
      await see('backward', () => api[`${fn}Backward`](grad(), r.raw.indices, { inputShape: c.inputs.x.shape }));
    }
    return;
  }
  if (m[2] === undefined) {
    const geometry = {
      kernelSize: size(p.kernel_size), stride: size(p.stride), padding: size(p.padding),
      dilation: size(p.dilation), ceilMode: p.ceil_mode === true,
    };
    const r = await see('pool', () => api[`maxPool${dims}d`](x(), { ...geometry, indexType }));
    if (backward) {
      await see('backward', () => api[`maxPool${dims}dBackward`](grad(), r.raw.indices,
                                                                   { ...geometry, inputShape: c.inputs.x.shape }));
    }
    return;
  }
  const indices = put(indicesOf(c.inputs.indices, indexType));
  await see('unpool', () => api[`maxUnpool${dims}d`](x(), indices, {
    kernelSize: size(p.kernel_size), stride: size(p.stride), padding: size(p.padding),
    outputSize: p.output_size === null ? undefined : p.output_size,
  }));
  if (backward) await see('backward', () => api[`maxUnpool${dims}dBackward`](grad(), indices));
}

/** The bits of a result's data (16-bit values as their bits, NaN as one pattern). */
function canonical(r) {
  const d = r.data;
  if (d instanceof BigInt64Array || d instanceof Int32Array || d instanceof Int8Array || d instanceof Int16Array ||
      d instanceof Uint8Array || d instanceof Uint8ClampedArray) {
    return Array.from(d, String);
  }
  if (d instanceof Float32Array || d instanceof Float64Array || (F16 && d instanceof F16)) {
    return Array.from(d, (v) => (Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : String(v)));
  }
  const nan = r.dtype === 'bfloat16' ? 0x7f80 : 0x7c00;
  return Array.from(d, (b) => ((b & 0x7fff) > nan ? 'NaN' : String(b)));
}

function describeResult(r) {
  if (r.error) return `${r.error.name}(${r.error.code ?? ''}): ${r.error.message}`;
  return JSON.stringify(r.parts.map((q) => ({ shape: q.shape, dtype: q.dtype, cls: q.cls })));
}

function same(a, b) {
  if (a.error || b.error) {
    if (!a.error || !b.error) return false;
    // A host array's TypeError has no GPU twin (a class no GpuTensor holds
    // stays a host array, and the GPU op names it as not a GpuTensor);
    // everything else words the same.
    if (a.error.type && b.error.type && /must be a GpuTensor/.test(a.error.message)) return true;
    // Where the WebAssembly API describes a host array ('gradOutput.data is an
    // Int8Array(6) of int8 values'), the GPU names the tensor as it names a
    // WasmTensor ('gradOutput is a GpuTensor of int8 values'); the rest is
    // the same, word for word.
    const asTensor = (m) => m.replace(/\b(\w+)\.data is an? \w+\(\d+\) of (\w+) values/g, '$1 is a GpuTensor of $2 values');
    if (a.error.type && b.error.type) return a.error.code === b.error.code && a.error.message === asTensor(b.error.message);
    // A tensor gpu.upload() refuses is refused by the same check (its name differs).
    if (a.error.message.startsWith('gpu.upload: ')) return a.error.name === b.error.name && a.error.code === b.error.code;
    return a.error.name === b.error.name && a.error.code === b.error.code && a.error.message === b.error.message;
  }
  if (a.parts.length !== b.parts.length) return false;
  return a.parts.every((q, i) => {
    const w = b.parts[i];
    return q.dtype === w.dtype && q.cls === w.cls && JSON.stringify(q.shape) === JSON.stringify(w.shape) &&
      q.bits.length === w.bits.length && q.bits.every((v, k) => v === w.bits[k]);
  });
}

const errorOf = (e) => ({ name: e?.name, type: e instanceof TypeError, code: e?.code, message: String(e?.message ?? e) });

async function observeAll(c, indexType, container, api, put, read) {
  const seen = [];
  const STOP = Symbol('stop');
  const see = async (step, call) => {
    let raw;
    try {
      raw = call();
      const parts = [];
      for (const t of raw.output !== undefined && raw.indices !== undefined ? [raw.output, raw.indices] : [raw]) {
        const h = await read(t);
        parts.push({ shape: h.shape, dtype: h.dtype, cls: h.data.constructor.name, bits: canonical(h) });
      }
      seen.push({ step, parts });
      return { raw };
    } catch (e) {
      seen.push({ step, error: errorOf(e) });
      throw STOP;
    }
  };
  try {
    await play(c, indexType, container, api, put, see);
  } catch (e) {
    if (e !== STOP) throw e;
  }
  return seen;
}

async function runVectors(ctx, file) {
  const doc = await ctx.vectors(file);
  const device = await ctx.requestDevice();
  const gpu = await initWebGPU({ device });
  await unpool.init();
  const failures = [];
  let runs = 0;
  for (const c of doc.cases) {
    const dt = c.inputs.x.dtype;
    const half = dt === 'float16' || dt === 'bfloat16';
    const containers = half ? (dt === 'float16' && F16 ? ['Uint16Array', 'Float16Array'] : ['Uint16Array'])
      : dt === 'uint8' ? [undefined, 'Uint8ClampedArray'] : [undefined];
    for (const indexType of ['int64', 'int32']) {
      for (const container of containers) {
        const want = await observeAll(c, indexType, container, unpool, (t) => t, async (t) => t);
        const got = await observeAll(c, indexType, container, gpu, (t) => {
          // Host arrays no GPU tensor holds stay host arrays: the op's TypeError names them.
          // A refused class (bool as Uint8Array, uint16/32/64) is refused by
          // the upload itself: the error is compared as the op's.
          try {
            return gpu.upload(t);
          } catch (e) {
            if (e instanceof TypeError) return t;
            throw e;
          }
        }, (t) => t.read());
        runs += 1;
        const label = `${c.id} ${c.op} (${indexType}${container ? `, ${container}` : ''})`;
        if (got.length !== want.length) {
          failures.push(`${label}: ${got.length} steps on the GPU, ${want.length} on the CPU: ` +
              `${got.map(describeResult).join('; ')} | ${want.map(describeResult).join('; ')}`);
          continue;
        }
        for (let i = 0; i < got.length; ++i) {
          if (!same(got[i], want[i])) {
            failures.push(`${label} ${want[i].step}: GPU ${describeResult(got[i])} ` +
                `${got[i].parts ? JSON.stringify(got[i].parts.map((q) => q.bits.slice(0, 12))) : ''} | CPU ` +
                `${describeResult(want[i])} ${want[i].parts ? JSON.stringify(want[i].parts.map((q) => q.bits.slice(0, 12))) : ''}`);
            break;
          }
        }
      }
    }
  }
  ctx.log(`${file}: ${doc.cases.length} cases, ${runs} runs, ${failures.length} differ`);
  if (failures.length > 0) throw new Error(`${failures.length} of ${runs} runs differ:\n${failures.slice(0, 15).join('\n')}`);
}

export const cases = [
  { name: 'golden_public (v1) on the GPU = the WebAssembly API', run: (ctx) => runVectors(ctx, 'golden_public') },
  { name: 'golden_public_v2 on the GPU = the WebAssembly API', run: (ctx) => runVectors(ctx, 'golden_public_v2') },
  { name: 'golden_public_v3 (integer values) on the GPU = the WebAssembly API', run: (ctx) => runVectors(ctx, 'golden_public_v3') },
];
