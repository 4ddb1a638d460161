// Reads the conformance vectors (tests/vectors/*.json, the files the native
// suite reads) and states what unpool must do with each case, by the same
// rules as tests/cpp/golden_test.cc.
// Loaded through Vite's ?raw so the same code runs in Node and in a browser,
// and JSON.parse keeps -0.0 (a JSON module import might not).
const files = import.meta.glob('../vectors/*.json', {
  query: '?raw', import: 'default', eager: true,
}) as Record<string, string>;

export type Json = number | string | null | boolean | Json[] | { [k: string]: Json };

export interface GoldenTensor {
  shape: number[];
  dtype: string;
  data: Array<number | string>;
  /** float16 / bfloat16 only: the values as their 16-bit patterns. */
  bits?: number[];
}

export interface GoldenCase {
  id: string;
  category: string;
  op: string;
  tags: string[];
  params: Record<string, Json>;
  inputs: Record<string, GoldenTensor>;
  expected: Record<string, GoldenTensor> & { error?: { type: string; message: string } };
  error_kind?: string;
}

export function loadCases(): GoldenCase[] {
  const cases: GoldenCase[] = [];
  for (const [name, text] of Object.entries(files)) {
    const doc = JSON.parse(text) as { format?: string; cases?: GoldenCase[] };
    if (!doc.format?.startsWith('maxpool-unpool-golden/')) continue;
    if (!Array.isArray(doc.cases)) throw new Error(`${name}: no cases`);
    cases.push(...doc.cases);
  }
  return cases;
}

export interface OpInfo {
  dims: 1 | 2 | 3;
  /** max_pool, max_unpool, adaptive_max_pool or fractional_max_pool. */
  kind: 'pool' | 'unpool' | 'adaptive' | 'fractional';
  unpool: boolean;
  backward: boolean;
  /** The public function's name without dims: 'maxPool', 'adaptiveMaxPool', ... */
  fn: string;
}

const FN = {
  pool: 'maxPool', unpool: 'maxUnpool', adaptive: 'adaptiveMaxPool', fractional: 'fractionalMaxPool',
} as const;

export function parseOp(op: string): OpInfo {
  const m = /^(adaptive_|fractional_)?max_(un)?pool([123])d(_backward)?$/.exec(op);
  if (!m || (m[1] !== undefined && m[2] !== undefined)) throw new Error(`unknown op ${op}`);
  const kind = m[1] === 'adaptive_' ? 'adaptive' : m[1] === 'fractional_' ? 'fractional'
    : m[2] !== undefined ? 'unpool' : 'pool';
  return {
    dims: Number(m[3]) as 1 | 2 | 3, kind, unpool: kind === 'unpool', backward: m[4] !== undefined,
    fn: FN[kind],
  };
}

const decode = (v: number | string): number =>
  v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : (v as number);

/** The integer value dtypes (v3). */
export const INT_DTYPES = ['uint8', 'int8', 'int16', 'int32', 'int64'] as const;
export const isInt = (t?: GoldenTensor) => (INT_DTYPES as readonly string[]).includes(t?.dtype ?? '');

/**
 * Values as their typed array (int64: BigInt, exactly, from numbers or
 * decimal strings); the types JS cannot pool with become their own JS
 * array (uint16: a Uint16Array without a float dtype, uint32, uint64).
 */
export function toTyped(t: GoldenTensor): ArrayBufferView & ArrayLike<number | bigint> {
  const int = (v: number | string) => Number(v);
  const big = (v: number | string) => BigInt(v);
  switch (t.dtype) {
    case 'float32': return Float32Array.from(t.data, decode);
    case 'float64': return Float64Array.from(t.data, decode);
    case 'uint8': return Uint8Array.from(t.data, int);
    case 'int8': return Int8Array.from(t.data, int);
    case 'int16': return Int16Array.from(t.data, int);
    case 'int32': return Int32Array.from(t.data, int);
    case 'int64': return BigInt64Array.from(t.data, big);
    case 'uint16': return Uint16Array.from(t.data, int);
    case 'uint32': return Uint32Array.from(t.data, int);
    case 'uint64': return BigUint64Array.from(t.data, big);
    case 'bool': return Uint8Array.from(t.data, (v) => Number(v));
    default: throw new Error(`unknown dtype ${t.dtype}`);
  }
}

