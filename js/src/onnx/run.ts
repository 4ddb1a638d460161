// One run of a partitioned model: the steps in order (ORT sub-sessions,
// unpool steps, views) over the run's values (values.ts). On WebGPU nothing
// is read back between steps; the unpool steps' content checks (an index
// outside its plane) are read once, at the end, and a failed one rejects
// the run. The run owns every value it makes and releases each when its
// last reader is done; the caller owns only what it returns.
import { UnpoolError, UnpoolTypeError } from '../tensor.js';
import type { ContentCheck, GpuOwner, GpuTensor } from '../webgpu/tensor.js';
import type { Exec, HostTensor, PoolGeometry } from './exec.js';
import { arePlaneOffsets } from './fuse.js';
import { attrInts, describeNode, OnnxModelError } from './model.js';
import type { OrtSessionLike, OrtTensorLike } from './ort.js';
import type { OrtStep, Plan, UnpoolStep, ViewStep } from './plan.js';
import { PoolOptions, poolOptions, unpoolShape } from './semantics.js';
import { evaluate, IntTensor, viewShape } from './shapes.js';
import { Converter, Value } from './values.js';

/** What a run needs of its session. */
export interface RunContext<H> {
  readonly plan: Plan;
  /** The ORT sub-session of each ORT step, at the step's position. */
  readonly sessions: readonly (OrtSessionLike | undefined)[];
  readonly exec: Exec<H>;
  readonly convert: Converter;
  /** Where each returned value goes: 'cpu' or 'gpu-buffer'. */
  readonly locationOf: (name: string) => string;
  /** Reads the content checks of the run's GPU calls: the first that failed, and its error. */
  readonly checkAll?: (checks: readonly PendingCheck[]) => Promise<{ step: UnpoolStep; error: unknown } | undefined>;
}

/** A content check of a GPU call of the run, the backend that reads it, and the step that made it. */
export interface PendingCheck {
  readonly owner: GpuOwner;
  readonly check: ContentCheck;
  readonly step: UnpoolStep;
}

const product = (d: readonly number[]) => d.reduce((a, b) => a * b, 1);

/** An error of an unpool op in a step, prefixed with the node, keeping its class and code. */
function inNode(step: UnpoolStep, e: unknown): unknown {
  if (e instanceof OnnxModelError) return e;  // it names the node already
  const where = `unpool/onnx: ${describeNode(step.node)}`;
  if (e instanceof UnpoolError) return new UnpoolError(`${where}: ${e.message}`, e.code);
  if (e instanceof UnpoolTypeError) return new UnpoolTypeError(`${where}: ${e.message}`, e.code);
  return e;
}

/** Runs the plan on `feeds`, giving the values named in `fetches`. */
export async function runPlan<H>(ctx: RunContext<H>, feeds: Readonly<Record<string, OrtTensorLike>>,
                                 fetches: readonly string[], runOptions: unknown): Promise<Record<string, OrtTensorLike>> {
  return new Run(ctx, fetches).go(feeds, runOptions);
}

class Run<H> {
  private readonly values = new Map<string, Value>();
  /** Readers left per value (fetches count one more each). */
  private readonly left: Map<string, number>;
  private readonly checks: PendingCheck[] = [];
  private readonly shapeCache = new Map<string, IntTensor>();
  /**
   * The geometry of the pool that made each per-plane indices value: an
   * unpool of those indices back to that pool's input size may be given it
   * (unpool's own kernels for disjoint windows are faster than the
   * kernel-free unpool, with the same result).
   */
  private readonly pools = new Map<string, { options: PoolOptions; input: readonly number[] }>();
  /** The step running, and the values whose shapes its computed values read. */
  private step: UnpoolStep | ViewStep | undefined;
  private readonly shapeOf = (v: string) => this.values.get(v)?.dims;

  constructor(private readonly ctx: RunContext<H>, private readonly fetches: readonly string[]) {
    this.left = new Map(ctx.plan.uses);
    for (const f of fetches) this.left.set(f, (this.left.get(f) ?? 0) + 1);
  }

  async go(feeds: Readonly<Record<string, OrtTensorLike>>, runOptions: unknown): Promise<Record<string, OrtTensorLike>> {
    const { plan } = this.ctx;
    for (const [name, t] of Object.entries(feeds)) this.put(name, t.dims, (v) => { v.ort = t; });
    const result: Record<string, OrtTensorLike> = {};
    try {
      for (let i = 0; i < plan.steps.length; ++i) {
        const step = plan.steps[i];
        if (step.kind === 'ort') {
          await this.ortStep(step, this.ctx.sessions[i]!, runOptions);
        } else {
          this.step = step;
          if (step.kind === 'view') this.viewStep(step);
          else this.unpoolStep(step);
          this.done(step.frees);
        }
      }
      const failed = this.ctx.checkAll !== undefined && this.checks.length > 0
        ? await this.ctx.checkAll(this.checks) : undefined;
      if (failed !== undefined) throw inNode(failed.step, failed.error);
      for (const name of this.fetches) result[name] = await this.handOut(this.values.get(name)!, this.ctx.locationOf(name));
      return result;
    } catch (e) {
      for (const t of Object.values(result)) t.dispose();
      throw e;
    } finally {
      for (const [name, v] of this.values) if (!(name in result)) v.release();
    }
  }

