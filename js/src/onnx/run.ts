// One run of a partitioned model: the steps in order, ORT sub-sessions and
// unpool steps, over the run's values (values.ts). On WebGPU nothing is read
// back between steps; the unpool steps' content checks (an index outside its
// plane) are read once, at the end, and a failed one rejects the run.
import { UnpoolError, UnpoolTypeError } from '../tensor.js';
import type { ContentCheck, GpuOwner, GpuTensor } from '../webgpu/tensor.js';
import type { Exec, HostTensor } from './exec.js';
import { arePlaneOffsets } from './fuse.js';
import { describeNode, OnnxModelError } from './model.js';
import type { OrtSessionLike, OrtTensorLike } from './ort.js';
import type { Plan, UnpoolStep } from './plan.js';
import { poolOptions, unpoolShape } from './semantics.js';
import { evaluate, IntTensor } from './shapes.js';
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
  const intsOf = (name: string): IntTensor => {
    if (shapeCache.has(name) || !values.has(name)) return evaluate(plan.graph, name, shapeOf, shapeCache);
    const t = convert.toHost(values.get(name)!);
    const data = Array.from(t.data as ArrayLike<number | bigint>, (x) => BigInt(x));
    return { dims: 'shape' in t ? t.shape : t.dims, data };
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
      current = step;
      try {
        runUnpoolStep(step, asH, made, intsOf, exec);
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
                          intsOf: (name: string) => IntTensor, exec: Exec<H>): void {
  const { node, dims } = step;
  if (step.pool !== undefined) {
    const x = input(node.inputs[0]);
    const shape = exec.shape(x);
    const { output, indices } = exec.pool(dims, x, poolOptions(node, shape, dims));
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
