// The values of one run and their lifetimes. A value may be held as ORT's
// tensor, as a host tensor (the WebAssembly API's) or as a GpuTensor, each
// made from another when a step needs it; the run owns everything it made
// and releases a value when the last step that reads it is done (ORT's
// InferenceSession contract: the caller owns only what run() returns).
import type { TensorData } from '../dtypes.js';
import type { GpuTensor } from '../webgpu/tensor.js';
import type { WebGPUBackend } from '../webgpu/index.js';
import { ORT_GPU_TYPES, toOrtTensor as gpuToOrt } from '../webgpu/interop.js';
import type { HostTensor } from './exec.js';
import type { OrtNamespace, OrtTensorLike } from './ort.js';

/** One value of a run. */
export class Value {
  /** ORT's tensor, and whether the run must dispose it (not a feed, not returned). */
  ort?: OrtTensorLike;
  ortOwned = false;
  host?: HostTensor;
  gpu?: GpuTensor;
  /** Whether `gpu` was made by the run (a result, an upload or a wrap) and not handed to ORT. */
  gpuOwned = false;
  readonly dims: readonly number[];
  /** Called once at release (a view releases its source). */
  onRelease?: () => void;

  constructor(dims: readonly number[]) {
    this.dims = dims.slice();
  }

  release(): void {
    const { ort, gpu } = this;
    this.ort = this.host = this.gpu = undefined;
    if (ort !== undefined && this.ortOwned) ort.dispose();
    if (gpu !== undefined && this.gpuOwned && !gpu.isDestroyed) gpu.destroy();
    this.ortOwned = this.gpuOwned = false;
    const f = this.onRelease;
    this.onRelease = undefined;
    f?.();
  }
}

/** ORT's name of a host tensor's type ('float16' for Uint16Array bits, as ORT holds them). */
function ortType(t: HostTensor): string {
  return 'dtype' in t ? t.dtype : t.type;
}

/** Makes and hands over tensors between ORT, the host and the GPU. */
export class Converter {
  constructor(private readonly ort: OrtNamespace, private readonly gpu: WebGPUBackend | undefined) {}

  /**
   * The value as an ORT tensor (made once; owned by the run unless
   * returned). A GpuTensor of a type ORT takes from a GPU buffer is handed
   * over with no copy; one it does not (float64, int8, int16, bfloat16) is
   * read back, as ORT would have to for its CPU EP anyway.
   */
  async toOrt(v: Value): Promise<OrtTensorLike> {
    if (v.ort !== undefined) return v.ort;
    if (v.gpu !== undefined && ORT_GPU_TYPES.includes(v.gpu.dtype)) {
      // ORT's tensor owns the buffer from here on: its dispose() destroys it.
      v.ort = gpuToOrt(v.gpu, this.ort as never) as OrtTensorLike;
      v.gpuOwned = false;
    } else {
      if (v.gpu !== undefined && v.host === undefined) {
        const r = await v.gpu.read();
        v.host = { data: r.data, dims: r.shape, type: r.dtype };
      }
      const h = v.host!;
      v.ort = new this.ort.Tensor(ortType(h) as never, h.data as never, v.dims.slice() as never);
    }
    v.ortOwned = true;
    return v.ort;
  }

  /** The value as a host tensor (CPU execution providers: ORT's tensors are host memory). */
  toHost(v: Value): HostTensor {
    if (v.host !== undefined) return v.host;
    const t = v.ort!;
    if (t.location !== undefined && t.location !== 'cpu' && t.location !== 'cpu-pinned') {
      throw new Error(`unpool/onnx: a tensor on '${t.location}' reached a CPU step`);
    }
    v.host = { data: t.data as TensorData, dims: t.dims, type: t.type };
    return v.host;
  }

  /** A view of GpuTensor `t` (no copy, owning nothing) with shape `dims`. */
  view(t: GpuTensor, dims: readonly number[]): GpuTensor {
    return this.gpu!.wrap(t.buffer as never, { shape: dims, dtype: t.dtype }) as GpuTensor;
  }

  /** The value as a GpuTensor on the backend's device: ORT's buffer wrapped, or host data uploaded. */
  toGpu(v: Value): GpuTensor {
    if (v.gpu !== undefined) return v.gpu;
    const gpu = this.gpu!;
    const t = v.ort;
    if (t !== undefined && t.location === 'gpu-buffer') {
      v.gpu = gpu.wrap(t as never) as GpuTensor;
    } else {
      const h = t !== undefined ? this.toHost(v) : v.host!;
      v.gpu = gpu.upload({ data: h.data, shape: v.dims, dtype: ortType(h) as never }) as GpuTensor;
    }
    v.gpuOwned = true;
    return v.gpu;
  }
}