/** Whether a tensor holds 16-bit floats. */
export const isHalf = (t?: GoldenTensor) => t?.dtype === 'float16' || t?.dtype === 'bfloat16';

/** The global Float16Array where the engine has it. */
export const Float16 = (globalThis as {
  Float16Array?: new (buffer: ArrayBufferLike) => ArrayLike<number> & ArrayBufferView;
}).Float16Array;

/**
 * How a case's 16-bit values are handed to the API: as bits in a
 * Uint16Array with the tensor's dtype, or (float16, where the engine has
 * Float16Array) as a Float16Array, whose dtype is implied.
 */
export type Container = 'Uint16Array' | 'Float16Array' | 'Uint8ClampedArray';

/**
 * The containers a case runs with: none for float32/float64 values; uint8
 * also as a Uint8ClampedArray (ImageData's class).
 */
export function containersOf(c: GoldenCase): (Container | undefined)[] {
  const x = c.inputs.x;
  if (x?.dtype === 'uint8') return [undefined, 'Uint8ClampedArray'];
  if (!isHalf(x)) return [undefined];
  return x.dtype === 'float16' && Float16 !== undefined ? ['Uint16Array', 'Float16Array'] : ['Uint16Array'];
}

/** A values tensor as the API takes it: float16/bfloat16 in `container`. */
export function toValues(t: GoldenTensor, container?: Container):
    { data: ArrayLike<number>; shape: number[]; dtype?: string } {
  if (container === 'Uint8ClampedArray' && t.dtype === 'uint8') {
    return { data: Uint8ClampedArray.from(t.data, (v) => Number(v)), shape: t.shape };
  }
  if (!isHalf(t)) return { data: toTyped(t) as ArrayLike<number>, shape: t.shape };
  const bits = Uint16Array.from(t.bits!);
  if (container === 'Float16Array' && t.dtype === 'float16') {
    return { data: new Float16!(bits.buffer), shape: t.shape };
  }
  return { data: bits, shape: t.shape, dtype: t.dtype };
}

/** The 16-bit patterns of a Uint16Array or Float16Array (the same memory, not converted). */
export function bitsOf(a: ArrayBufferView): Uint16Array {
  return new Uint16Array(a.buffer, a.byteOffset, a.byteLength / 2);
}

/** Indices of a case as the index type under test. */
export function toIndices(t: GoldenTensor, type: 'int32' | 'int64'): Int32Array | BigInt64Array {
  return type === 'int64' ? BigInt64Array.from(t.data, (v) => BigInt(v as number))
                          : Int32Array.from(t.data, (v) => v as number);
}

/** What unpool (not PyTorch) does with a case. */
export type Expect =
  | { kind: 'match' }
  | { kind: 'error'; type: 'RangeError' | 'TypeError' }
  | { kind: 'succeed' }   // a documented divergence that succeeds
  | { kind: 'either' }    // an empty-output unpool: match it, or a RangeError
  | { kind: 'skip'; why: string };

const values = (p: Json | undefined): number[] =>
  p === undefined || p === null ? [] : Array.isArray(p) ? (p as number[]) : [p as number];

