// Test helpers for layouts and index formats: transposes between
// channels-first and channels-last, a seeded generator, and the index
// formats written from their specifications (independently of the core).
import type { FloatArray } from '../../dist/index.js';
import { rng } from './rng.js';

export { rng };

type Arr = FloatArray | Int32Array | BigInt64Array;

/**
 * (N, C, spatial...) -> (N, spatial..., C), or unbatched (C, spatial...) ->
 * (spatial..., C) when `dims` + 1 = rank.
 */
export function toLast<T extends Arr>(data: T, shape: readonly number[], dims: number):
    { data: T; shape: number[] } {
  const batched = shape.length === dims + 2;
  const n = batched ? shape[0] : 1;
  const c = shape[batched ? 1 : 0];
  const sp = shape.slice(shape.length - dims);
  const plane = sp.reduce((a, b) => a * b, 1);
  const out = new (data.constructor as { new (n: number): T })(data.length);
  for (let i = 0; i < n; ++i) {
    for (let j = 0; j < c; ++j) {
      for (let k = 0; k < plane; ++k) out[(i * plane + k) * c + j] = data[(i * c + j) * plane + k];
    }
  }
  return { data: out, shape: batched ? [n, ...sp, c] : [...sp, c] };
}

/** The shape `shape` (channels-first) has in channels-last order. */
export function lastShape(shape: readonly number[], dims: number): number[] {
  const batched = shape.length === dims + 2;
  const sp = shape.slice(shape.length - dims);
  return batched ? [shape[0], ...sp, shape[1]] : [...sp, shape[0]];
}

export const FORMATS = ['pytorch', 'onnx', 'onnx-column-major', 'tensorflow',
  'tensorflow-with-batch'] as const;
export type Format = typeof FORMATS[number];

/**
 * The index of the element at row-major spatial `offset` of plane (n, c) of
 * an (N, C, spatial) input of spatial sizes `sp`, as `format` counts it,
 * written from each format's definition.
 */
export function encodeSpec(format: Format, offset: number, n: number, c: number,
                           C: number, sp: readonly number[]): number {
  const plane = sp.reduce((a, b) => a * b, 1);
  switch (format) {
    case 'pytorch': return offset;
    case 'onnx': return (n * C + c) * plane + offset;
    case 'onnx-column-major': {
      // storage_order=1: the plane stored column-major, the first spatial
      // dim varying fastest: offset = i0 + S0 * (i1 + S1 * i2).
      const idx = unravel(offset, sp);
      let col = 0;
      for (let k = sp.length - 1; k >= 0; --k) col = col * sp[k] + idx[k];
      return (n * C + c) * plane + col;
    }
    case 'tensorflow': return offset * C + c;
    case 'tensorflow-with-batch': return (n * plane + offset) * C + c;
  }
}

export function unravel(offset: number, sp: readonly number[]): number[] {
  const idx = new Array<number>(sp.length);
  for (let k = sp.length - 1; k >= 0; --k) {
    idx[k] = offset % sp[k];
    offset = Math.floor(offset / sp[k]);
  }
  return idx;
}

/**
 * The flat array that an index of plane (n, c) in `format` addresses, built
 * from the channels-first input `x` of shape (N, C, ...sp) the way that
 * runtime lays it out: PyTorch: the (n, c) plane; ONNX: the whole NC...
 * tensor (its planes column-major for storage_order=1); TensorFlow: image n
 * in NHWC order, or the whole NHWC batch with include_batch_in_index.
 */
export function runtimeView(format: Format, x: ArrayLike<number>, N: number, C: number,
                            sp: readonly number[], n: number, c: number): number[] {
  const plane = sp.reduce((a, b) => a * b, 1);
  const at = (i: number, j: number, off: number) => x[(i * C + j) * plane + off];
  const out: number[] = [];
  const nhwc = (i: number) => {
    for (let off = 0; off < plane; ++off) for (let j = 0; j < C; ++j) out.push(at(i, j, off));
  };
  switch (format) {
    case 'pytorch':
      for (let off = 0; off < plane; ++off) out.push(at(n, c, off));
      break;
    case 'onnx':
      out.push(...Array.from(x));
      break;
    case 'onnx-column-major':
      for (let i = 0; i < N; ++i) {
        for (let j = 0; j < C; ++j) {
          const colPlane = new Array<number>(plane);
          for (let off = 0; off < plane; ++off) {
            colPlane[encodeSpec('onnx-column-major', off, 0, 0, 1, sp)] = at(i, j, off);
          }
          out.push(...colPlane);
        }
      }
      break;
    case 'tensorflow':
      nhwc(n);
      break;
    case 'tensorflow-with-batch':
      for (let i = 0; i < N; ++i) nhwc(i);
      break;
  }
  return out;
}

export function sameBits(got: ArrayLike<number | bigint>, want: ArrayLike<number | bigint>): string {
  if (got.length !== want.length) return `length ${got.length} != ${want.length}`;
  for (let i = 0; i < got.length; ++i) {
    const g = typeof got[i] === 'bigint' ? Number(got[i]) : got[i];
    const w = typeof want[i] === 'bigint' ? Number(want[i]) : want[i];
    if (!Object.is(g, w)) return `[${i}]: got ${String(g)}, want ${String(w)}`;
  }
  return '';
}
