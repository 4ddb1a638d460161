// What a call's indices fit when the core refused one of them ('invalid_index':
// an index outside its plane): every index an index of another runtime's
// format (ONNX's flat MaxPool Indices, TensorFlow's argmax) into the same
// planes, or, for an unpool with a kernel, a PyTorch index into the planes
// of another outputSize the kernel allows. The error's message then says so
// and names the call that fixes it, on both backends (the WebAssembly one,
// and unpool/webgpu's content errors, from the indices read back).
//
// Written here, not in the core: the module's size budget (140,000 bytes,
// scripts/test-pack.sh) had 137 bytes left, and the same hints in C++ took
// 4.2 KB of it. They run only on the failure path, on the core's geometry.
import type { PlanGeometry } from './block.js';
import type { Runtime } from './runtime.js';
import { UnpoolError } from './tensor.js';

type Format = 'pytorch' | 'onnx' | 'onnx-column-major' | 'tensorflow' | 'tensorflow-with-batch';

/** The formats tried at the call's own plane size (PyTorch's failed there), most common first. */
const OTHER_FORMATS: readonly Format[] = ['onnx', 'tensorflow', 'tensorflow-with-batch', 'onnx-column-major'];

const FORMAT_TEXT: Record<Format, string> = {
  'pytorch': "PyTorch's indices",
  'onnx': "ONNX's flat indices (MaxPool's Indices: counted over the whole tensor, not per (n, c) plane)",
  'onnx-column-major': "ONNX's column-major flat indices (MaxPool with storage_order=1)",
  'tensorflow': "TensorFlow's indices (tf.nn.max_pool_with_argmax: offset * C + c)",
  'tensorflow-with-batch': "TensorFlow's indices with the batch (include_batch_in_index=True)",
};

/** Sizes of another outputSize tried at most, and index reads in all. */
const MAX_SIZES = 64;
const MAX_READS = 2 ** 28;

/** The ops whose index errors get hints, and where their indices point: an unpool's into its output plane. */
const TARGET: Readonly<Record<string, 'out' | 'in'>> = {
  maxUnpool: 'out', maxUnpoolBackward: 'out',
  maxPoolBackward: 'in', adaptiveMaxPoolBackward: 'in', fractionalMaxPoolBackward: 'in',
};

/** Whether the ops of `op` get index hints (an unpool, unpool backward or pool backward). */
export const hintsIndices = (op: string): boolean => TARGET[op] !== undefined;

/**
 * The row-major offset inside its own plane (n, c) of index `v` of `format`
 * for planes of `size` (D, H, W) and C = `channels`, or -1 when it points
 * elsewhere (convert_indices.cc's Codec, as the core decodes).
 */
function decode(format: Format, v: number, n: number, c: number, size: number[], channels: number): number {
  const plane = size[0] * size[1] * size[2];
  let off = -1;
  switch (format) {
    case 'pytorch':
      off = v;
      break;
    case 'onnx':
    case 'onnx-column-major':
      off = v - (n * channels + c) * plane;
      if (format === 'onnx-column-major' && off >= 0 && off < plane) {
        // d + D * (h + H * w) column-major -> (d * H + h) * W + w
        const d = off % size[0], h = Math.floor(off / size[0]) % size[1], w = Math.floor(off / (size[0] * size[1]));
        off = (d * size[1] + h) * size[2] + w;
      }
      break;
    case 'tensorflow':
      off = v >= 0 && v % channels === c ? Math.floor(v / channels) : -1;
      break;
    case 'tensorflow-with-batch': {
      const o = Math.floor(v / channels);
      off = v >= 0 && v % channels === c && Math.floor(o / plane) === n ? o % plane : -1;
      break;
    }
  }
  return off >= 0 && off < plane ? off : -1;
}

/** What a hint reads of a call: its op, its geometry, its indices. */
export interface HintedCall {
  /** The function messages name ('maxUnpool2d'). */
  fn: string;
  /** Its op ('maxUnpool', ...). */
  op: string;
  dims: number;
  g: PlanGeometry;
  /** The plan's output shape (its N and C, and where its spatial dims are). */
  output: readonly number[];
  /** Every index of the call, in the indices tensor's order. */
  indices: Int32Array | BigInt64Array;
}

/**
 * Whether every index decodes with `format` into its own plane of `size`
 * and, with `windows`, lies in its own window there: position q's window
 * along each dim is [q * s - p, q * s - p + k - 1] (an unpool's kernel).
 */
function fits(h: HintedCall, format: Format, size: number[], pos: number[], windows: boolean): boolean {
  const { g, indices } = h;
  const C = g.channels;
  const per = pos[0] * pos[1] * pos[2];
  const int64 = indices instanceof BigInt64Array;
  for (let e = 0; e < indices.length; ++e) {
    const raw = indices[e];
    // Past 2^53 no plane holds it (and Number() would round it).
    if (int64 && ((raw as bigint) > 2n ** 53n || (raw as bigint) < 0n)) return false;
    const v = Number(raw);
    const p = g.layout === 0 ? Math.floor(e / per) : Math.floor(e / (C * per)) * C + (e % C);
    const q = g.layout === 0 ? e % per : Math.floor(e / C) % per;
    const off = decode(format, v, Math.floor(p / C), p % C, size, C);
    if (off < 0) return false;
    if (!windows) continue;
    const at = [Math.floor(off / (size[1] * size[2])), Math.floor(off / size[2]) % size[1], off % size[2]];
    const qi = [Math.floor(q / (pos[1] * pos[2])), Math.floor(q / pos[2]) % pos[1], q % pos[2]];
    for (let i = 0; i < 3; ++i) {
      const lo = qi[i] * g.stride[i] - g.pad[i];
      if (at[i] < lo || at[i] > lo + g.kernel[i] - 1) return false;
    }
  }
  return true;
}

