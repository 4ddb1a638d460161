// One run of a partitioned model: the steps in order, ORT sub-sessions and
// unpool steps, over the run's values (values.ts). On WebGPU nothing is read
// back between steps; the unpool steps' content checks (an index outside its
// plane) are read once, at the end, and a failed one rejects the run.
import { UnpoolError, UnpoolTypeError } from '../tensor.js';
import type { ContentCheck, GpuOwner, GpuTensor } from '../webgpu/tensor.js';
import type { Exec, HostTensor } from './exec.js';
import { arePlaneOffsets } from './fuse.js';
import { attrInts, describeNode, OnnxModelError } from './model.js';
import type { OrtSessionLike, OrtTensorLike } from './ort.js';
import type { Plan, UnpoolStep } from './plan.js';
import { poolOptions, unpoolShape } from './semantics.js';
import { evaluate, IntTensor, viewShape } from './shapes.js';
import { Converter, Value } from './values.js';

/** What a run needs of its session. */
export interface RunContext<H> {
  readonly plan: Plan;
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
  const where = `unpool/onnx: ${describeNode(step.node)}`;
  if (e instanceof UnpoolError) return new UnpoolError(`${where}: ${e.message}`, e.code);
  if (e instanceof UnpoolTypeError) return new UnpoolTypeError(`${where}: ${e.message}`, e.code);
  return e;
}

/** Runs the plan on `feeds`, giving the values named in `fetches`. */
export async function runPlan<H>(ctx: RunContext<H>, feeds: Readonly<Record<string, OrtTensorLike>>,
                                 fetches: readonly string[], runOptions: unknown): Promise<Record<string, OrtTensorLike>> {
  const { plan, exec, convert } = ctx;
  const values = new Map<string, Value>();
  const left = new Map(plan.uses);
  for (const f of fetches) left.set(f, (left.get(f) ?? 0) + 1);
  const checks: PendingCheck[] = [];
  const shapeCache = new Map<string, IntTensor>();
  const shapeOf = (v: string) => values.get(v)?.dims;
  const done = (names: Iterable<string>) => {
    for (const v of new Set(names)) {
      const n = (left.get(v) ?? 0) - 1;
      left.set(v, n);
      if (n <= 0) values.get(v)?.release();
    }
  };
  const put = (name: string, dims: readonly number[], set: (v: Value) => void) => {
    const v = new Value(dims);
    set(v);
    values.set(name, v);
  };
  const asH = (name: string): H => {
    const v = values.get(name);
    if (v === undefined) throw new OnnxModelError(`value '${name}' was not computed (a bug of the runner)`);
    return (exec.kind === 'webgpu' ? convert.toGpu(v) : convert.toHost(v)) as H;
  };
  let current: UnpoolStep | undefined;
  const made = (name: string | undefined, t: H) => {
    if (name === undefined) {
      exec.free(t);
      return;
    }
    put(name, exec.shape(t), (v) => {
      if (exec.kind === 'webgpu') {
        v.gpu = t as GpuTensor;
        v.gpuOwned = true;
        const g = t as GpuTensor;
        for (const check of g.checks) checks.push({ owner: g.owner, check, step: current! });
      } else {
        v.host = t as HostTensor;
      }
    });
  };
  // A value computed in JavaScript depends only on the shapes it reads: a
  // run with the same shapes as an earlier one reuses its result (plan.memo).
  let shapeReads: readonly string[] = [];
  const intsOf = (name: string): IntTensor => {
    if (values.has(name) && !shapeCache.has(name)) {
      const t = convert.toHost(values.get(name)!);
      const data = Array.from(t.data as ArrayLike<number | bigint>, (x) => BigInt(x));
      return { dims: 'shape' in t ? t.shape : t.dims, data };
    }
    const key = `${name}|${shapeReads.map((r) => shapeOf(r)?.join('x')).join(';')}`;
    let v = plan.memo.get(key);
    if (v === undefined) {
      v = evaluate(plan.graph, name, shapeOf, shapeCache, plan.constants);
      if (plan.memo.size > 1024) plan.memo.clear();
      plan.memo.set(key, v);
    }
    return v;
  };

  for (const [name, t] of Object.entries(feeds)) put(name, t.dims, (v) => { v.ort = t; });
  try {
    for (let i = 0; i < plan.steps.length; ++i) {
      const step = plan.steps[i];
      if (step.kind === 'ort') {
        const inputs: Record<string, OrtTensorLike> = {};
        for (const name of step.inputs) inputs[name] = await convert.toOrt(values.get(name)!);
        const out = await ctx.sessions[i]!.run(inputs as never, runOptions as never);
        for (const name of step.outputs) {
          put(name, out[name].dims, (v) => { v.ort = out[name]; v.ortOwned = true; });
        }
        done(step.inputs);
        continue;
      }
      if (step.kind === 'view') {
        // The same memory under another shape; the source lives as long as the view.
        const [x] = step.reads;
        const src = values.get(x)!;
        const node = step.node;
        shapeReads = step.shapeReads;
        const dims = viewShape(node, src.dims, (k, name) => {
          const v = node.inputs[k];
          return v !== undefined && v !== '' ? intsOf(v).data.map(Number) : attrInts(node, name);
        });
        put(node.outputs[0], dims, (v) => {
          if (exec.kind === 'webgpu') {
            const g = convert.toGpu(src);
            if (step.takesOver && src.gpuOwned) {
              // The buffer, and whatever keeps it alive (a view's source), pass to the view.
              v.gpu = g.reshaped(dims);
              v.onRelease = src.onRelease;
              src.gpu = src.onRelease = undefined;
            } else {
              v.gpu = convert.view(g, dims);
            }
            v.gpuOwned = true;
          } else {
            const h = convert.toHost(src);
            v.host = { data: h.data, dims, type: 'dtype' in h ? h.dtype : h.type };
          }
          if (v.gpu !== undefined && src.gpu !== undefined) {
            // A shared buffer: the source lives as long as the view.
            left.set(x, (left.get(x) ?? 0) + 1);
            v.onRelease = () => done([x]);
          }
        });
        done([...step.reads, ...step.shapeReads]);
        continue;
      }
      current = step;
      shapeReads = step.shapeReads;
      try {
        runUnpoolStep(step, asH, made, intsOf, exec, fetches);
      } catch (e) {
        throw inNode(step, e);
      }
      done([...step.reads, ...step.shapeReads]);
    }
    const failed = ctx.checkAll !== undefined && checks.length > 0 ? await ctx.checkAll(checks) : undefined;
    if (failed !== undefined) throw inNode(failed.step, failed.error);
    const result: Record<string, OrtTensorLike> = {};
    for (const name of fetches) {
      const v = values.get(name)!;
      result[name] = await handOut(ctx, v, ctx.locationOf(name));
    }
    return result;
  } catch (e) {
    for (const v of values.values()) v.release();
    throw e;
  } finally {
    for (const [name, v] of values) if (!fetches.includes(name)) v.release();
  }
}

