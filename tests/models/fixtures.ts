// The model fixtures of tests/models/make-fixtures.py: parseFixture() reads
// a <name>.json with its .bin (the format: tests/models/README.md) into
// typed arrays (load-fixtures.ts in Node, fetch-fixtures.ts in browsers);
// compareOutputs(got, want) checks one run's results against PyTorch's as
// the JSON says (indices bit for bit, values within atol, logits within atol
// and every argmax label over axis 1 equal). Shared by the exporter's test
// (export.node.test.ts) and the runner's (models-cases.ts).

export type FixtureDType = 'float32' | 'float64' | 'int64' | 'int32' | 'float16' | 'uint8' | 'int8' | 'int16';
export type FixtureArray = Float32Array | Float64Array | BigInt64Array | Int32Array | Uint16Array | Uint8Array |
  Int8Array | Int16Array;
export type OutputKind = 'logits' | 'values' | 'indices';

export interface FixtureTensor {
  name: string;
  dtype: FixtureDType;
  shape: number[];
  /** Where the raw little-endian bytes are in the .bin. */
  offset: number;
  bytes: number;
  data: FixtureArray;
}

export interface FixtureOutput extends FixtureTensor {
  kind: OutputKind;
  /** Absolute tolerance of 'values' and 'logits' (absent for 'indices'). */
  atol?: number;
}

export interface FixtureRun {
  /** The fixture's name and this run's position, for messages. */
  caseName: string;
  index: number;
  inputs: FixtureTensor[];
  outputs: FixtureOutput[];
}

export interface Fixture {
  name: string;
  description: string;
  opset: number;
  /** The .onnx file name, and its path. */
  model: string;
  modelPath: string;
  runs: FixtureRun[];
  /** A small case the WebGPU legs run. */
  gpu: boolean;
  /** false: ONNX Runtime's CPU EP cannot run the model alone (ortCpuAloneError says why). */
  ortCpuAlone?: boolean;
  ortCpuAloneError?: string;
  /** The model is known wrong (the usual workaround): its labels must differ from PyTorch's. */
  expectWrong?: boolean;
}

const ARRAYS: Record<FixtureDType, { new (b: ArrayBuffer): FixtureArray; BYTES_PER_ELEMENT: number }> = {
  float32: Float32Array, float64: Float64Array, int64: BigInt64Array, int32: Int32Array,
  float16: Uint16Array, uint8: Uint8Array, int8: Int8Array, int16: Int16Array,
};

function tensor<T extends FixtureTensor>(file: string, bin: Uint8Array, t: T): T {
  const Array = ARRAYS[t.dtype];
  if (!Array) throw new Error(`${file}: ${t.name}: unknown dtype '${t.dtype}'`);
  const count = t.shape.reduce((a, b) => a * b, 1);
  if (t.bytes !== count * Array.BYTES_PER_ELEMENT || t.offset + t.bytes > bin.length) {
    throw new Error(`${file}: ${t.name}: ${t.bytes} bytes at ${t.offset} for shape [${t.shape}] (${t.dtype}) ` +
      `in a .bin of ${bin.length}`);
  }
  // A copy: aligned for its element size, and owned by the caller.
  const bytes = bin.buffer.slice(bin.byteOffset + t.offset, bin.byteOffset + t.offset + t.bytes) as ArrayBuffer;
  return { ...t, data: new Array(bytes) };
}

/** One fixture from its JSON (parsed), its .bin's bytes and where its .onnx is (a path or a URL). */
export function parseFixture(file: string, json: Omit<Fixture, 'modelPath'>, bin: Uint8Array, modelPath: string): Fixture {
  const runs = json.runs.map((run, index) => ({
    caseName: json.name,
    index,
    inputs: run.inputs.map((t) => tensor(file, bin, t)),
    outputs: run.outputs.map((t) => tensor(file, bin, t)),
  }));
  return { ...json, modelPath, runs };
}

/** One element of a result, as ORT's tensors hold them (strings are never a runner's). */
type Element = number | bigint | string;

/** What a runner gave for one output (an ort.Tensor fits: data and dims). */
export interface GotTensor {
  data: ArrayLike<Element>;
  dims: readonly number[];
}

export interface Mismatch {
  case: string;
  run: number;
  output: string;
  /** The flat element (or, for a label, the flat pixel over N and the spatial dims); absent for a missing output or a shape. */
  element?: number;
  got: string;
  want: string;
  message: string;
}

