// The 16-bit cell (Node.js, Deno, Bun), run from the folder where the packed
// tarball is installed: imports `unpool` by name and runs the float16 and
// bfloat16 cases of the public v2 vectors (argv[2]) that succeed, through
// every op they name: bits in a Uint16Array with their dtype (every
// runtime), and float16 values in a Float16Array where the runtime has one
// (Node.js 24+, Deno, Bun; not Node.js 20 or 22), whose results must be
// Float16Arrays of exactly the expected bits (any NaN equals any NaN).
// Prints a summary: the number of cases per container, or "absent".
import process from 'node:process';
import { readFileSync } from 'node:fs';
import * as api from 'unpool';

const F16 = globalThis.Float16Array;
const isHalf = (t) => t && (t.dtype === 'float16' || t.dtype === 'bfloat16');
const size = (p) => (p === undefined || p === null ? undefined : p);

function tensor(t, container) {
  const bits = Uint16Array.from(t.bits);
  return container === 'Float16Array' ? { data: new F16(bits.buffer), shape: t.shape }
    : { data: bits, shape: t.shape, dtype: t.dtype };
}

function same(what, got, want, Class) {
  if (got.data.constructor !== Class) throw new Error(`${what}: ${got.data.constructor.name}, want ${Class.name}`);
  if (got.dtype !== want.dtype) throw new Error(`${what}: dtype ${got.dtype}, want ${want.dtype}`);
  if (JSON.stringify(got.shape) !== JSON.stringify(want.shape)) throw new Error(`${what}: shape ${got.shape}`);
  const bits = new Uint16Array(got.data.buffer, got.data.byteOffset, got.data.length);
  const nan = (b) => (b & 0x7fff) > (want.dtype === 'float16' ? 0x7c00 : 0x7f80);
  want.bits.forEach((w, i) => {
    if (bits[i] !== w && !(nan(bits[i]) && nan(w))) throw new Error(`${what}[${i}]: bits ${bits[i]}, want ${w}`);
  });
}

function runCase(c, container) {
  const m = /^(adaptive_)?max_(un)?pool([123])d(_backward)?$/.exec(c.op);
  const [adaptive, unpool, dims, backward] = [m[1] !== undefined, m[2] !== undefined, m[3], m[4] !== undefined];
  const Class = container === 'Float16Array' ? F16 : Uint16Array;
  const p = c.params;
  const x = tensor(c.inputs.x, container);
  const g = c.inputs.grad_output && tensor(c.inputs.grad_output, container);
  if (adaptive) {
    const r = api[`adaptiveMaxPool${dims}d`](x, { outputSize: p.output_size, indexType: 'int64' });
    same(`${c.id} output`, r.output, c.expected.output, Class);
    if (backward) {
      same(`${c.id} grad_input`, api[`adaptiveMaxPool${dims}dBackward`](g, r.indices, { inputShape: x.shape }),
        c.expected.grad_input, Class);
    }
    return;
  }
  if (!unpool) {
    const geometry = { kernelSize: size(p.kernel_size), stride: size(p.stride), padding: size(p.padding),
      dilation: size(p.dilation), ceilMode: p.ceil_mode === true };
    const r = api[`maxPool${dims}d`](x, { ...geometry, indexType: 'int64' });
    same(`${c.id} output`, r.output, c.expected.output, Class);
    if (r.indices.data.some((v, i) => Number(v) !== c.expected.indices.data[i])) throw new Error(`${c.id} indices`);
    if (backward) {
      same(`${c.id} grad_input`, api[`maxPool${dims}dBackward`](g, r.indices, { ...geometry, inputShape: x.shape }),
        c.expected.grad_input, Class);
    }
    return;
  }
  const idx = { data: BigInt64Array.from(c.inputs.indices.data, BigInt), shape: c.inputs.indices.shape };
  const options = p.kernel_size === null ? { outputSize: p.output_size }
    : { kernelSize: size(p.kernel_size), stride: size(p.stride), padding: size(p.padding), outputSize: size(p.output_size) };
  same(`${c.id} output`, api[`maxUnpool${dims}d`](x, idx, options), c.expected.output, Class);
  if (backward) same(`${c.id} grad_input`, api[`maxUnpool${dims}dBackward`](g, idx), c.expected.grad_input, Class);
}

await api.init();
const cases = JSON.parse(readFileSync(process.argv[2], 'utf8')).cases
  .filter((c) => isHalf(c.inputs.x) && !c.expected.error && !/fractional/.test(c.op) && c.expected.output &&
    c.error_kind === undefined);
const summary = { Uint16Array: 0, Float16Array: F16 === undefined ? 'absent' : 0 };
for (const c of cases) {
  runCase(c, 'Uint16Array');
  summary.Uint16Array += 1;
  if (F16 !== undefined && c.inputs.x.dtype === 'float16') {
    runCase(c, 'Float16Array');
    summary.Float16Array += 1;
  }
}
if (summary.Uint16Array < 30) throw new Error(`only ${summary.Uint16Array} cases`);
process.stdout.write(`${JSON.stringify(summary)}\n`);
