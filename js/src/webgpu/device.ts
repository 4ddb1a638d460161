// The WebGPU backend of one device: buffers, pipelines, the uniform block,
// and the engine that runs a planned call's kernels. Calls are planned by
// the core in the WebAssembly module (the same plan, shapes, geometry and
// messages as the CPU path); only the kernels run here. Every call encodes
// its work and submits it before it returns.
import type { Call, Input } from '../call.js';
import { ArrayClass, DType, DTYPES, Kind, namesOf, typeNamed, ValueDType } from '../dtypes.js';
import type { Runtime } from '../runtime.js';
import { describe, numel, UnpoolError, UnpoolTypeError } from '../tensor.js';
import { GpuBufferLike, GpuCommandEncoderLike, GpuComputePassLike, GpuComputePipelineLike, GpuDeviceLike,
  GpuBindGroupLayoutLike, USAGE } from './gpu.js';
import { bindBytes, boxesOf, gcd, geometryParams, interiorTaps, lcm, PlanGeometry, prod, Range, rangeOf,
  readPlanGeometry, tapCounts, unitsOf } from './geometry.js';
import { PARAMS_BYTES, PARAMS_WGSL, paramWords, Params } from './params.js';
import { shaders } from './shaders.js';
import { bufferSize, bytesOf, ContentCheck, GpuOwner, GpuTensor } from './tensor.js';

const WG = 64;
const NONE = 0xffffffff;
const COMPUTE = 0x4;  // GPUShaderStage.COMPUTE

type Binding = 'uniform' | 'storage' | 'read-only-storage';

/** Each kernel family: its WGSL files and its bindings after the uniform block. */
const FAMILIES: Readonly<Record<string, { files: readonly string[]; bindings: readonly Binding[] }>> = {
  pool: {
    files: ['common', 'windows', 'pool'],
    bindings: ['read-only-storage', 'storage', 'storage', 'read-only-storage'],
  },
  backward: {
    files: ['common', 'softfloat', 'windows', 'status', 'backward'],
    bindings: ['read-only-storage', 'read-only-storage', 'storage', 'read-only-storage', 'storage'],
  },
  fractional: {
    files: ['common', 'softfloat', 'fractional'],
    bindings: ['read-only-storage', 'storage', 'storage'],
  },
  convert: {
    files: ['common', 'status', 'convert'],
    bindings: ['read-only-storage', 'storage', 'storage'],
  },
  unpool: {
    files: ['common', 'status', 'unpool'],
    bindings: ['read-only-storage', 'read-only-storage', 'storage', 'storage', 'storage', 'read-only-storage'],
  },
};

/** The dtype code the kernels' DTYPE override takes. */
const DTYPE_CODE: Partial<Record<DType, number>> = {
  float32: 0, float64: 1, float16: 2, bfloat16: 3, uint8: 4, int8: 5, int16: 6, int32: 7, int64: 8,
};

const F16 = (globalThis as { Float16Array?: unknown }).Float16Array;

/** The class read() gives a wrapped buffer of `dtype` (ONNX Runtime's rule for float16). */
function wrappedClass(dtype: DType): ArrayClass {
  const classes = DTYPES[dtype].classes;
  if (dtype === 'float16' && F16 === undefined) return classes.find((c) => c.tag === 'Uint16Array')!;
  return classes[0];
}

/** The backend of one GPUDevice. */
export class GpuBackend implements GpuOwner {
  readonly fnPrefix = 'gpu.';
  private readonly pipelines = new Map<string, GpuComputePipelineLike>();
  private readonly layouts = new Map<string, { group: GpuBindGroupLayoutLike; pipeline: unknown }>();
  private lostMessage: string | undefined;
  /** Small buffers bound where a kernel's binding is unused, one per binding slot. */
  private readonly dummies: GpuBufferLike[] = [];
  /** The compute pass a call's dispatches share (endPass() closes it). */
  private open: { enc: GpuCommandEncoderLike; pass: GpuComputePassLike } | undefined;

  /**
   * @param bindingLimit - bytes a kernel binds of one tensor at most, below
   *   the device's maxStorageBufferBindingSize: the tests split small
   *   tensors into chunks with it.
   * @param keep - held, never used (see the field).
   */
  constructor(readonly device: GpuDeviceLike, readonly rt: Runtime,
              private readonly bindingLimit = Infinity,
              /**
               * What initWebGPU() was given or requested on the way to the
               * device (the GPU object, the adapter), held for as long as
               * the backend or one of its tensors lives: Dawn's `webgpu`
               * package aborts the process a few calls after the object
               * its create() returned is garbage-collected.
               */
              readonly keep: readonly unknown[] = []) {
    void device.lost.then((info) => {
      this.lostMessage = `the GPUDevice was lost (${info?.reason ?? 'unknown'}: ${info?.message ?? ''})`;
    });
  }