const spatial = (size: readonly number[], dims: number) => `[${size.slice(3 - dims).join(', ')}]`;

/** `output` with its spatial dims (layout 0: the last ones, 1: those before C) set to `size`. */
function withSpatial(output: readonly number[], dims: number, layout: number, size: number[]): number[] {
  const s = output.slice();
  const at = layout === 1 ? s.length - dims - 1 : s.length - dims;
  for (let i = 0; i < dims; ++i) s[at + i] = size[3 - dims + i];
  return s;
}

function convertCall(h: HintedCall, format: Format, size: number[]): string {
  const shape = withSpatial(h.output, h.dims, h.g.layout, size);
  const layout = h.g.layout === 1 ? `, layout: '${['NLC', 'NHWC', 'NDHWC'][h.dims - 1]}'` : '';
  return `convertIndices(indices, { from: '${format}', to: 'pytorch', inputShape: [${shape.join(', ')}]${layout} })`;
}

/**
 * The text to append to the index error of call `h` ('; every index is
 * consistent with ONNX's flat indices ...: convertIndices(...)'), or ''
 * when nothing fits.
 */
export function indexHint(h: HintedCall): string {
  const { g, dims } = h;
  const side = TARGET[h.op];
  if (side === undefined || g.planes === 0) return '';
  const target = side === 'out' ? g.out : g.in;
  const pos = side === 'out' ? g.in : g.out;
  for (const f of OTHER_FORMATS) {
    if (fits(h, f, target, pos, false)) {
      return `; every index is consistent with ${FORMAT_TEXT[f]}: convert them first: ${convertCall(h, f, target)}`;
    }
  }
  // An unpool with a kernel: the other sizes of its outputSize range, each index in its window.
  if (h.op !== 'maxUnpool' || !g.poolGeometry) return '';
  const lo: number[] = [], hi: number[] = [];
  let n = 1;
  for (let i = 0; i < 3; ++i) {
    const dflt = (g.in[i] - 1) * g.stride[i] + g.kernel[i] - 2 * g.pad[i];
    lo.push(i < 3 - dims ? 1 : Math.max(1, dflt - g.stride[i] + 1));
    hi.push(i < 3 - dims ? 1 : dflt + g.stride[i] - 1);
    n *= hi[i] - lo[i] + 1;
  }
  if (n > MAX_SIZES || h.indices.length * n * 5 > MAX_READS) return '';
  const range = lo.slice(3 - dims).map((l, i) => `${l}..${hi[3 - dims + i]}`).join(', ');
  const fn = `${h.fn}OutputRange`;
  // Largest first: an input of odd size pools as the even one below it, and
  // its indices fit both, but only the larger holds the input's last row
  // (65x65 pooled k2 s2 is 32x32, whose default unpool is 64x64).
  for (let k = n - 1; k >= 0; --k) {
    const size = [0, 0, 0];
    let r = k;
    for (let i = 2; i >= 0; --i) {
      const span = hi[i] - lo[i] + 1;
      size[i] = lo[i] + (r % span);
      r = Math.floor(r / span);
    }
    if (size.every((v, i) => v === target[i])) continue;
    const s = spatial(size, dims);
    if (fits(h, 'pytorch', size, pos, true)) {
      return `; every index lies in its own window with outputSize: ${s} (${fn} allows ${range}): pass it`;
    }
    for (const f of OTHER_FORMATS) {
      if (fits(h, f, size, pos, true)) {
        return `; every index is consistent with ${FORMAT_TEXT[f]} into planes of outputSize: ${s}: convert them ` +
            `first (${convertCall(h, f, size)}) and pass outputSize: ${s}`;
      }
    }
  }
  // No size puts each index in its window: these are no pool's indices of
  // this geometry, and a size that merely holds them would hide that.
  return '';
}

/**
 * `error` with the hint of its call's indices appended when it is an index
 * error of an op that gets hints ('invalid_index'), else `error` itself.
 * The call is planned in `plan` (its block as the call wrote it);
 * `indices` are all its indices.
 */
export function withIndexHint(rt: Runtime, plan: number, fn: string, op: string, dims: number,
                              indices: Int32Array | BigInt64Array, error: unknown): unknown {
  if (!(error instanceof UnpoolError) || error.code !== 'invalid_index' || !hintsIndices(op)) return error;
  if (rt.m.planGeometry(plan, rt.block) !== 0) {
    rt.m.lastError();  // a plan that cannot say its geometry: no hint
    return error;
  }
  const hint = indexHint({ fn, op, dims, g: rt.params.planGeometry(), output: rt.params.readShape('shapeOut'), indices });
  if (hint === '') return error;
  const hinted = new UnpoolError(error.message + hint, error.code);
  hinted.stack = error.stack;
  return hinted;
}
