// createSession: an ONNX model run end to end, ORT's InferenceSession in
// shape. The model is parsed once (model.ts), partitioned for the execution
// provider (plan.ts), and each ORT step becomes a sub-session of the user's
// ORT namespace holding only its own nodes and initializers; unpool runs the
// rest on ORT's own tensors (the WebAssembly path on CPU providers, ORT's
// GPUDevice on WebGPU).
import { init } from '../loader.js';
import { describe, UnpoolTypeError } from '../tensor.js';
import { initWebGPU, WebGPUBackend } from '../webgpu/index.js';
import type { ContentCheck, GpuOwner } from '../webgpu/tensor.js';
import { gpuExec, hostExec } from './exec.js';
import { identityModel, OnnxModelError, OnnxGraph, readModel, subModel } from './model.js';
import { AttributeProto_AttributeType as AttrType } from './onnx_pb.js';
import { elemTypeOf, OrtNamespace, OrtSessionLike, OrtTensorLike, SessionOptionsOf, TensorOf } from './ort.js';
import { partition, Plan, Step, UnpoolStep } from './plan.js';
import { cpuRefusal, ProviderKind, UnpoolNodes } from './rules.js';
import { PendingCheck, runPlan, RunContext } from './run.js';
import { Converter } from './values.js';
import { readBytes } from './bytes.js';

type Location = 'cpu' | 'gpu-buffer';

/** The options createSession reads itself (RunnerOptions). */
const RUNNER_KEYS = ['ort', 'executionProviders', 'preferredOutputLocation', 'unpoolNodes', 'fuse'];

/**
 * createSession's options: the namespace to run on and the runner's own, and
 * any other of that ORT's session options (SessionOptionsOf), passed to every
 * sub-session.
 */
export type CreateSessionOptions<O extends OrtNamespace = OrtNamespace> =
  RunnerOptions<O> & Omit<SessionOptionsOf<O>, keyof RunnerOptions<O>>;

/** The options createSession reads itself. */
export interface RunnerOptions<O extends OrtNamespace = OrtNamespace> {
  /** The ONNX Runtime namespace you imported (`import * as ort from 'onnxruntime-web'`, -node, or `onnxruntime-web/webgpu`). */
  ort: O;
  /**
   * As ORT's: `['webgpu']` (either of ORT Web's WebGPU EPs; `{ name: 'webgpu', device }` with
   * onnxruntime-web/webgpu), `['wasm']`, `['cpu']` (onnxruntime-node). Default: ORT's default (a CPU EP).
   */
  executionProviders?: readonly (string | { readonly name: string; readonly [key: string]: unknown })[];
  /** Where run() puts its results, as ORT's: 'cpu' (default) or 'gpu-buffer' (WebGPU), or per output name. */
  preferredOutputLocation?: Location | Readonly<Record<string, Location>>;
  /**
   * Which MaxPool (with Indices used) and MaxUnpool nodes unpool runs: 'auto' (default), those the
   * execution provider fails on; 'all', every one (their inputs and outputs can then be fetched).
   */
  unpoolNodes?: UnpoolNodes;
  /**
   * Whether the index arithmetic around the nodes unpool runs is fused away (default true). false
   * runs it in ORT sub-sessions as the graph says: for checking that the fusions give the same bits.
   */
  fuse?: boolean;
}

/** One step of a session's partition, as `session.steps` describes it. */
export type StepInfo =
  | {
    readonly kind: 'ort';
    /** Number of the model's nodes in this ORT sub-session. */
    readonly nodes: number;
    readonly inputs: readonly string[];
    readonly outputs: readonly string[];
  }
  | {
    readonly kind: 'unpool';
    /** The node's name (or its op and position when it has none). */
    readonly node: string;
    readonly op: 'MaxPool' | 'MaxUnpool';
    /** Why unpool runs it: what the execution provider fails on, or unpoolNodes: 'all'. */
    readonly why: string;
    /**
     * The values it reads: MaxPool [x]; MaxUnpool [x, indices], with the
     * per-plane indices of a pool (PyTorch's) where the flat-index
     * arithmetic between them was fused.
     */
    readonly inputs: readonly string[];
    /** The values it gives: MaxPool [values, indices] (per-plane where fused, else flat); MaxUnpool [output]. */
    readonly outputs: readonly string[];
    /** Its ONNX attributes (kernel_shape, strides, pads, dilations, ceil_mode, ...). */
    readonly attributes: Readonly<Record<string, number | readonly number[] | string>>;
  }
  | {
    /** A Squeeze, Unsqueeze, Reshape, Flatten or Identity of an unpool step's value, done as a view in JavaScript. */
    readonly kind: 'view';
    readonly node: string;
    readonly op: string;
    readonly input: string;
    readonly output: string;
  };

