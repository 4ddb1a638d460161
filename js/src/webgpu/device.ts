// The WebGPU backend of one device: buffers, pipelines, the uniform block,
// and the engine that runs a planned call's kernels. Calls are planned by
// the core in the WebAssembly module (the same plan, shapes, geometry and
// messages as the CPU path); only the kernels run here. Every call encodes
// its work and submits it before it returns.
import type { Call, Input } from '../call.js';
import { ArrayClass, DType, DTYPES, Kind, namesOf, TensorData } from '../dtypes.js';
import type { Runtime } from '../heap.js';
import { describe, numel, UnpoolError, UnpoolTypeError } from '../tensor.js';
import { GpuBufferLike, GpuCommandEncoderLike, GpuComputePipelineLike, GpuDeviceLike,
  GpuBindGroupLayoutLike, USAGE } from './gpu.js';
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
    bindings: ['read-only-storage', 'read-only-storage', 'storage', 'storage', 'storage'],
  },
};

/** The dtype code the kernels' DTYPE override takes. */
const DTYPE_CODE: Partial<Record<DType, number>> = { float32: 0, float64: 1, float16: 2, bfloat16: 3 };

const F16 = (globalThis as { Float16Array?: unknown }).Float16Array;

/** The class read() gives a wrapped buffer of `dtype` (ONNX Runtime's rule for float16). */
function wrappedClass(dtype: DType): ArrayClass {
  const classes = DTYPES[dtype].classes;
  if (dtype === 'float16' && F16 === undefined) return classes.find((c) => c.tag === 'Uint16Array')!;
  return classes[0];
}

/** The geometry the core resolved (planGeometry()). */
interface PlanGeometry {
  layout: number;
  channels: number;
  planes: number;
  in: number[];
  out: number[];
  kernel: number[];
  stride: number[];
  pad: number[];
  dilation: number[];
  poolGeometry: boolean;
}

function readPlanGeometry(rt: Runtime): PlanGeometry {
  const f = rt.f;
  let s = rt.layout.planGeometry;
  const three = () => { const r = [f[s], f[s + 1], f[s + 2]]; s += 3; return r; };
  const layout = f[s++], channels = f[s++], planes = f[s++];
  const g = {
    layout, channels, planes, in: three(), out: three(), kernel: three(), stride: three(),
    pad: three(), dilation: three(), poolGeometry: false,
  };
  g.poolGeometry = f[s] === 1;
  return g;
}

const prod = (a: readonly number[]) => a[0] * a[1] * a[2];

/** The uniform fields of a geometry. */
function geometryParams(g: PlanGeometry): Params {
  return {
    planes: g.planes, channels: g.channels, channels_last: g.layout,
    in_plane: prod(g.in), out_plane: prod(g.out),
    in_d: g.in[0], in_h: g.in[1], in_w: g.in[2], out_d: g.out[0], out_h: g.out[1], out_w: g.out[2],
    k_d: g.kernel[0], k_h: g.kernel[1], k_w: g.kernel[2],
    s_d: g.stride[0], s_h: g.stride[1], s_w: g.stride[2],
    p_d: g.pad[0], p_h: g.pad[1], p_w: g.pad[2],
    d_d: g.dilation[0], d_h: g.dilation[1], d_w: g.dilation[2],
  };
}

/** The backend of one GPUDevice. */
export class GpuBackend implements GpuOwner {
  readonly fnPrefix = 'gpu.';
  private readonly pipelines = new Map<string, GpuComputePipelineLike>();
  private readonly layouts = new Map<string, { group: GpuBindGroupLayoutLike; pipeline: unknown }>();
  private lostMessage: string | undefined;
  /** A small buffer bound where a kernel's binding is unused. */
  private dummy: GpuBufferLike | undefined;

  constructor(readonly device: GpuDeviceLike, readonly rt: Runtime) {
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
      this.device.queue.writeBuffer(t.buffer, 0, src, 0, src.byteLength);
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
    c.outcome ??= this.readBytes(fn, c.status, 16).then((raw) => {
      const w = new Uint32Array(raw);
      return w[0] === NONE ? undefined : c.error(w);
    });
    return c.outcome;
  }

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

