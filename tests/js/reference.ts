// A deliberately naive reference of PyTorch's max pool / unpool rules in plain
// JavaScript, written independently of the package (and of the C++ reference
// in tests/cpp/reference.h): every kernel tap is visited and bounds-checked,
// every tensor is handled as planes of (D, H, W) with missing dims of size 1.
// Results are typed arrays of the values' dtype so they compare bit for bit.

export type Floats = Float32Array | Float64Array;

/** Pool geometry with one entry per spatial dim. */
export interface RefPoolGeom {
  dims: number;
  kernel: number[];
  stride: number[];
  padding: number[];
  dilation: number[];
  ceilMode: boolean;
}

/** Unpool geometry with one entry per spatial dim. */
export interface RefUnpoolGeom {
  dims: number;
  kernel: number[];
  stride: number[];
  padding: number[];
}

const prod = (a: readonly number[]) => a.reduce((p, v) => p * v, 1);

/** The spatial sizes of `shape` as 3 entries (D, H, W), leading 1s added. */
function spatial3(shape: readonly number[], dims: number): number[] {
  const s = shape.slice(shape.length - dims);
  while (s.length < 3) s.unshift(1);
  return s;
}

/** A per-dim parameter as 3 entries, `fill` for the missing leading dims. */
function param3(v: readonly number[], fill: number): number[] {
  const s = v.slice();
  while (s.length < 3) s.unshift(fill);
  return s;
}

/**
 * PyTorch's pooling_output_shape: floor or ceil of (in + 2p - d(k-1) - 1) / s,
 * plus 1; with ceilMode a last window starting in the right padding is dropped.
 */
export function poolOutSize(inp: number, k: number, s: number, p: number, d: number,
                            ceilMode: boolean): number {
  const span = inp + 2 * p - d * (k - 1) - 1;
  let o = (ceilMode ? Math.ceil(span / s) : Math.floor(span / s)) + 1;
  if (ceilMode && (o - 1) * s >= inp + p) o -= 1;
  return o;
}

/**
 * The pooled shape, or null when PyTorch's rules reject the geometry
 * (padding above half the kernel, or an output size below 1).
 */
export function refPoolShape(shape: readonly number[], g: RefPoolGeom): number[] | null {
  const lead = shape.length - g.dims;
  const out = shape.slice(0, lead);
  for (let i = 0; i < g.dims; ++i) {
    if (g.padding[i] > Math.floor(g.kernel[i] / 2)) return null;
    const o = poolOutSize(shape[lead + i], g.kernel[i], g.stride[i], g.padding[i], g.dilation[i], g.ceilMode);
    if (o < 1) return null;
    out.push(o);
  }
  return out;
}

/** The first tap at or after `start` that is >= 0: start moves by whole dilations. */
function firstTap(start: number, d: number): number {
  return start < 0 ? start + Math.ceil(-start / d) * d : start;
}

/**
 * Max pool with argmax indices: the first maximum in scan order wins ties,
 * a NaN wins with the last NaN's index, and a window lying wholly in padding
 * gives -inf and the flat offset of its first clipped position.
 */
export function refPool(x: Floats, shape: readonly number[], g: RefPoolGeom):
    { output: Floats; indices: number[]; shape: number[] } {
  const outShape = refPoolShape(shape, g);
  if (outShape === null) throw new Error('refPool: invalid geometry');
  const inS = spatial3(shape, g.dims), outS = spatial3(outShape, g.dims);
  const k = param3(g.kernel, 1), s = param3(g.stride, 1), p = param3(g.padding, 0);
  const d = param3(g.dilation, 1);
  const planes = prod(shape.slice(0, shape.length - g.dims));
  const inPlane = prod(inS), outPlane = prod(outS);
  const output = new (x.constructor as { new (n: number): Floats })(planes * outPlane);
  const indices = new Array<number>(planes * outPlane);
  for (let pl = 0; pl < planes; ++pl) {
    for (let o0 = 0; o0 < outS[0]; ++o0) {
      for (let o1 = 0; o1 < outS[1]; ++o1) {
        for (let o2 = 0; o2 < outS[2]; ++o2) {
          const oc = [o0, o1, o2];
          const start = oc.map((o, i) => o * s[i] - p[i]);
          const first = start.map((st, i) => firstTap(st, d[i]));
          let best = -Infinity;
          let bestIndex = (first[0] * inS[1] + first[1]) * inS[2] + first[2];
          for (let a = 0; a < k[0]; ++a) {
            for (let b = 0; b < k[1]; ++b) {
              for (let c = 0; c < k[2]; ++c) {
                const pos = [start[0] + a * d[0], start[1] + b * d[1], start[2] + c * d[2]];
                if (pos.some((q, i) => q < 0 || q >= inS[i])) continue;
                const flat = (pos[0] * inS[1] + pos[1]) * inS[2] + pos[2];
                const v = x[pl * inPlane + flat];
                if (v > best || Number.isNaN(v)) {
                  best = v;
                  bestIndex = flat;
                }
              }
            }
          }
          const at = pl * outPlane + (o0 * outS[1] + o1) * outS[2] + o2;
          output[at] = best;
          indices[at] = bestIndex;
        }
      }
    }
  }
  return { output, indices, shape: outShape };
}