  alive(fn: string): void {
    if (this.lostMessage !== undefined) throw new UnpoolError(`${fn}: ${this.lostMessage}`, 'device_lost');
  }

  // ---- buffers -------------------------------------------------------------------

  /** A buffer of the library's: STORAGE | COPY_SRC | COPY_DST, its size rounded up to 16. */
  createBuffer(fn: string, bytes: number, label: string): GpuBufferLike {
    const size = bufferSize(bytes);
    if (size > this.device.limits.maxBufferSize) {
      throw new UnpoolError(`${fn}: ${label} needs ${bytes} bytes; this device's buffers hold at ` +
          `most ${this.device.limits.maxBufferSize} (maxBufferSize)`, 'too_large');
    }
    return this.device.createBuffer({
      size, usage: USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST, label: `unpool ${label}`,
    });
  }

  /** A new tensor of the library's. */
  tensor(fn: string, shape: readonly number[], dtype: DType, cls: ArrayClass, label: string): GpuTensor {
    const buffer = this.createBuffer(fn, bytesOf(dtype, numel(shape)), label);
    return new GpuTensor(this, buffer, shape, dtype, cls, true);
  }

  /** `data` written into a new buffer (its bytes padded to a whole word). */
  upload(fn: string, data: ArrayBufferView, shape: readonly number[], dtype: DType,
         cls: ArrayClass): GpuTensor {
    const t = this.tensor(fn, shape, dtype, cls, 'upload');
    const bytes = data.byteLength;
    if (bytes > 0) {
      let src = new Uint8Array(data.buffer, data.byteOffset, bytes);
      if (bytes % 4 !== 0) {
        const padded = new Uint8Array(Math.ceil(bytes / 4) * 4);
        padded.set(src);
        src = padded;
      }
      this.device.queue.writeBuffer(t.raw, 0, src, 0, src.byteLength);
    }
    return t;
  }

  /** A caller's buffer as a tensor, checked (no copy; destroy() leaves it alone). */
  wrap(fn: string, buffer: unknown, shape: readonly number[], dtype: DType): GpuTensor {
    const b = buffer as GpuBufferLike;
    if (buffer === null || typeof buffer !== 'object' || typeof b.size !== 'number' ||
        typeof b.usage !== 'number' || typeof b.destroy !== 'function') {
      throw new UnpoolTypeError(`${fn}: buffer must be a GPUBuffer, got ${describe(buffer)}`);
    }
    if ((b.usage & USAGE.STORAGE) === 0) {
      throw new UnpoolTypeError(`${fn}: buffer has usage ${b.usage}, without STORAGE (0x80): ` +
          'the kernels cannot bind it');
    }
    const bytes = bytesOf(dtype, numel(shape));
    const need = Math.ceil(bytes / 4) * 4;
    if (b.size < need) {
      throw new UnpoolError(`${fn}: buffer has ${b.size} bytes; shape ${describe(shape)} of ` +
          `${dtype} needs ${need}`, 'invalid_shape');
    }
    return new GpuTensor(this, b, shape, dtype, wrappedClass(dtype), false);
  }

  async readBytes(fn: string, buffer: GpuBufferLike, bytes: number): Promise<ArrayBuffer> {
    this.alive(fn);
    const size = Math.ceil(bytes / 4) * 4;
    const staging = this.device.createBuffer({
      size, usage: USAGE.MAP_READ | USAGE.COPY_DST, label: 'unpool read',
    });
    try {
      const enc = this.device.createCommandEncoder({ label: 'unpool read' });
      enc.copyBufferToBuffer(buffer, 0, staging, 0, size);
      this.device.queue.submit([enc.finish()]);
      await staging.mapAsync(1);
      const copy = staging.getMappedRange(0, size).slice(0, bytes);
      staging.unmap();
      return copy;
    } finally {
      staging.destroy();
    }
  }

  failure(fn: string, c: ContentCheck): Promise<UnpoolError | undefined> {
    c.outcome ??= this.readBytes(fn, c.status!, 16).then((raw) => {
      const w = new Uint32Array(raw);
      return w[0] === NONE ? undefined : c.error!(w);
    });
    return c.outcome;
  }

