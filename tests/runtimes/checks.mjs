// What every runtime cell checks, through the public API only, given the
// imported package (`unpool` or `unpool/inline`) and the conformance file's
// text. Runtime-neutral: no Node, Deno or Bun API here, so the same code also
// runs in Chromium pages and workers. Returns a summary to compare across
// cells; throws on the first failure.

// The README's Node.js quick start, with the values its comments print.
function quickStart({ maxPool2d, maxUnpool2d }) {
  const x = { data: Float32Array.from({ length: 16 }, (_, i) => i + 1), shape: [1, 1, 4, 4] };
  const { output, indices } = maxPool2d(x, { kernelSize: 2, stride: 2 });
  const y = maxUnpool2d(output, indices, { kernelSize: 2, stride: 2 });
  const got = [String(output.data), String(indices.data), String(y.shape), y.data.join(' ')];
  const want = ['6,8,14,16', '5,7,13,15', '1,1,4,4', '0 0 0 0 0 6 0 8 0 0 0 0 0 14 0 16'];
  if (output.data.constructor !== Float32Array || indices.data.constructor !== Int32Array) {
    throw new Error(`quick start: ${output.data.constructor.name} / ${indices.data.constructor.name}`);
  }
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(`quick start: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
  return got;
}

const decode = (v) => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);
const typed = (t) => (t.dtype === 'float64' ? Float64Array : Float32Array).from(t.data, decode);
const size = (p) => (p === undefined || p === null ? undefined : p);
const list = (p) => (p === undefined || p === null ? [] : Array.isArray(p) ? p : [p]);

// The subset: float inputs, int64 indices (as PyTorch gives), and no case
// where unpool documents a divergence from PyTorch (tests/js/golden.ts has
// the full rules; the js and browser stages run every case).
function inSubset(c) {
  const floats = Object.values(c.inputs).filter((t) => t !== c.inputs.indices)
    .every((t) => t.dtype === 'float32' || t.dtype === 'float64');
  if (!floats || (c.inputs.indices && c.inputs.indices.dtype !== 'int64')) return false;
  const p = c.params;
  if (/unpool/.test(c.op) && (list(p.kernel_size).some((v) => v <= 0) ||
      list(p.stride).some((v) => v <= 0) || list(p.padding).some((v) => v < 0))) return false;
  return c.error_kind !== 'output_size_length';
}

function same(what, got, want) {
  if (JSON.stringify(got.shape) !== JSON.stringify(want.shape)) {
    throw new Error(`${what}: shape ${got.shape} != ${want.shape}`);
  }
  for (let i = 0; i < want.data.length; ++i) {
    const g = typeof got.data[i] === 'bigint' ? Number(got.data[i]) : got.data[i];
    if (!Object.is(g, decode(want.data[i]))) throw new Error(`${what}[${i}]: ${g} != ${want.data[i]}`);
  }
}

function runCase(api, c) {
  const m = /^max_(un)?pool([123])d(_backward)?$/.exec(c.op);
  const [dims, unpool, backward] = [m[2], m[1] !== undefined, m[3] !== undefined];
  const p = c.params;
  const x = { data: typed(c.inputs.x), shape: c.inputs.x.shape };
  const g = c.inputs.grad_output && { data: typed(c.inputs.grad_output), shape: c.inputs.grad_output.shape };
  if (!unpool) {
    const geometry = { kernelSize: size(p.kernel_size), stride: size(p.stride), padding: size(p.padding),
      dilation: size(p.dilation), ceilMode: p.ceil_mode === true };
    const r = api[`maxPool${dims}d`](x, { ...geometry, indexType: 'int64' });
    same('output', r.output, c.expected.output);
    same('indices', r.indices, c.expected.indices);
    if (backward) {
      same('grad_input', api[`maxPool${dims}dBackward`](g, r.indices, { ...geometry, inputShape: x.shape }),
           c.expected.grad_input);
    }
    return;
  }
  const idx = { data: BigInt64Array.from(c.inputs.indices.data, BigInt), shape: c.inputs.indices.shape };
  const out = api[`maxUnpool${dims}d`](x, idx, { kernelSize: size(p.kernel_size), stride: size(p.stride),
    padding: size(p.padding), outputSize: size(p.output_size) });
  same('output', out, c.expected.output);
  if (backward) same('grad_input', api[`maxUnpool${dims}dBackward`](g, idx), c.expected.grad_input);
}

function conformance(api, vectorsText) {
  const cases = JSON.parse(vectorsText).cases.filter(inSubset);
  let values = 0;
  let errors = 0;
  for (const c of cases) {
    let thrown;
    try {
      runCase(api, c);
    } catch (e) {
      thrown = e;
    }
    if (c.expected.error) {
      const prefix = /unpool/.test(c.op) ? 'maxUnpool' : 'maxPool';
      if (!(thrown instanceof RangeError) || !thrown.message.startsWith(prefix)) {
        throw new Error(`${c.id} ${c.op}: want a RangeError from ${prefix}, got ${thrown}`);
      }
      ++errors;
    } else {
      if (thrown) throw new Error(`${c.id} ${c.op}: ${thrown.message}`);
      ++values;
    }
  }
  if (values < 30 || errors < 5) throw new Error(`conformance: only ${values} value and ${errors} error cases`);
  return { values, errors };
}

// Hostile init options from JavaScript: a TypeError naming init and the
// option, before anything loads (and the next init() still works).
async function badInit(api) {
  const bad = [['wasmBinary', { wasmBinary: 'AGFzbQ' }], ['locateFile', { locateFile: '/unpool.wasm' }],
    ['simd', { simd: 'yes' }]];
  for (const [name, options] of bad) {
    let thrown;
    try {
      await api.init(options);
    } catch (error) {
      thrown = error;
    }
    if (!(thrown instanceof TypeError) || !thrown.message.startsWith(`init: ${name}`)) {
      throw new Error(`init(${JSON.stringify(options)}): want a TypeError naming ${name}, got ${thrown}`);
    }
  }
}

/** Everything a cell checks; `simd` is what backendInfo() must say. */
export async function runChecks(api, vectorsText, { simd = true, initOptions } = {}) {
  await badInit(api);
  await api.init(initOptions);
  const info = api.backendInfo();
  if (info.simd !== simd) throw new Error(`backendInfo().simd is ${info.simd}, want ${simd}`);
  return { simd: info.simd, quickStart: quickStart(api), conformance: conformance(api, vectorsText) };
}
