// The WebGPU backend of one device. Calls are planned by the core in the
// WebAssembly module (the same plan, shapes, geometry and messages as the
// CPU path); here a planned call's tensors are checked, its results made,
// and its kernels encoded (encode.ts) and submitted before it returns. The
// rest is split by job: buffers.ts (buffers, the uniform pool), errors.ts
// (what went wrong on the device), pipelines.ts, kernels.ts (the table).
import type { Call, Input } from '../call.js';
import { DType, DTYPES, Kind, namesOf, typeNamed, ValueDType } from '../dtypes.js';
import type { Runtime } from '../runtime.js';
import { describe, numel, UnpoolError, UnpoolTypeError } from '../tensor.js';
import { GpuMemory } from './buffers.js';
import { CallEncoder, ENCODERS, OpCall, unsupported } from './encode.js';
import { DeviceErrors } from './errors.js';
import { gcd, geometryParams, lcm, PlanGeometry, prod, rangeOf, readPlanGeometry, unitsOf } from './geometry.js';
import { GpuBufferLike, GpuDeviceLike, USAGE } from './gpu.js';
import { DTYPE_CODES } from './kernels.js';
import { Pipelines } from './pipelines.js';
import { ContentCheck, GpuOwner, GpuTensor } from './tensor.js';

/** The backend of one GPUDevice. */
export class GpuBackend extends GpuMemory implements GpuOwner {
  private readonly pipelines: Pipelines;
  private readonly errors: DeviceErrors;
  private lostMessage: string | undefined;
  /** Small buffers bound where a kernel's binding is unused, one per binding slot. */
  private readonly dummies: GpuBufferLike[] = [];

  /**
   * @param bindingLimit - bytes a kernel binds of one tensor at most, below
   *   the device's maxStorageBufferBindingSize: the tests split small
   *   tensors into chunks with it.
   * @param keep - held, never used (see the field).
   */
  constructor(device: GpuDeviceLike, readonly rt: Runtime,
              private readonly bindingLimit = Infinity,
              /**
               * What initWebGPU() was given or requested on the way to the
               * device (the GPU object, the adapter), held for as long as
               * the backend or one of its tensors lives: Dawn's `webgpu`
               * package aborts the process a few calls after the object
               * its create() returned is garbage-collected.
               */
              readonly keep: readonly unknown[] = []) {
    super(device);
    this.pipelines = new Pipelines(device);
    this.errors = new DeviceErrors(device, (fn, b, bytes) => this.readEach(fn, b, bytes));
    void device.lost.then((info) => {
      this.lostMessage = `the GPUDevice was lost (${info?.reason ?? 'unknown'}: ${info?.message ?? ''})`;
    });
  }

  protected get owner(): GpuOwner {
    return this;
  }

  alive(fn: string): void {
    if (this.lostMessage !== undefined) throw new UnpoolError(`${fn}: ${this.lostMessage}`, 'device_lost');
  }

  failure(fn: string, c: ContentCheck): Promise<UnpoolError | undefined> {
    return this.errors.failure(fn, c);
  }

  failures(fn: string, checks: readonly ContentCheck[]): Promise<UnpoolError | undefined>[] {
    return this.errors.failures(fn, checks);
  }

  /** The core's error for status `code` (its message in lastError()). */
  private coreError(code: number): UnpoolError {
    const rt = this.rt;
    return new UnpoolError(rt.m.lastError(), rt.statusNames[code] ?? `status_${code}`);
  }

  /** An encoder of one call's dispatches (`label`: the call's function). */
  private encoder(label: string): CallEncoder {
    return new CallEncoder(this.device, this, this.pipelines, (i) => (this.dummies[i] ??= this.device.createBuffer({
      size: 16, usage: USAGE.STORAGE, label: 'unpool unused',
    })), label);
  }

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
    const refused = this.errors.refusals(fn, named, () => this.encode(rt, c, g, units, inputs, outputs, plan,
                                                               (k) => { check = k; }));
    if (check !== undefined) checks.push(check);
    if (refused !== undefined) checks.push(refused);
    for (const t of outputs) t.checks = checks;
    return outputs;
  }

  /** Encodes and submits a planned call's kernels; `setCheck` receives its content check. */
  private encode(rt: Runtime, c: Call, g: PlanGeometry, units: number, inputs: GpuTensor[],
                 outputs: GpuTensor[], plan: number, setCheck: (k: ContentCheck) => void): void {
    const encodeOp = ENCODERS[c.op] ?? unsupported(c.fn);
    const chunks = this.chunks(c.fn, units, [...inputs, ...outputs]);
    const mostUnits = Math.max(0, ...chunks.map(([u0, u1]) => u1 - u0));
    const bytes = DTYPES[c.dtype].bytes;
    const e = this.encoder(c.fn);
    const k: OpCall = {
      e, c, g, inputs, outputs, chunks, mostUnits, bytes,
      constants: { DTYPE: DTYPE_CODES[c.dtype][0], INDEX64: c.indexType === 'int64' ? 1 : 0 },
      items: (n) => (bytes < 4 ? Math.ceil(n / (4 / bytes)) : n),
      most: (t) => (t.size / Math.max(units, 1)) * mostUnits,
      newCheck: () => {
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
      },
      // Each chunk: units [u0, u1) of every tensor, bound from their first
      // element; positions in status count from the tensors' start (base).
      run: (chunk) => {
        for (const [u0, u1] of chunks) {
          const params = { ...geometryParams(g), planes: (u1 - u0) * (g.layout === 1 ? g.channels : 1) };
          chunk((t) => rangeOf(t, units, u0, u1), (t) => (t.size / units) * (u1 - u0), params,
                (t) => (t.size / units) * u0);
        }
      },
    };
    try {
      encodeOp(k);
      e.submit();
    } finally {
      e.release();
    }
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
    const refused = this.errors.refusals(fn, [['indices', indices]], () => {
      const e = this.encoder(fn);
      const constants = {
        INDEX64: indices.dtype === 'int64' ? 1 : 0, OUT64: toType === 'int64' ? 1 : 0, FROM: from, TO: to,
      };
      try {
        for (const [u0, u1] of chunks) {
          const bound = { indices: rangeOf(indices, units, u0, u1), result: rangeOf(result, units, u0, u1), status };
          const n = (indices.size / units) * (u1 - u0);
          const params = {
            ...geometryParams(g), planes: (u1 - u0) * (g.layout === 1 ? g.channels : 1), count: n,
            base: (indices.size / units) * u0,
          };
          e.dispatch('convert', constants, params, n, bound);
          e.dispatch('convert_error', constants, params, 1, bound);
        }
        e.submit();
      } finally {
        e.release();
      }
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