/** A model run by ORT sub-sessions and unpool: ORT's InferenceSession in shape. */
export interface UnpoolSession<T = OrtTensorLike> {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /** The ORT sub-sessions and unpool steps a run goes through, in order. */
  readonly steps: readonly StepInfo[];
  /** The names run() can fetch: the outputs, and the inputs and outputs of the nodes unpool runs. */
  readonly fetchable: readonly string[];
  /**
   * Runs the model: `feeds` by input name; `fetches` (default: every output) the names to give.
   * Resolves to ORT tensors by name, which the caller owns (dispose() them); every
   * intermediate is released by the run.
   */
  run(feeds: Readonly<Record<string, T>>, fetches?: readonly string[], options?: object): Promise<Record<string, T>>;
  run(feeds: Readonly<Record<string, T>>, options?: object): Promise<Record<string, T>>;
  /** Releases the sub-sessions. */
  release(): Promise<void>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

/** The provider family of `executionProviders` (its first entry decides, as in ORT). */
function providerKind(eps: unknown): { kind: ProviderKind; device?: unknown } {
  if (eps === undefined) return { kind: 'cpu' };
  if (!Array.isArray(eps)) {
    throw new UnpoolTypeError(`createSession: executionProviders must be an array, got ${describe(eps)}`);
  }
  const first: unknown = eps[0];
  const name = typeof first === 'string' ? first : isObject(first) ? first.name : undefined;
  if (name === undefined || name === 'cpu' || name === 'wasm') return { kind: 'cpu' };
  if (name === 'webgpu') return { kind: 'webgpu', device: isObject(first) ? first.device : undefined };
  throw new OnnxModelError(`executionProviders ${describe(name)} is not one the runner knows what to cut ` +
      "for; it runs with 'webgpu', 'wasm' or 'cpu'");
}

function checkOrt(ort: unknown, kind: ProviderKind): asserts ort is OrtNamespace {
  const o = ort as { InferenceSession?: { create?: unknown }; Tensor?: unknown } | undefined;
  if (!isObject(o) || typeof o.InferenceSession?.create !== 'function' || typeof o.Tensor !== 'function') {
    throw new UnpoolTypeError('createSession: options.ort must be the ONNX Runtime namespace you imported ' +
        `(import * as ort from 'onnxruntime-web', or 'onnxruntime-node'), got ${describe(ort)}`);
  }
  if (kind === 'webgpu' && typeof (o.Tensor as { fromGpuBuffer?: unknown }).fromGpuBuffer !== 'function') {
    throw new OnnxModelError("executionProviders 'webgpu' needs ort.Tensor.fromGpuBuffer (onnxruntime-web " +
        '>= 1.17); this ORT has none: upgrade onnxruntime-web');
  }
}

/**
 * Creates a session of `model` (its bytes, or a path or URL as ORT takes
 * it) on `options.ort`. The nodes the execution provider cannot run
 * (rules.ts) run on unpool; everything else on ORT sub-sessions with the
 * same options.
 */
export async function createSession<O extends OrtNamespace>(
    model: Uint8Array | ArrayBuffer | string | URL, options: CreateSessionOptions<O>): Promise<UnpoolSession<TensorOf<O>>> {
  if (!isObject(options)) {
    throw new UnpoolTypeError(`createSession: options must be an object with ort, got ${describe(options)}`);
  }
  const { ort, executionProviders, preferredOutputLocation, unpoolNodes = 'auto', fuse = true, ...rest } = options;
  // Other keys go to ORT, which ignores what it does not know: a misspelt
  // option of the runner's would go unnoticed.
  for (const key of Object.keys(rest)) {
    const meant = RUNNER_KEYS.find((k) => k.toLowerCase() === key.toLowerCase());
    if (meant !== undefined) {
      throw new UnpoolTypeError(`createSession: options.${key} is not an option; did you mean ${meant}?`,
                                'unknown_option');
    }
  }
  const { kind, device } = providerKind(executionProviders);
  checkOrt(ort, kind);
  if (unpoolNodes !== 'auto' && unpoolNodes !== 'all') {
    throw new UnpoolTypeError(`createSession: unpoolNodes=${describe(unpoolNodes)} must be 'auto' or 'all'`);
  }
  if (typeof fuse !== 'boolean') throw new UnpoolTypeError(`createSession: fuse=${describe(fuse)} must be a boolean`);
  const bytes = await readBytes('createSession', model);
  const graph = readModel(bytes);
  const locationOf = (name: string): Location => {
    const p = preferredOutputLocation;
    const l = typeof p === 'string' ? p : isObject(p) ? p[name] : undefined;
    return l === 'gpu-buffer' ? 'gpu-buffer' : 'cpu';
  };
  const forced = new Set<number>();
  for (;;) {
    const plan = partition(graph, kind, unpoolNodes, forced, fuse);
    try {
      const made = await subSessions(ort, plan, bytes, { ...rest, executionProviders }, kind, locationOf);
      let gpu: WebGPUBackend | undefined;
      if (kind === 'webgpu' && plan.steps.some((s) => s.kind === 'unpool')) {
        // A model with no node for ORT still runs on ORT's device, which a
        // session must hold: ORT Web's native EP destroys its device with
        // its last session.
        if (device === undefined && !plan.steps.some((s) => s.kind === 'ort')) {
          made.push(await ort.InferenceSession.create(identityModel() as never, { ...rest, executionProviders } as never));
        }
        gpu = await initWebGPU({ device: (device ?? await ortDevice(ort)) as never });
      } else if (kind === 'cpu') {
        await init();
      }
      return new Session(ort, plan, made, kind, gpu, locationOf) as unknown as UnpoolSession<TensorOf<O>>;
    } catch (e) {
      const refused = kind === 'cpu' ? cpuRefusal(graph, e, forced) : undefined;
      if (refused === undefined) throw e;
      forced.add(refused.index);
    }
  }
}

/** ORT's GPUDevice, there once a WebGPU session exists (the runner's sub-sessions keep it alive). */
async function ortDevice(ort: OrtNamespace): Promise<unknown> {
  const webgpu = ort.env?.webgpu as { device?: unknown } | undefined;
  const d = await webgpu?.device;
  if (d === undefined || d === null) {
    throw new OnnxModelError('ORT made a WebGPU session but ort.env.webgpu.device is not set: pass the device ' +
        "as executionProviders: [{ name: 'webgpu', device }]");
  }
  return d;
}

/** The ORT sub-session of each ORT step (undefined at unpool steps), created in order. */
async function subSessions(ort: OrtNamespace, plan: Plan, bytes: Uint8Array, options: Record<string, unknown>,
                           kind: ProviderKind, locationOf: (name: string) => Location): Promise<(OrtSessionLike | undefined)[]> {
  const { graph } = plan;
  const create = (model: Uint8Array, o: object) => ort.InferenceSession.create(model as never, o as never);
  const outputs = new Set(graph.outputs.map((o) => o.name));
  if (plan.whole) {
    const o = { ...options, preferredOutputLocation: Object.fromEntries([...outputs].map((n) => [n, locationOf(n)])) };
    return [await create(bytes, o)];
  }
  const types = declaredTypes(graph);
  const hostReads = new Set(plan.steps.flatMap((s) => (s.kind === 'unpool' && s.unpool?.outputShape !== undefined ? [s.unpool.outputShape] : [])));
  const sessions: (OrtSessionLike | undefined)[] = [];
  try {
    for (const s of plan.steps) {
      if (s.kind !== 'ort') {
        cutTypes(s, types);
        sessions.push(undefined);
        continue;
      }
      const inputs = s.inputs.map((name) => {
        const elemType = types.get(name);
        if (elemType === undefined) throw new OnnxModelError(`the type of value '${name}' is not known`);
        return { name, elemType };
      });
      const where = (n: string): Location => (outputs.has(n) ? locationOf(n)
        : kind === 'webgpu' && !hostReads.has(n) ? 'gpu-buffer' : 'cpu');
      const o = { ...options, preferredOutputLocation: Object.fromEntries(s.outputs.map((n) => [n, where(n)])) };
      const session = await create(subModel(graph, s.nodes, inputs, s.outputs), o);
      for (const m of session.outputMetadata ?? []) {
        const e = elemTypeOf(m.type);
        if (e !== undefined) types.set(m.name, e);
      }
      sessions.push(session);
    }
  } catch (e) {
    await Promise.allSettled(sessions.map((s) => s?.release()));
    throw e;
  }
  return sessions;
}

/** Element types the model declares (its inputs, outputs and value_info). */
function declaredTypes(graph: OnnxGraph): Map<string, number> {
  const types = new Map<string, number>();
  for (const [name, v] of graph.valueInfo) {
    if (v.type?.value.case === 'tensorType' && v.type.value.value.elemType !== 0) types.set(name, v.type.value.value.elemType);
  }
  for (const [name, t] of graph.initializers) types.set(name, t.dataType);
  return types;
}

/** The types of an unpool step's outputs: its values' type, and int64 indices. */
function cutTypes(s: Step, types: Map<string, number>): void {
  if (s.kind === 'ort') return;
  const x = types.get(s.node.inputs[0]);
  if (s.kind === 'view') {
    if (x !== undefined) types.set(s.node.outputs[0], x);
    return;
  }
  const INT64 = 7;
  if (s.pool !== undefined) {
    if (s.pool.y !== undefined && x !== undefined) types.set(s.pool.y, x);
    for (const v of [s.pool.flat, s.pool.perPlane?.value]) if (v !== undefined) types.set(v, INT64);
  } else if (x !== undefined) {
    types.set(s.unpool!.y, x);
  }
}

function stepInfo(s: Step): StepInfo {
  if (s.kind === 'ort') return { kind: 'ort', nodes: s.nodes.length, inputs: s.inputs, outputs: s.outputs };
  if (s.kind === 'view') return { kind: 'view', node: s.node.label, op: s.node.opType, input: s.reads[0], output: s.node.outputs[0] };
  const attributes: Record<string, number | readonly number[] | string> = {};
  for (const a of s.node.proto.attribute) {
    if (a.type === AttrType.INTS) attributes[a.name] = a.ints.map(Number);
    else if (a.type === AttrType.INT) attributes[a.name] = Number(a.i);
    else if (a.type === AttrType.STRING) attributes[a.name] = new TextDecoder().decode(a.s);
  }
  const { pool, unpool } = s;
  return {
    kind: 'unpool', node: s.node.label, op: s.node.opType as 'MaxPool' | 'MaxUnpool', why: s.why,
    inputs: pool !== undefined ? [s.node.inputs[0]] : [unpool!.x, unpool!.indices],
    outputs: pool !== undefined
      ? [pool.y ?? s.node.outputs[0], pool.perPlane?.value ?? pool.flat ?? s.node.outputs[1]] : [unpool!.y],
    attributes,
  };
}

class Session {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly steps: readonly StepInfo[];
  readonly fetchable: readonly string[];
  private queue: Promise<unknown> = Promise.resolve();
  private released = false;
  private readonly ctx: RunContext<unknown>;