  /** One fewer reader of each of `names`; a value with none left is released. */
  private done(names: readonly string[]): void {
    for (const v of names) {
      const n = (this.left.get(v) ?? 0) - 1;
      this.left.set(v, n);
      if (n <= 0) this.values.get(v)?.release();
    }
  }

  private put(name: string, dims: readonly number[], set: (v: Value) => void): void {
    const v = new Value(dims);
    set(v);
    this.values.set(name, v);
  }

  private async ortStep(step: OrtStep, session: OrtSessionLike, runOptions: unknown): Promise<void> {
    const inputs: Record<string, OrtTensorLike> = {};
    for (const name of step.inputs) inputs[name] = await this.ctx.convert.toOrt(this.values.get(name)!);
    const out = await session.run(inputs as never, runOptions as never);
    for (const name of step.outputs) {
      this.put(name, out[name].dims, (v) => { v.ort = out[name]; v.ortOwned = true; });
    }
    this.done(step.frees);
  }

  /** Value `name` as the backend's tensor. */
  private input(name: string): H {
    const v = this.values.get(name);
    if (v === undefined) throw new OnnxModelError(`value '${name}' was not computed (a bug of the runner)`);
    const { convert, exec } = this.ctx;
    return (exec.kind === 'webgpu' ? convert.toGpu(v) : convert.toHost(v)) as H;
  }

  /** A step's result `t` as value `name` (none: nothing reads it, freed). */
  private made(name: string | undefined, t: H): void {
    const { exec } = this.ctx;
    if (name === undefined) {
      exec.free(t);
      return;
    }
    this.put(name, exec.shape(t), (v) => {
      if (exec.kind === 'webgpu') {
        const g = t as GpuTensor;
        v.gpu = g;
        v.gpuOwned = true;
        for (const check of g.checks) this.checks.push({ owner: g.owner, check, step: this.step as UnpoolStep });
      } else {
        v.host = t as HostTensor;
      }
    });
  }

  /**
   * An integer value of the step's shape arithmetic: computed in JavaScript
   * (shapes.ts), or read from the run when a step made it. A computed value
   * depends only on the shapes it reads: a run with the same shapes as an
   * earlier one reuses its result (plan.memo).
   */
  private ints(name: string): IntTensor {
    const { plan, convert } = this.ctx;
    const v = this.values.get(name);
    if (v !== undefined && !this.shapeCache.has(name)) {
      const t = convert.toHost(v);
      return { dims: 'shape' in t ? t.shape : t.dims, data: Array.from(t.data as ArrayLike<number | bigint>, BigInt) };
    }
    const key = `${name}|${this.step!.shapeReads.map((r) => this.shapeOf(r)?.join('x')).join(';')}`;
    return remember(plan.memo, key, () => evaluate(plan.graph, name, this.shapeOf, this.shapeCache, plan.constants));
  }

  /** `make()`'s result for `key`, kept for later runs (a step's options for its shapes). */
  private cached<T>(key: string, make: () => T): T {
    return remember(this.ctx.plan.options as Map<string, T>, key, make);
  }

  /** The same memory under another shape; a shared buffer's source lives as long as the view. */
  private viewStep(step: ViewStep): void {
    const { exec, convert } = this.ctx;
    const [x] = step.reads;
    const src = this.values.get(x)!;
    const node = step.node;
    const dims = viewShape(node, src.dims, (k, name) => {
      const v = node.inputs[k];
      return v !== undefined && v !== '' ? this.ints(v).data.map(Number) : attrInts(node, name);
    });
    this.put(node.outputs[0], dims, (v) => {
      if (exec.kind === 'webgpu') {
        const g = convert.toGpu(src);
        if (step.takesOver && src.gpuOwned) {
          // The buffer, and whatever keeps it alive (a view's source), pass to the view.
          v.gpu = g.reshaped(dims);
          v.onRelease = src.onRelease;
          src.gpu = src.onRelease = undefined;
        } else {
          v.gpu = convert.view(g, dims);
          this.left.set(x, (this.left.get(x) ?? 0) + 1);
          v.onRelease = () => this.done([x]);
        }
        v.gpuOwned = true;
      } else {
        const h = convert.toHost(src);
        v.host = { data: h.data, dims, type: 'dtype' in h ? h.dtype : h.type };
      }
    });
  }