  /**
   * Runs `encode` (which encodes and submits a call's work) in a validation
   * error scope of the device. A buffer the GPU cannot use (destroyed by its
   * owner, or of another device) is no JavaScript error at the call: the
   * device reports it later. The returned check then fails with an error
   * naming the function and the argument whose buffer the device refused
   * (each wrapped argument is probed alone), so read() and check() of the
   * results reject rather than give a silent wrong result.
   */
  refusals(fn: string, named: [string, GpuTensor][], encode: () => void): ContentCheck | undefined {
    const d = this.device;
    if (d.pushErrorScope === undefined || d.popErrorScope === undefined) {
      encode();
      return undefined;
    }
    d.pushErrorScope('validation');
    let popped!: Promise<{ message: string } | null>;
    try {
      encode();
    } finally {
      popped = d.popErrorScope();
    }
    const outcome = popped.then(async (e) => {
      if (e === null) return undefined;
      const culprits: string[] = [];
      for (const [name, t] of named) {
        if (!t.owned && !(await this.usable(t.raw))) culprits.push(name);
      }
      const who = culprits.length > 0
        ? `${culprits.join(' and ')}: the device cannot use ${culprits.length > 1 ? 'their buffers' : 'its buffer'} ` +
          '(destroyed by its owner, or of another device)'
        : 'the device refused the call';
      return new UnpoolError(`${fn}: ${who}: ${e.message}`, 'invalid_argument');
    });
    return { outcome };
  }