/**
 * Gradient of the pool: zeros of the input's shape, then each gradOutput
 * element added at its index, in output order, in the values' dtype (float32
 * sums rounded with Math.fround after every addition). Indices outside the
 * plane (windows wholly in padding) are skipped.
 */
export function refPoolBackward(gradOutput: Floats, indices: readonly number[],
                                inputShape: readonly number[], outputShape: readonly number[],
                                dims: number): Floats {
  const inPlane = prod(spatial3(inputShape, dims)), outPlane = prod(spatial3(outputShape, dims));
  const planes = prod(inputShape.slice(0, inputShape.length - dims));
  const f32 = gradOutput instanceof Float32Array;
  const gi = new (gradOutput.constructor as { new (n: number): Floats })(planes * inPlane);
  for (let pl = 0; pl < planes; ++pl) {
    for (let o = 0; o < outPlane; ++o) {
      const j = indices[pl * outPlane + o];
      if (j < 0 || j >= inPlane) continue;
      const sum = gi[pl * inPlane + j] + gradOutput[pl * outPlane + o];
      gi[pl * inPlane + j] = f32 ? Math.fround(sum) : sum;
    }
  }
  return gi;
}

/** The default unpool size per spatial dim: (in - 1) * s + k - 2p. */
export function refUnpoolDefault(shape: readonly number[], g: RefUnpoolGeom): number[] {
  const lead = shape.length - g.dims;
  return g.kernel.map((k, i) => (shape[lead + i] - 1) * g.stride[i] + k - 2 * g.padding[i]);
}

/** The valid outputSize per spatial dim: default - s < o < default + s, and o >= 1. */
export function refUnpoolRange(shape: readonly number[], g: RefUnpoolGeom):
    { min: number; max: number }[] {
  return refUnpoolDefault(shape, g).map((dflt, i) => ({
    min: Math.max(1, dflt - g.stride[i] + 1), max: dflt + g.stride[i] - 1,
  }));
}

/**
 * Max unpool: zeros of (leading dims, outSpatial), then every input element
 * written at its index in its plane, in input order (the last write wins).
 * Returns null when an index lies outside [0, output plane size).
 */
export function refUnpool(x: Floats, indices: readonly number[], shape: readonly number[],
                          outSpatial: readonly number[], dims: number): Floats | null {
  const inPlane = prod(spatial3(shape, dims)), outPlane = prod(outSpatial);
  const planes = prod(shape.slice(0, shape.length - dims));
  if (indices.some((j) => j < 0 || j >= outPlane)) return null;
  const y = new (x.constructor as { new (n: number): Floats })(planes * outPlane);
  for (let pl = 0; pl < planes; ++pl) {
    for (let i = 0; i < inPlane; ++i) y[pl * outPlane + indices[pl * inPlane + i]] = x[pl * inPlane + i];
  }
  return y;
}

/**
 * Gradient of the unpool w.r.t. its values: a gather, gradInput[i] =
 * gradOutput[plane][indices[i]]. Returns null when an index is out of range.
 */
export function refUnpoolBackward(gradOutput: Floats, gradOutputShape: readonly number[],
                                  indices: readonly number[], indicesShape: readonly number[],
                                  dims: number): Floats | null {
  const outPlane = prod(spatial3(gradOutputShape, dims)), inPlane = prod(spatial3(indicesShape, dims));
  const planes = prod(indicesShape.slice(0, indicesShape.length - dims));
  if (indices.some((j) => j < 0 || j >= outPlane)) return null;
  const gi = new (gradOutput.constructor as { new (n: number): Floats })(planes * inPlane);
  for (let pl = 0; pl < planes; ++pl) {
    for (let i = 0; i < inPlane; ++i) gi[pl * inPlane + i] = gradOutput[pl * outPlane + indices[pl * inPlane + i]];
  }
  return gi;
}

/** '' when `got` and `want` are equal element by element under Object.is, else the first difference. */
export function sameBits(got: ArrayLike<number | bigint>, want: ArrayLike<number | bigint>): string {
  if (got.length !== want.length) return `length ${got.length} != ${want.length}`;
  for (let i = 0; i < got.length; ++i) {
    const g = typeof got[i] === 'bigint' ? Number(got[i]) : got[i];
    const w = typeof want[i] === 'bigint' ? Number(want[i]) : want[i];
    if (!Object.is(g, w)) return `[${i}]: got ${String(g)}, want ${String(w)}`;
  }
  return '';
}