  private unpoolStep(step: UnpoolStep): void {
    try {
      if (step.pool !== undefined) this.pool(step, step.pool);
      else this.unpool(step, step.unpool!);
    } catch (e) {
      throw inNode(step, e);
    }
  }

  /** MaxPool in ONNX's semantics: values, flat Indices where read, per-plane where fused. */
  private pool(step: UnpoolStep, p: NonNullable<UnpoolStep['pool']>): void {
    const { exec } = this.ctx;
    const { node, dims } = step;
    const x = this.input(node.inputs[0]);
    const shape = exec.shape(x);
    // int32 per-plane indices where only unpool reads them (and a plane's offsets fit).
    const narrow = p.internal === true && !this.fetches.includes(p.perPlane!.value) && product(shape.slice(2)) < 2 ** 31;
    const options = this.cached(`${node.index}|${shape}|${narrow}`,
                                () => ({ ...poolOptions(node, shape, dims), ...(narrow ? { indexType: 'int32' as const } : {}) }));
    const { output, indices } = exec.pool(dims, x, options);
    if (p.perPlane !== undefined) this.pools.set(p.perPlane.value, { options, input: shape });
    if (p.flat !== undefined) this.made(p.flat, exec.toFlat(indices, shape));
    this.made(p.y, output);
    this.made(p.perPlane?.value, indices);
    // The offsets may read the shapes of the outputs just made.
    if (p.perPlane?.offsets.kind === 'checked' &&
        !arePlaneOffsets(this.ints(p.perPlane.offsets.value), shape[0], shape[1], product(shape.slice(2)), dims + 2)) {
      throw new OnnxModelError(`${describeNode(node)}: the offsets its Indices are reduced by ` +
          `('${p.perPlane.offsets.value}') are not its input's plane offsets at this run; the runner fuses only ` +
          'that arithmetic');
    }
  }

  /** MaxUnpool in ONNX's semantics: flat indices over the whole output, or per-plane where fused. */
  private unpool(step: UnpoolStep, u: NonNullable<UnpoolStep['unpool']>): void {
    const { exec } = this.ctx;
    const { node, dims } = step;
    const x = this.input(u.x);
    const xShape = exec.shape(x);
    const given = u.outputShape !== undefined ? this.ints(u.outputShape) : undefined;
    const outShape = this.cached(`${node.index}|${xShape}|${given?.data}`, () => unpoolShape(node, xShape, dims, given));
    if (u.offsets === undefined) {
      this.made(u.y, exec.unpoolFlat(x, this.input(u.indices), outShape));
      return;
    }
    const spatial = outShape.slice(2);
    if (u.offsets.kind === 'checked' &&
        !arePlaneOffsets(this.ints(u.offsets.value), xShape[0], xShape[1], product(spatial), dims + 2)) {
      throw new OnnxModelError(`${describeNode(node)}: the offsets added to its indices ('${u.offsets.value}') ` +
          'are not its output\'s plane offsets at this run; the runner fuses only that arithmetic');
    }
    this.made(u.y, exec.unpool(dims, x, this.input(u.indices), spatial, this.kernelOf(u.indices, xShape, spatial)));
  }

  /**
   * The kernel, stride and padding of the pool whose per-plane indices an
   * unpool reads, where the unpool goes back to that pool's input size (a
   * size PyTorch's rule accepts for them) and the pool has no dilation.
   */
  private kernelOf(indices: string, x: readonly number[], spatial: readonly number[]): PoolGeometry | undefined {
    const p = this.pools.get(indices);
    if (p === undefined || p.options.dilation.some((d) => d !== 1)) return undefined;
    const { kernelSize, stride, padding } = p.options;
    const fits = spatial.every((out, i) => {
      const def = (x[i + 2] - 1) * stride[i] - 2 * padding[i] + kernelSize[i];
      return out === p.input[i + 2] && out > def - stride[i] && out < def + stride[i];
    });
    return fits ? { kernelSize, stride, padding } : undefined;
  }

  /** A returned value: an ORT tensor where the caller asked for it (`location`), owned by the caller. */
  private async handOut(v: Value, location: string): Promise<OrtTensorLike> {
    if (v.ort === undefined && v.gpu !== undefined && location !== 'gpu-buffer') {
      const host = await v.gpu.read();
      v.host = { data: host.data, dims: host.shape, type: host.dtype };
      v.gpu.destroy();
      v.gpu = undefined;
    }
    const t = await this.ctx.convert.toOrt(v);
    v.ortOwned = false;
    v.gpuOwned = false;
    return t;
  }
}

/**
 * `memo`'s value for `key`, made by `make()` the first time; a memo of over
 * 1024 entries starts afresh (a model runs at few shapes).
 */
function remember<T>(memo: Map<string, T>, key: string, make: () => T): T {
  let v = memo.get(key);
  if (v === undefined) {
    v = make();
    if (memo.size > 1024) memo.clear();
    memo.set(key, v);
  }
  return v;
}