  constructor(ort: OrtNamespace, plan: Plan, private readonly sessions: (OrtSessionLike | undefined)[],
              kind: ProviderKind, gpu: WebGPUBackend | undefined, locationOf: (name: string) => Location) {
    const { graph } = plan;
    this.inputNames = Object.freeze(graph.inputs.map((v) => v.name));
    this.outputNames = Object.freeze(graph.outputs.map((v) => v.name));
    this.steps = Object.freeze(plan.steps.map(stepInfo));
    const views = new Set(plan.steps.flatMap((s) => (s.kind === 'view' ? [s.node.outputs[0]] : [])));
    const cut = plan.steps.flatMap((s) => (s.kind === 'unpool'
      ? [...s.reads, s.pool?.y, s.pool?.flat, s.pool?.perPlane?.value, s.unpool?.y]
        .filter((v): v is string => v !== undefined && !views.has(v))
      : []));
    this.fetchable = Object.freeze([...new Set([...this.outputNames, ...cut])]);
    const exec = kind === 'webgpu' && gpu !== undefined ? gpuExec(gpu) : hostExec;
    this.ctx = {
      plan, sessions, exec: exec as RunContext<unknown>['exec'], convert: new Converter(ort, gpu), locationOf,
      checkAll: gpu === undefined ? undefined : checkAll,
    };
  }