  private pipeline(family: string, entry: string, constants: Record<string, number>):
      GpuComputePipelineLike {
    const key = `${family}/${entry}/${JSON.stringify(constants)}`;
    let p = this.pipelines.get(key);
    if (p === undefined) {
      const code = PARAMS_WGSL + FAMILIES[family].files.map((f) => shaders[f]).join('\n');
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
           buffers: (GpuBufferLike | undefined)[], temps: GpuBufferLike[]): void {
    if (items === 0) return;
    const limit = this.device.limits.maxComputeWorkgroupsPerDimension;
    const groups = entry === 'error_value' ? 1 : Math.ceil(items / WG);
    const gx = Math.min(groups, limit);
    const gy = Math.ceil(groups / gx);
    const uniform = this.device.createBuffer({
      size: PARAMS_BYTES, usage: USAGE.UNIFORM | USAGE.COPY_DST, label: 'unpool params',
    });
    temps.push(uniform);
    this.device.queue.writeBuffer(uniform, 0, paramWords({ ...params, groups_x: gx }));
    this.dummy ??= this.device.createBuffer({ size: 16, usage: USAGE.STORAGE, label: 'unpool unused' });
    const pipeline = this.pipeline(family, entry, constants);
    const bindLimit = this.device.limits.maxStorageBufferBindingSize;
    const group = this.device.createBindGroup({
      layout: this.layoutOf(family).group,
      entries: [{ binding: 0, resource: { buffer: uniform } },
        ...FAMILIES[family].bindings.map((_, i) => {
          const buffer = buffers[i] ?? this.dummy!;
          return { binding: i + 1, resource: { buffer, offset: 0, size: bindBytes(buffer, bindLimit) } };
        })],
    });
    const pass = enc.beginComputePass({ label: `unpool ${family}/${entry}` });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(gx, gy, 1);
    pass.end();
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
    const type = DTYPES[t.dtype];
    if (type.kind !== kind) {
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
    if (used.has(t.buffer)) {
      throw new UnpoolTypeError(`${c.fn}: ${o.name} shares its buffer with another tensor of the call`);
    }
    used.add(t.buffer);
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
      used.add(t.buffer);
      return t;
    });
    const plan = rt.plans[c.op];
    rt.check(rt.m.plan(rt.ops[c.op], plan, rt.block, rt.codes[c.dtype], rt.codes[c.indexType]));
    const shapeOut = rt.readShape('shapeOut');
    rt.check(rt.m.planGeometry(plan, rt.block));
    const g = readPlanGeometry(rt);
    const outputs = c.outputs.map((o, k) => this.output(c, k, o.shape ?? shapeOut, used));
    for (const t of [...inputs, ...outputs]) this.checkBinding(fn, t);
    const constants = { DTYPE: DTYPE_CODE[c.dtype] ?? 0, INDEX64: c.indexType === 'int64' ? 1 : 0 };
    const enc = this.device.createCommandEncoder({ label: `unpool ${fn}` });
    const temps: GpuBufferLike[] = [];
    let check: ContentCheck | undefined;
    const base = geometryParams(g);
    const half = c.dtype === 'float16' || c.dtype === 'bfloat16';
    const items = (n: number) => (half ? Math.ceil(n / 2) : n);
    const newCheck = (): GpuBufferLike => {
      const status = this.statusBuffer();
      // The call's block, kept: the message is planned again from it.
      const block = rt.f.slice();
      check = {
        status,
        error: (w) => {
          rt.f.set(block);
          rt.check(rt.m.plan(rt.ops[c.op], plan, rt.block, rt.codes[c.dtype], rt.codes[c.indexType]));
          return this.coreError(rt.m.contentError(plan, w[0], w[1], w[2]));
        },
      };
      return status;
    };
    switch (c.op) {
      case 'maxPool':
      case 'adaptiveMaxPool': {
        const n = outputs[0].size;
        this.dispatch(enc, 'pool', 'pool', { ...constants, MODE: c.op === 'maxPool' ? 0 : 1 },
                      { ...base, count: n }, items(n),
                      [inputs[0].buffer, outputs[0].buffer, outputs[1].buffer, undefined], temps);
        break;
      }
      case 'fractionalMaxPool': {
        const status = newCheck();
        const starts = this.device.createBuffer({
          size: bufferSize(g.planes * (g.out[0] + g.out[1] + g.out[2]) * 4), usage: USAGE.STORAGE,
          label: 'unpool fractional starts',
        });
        temps.push(starts);
        const fb = [inputs[1].buffer, starts, status];
        this.dispatch(enc, 'fractional', 'intervals', constants, { ...base, count: g.planes * 3, flags: c.dims },
                      g.planes * 3, fb, temps);
        this.dispatch(enc, 'fractional', 'error_value', constants, base, 1, fb, temps);
        const n = outputs[0].size;
        this.dispatch(enc, 'pool', 'pool', { ...constants, MODE: 2 }, { ...base, count: n }, items(n),
                      [inputs[0].buffer, outputs[0].buffer, outputs[1].buffer, starts], temps);
        break;
      }
      case 'maxPoolBackward':
      case 'adaptiveMaxPoolBackward':
      case 'fractionalMaxPoolBackward': {
        // Fractional windows come from samples the backward pass is not
        // given: it scans (MODE 0 without a pool geometry).
        const status = newCheck();
        const mode = c.op === 'adaptiveMaxPoolBackward' ? 1 : 0;
        const flags = c.op === 'maxPoolBackward' && g.poolGeometry ? 1 : 0;
        const buffers = [inputs[0].buffer, inputs[1].buffer, outputs[0].buffer, undefined, status];
        const k = { ...constants, MODE: mode };
        this.dispatch(enc, 'backward', 'check', k, { ...base, count: inputs[1].size, flags },
                      inputs[1].size, buffers, temps);
        const n = outputs[0].size;
        this.dispatch(enc, 'backward', 'gather', k, { ...base, count: n, flags }, items(n), buffers, temps);
        this.dispatch(enc, 'backward', 'error_value', k, base, 1, buffers, temps);
        break;
      }
      case 'maxUnpool': {
        const status = newCheck();
        const n = outputs[0].size;
        const win = this.device.createBuffer({
          size: bufferSize(n * 4), usage: USAGE.STORAGE, label: 'unpool winners',
        });
        temps.push(win);
        const buffers = [inputs[0].buffer, inputs[1].buffer, outputs[0].buffer, win, status];
        this.dispatch(enc, 'unpool', 'scatter', constants, { ...base, count: inputs[0].size },
                      inputs[0].size, buffers, temps);
        this.dispatch(enc, 'unpool', 'gather', constants, { ...base, count: n }, items(n), buffers, temps);
        this.dispatch(enc, 'unpool', 'error_value', constants, base, 1, buffers, temps);
        break;
      }
      case 'maxUnpoolBackward': {
        const status = newCheck();
        const n = outputs[0].size;
        const buffers = [inputs[0].buffer, inputs[1].buffer, outputs[0].buffer, undefined, status];
        this.dispatch(enc, 'unpool', 'unpool_backward', constants, { ...base, count: n }, items(n),
                      buffers, temps);
        this.dispatch(enc, 'unpool', 'error_value', constants, base, 1, buffers, temps);
        break;
      }
      default:
        throw new UnpoolError(`${fn}: not available on the WebGPU backend yet`, 'unsupported');
    }
    this.device.queue.submit([enc.finish()]);
    for (const t of temps) t.destroy();
    // A result's contents depend on the checks of the calls that made its
    // inputs too: an error there reaches read() of everything downstream.
    const inherited = inputs.flatMap((t) => t.checks);
    const checks = check === undefined ? inherited : [...inherited, check];
    for (const t of outputs) t.checks = checks;
    return outputs;
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
    this.checkBinding(fn, indices);
    const result = this.tensor(fn, indices.shape, toType, DTYPES[toType].classes[0], `${fn} result`);
    const status = this.statusBuffer();
    const block = rt.f.slice();
    const check: ContentCheck = {
      status,
      error: (w) => {
        rt.f.set(block);
        const perPlane = w[3] === 0 ? 1 : 0;
        return this.coreError(rt.m.convertError(rt.block, from, w[0], w[1], w[2], perPlane));
      },
    };
    const enc = this.device.createCommandEncoder({ label: `unpool ${fn}` });
    const temps: GpuBufferLike[] = [];
    const constants = {
      INDEX64: indices.dtype === 'int64' ? 1 : 0, OUT64: toType === 'int64' ? 1 : 0, FROM: from, TO: to,
    };
    const buffers = [indices.buffer, result.buffer, status];
    const n = indices.size;
    this.dispatch(enc, 'convert', 'convert', constants, { ...geometryParams(g), count: n }, n, buffers, temps);
    this.dispatch(enc, 'convert', 'error_value', constants, {}, 1, buffers, temps);
    this.device.queue.submit([enc.finish()]);
    for (const t of temps) t.destroy();
    result.checks = [...indices.checks, check];
    return result;
  }

  /** A tensor the kernels bind must fit one binding. */
  private checkBinding(fn: string, t: GpuTensor): void {
    const limit = this.device.limits.maxStorageBufferBindingSize;
    if (t.byteLength > limit) {
      throw new UnpoolError(`${fn}: a tensor of ${t.byteLength} bytes is larger than this device's ` +
          `maxStorageBufferBindingSize (${limit}); the WebGPU backend does not split tensors yet`,
          'too_large');
    }
  }
}

/**
 * The bytes of a buffer a kernel binds: from 0 (tensors start there), whole
 * words, at most a binding's limit (checkBinding() made sure the tensor fits).
 */
function bindBytes(b: GpuBufferLike, limit: number): number {
  return Math.floor(Math.min(b.size, limit) / 4) * 4;
}

export type { TensorData };