function mismatch(run: FixtureRun, output: string, element: number | undefined, got: unknown, want: unknown,
                  what: string, unit = 'element'): Mismatch {
  const at = element === undefined ? '' : ` ${unit} ${element}`;
  const g = String(got);
  const w = String(want);
  return {
    case: run.caseName, run: run.index, output, ...(element === undefined ? {} : { element }), got: g, want: w,
    message: `${run.caseName} run ${run.index}: ${output}${at}: ${what} got ${g}, want ${w}`,
  };
}

/** The argmax over axis 1 of each (n, spatial) pixel; the first maximum wins. */
export function labels(data: ArrayLike<Element>, shape: readonly number[]): Int32Array {
  const [n, c] = [shape[0] ?? 1, shape[1] ?? 1];
  const inner = shape.slice(2).reduce((a, b) => a * b, 1);
  const out = new Int32Array(n * inner);
  for (let b = 0; b < n; b++) {
    for (let p = 0; p < inner; p++) {
      let best = 0;
      for (let k = 1; k < c; k++) {
        if (Number(data[(b * c + k) * inner + p]) > Number(data[(b * c + best) * inner + p])) best = k;
      }
      out[b * inner + p] = best;
    }
  }
  return out;
}

/** Bit for bit, whichever integer type the runner chose (int32 or int64). */
function sameIndex(got: Element | undefined, want: number | bigint): boolean {
  if (typeof got === 'bigint') return got === BigInt(want);
  return typeof got === 'number' && Number.isInteger(got) && BigInt(got) === BigInt(want);
}

function compareOne(run: FixtureRun, want: FixtureOutput, got: GotTensor | undefined): Mismatch[] {
  if (!got) return [mismatch(run, want.name, undefined, 'nothing', `[${want.shape}]`, 'output missing:')];
  if (got.dims.length !== want.shape.length || got.dims.some((d, i) => d !== want.shape[i])) {
    return [mismatch(run, want.name, undefined, `[${got.dims}]`, `[${want.shape}]`, 'shape')];
  }
  const out: Mismatch[] = [];
  if (want.kind === 'indices') {
    for (let i = 0; i < want.data.length; i++) {
      if (!sameIndex(got.data[i], want.data[i]!)) {
        out.push(mismatch(run, want.name, i, got.data[i], want.data[i], 'index'));
      }
    }
    return out;
  }
  const atol = want.atol ?? 0;
  for (let i = 0; i < want.data.length; i++) {
    const g = Number(got.data[i]);
    const w = Number(want.data[i]);
    const same = Number.isNaN(w) ? Number.isNaN(g) : Math.abs(g - w) <= atol;
    if (!same) out.push(mismatch(run, want.name, i, g, w, `value (atol ${atol})`));
  }
  if (want.kind === 'logits') {
    const g = labels(got.data, want.shape);
    const w = labels(want.data, want.shape);
    for (let p = 0; p < w.length; p++) {
      if (g[p] !== w[p]) out.push(mismatch(run, want.name, p, g[p], w[p], 'label', 'pixel'));
    }
  }
  return out;
}

/** Every difference between a runner's results and PyTorch's for one run. */
export function compareOutputs(got: Readonly<Record<string, GotTensor>>, want: FixtureRun): Mismatch[] {
  return want.outputs.flatMap((w) => compareOne(want, w, got[w.name]));
}

/** Per output: the largest absolute difference and, for logits, how many labels differ. */
export function diffStats(got: Readonly<Record<string, GotTensor>>, want: FixtureRun) {
  return want.outputs.map((w) => {
    const g = got[w.name];
    let maxAbsDiff = 0;
    if (g && w.kind !== 'indices') {
      for (let i = 0; i < w.data.length; i++) maxAbsDiff = Math.max(maxAbsDiff, Math.abs(Number(g.data[i]) - Number(w.data[i])));
    }
    let wrongLabels = 0;
    let pixels = 0;
    if (g && w.kind === 'logits') {
      const gl = labels(g.data, w.shape);
      const wl = labels(w.data, w.shape);
      pixels = wl.length;
      for (let p = 0; p < wl.length; p++) wrongLabels += gl[p] !== wl[p] ? 1 : 0;
    }
    return { output: w.name, kind: w.kind, maxAbsDiff, wrongLabels, pixels };
  });
}