  run(feeds: Readonly<Record<string, OrtTensorLike>>, a?: unknown, b?: unknown): Promise<Record<string, OrtTensorLike>> {
    const fetches = Array.isArray(a) ? a as string[] : this.outputNames;
    const options = Array.isArray(a) ? b : a;
    const { plan, sessions } = this.ctx;
    const run = this.queue.then(() => {
      this.checkRun(feeds, fetches);
      // A model ORT runs whole is its one session's run, as ORT's own.
      if (plan.whole) return sessions[0]!.run(feeds as never, fetches as never, options as never);
      return runPlan(this.ctx, feeds, fetches, options);
    });
    // The queue holds no result: the outputs are the caller's, and the queue
    // would keep the last ones reachable until the next run.
    this.queue = run.then(() => undefined, () => undefined);
    return run;
  }

  private checkRun(feeds: unknown, fetches: readonly string[]): void {
    if (this.released) throw new UnpoolTypeError('run: this session was released');
    if (!isObject(feeds)) throw new UnpoolTypeError(`run: feeds must be an object of ort.Tensors by input name, got ${describe(feeds)}`);
    for (const name of this.inputNames) {
      const t = feeds[name] as { dims?: unknown; type?: unknown } | undefined;
      if (!isObject(t) || !Array.isArray(t.dims) || typeof t.type !== 'string') {
        throw new UnpoolTypeError(`run: feeds.${name} must be an ort.Tensor (input '${name}'), got ${describe(t)}`);
      }
    }
    for (const name of Object.keys(feeds)) {
      if (!this.inputNames.includes(name)) {
        throw new UnpoolTypeError(`run: feeds.${name} is not an input of the model (it has ${this.inputNames.join(', ')})`);
      }
    }
    for (const name of fetches) {
      if (!this.fetchable.includes(name)) {
        throw new UnpoolTypeError(`run: fetches has '${name}', which this session cannot give; it gives ` +
            `${this.fetchable.map((n) => `'${n}'`).join(', ')}`);
      }
    }
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.queue;
    await Promise.all(this.sessions.map((s) => s?.release()));
  }
}

/**
 * Every content check of a run, read back at once (one mapAsync per device:
 * the run has one), in call order: the first that failed.
 */
async function checkAll(checks: readonly PendingCheck[]): Promise<{ step: UnpoolStep; error: unknown } | undefined> {
  const byOwner = new Map<GpuOwner, PendingCheck[]>();
  const seen = new Set<ContentCheck>();
  for (const c of checks) {
    if (seen.has(c.check)) continue;  // a call's results share its checks
    seen.add(c.check);
    byOwner.set(c.owner, [...(byOwner.get(c.owner) ?? []), c]);
  }
  const outcomes = new Map<PendingCheck, Promise<unknown>>();
  for (const [owner, list] of byOwner) {
    owner.outcomes('run', list.map((c) => c.check)).forEach((o, k) => outcomes.set(list[k], o));
  }
  for (const [c, outcome] of outcomes) {
    const error = await outcome;
    if (error !== undefined) return { step: c.step, error };
  }
  return undefined;
}