  /**
   * Whether the device can run a kernel on `buffer`: a one-invocation probe
   * in an error scope (a buffer of another device fails its bind group, a
   * destroyed one the submit).
   */
  private async usable(buffer: GpuBufferLike): Promise<boolean> {
    const d = this.device;
    d.pushErrorScope!('validation');
    if (this.probe === undefined) {
      const layout = d.createBindGroupLayout({
        label: 'unpool probe',
        entries: [{ binding: 0, visibility: COMPUTE, buffer: { type: 'read-only-storage' } }],
      });
      const module = d.createShaderModule({
        label: 'unpool probe',
        code: '@group(0) @binding(0) var<storage, read> b: array<u32>;\n' +
              '@compute @workgroup_size(1) fn probe() { _ = b[0]; }\n',
      });
      const pipeline = d.createComputePipeline({
        layout: d.createPipelineLayout({ bindGroupLayouts: [layout] }), label: 'unpool probe',
        compute: { module, entryPoint: 'probe' },
      });
      this.probe = { layout, pipeline };
    }
    const group = d.createBindGroup({
      layout: this.probe.layout, label: 'unpool probe',
      entries: [{ binding: 0, resource: { buffer, offset: 0, size: 4 } }],
    });
    const enc = d.createCommandEncoder({ label: 'unpool probe' });
    const pass = enc.beginComputePass();
    pass.setPipeline(this.probe.pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(1);
    pass.end();
    d.queue.submit([enc.finish()]);
    return (await d.popErrorScope!()) === null;
  }

  private probe: { layout: GpuBindGroupLayoutLike; pipeline: GpuComputePipelineLike } | undefined;

  /** The core's error for status `code` (its message in lastError()). */
  private coreError(code: number): UnpoolError {
    const rt = this.rt;
    return new UnpoolError(rt.m.lastError(), rt.statusNames[code] ?? `status_${code}`);
  }

  // ---- pipelines and dispatch ------------------------------------------------------

  private layoutOf(family: string): { group: GpuBindGroupLayoutLike; pipeline: unknown } {
    let l = this.layouts.get(family);
    if (l === undefined) {
      const entries = [{ binding: 0, visibility: COMPUTE, buffer: { type: 'uniform' as Binding } },
        ...FAMILIES[family].bindings.map((type, i) => ({ binding: i + 1, visibility: COMPUTE, buffer: { type } }))];
      const group = this.device.createBindGroupLayout({ label: `unpool ${family}`, entries });
      l = { group, pipeline: this.device.createPipelineLayout({ bindGroupLayouts: [group] }) };
      this.layouts.set(family, l);
    }
    return l;
  }

  private pipeline(family: string, entry: string, constants: Record<string, number>,
                   taps: readonly number[] = [1, 1, 1]): GpuComputePipelineLike {
    const key = `${family}/${entry}/${JSON.stringify(constants)}/${taps.join('x')}`;
    let p = this.pipelines.get(key);
    if (p === undefined) {
      let code = PARAMS_WGSL + FAMILIES[family].files.map((f) => shaders[f]).join('\n');
      if (family === 'pool') code += interiorTaps(taps);
      const module = this.device.createShaderModule({ code, label: `unpool ${family}` });
      p = this.device.createComputePipeline({
        layout: this.layoutOf(family).pipeline, label: `unpool ${key}`,
        compute: { module, entryPoint: entry, constants },
      });
      this.pipelines.set(key, p);
    }
    return p;
  }

  /**
   * Encodes `entry` of `family` over `items` work items (none: nothing), with
   * `params` in a fresh uniform buffer and `buffers` at bindings 1, 2, ...
   * (undefined: a dummy).
   */
  dispatch(enc: GpuCommandEncoderLike, family: string, entry: string,
           constants: Record<string, number>, params: Params, items: number,
           buffers: (GpuBufferLike | Range | undefined)[], temps: GpuBufferLike[],
           indirect?: { buffer: GpuBufferLike; offset: number }, taps?: readonly number[]): void {
    if (items === 0) return;
    if (!Number.isSafeInteger(items) || items < 0) {
      throw new Error(`unpool: internal error: ${family}/${entry} dispatched over ${items} items`);
    }
    const [gx, gy] = this.groupsOf(entry === 'error_value' ? 1 : items);
    const uniform = this.device.createBuffer({
      size: PARAMS_BYTES, usage: USAGE.UNIFORM | USAGE.COPY_DST, label: 'unpool params',
    });
    temps.push(uniform);
    this.device.queue.writeBuffer(uniform, 0, paramWords({ ...params, groups_x: gx }));
    const pipeline = this.pipeline(family, entry, constants, taps);
    const bindLimit = this.device.limits.maxStorageBufferBindingSize;
    const group = this.device.createBindGroup({
      layout: this.layoutOf(family).group,
      entries: [{ binding: 0, resource: { buffer: uniform } },
        ...FAMILIES[family].bindings.map((_, i) => {
          const b = buffers[i] ?? (this.dummies[i] ??= this.device.createBuffer({
            size: 16, usage: USAGE.STORAGE, label: 'unpool unused',
          }));
          const resource = 'buffer' in b ? b : { buffer: b, offset: 0, size: bindBytes(b, bindLimit) };
          return { binding: i + 1, resource };
        })],
    });
    const pass = this.passOf(enc);
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    if (indirect === undefined) pass.dispatchWorkgroups(gx, gy, 1);
    else pass.dispatchWorkgroupsIndirect(indirect.buffer, indirect.offset);
  }

  /** The workgroups (x, y) of a dispatch of `items` work items, folded into y past the x limit. */
  private groupsOf(items: number): [number, number] {
    const groups = Math.ceil(items / WG);
    const gx = Math.min(groups, this.device.limits.maxComputeWorkgroupsPerDimension);
    return [gx, Math.ceil(groups / gx)];
  }

  /**
   * One compute pass for a call's dispatches: each dispatch is its own
   * usage scope, and sees the storage writes of those before it in the pass.
   */
  private passOf(enc: GpuCommandEncoderLike): GpuComputePassLike {
    if (this.open?.enc !== enc) {
      this.endPass();
      this.open = { enc, pass: enc.beginComputePass({ label: 'unpool' }) };
    }
    return this.open.pass;
  }

  /** Ends the open compute pass (before a copy or clear, and before finish()). */
  private endPass(): void {
    this.open?.pass.end();
    this.open = undefined;
  }

  /** A status buffer: [NONE, 0, 0, 0], for one call's content checks. */
  statusBuffer(): GpuBufferLike {
    const b = this.device.createBuffer({
      size: 16, usage: USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST, label: 'unpool status',
    });
    this.device.queue.writeBuffer(b, 0, new Uint32Array([NONE, 0, 0, 0]));
    return b;
  }

  // ---- the engine ------------------------------------------------------------------

  /** The checked Input of a GpuTensor argument. */
  input(fn: string, name: string, t: GpuTensor, kind: Kind): Input {
    t.usable(fn, name);
    if (t.owner !== this) {
      throw new UnpoolTypeError(`${fn}: ${name} is a GpuTensor of another device (another initWebGPU())`);
    }
    // An int32 or int64 tensor holds values or indices: the argument says which.
    const type = typeNamed(t.dtype, kind);
    if (type === undefined) {
      throw new UnpoolTypeError(`${fn}: ${name} must hold ${namesOf(kind)} data, got a GpuTensor of ${t.dtype}`);
    }
    return {
      shape: t.shape as number[], data: undefined, address: 0, dtype: t.dtype, cls: t.cls,
      byteLength: t.byteLength, foreign: t,
    };
  }

  /** An `out` GpuTensor of the result `name`, checked; or a new one. */
  private output(c: Call, k: number, shape: number[], used: Set<GpuBufferLike>): GpuTensor {
    const o = c.outputs[k];
    if (o.out === undefined) return this.tensor(c.fn, shape, o.dtype, o.cls, `${c.fn} ${o.name}`);
    const t = o.out;
    if (!(t instanceof GpuTensor)) {
      throw new UnpoolTypeError(`${c.fn}: ${o.name} must be a GpuTensor of ${o.dtype}, got ${describe(t)}`);
    }
    t.usable(c.fn, o.name);
    if (t.owner !== this) throw new UnpoolTypeError(`${c.fn}: ${o.name} is a GpuTensor of another device`);
    if (t.dtype !== o.dtype) {
      throw new UnpoolTypeError(`${c.fn}: ${o.name} must be a GpuTensor of ${o.dtype} (the result's type), ` +
          `got one of ${t.dtype}`);
    }
    if (t.size !== numel(shape)) {
      throw new UnpoolError(`${c.fn}: ${o.name} has ${t.size} elements; the result has ${numel(shape)}`,
                            'invalid_shape');
    }
    if (used.has(t.raw)) {
      throw new UnpoolTypeError(`${c.fn}: ${o.name} shares its buffer with another tensor of the call`);
    }
    used.add(t.raw);
    return t;
  }

  execute(rt: Runtime, c: Call): GpuTensor[] {
    const { fn } = c;
    this.alive(fn);
    if (c.resident) {
      throw new UnpoolTypeError(`${fn}: resident is an option of the WebAssembly API; GPU results stay on the GPU`);
    }
    const used = new Set<GpuBufferLike>();
    const inputs = c.inputs.map((i, k) => {
      const t = i.foreign;
      if (!(t instanceof GpuTensor)) {
        throw new UnpoolTypeError(`${fn}: every tensor of a GPU call must be a GpuTensor (input ${k + 1} is not)`);
      }
      used.add(t.raw);
      return t;
    });
    const plan = rt.plans[c.op];
    // Value dtypes by their value codes (int32 and int64 are values here), as engine.ts plans.
    const dtypeCode = rt.valueCodes[c.dtype as ValueDType];
    rt.check(rt.m.plan(rt.ops[c.op], plan, rt.block, dtypeCode, rt.codes[c.indexType]));
    const shapeOut = rt.params.readShape('shapeOut');
    rt.check(rt.m.planGeometry(plan, rt.block));
    const g = readPlanGeometry(rt);
    const outputs = c.outputs.map((o, k) => this.output(c, k, o.shape ?? shapeOut, used));
    const units = unitsOf(g);
    // A result's contents depend on the checks of the calls that made its
    // inputs too: an error there reaches read() of everything downstream.
    const checks = [...inputs.flatMap((t) => t.checks)];
    if (units === 0) {
      // An empty batch (the only empty dim the core plans): every tensor of
      // the call is empty, so there is nothing to run, and a dispatch of
      // zero workgroups or a binding of zero bytes would be refused.
      for (const t of outputs) t.checks = checks;
      return outputs;
    }
    // Chunks are planned before anything is encoded: a call too large to
    // split throws at the call.
    this.chunks(fn, units, [...inputs, ...outputs]);
    const named: [string, GpuTensor][] = [
      ...inputs.map((t, k): [string, GpuTensor] => [INPUT_NAMES[c.op][k] ?? `input ${k + 1}`, t]),
      ...outputs.map((t, k): [string, GpuTensor] => [c.outputs[k].name, t]),
    ];
    let check: ContentCheck | undefined;
    const refused = this.refusals(fn, named, () => this.encode(rt, c, g, units, inputs, outputs, plan,
                                                               (k) => { check = k; }));
    if (check !== undefined) checks.push(check);
    if (refused !== undefined) checks.push(refused);
    for (const t of outputs) t.checks = checks;
    return outputs;
  }

  /** Encodes and submits a planned call's kernels; `setCheck` receives its content check. */
  private encode(rt: Runtime, c: Call, g: PlanGeometry, units: number, inputs: GpuTensor[],
                 outputs: GpuTensor[], plan: number, setCheck: (k: ContentCheck) => void): void {
    const { fn } = c;
    const chunks = this.chunks(fn, units, [...inputs, ...outputs]);
    const constants = { DTYPE: DTYPE_CODE[c.dtype] ?? 0, INDEX64: c.indexType === 'int64' ? 1 : 0 };
    const enc = this.device.createCommandEncoder({ label: `unpool ${fn}` });
    const temps: GpuBufferLike[] = [];
    // Work items: values that share a word are one item's (4 uint8s, 2 int16s).
    const bytes = DTYPES[c.dtype].bytes;
    const items = (n: number) => (bytes < 4 ? Math.ceil(n / (4 / bytes)) : n);
    const newCheck = (): GpuBufferLike => {
      const status = this.statusBuffer();
      // The call's block, kept: the message is planned again from it.
      const block = rt.params.snapshot();
      setCheck({
        status,
        error: (w) => {
          rt.params.restore(block);
          rt.check(rt.m.plan(rt.ops[c.op], plan, rt.block, rt.valueCodes[c.dtype as ValueDType],
                             rt.codes[c.indexType]));
          return this.coreError(rt.m.contentError(plan, w[0], w[1], w[2]));
        },
      });
      return status;
    };
    /** A scratch buffer of `bytes` for the largest chunk. */
    const scratch = (bytes: number, label: string) => {
      const b = this.device.createBuffer({ size: bufferSize(bytes), usage: USAGE.STORAGE | USAGE.COPY_DST, label });
      temps.push(b);
      return b;
    };
    const most = Math.max(0, ...chunks.map(([u0, u1]) => u1 - u0));
    // Each chunk: units [u0, u1) of every tensor, bound from their first
    // element; positions in status count from the tensors' start (base).
    const run = (encode: (part: (t: GpuTensor) => Range, n: (t: GpuTensor) => number,
                          params: Params, base: (t: GpuTensor) => number) => void) => {
      for (const [u0, u1] of chunks) {
        const params = { ...geometryParams(g), planes: (u1 - u0) * (g.layout === 1 ? g.channels : 1) };
        encode((t) => rangeOf(t, units, u0, u1), (t) => (t.size / units) * (u1 - u0), params,
               (t) => (t.size / units) * u0);
      }
    };
    switch (c.op) {
      case 'maxPool':
      case 'adaptiveMaxPool': {
        const k = { ...constants, MODE: c.op === 'maxPool' ? 0 : 1 };
        const taps = c.op === 'maxPool' && bytes >= 4 ? tapCounts(g) : undefined;
        run((part, n, params) => {
          const buffers = [part(inputs[0]), part(outputs[0]), part(outputs[1]), undefined];
          if (taps === undefined) {
            const count = n(outputs[0]);
            this.dispatch(enc, 'pool', 'pool', k, { ...params, count }, items(count), buffers, temps);
            return;
          }
          // The interior box on its own kernel, each edge box on the general one.
          const [inner, ...edges] = boxesOf(g);
          for (const [box, entry, flags] of [[inner, 'pool_interior', 0] as const,
            ...edges.map((b) => [b, 'pool', 1] as const)]) {
            const count = params.planes! * box[3] * box[4] * box[5];
            const at = {
              ...params, count, flags,
              box_d0: box[0], box_h0: box[1], box_w0: box[2], box_d: box[3], box_h: box[4], box_w: box[5],
            };
            this.dispatch(enc, 'pool', entry, k, at, count, buffers, temps, undefined,
                          entry === 'pool_interior' ? taps : undefined);
          }
        });
        break;
      }
      case 'fractionalMaxPool': {
        const status = newCheck();
        const starts = scratch(most * (g.out[0] + g.out[1] + g.out[2]) * 4, 'unpool fractional starts');
        run((part, n, params, base) => {
          const planes = n(inputs[1]) / c.dims;
          const fb = [part(inputs[1]), starts, status];
          this.dispatch(enc, 'fractional', 'intervals', constants,
                        { ...params, count: planes * 3, flags: c.dims, base: base(inputs[1]) }, planes * 3, fb, temps);
          this.dispatch(enc, 'fractional', 'error_value', constants,
                        { ...params, count: n(inputs[1]), base: base(inputs[1]) }, 1, fb, temps);
          const count = n(outputs[0]);
          this.dispatch(enc, 'pool', 'pool', { ...constants, MODE: 2 }, { ...params, count }, items(count),
                        [part(inputs[0]), part(outputs[0]), part(outputs[1]), starts], temps);
        });
        break;
      }
      case 'maxPoolBackward':
      case 'adaptiveMaxPoolBackward':
      case 'fractionalMaxPoolBackward': {
        // Fractional windows come from samples the backward pass is not
        // given: it scans (MODE 0 without a pool geometry).
        const status = newCheck();
        const k = { ...constants, MODE: c.op === 'adaptiveMaxPoolBackward' ? 1 : 0 };
        const flags = c.op === 'maxPoolBackward' && g.poolGeometry ? 1 : 0;
        run((part, n, params, base) => {
          const buffers = [part(inputs[0]), part(inputs[1]), part(outputs[0]), undefined, status];
          const at = { ...params, flags, base: base(inputs[1]) };
          this.dispatch(enc, 'backward', 'check', k, { ...at, count: n(inputs[1]) }, n(inputs[1]), buffers, temps);
          const count = n(outputs[0]);
          this.dispatch(enc, 'backward', 'gather', k, { ...at, count }, items(count), buffers, temps);
          this.dispatch(enc, 'backward', 'error_value', k, { ...at, count: n(inputs[1]) }, 1, buffers, temps);
        });
        break;
      }
      case 'maxUnpool': {
        const status = newCheck();
        // Disjoint windows (stride >= kernel: then indices that each lie in
        // their own window name distinct targets), whole-word values, one
        // chunk, an output that clearBuffer may write: the plain scatter
        // first (unpool.wgsl).
        const plain = bytes >= 4 && chunks.length === 1 &&
            (outputs[0].raw.usage & USAGE.COPY_DST) !== 0 &&
            g.kernel.every((k, i) => k >= 1 && g.stride[i] >= k);
        const win = scratch((outputs[0].size / Math.max(units, 1)) * most * 4, 'unpool winners');
        run((part, n, params, base) => {
          if (chunks.length > 1) {
            this.endPass();
            enc.clearBuffer(win);
          }
          const buffers = [part(inputs[0]), part(inputs[1]), part(outputs[0]), win, status];
          const at = { ...params, base: base(inputs[1]) };
          const count = n(outputs[0]);
          let fallback: { buffer: GpuBufferLike; offset: number }[] = [];
          if (plain && n(inputs[0]) > 0 && count > 0) {
            // scatter_plain first; the scatter + gather run only if it armed them (unpool.wgsl).
            const [sx, sy] = this.groupsOf(n(inputs[0]));
            const [gx, gy] = this.groupsOf(items(count));
            const args = this.device.createBuffer({
              size: 32, usage: USAGE.STORAGE | USAGE.INDIRECT | USAGE.COPY_DST, label: 'unpool fallback',
            });
            temps.push(args);
            this.device.queue.writeBuffer(args, 0, new Uint32Array([0, sy, 1, 0, gy, 1, sx, gx]));
            this.endPass();
            enc.clearBuffer(outputs[0].raw, 0, outputs[0].byteLength);
            this.dispatch(enc, 'unpool', 'scatter_plain', constants, { ...at, count: n(inputs[0]) }, n(inputs[0]),
                          [part(inputs[0]), part(inputs[1]), part(outputs[0]), args, status], temps);
            fallback = [{ buffer: args, offset: 0 }, { buffer: args, offset: 12 }];
          }
          this.dispatch(enc, 'unpool', 'scatter', constants, { ...at, count: n(inputs[0]) }, n(inputs[0]),
                        buffers, temps, fallback[0]);
          // The gather reads the winners through its read-only binding (6).
          this.dispatch(enc, 'unpool', 'gather', constants, { ...at, count }, items(count),
                        [part(inputs[0]), part(inputs[1]), part(outputs[0]), undefined, status, win], temps,
                        fallback[1]);
          this.dispatch(enc, 'unpool', 'error_value', constants, { ...at, count: n(inputs[1]) }, 1, buffers, temps);
        });
        break;
      }
      case 'maxUnpoolBackward': {
        const status = newCheck();
        run((part, n, params, base) => {
          const buffers = [part(inputs[0]), part(inputs[1]), part(outputs[0]), undefined, status];
          const at = { ...params, base: base(inputs[1]) };
          const count = n(outputs[0]);
          this.dispatch(enc, 'unpool', 'unpool_backward', constants, { ...at, count }, items(count), buffers, temps);
          this.dispatch(enc, 'unpool', 'error_value', constants, { ...at, count: n(inputs[1]) }, 1, buffers, temps);
        });
        break;
      }
      default:
        throw new UnpoolError(`${fn}: not available on the WebGPU backend yet`, 'unsupported');
    }
    this.endPass();
    this.device.queue.submit([enc.finish()]);
    for (const t of temps) t.destroy();
  }

  /**
   * The call's work as chunks of whole units (planes, or images when
   * channels-last) such that each tensor's part fits one binding
   * (maxStorageBufferBindingSize) and starts on a binding offset the
   * device accepts (minStorageBufferOffsetAlignment): [[u0, u1), ...].
   */
  private chunks(fn: string, units: number, tensors: GpuTensor[]): [number, number][] {
    const limits = this.device.limits;
    const limit = Math.min(limits.maxStorageBufferBindingSize, this.bindingLimit);
    if (units === 0 || tensors.every((t) => t.byteLength <= limit)) return [[0, units]];
    const align = limits.minStorageBufferOffsetAlignment;
    let step = 1;
    let most = units;
    for (const t of tensors) {
      const unitBytes = t.byteLength / units;
      step = lcm(step, align / gcd(unitBytes, align));
      most = Math.min(most, Math.floor(limit / unitBytes));
    }
    const per = Math.floor(most / step) * step;
    if (per === 0) {
      throw new UnpoolError(`${fn}: a tensor of ${Math.max(...tensors.map((t) => t.byteLength))} bytes ` +
          `is larger than this device's maxStorageBufferBindingSize (${limit}), and its planes ` +
          `cannot be bound ${step} at a time within it`, 'too_large');
    }
    const out: [number, number][] = [];
    for (let u = 0; u < units; u += per) out.push([u, Math.min(units, u + per)]);
    return out;
  }

  /**
   * convertIndices of `indices` from format code `from` to `to` (`toType`'s
   * index type); the block holds the call (interop.ts's convertCall()).
   */
  convert(fn: string, indices: GpuTensor, from: number, to: number, toType: DType): GpuTensor {
    const rt = this.rt;
    rt.check(rt.m.planConvert(rt.block, from, rt.codes[indices.dtype], to, rt.codes[toType]));
    const g = readPlanGeometry(rt);
    const inputElements = g.planes * prod(g.in);
    if (inputElements >= 2 ** 32) {
      throw new UnpoolError(`${fn}: an input of ${inputElements} elements; the WebGPU backend ` +
          'converts indices of inputs under 2^32 elements', 'too_large');
    }
    const result = this.tensor(fn, indices.shape, toType, DTYPES[toType].classes[0], `${fn} result`);
    const units = unitsOf(g);
    if (units === 0) {
      // An empty batch: nothing to convert (see execute()).
      result.checks = indices.checks;
      return result;
    }
    const chunks = this.chunks(fn, units, [indices, result]);
    const status = this.statusBuffer();
    const block = rt.params.snapshot();
    const check: ContentCheck = {
      status,
      error: (w) => {
        rt.params.restore(block);
        const perPlane = w[3] === 0 ? 1 : 0;
        return this.coreError(rt.m.convertError(rt.block, from, w[0], w[1], w[2], perPlane));
      },
    };
    const refused = this.refusals(fn, [['indices', indices]], () => {
    const enc = this.device.createCommandEncoder({ label: `unpool ${fn}` });
    const temps: GpuBufferLike[] = [];
    const constants = {
      INDEX64: indices.dtype === 'int64' ? 1 : 0, OUT64: toType === 'int64' ? 1 : 0, FROM: from, TO: to,
    };
    for (const [u0, u1] of chunks) {
      const buffers = [rangeOf(indices, units, u0, u1), rangeOf(result, units, u0, u1), status];
      const n = (indices.size / units) * (u1 - u0);
      const params = {
        ...geometryParams(g), planes: (u1 - u0) * (g.layout === 1 ? g.channels : 1), count: n,
        base: (indices.size / units) * u0,
      };
      this.dispatch(enc, 'convert', 'convert', constants, params, n, buffers, temps);
      this.dispatch(enc, 'convert', 'error_value', constants, params, 1, buffers, temps);
    }
    this.endPass();
    this.device.queue.submit([enc.finish()]);
    for (const t of temps) t.destroy();
    });
    result.checks = [...indices.checks, check, ...(refused === undefined ? [] : [refused])];
    return result;
  }
}

/** The tensor arguments of each op, as messages name them. */
const INPUT_NAMES: Readonly<Record<string, readonly string[]>> = {
  maxPool: ['x'], adaptiveMaxPool: ['x'], fractionalMaxPool: ['x', 'randomSamples'],
  maxUnpool: ['x', 'indices'], maxUnpoolBackward: ['gradOutput', 'indices'],
  maxPoolBackward: ['gradOutput', 'indices'], adaptiveMaxPoolBackward: ['gradOutput', 'indices'],
  fractionalMaxPoolBackward: ['gradOutput', 'indices'],
};