export function expectation(c: GoldenCase): Expect {
  const op = parseOp(c.op);
  const x = c.inputs.x;
  if (op.kind === 'fractional' && isHalf(x)) {
    // Fractional pooling takes float32 and float64 only (issue 17).
    return { kind: 'error', type: 'TypeError' };
  }
  if (x?.dtype === 'bool' || c.inputs.grad_output?.dtype === 'bool') {
    return { kind: 'skip', why: 'bool: JavaScript has no bool typed array (torch_specific)' };
  }
  // v3: fractional pooling of integers, integer gradients of the passes
  // that add, and the types nothing pools (uint16, uint32, uint64).
  if (['integer_fractional', 'integer_gradient', 'unsupported_dtype'].includes(c.error_kind ?? '')) {
    return { kind: 'error', type: 'TypeError' };
  }
  const isValue = (t?: GoldenTensor) => !t || t.dtype === 'float32' || t.dtype === 'float64' ||
      isHalf(t) || isInt(t);
  if (!isValue(x) || !isValue(c.inputs.grad_output)) {
    return { kind: 'error', type: 'TypeError' };
  }
  const idx = c.inputs.indices;
  if (idx && idx.dtype !== 'int64') {
    if (idx.dtype === 'int32') {
      return { kind: 'skip', why: 'int32 indices are valid in unpool (an error in PyTorch only)' };
    }
    return { kind: 'error', type: 'TypeError' };
  }
  if (op.unpool) {
    // Divergence: unpool rejects kernel/stride <= 0 and negative padding.
    if (values(c.params.kernel_size).some((v) => v <= 0) ||
        values(c.params.stride).some((v) => v <= 0) ||
        values(c.params.padding).some((v) => v < 0)) {
      return { kind: 'error', type: 'RangeError' };
    }
    // Divergence: unbatched input accepts outputSize with dims + 1 entries;
    // its spatial entries must still lie in the unpool's range.
    const os = c.params.output_size;
    if (c.error_kind === 'output_size_length' && Array.isArray(os) &&
        os.length === op.dims + 1 && x.shape.length === op.dims + 1) {
      const at = (p: Json | undefined, i: number, fallback: number) =>
        (p === undefined || p === null ? fallback : Array.isArray(p) ? p[i] as number : p as number);
      for (let i = 0; i < op.dims; ++i) {
        const k = at(c.params.kernel_size, i, 1), st = at(c.params.stride, i, k);
        const dflt = (x.shape[i + 1] - 1) * st + k - 2 * at(c.params.padding, i, 0);
        const o = os[i + 1] as number;
        if (o < Math.max(1, dflt - st + 1) || o > dflt + st - 1) return { kind: 'error', type: 'RangeError' };
      }
      return { kind: 'succeed' };
    }
  }
  if (c.category === 'quirk') {
    // Divergences: an adaptive outputSize entry of 0 (PyTorch returns an
    // empty tensor) and a fractional kernel of 0 are errors.
    if ((op.kind === 'adaptive' && values(c.params.output_size).includes(0)) ||
        (op.kind === 'fractional' && values(c.params.kernel_size).includes(0))) {
      return { kind: 'error', type: 'RangeError' };
    }
  }
  if (!c.expected.error && c.tags.includes('empty_output')) return { kind: 'either' };
  return c.expected.error ? { kind: 'error', type: 'RangeError' } : { kind: 'match' };
}

/** A size param as the JS API takes it (null: not given). */
export function size(p: Json | undefined): number | number[] | undefined {
  if (p === undefined || p === null) return undefined;
  return Array.isArray(p) ? (p as number[]) : (p as number);
}

/**
 * First element that differs under Object.is (NaN equals NaN, -0 is not +0),
 * or ''. 16-bit values compare their bits (any NaN equals any NaN).
 */
export function diffValues(got: ArrayLike<number>, want: GoldenTensor): string {
  if (got.length !== want.data.length) return `length ${got.length} != ${want.data.length}`;
  if (isInt(want)) {
    // Exactly, int64 as BigInt (never through a double).
    const g = got as ArrayLike<number | bigint>;
    for (let i = 0; i < g.length; ++i) {
      const w = want.dtype === 'int64' ? BigInt(want.data[i]) : Number(want.data[i]);
      if (g[i] !== w) return `[${i}]: got ${g[i]}, want ${want.data[i]}`;
    }
    return '';
  }
  if (isHalf(want)) {
    const bits = bitsOf(got as unknown as ArrayBufferView);
    const nan = (b: number) => (b & 0x7fff) > (want.dtype === 'float16' ? 0x7c00 : 0x7f80);
    for (let i = 0; i < bits.length; ++i) {
      const [g, w] = [bits[i], want.bits![i]];
      if (g !== w && !(nan(g) && nan(w))) return `[${i}]: got bits ${g}, want ${w} (${want.data[i]})`;
    }
    return '';
  }
  for (let i = 0; i < got.length; ++i) {
    const w = decode(want.data[i]);
    const g = got[i];
    if (!Object.is(g, w)) return `[${i}]: got ${Object.is(g, -0) ? '-0' : g}, want ${Object.is(w, -0) ? '-0' : w}`;
  }
  return '';
}

/** First index that differs by value, or ''. */
export function diffIndices(got: Int32Array | BigInt64Array, want: GoldenTensor): string {
  if (got.length !== want.data.length) return `length ${got.length} != ${want.data.length}`;
  for (let i = 0; i < got.length; ++i) {
    if (Number(got[i]) !== want.data[i]) return `[${i}]: got ${got[i]}, want ${want.data[i]}`;
  }
  return '';
}