/** A returned value: an ORT tensor where the caller asked for it (`location`), owned by the caller. */
async function handOut<H>(ctx: RunContext<H>, v: Value, location: string): Promise<OrtTensorLike> {
  if (v.ort === undefined && v.gpu !== undefined && location !== 'gpu-buffer') {
    const host = await v.gpu.read();
    v.host = { data: host.data, dims: host.shape, type: host.dtype };
    v.gpu.destroy();
    v.gpu = undefined;
  }
  const t = await ctx.convert.toOrt(v);
  v.ortOwned = false;
  v.gpuOwned = false;
  return t;
}

/** One unpool step: MaxPool or MaxUnpool in ONNX's semantics, on the run's backend. */
function runUnpoolStep<H>(step: UnpoolStep, input: (name: string) => H,
                          made: (name: string | undefined, t: H) => void,
                          intsOf: (name: string) => IntTensor, exec: Exec<H>, fetches: readonly string[]): void {
  const { node, dims } = step;
  if (step.pool !== undefined) {
    const x = input(node.inputs[0]);
    const shape = exec.shape(x);
    // int32 per-plane indices where only unpool reads them (and a plane's offsets fit).
    const narrow = step.pool.internal === true && !fetches.includes(step.pool.perPlane!.value) &&
        product(shape.slice(2)) < 2 ** 31;
    const options = { ...poolOptions(node, shape, dims), ...(narrow ? { indexType: 'int32' as const } : {}) };
    const { output, indices } = exec.pool(dims, x, options);
    if (step.pool.flat !== undefined) made(step.pool.flat, exec.toFlat(indices, shape));
    made(step.pool.y, output);
    const p = step.pool.perPlane;
    made(p?.value, indices);
    // The offsets may read the shapes of the outputs just made.
    if (p?.offsets.kind === 'checked' &&
        !arePlaneOffsets(intsOf(p.offsets.value), shape[0], shape[1], product(shape.slice(2)), dims + 2)) {
      throw new OnnxModelError(`${describeNode(node)}: the offsets its Indices are reduced by ('${p.offsets.value}') ` +
          'are not its input\'s plane offsets at this run; the runner fuses only that arithmetic');
    }
    return;
  }
  const u = step.unpool!;
  const x = input(u.x);
  const xShape = exec.shape(x);
  const given = u.outputShape !== undefined ? intsOf(u.outputShape) : undefined;
  const outShape = unpoolShape(node, xShape, dims, given);
  const spatial = outShape.slice(2);
  if (u.offsets === undefined) {
    made(u.y, exec.unpoolFlat(x, input(u.indices), outShape));
    return;
  }
  if (u.offsets.kind === 'checked' &&
      !arePlaneOffsets(intsOf(u.offsets.value), xShape[0], xShape[1], product(spatial), dims + 2)) {
    throw new OnnxModelError(`${describeNode(node)}: the offsets added to its indices ('${u.offsets.value}') ` +
        'are not its output\'s plane offsets at this run; the runner fuses only that arithmetic');
  }
  made(u.y, exec.unpool(dims, x, input(u.indices), spatial));
}
