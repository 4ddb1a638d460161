// The two backends of the runner's unpool steps, one interface: the
// WebAssembly API on host tensors (CPU execution providers: ORT's tensors are
// typed arrays, read as they are) and unpool/webgpu on GpuTensors (ORT's
// WebGPU execution providers: ORT's buffers wrapped, results handed back
// with no copy). A step's ONNX semantics (semantics.ts) are the same on both.
import {
  convertIndices, maxPool1d, maxPool2d, maxPool3d, maxUnpool1d, maxUnpool2d, maxUnpool3d,
} from '../index.js';
import type { TensorData, TensorResult } from '../tensor.js';
import type { GpuTensor } from '../webgpu/tensor.js';
import type { WebGPUBackend } from '../webgpu/index.js';
import type { PoolOptions } from './semantics.js';

type Fn = (...args: never[]) => unknown;
const POOLS: readonly Fn[] = [maxPool1d, maxPool2d, maxPool3d];
const UNPOOLS: readonly Fn[] = [maxUnpool1d, maxUnpool2d, maxUnpool3d];
const name = (op: 'maxPool' | 'maxUnpool', dims: number) => `${op}${dims}d` as const;

/** A pool's kernel, stride and padding, per spatial dim. */
export interface PoolGeometry {
  readonly kernelSize: readonly number[];
  readonly stride: readonly number[];
  readonly padding: readonly number[];
}

const unpoolOptions = (outputSize: readonly number[], pool?: PoolGeometry) =>
  ({ outputSize: outputSize.slice(), ...(pool ? { kernelSize: pool.kernelSize, stride: pool.stride, padding: pool.padding } : {}) });

/** A host tensor: an ORT CPU tensor ({ data, dims, type }) or a WebAssembly API result. */
export type HostTensor = TensorResult | { data: TensorData; dims: readonly number[]; type: string };

/** One backend of the unpool steps; `H` is its tensor. */
export interface Exec<H> {
  readonly kind: 'cpu' | 'webgpu';
  shape(t: H): readonly number[];
  pool(dims: number, x: H, options: PoolOptions): { output: H; indices: H };
  /** Per-plane indices to ONNX's flat ones, for a pooled input of shape `inputShape`. */
  toFlat(perPlane: H, inputShape: readonly number[]): H;
  /**
   * MaxUnpool with per-plane indices into an output of spatial size
   * `outputSize`; `pool`, the geometry of the pool that made the indices
   * where known, lets unpool take its faster paths (the same result).
   */
  unpool(dims: number, x: H, perPlane: H, outputSize: readonly number[], pool?: PoolGeometry): H;
  /**
   * ONNX's MaxUnpool as ORT computes it: every value scattered to its flat
   * index in the whole output of shape `outputShape` (an index may fall in
   * another (n, c) plane). unpool's kernel-free unpool of one plane of all
   * the elements does exactly that, the later duplicate winning.
   */
  unpoolFlat(x: H, flat: H, outputShape: readonly number[]): H;
  /** Releases a tensor this backend made (GPU: destroys it; host: nothing). */
  free(t: H): void;
}

const call = <R>(f: Fn, ...args: unknown[]) => (f as unknown as (...a: unknown[]) => R)(...args);

/** The WebAssembly backend (init() must have run). */
export const hostExec: Exec<HostTensor> = {
  kind: 'cpu',
  shape: (t) => ('shape' in t ? t.shape : t.dims),
  pool: (dims, x, options) => call(POOLS[dims - 1], x, options),
  toFlat: (i, inputShape) => call(convertIndices, i, { from: 'pytorch', to: 'onnx', inputShape, indexType: 'int64' }),
  unpool: (dims, x, i, outputSize, pool) => call(UNPOOLS[dims - 1], x, i, unpoolOptions(outputSize, pool)),
  unpoolFlat(x, flat, outputShape) {
    const plane = (t: HostTensor) => [1, 1, t.data.length];
    const y = call<TensorResult>(maxUnpool1d, { data: x.data, shape: plane(x) }, { data: flat.data, shape: plane(flat) },
                                 { outputSize: [outputShape.reduce((a, b) => a * b, 1)] });
    return { ...y, shape: outputShape.slice() };
  },
  free: () => {},
};

/** The WebGPU backend on `gpu` (ORT's device). */
export function gpuExec(gpu: WebGPUBackend): Exec<GpuTensor> {
  const ops = gpu as unknown as Record<string, Fn>;
  return {
    kind: 'webgpu',
    shape: (t) => t.shape,
    pool: (dims, x, options) => call(ops[name('maxPool', dims)], x, options),
    toFlat: (i, inputShape) =>
      call(gpu.convertIndices, i, { from: 'pytorch', to: 'onnx', inputShape, indexType: 'int64' }),
    unpool: (dims, x, i, outputSize, pool) => call(ops[name('maxUnpool', dims)], x, i, unpoolOptions(outputSize, pool)),
    unpoolFlat(x, flat, outputShape) {
      // Views of the inputs as one plane (wraps own nothing); the result takes its shape.
      const view = (t: GpuTensor) => gpu.wrap(t.buffer as never, { shape: [1, 1, t.size], dtype: t.dtype }) as GpuTensor;
      const y = call<GpuTensor>(ops.maxUnpool1d, view(x), view(flat), { outputSize: [outputShape.reduce((a, b) => a * b, 1)] });
      return y.reshaped(outputShape);
    },
    free: (t) => t.destroy(),
  };
}
