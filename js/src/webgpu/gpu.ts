// The part of the WebGPU API the backend uses, declared structurally: the
// package's types then need no @webgpu/types (nor a TypeScript lib that
// declares WebGPU), and the objects of any implementation fit them
// (browsers, Deno, Dawn's `webgpu` package for Node.js, ONNX Runtime's and
// TF.js's devices). Usage flags are spelled as numbers, as the spec fixes
// them, so nothing needs the GPUBufferUsage global either.

/** GPUBufferUsage bits (WebGPU §5.1). */
export const USAGE = {
  MAP_READ: 0x0001, COPY_SRC: 0x0004, COPY_DST: 0x0008, UNIFORM: 0x0040, STORAGE: 0x0080,
  INDIRECT: 0x0100,
} as const;

export interface GpuBufferLike {
  readonly size: number;
  readonly usage: number;
  readonly mapState?: string;
  label?: string;
  mapAsync(mode: number, offset?: number, size?: number): Promise<void>;
  getMappedRange(offset?: number, size?: number): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}

export interface GpuBindGroupLike { readonly label?: string }
export interface GpuBindGroupLayoutLike { readonly label?: string }
export interface GpuShaderModuleLike {
  getCompilationInfo?(): Promise<{ messages: readonly { type: string; message: string;
                                                        lineNum: number; linePos: number }[] }>;
}
export interface GpuComputePipelineLike {
  getBindGroupLayout(index: number): GpuBindGroupLayoutLike;
}

export interface GpuComputePassLike {
  setPipeline(p: GpuComputePipelineLike): void;
  setBindGroup(index: number, group: GpuBindGroupLike): void;
  dispatchWorkgroups(x: number, y?: number, z?: number): void;
  dispatchWorkgroupsIndirect(buffer: GpuBufferLike, offset: number): void;
  end(): void;
}

export interface GpuCommandEncoderLike {
  beginComputePass(descriptor?: { label?: string }): GpuComputePassLike;
  copyBufferToBuffer(src: GpuBufferLike, srcOffset: number, dst: GpuBufferLike, dstOffset: number,
                     size: number): void;
  clearBuffer(buffer: GpuBufferLike, offset?: number, size?: number): void;
  finish(): unknown;
}

export interface GpuQueueLike {
  submit(buffers: unknown[]): void;
  writeBuffer(buffer: GpuBufferLike, offset: number, data: ArrayBufferView | ArrayBuffer,
              dataOffset?: number, size?: number): void;
  onSubmittedWorkDone(): Promise<void>;
}

export interface GpuSupportedLimitsLike {
  readonly maxStorageBufferBindingSize: number;
  readonly maxComputeWorkgroupsPerDimension: number;
  readonly maxComputeInvocationsPerWorkgroup: number;
  readonly maxComputeWorkgroupSizeX: number;
  readonly minStorageBufferOffsetAlignment: number;
  readonly maxBufferSize: number;
  readonly maxStorageBuffersPerShaderStage: number;
}

export interface GpuDeviceLike {
  readonly queue: GpuQueueLike;
  readonly limits: GpuSupportedLimitsLike;
  readonly features: { has(name: string): boolean };
  readonly lost: Promise<{ reason?: string; message?: string }>;
  label?: string;
  createBuffer(d: { size: number; usage: number; label?: string; mappedAtCreation?: boolean }):
      GpuBufferLike;
  createShaderModule(d: { code: string; label?: string }): GpuShaderModuleLike;
  createBindGroupLayout(d: {
    label?: string;
    entries: { binding: number; visibility: number;
               buffer: { type: 'uniform' | 'storage' | 'read-only-storage' } }[];
  }): GpuBindGroupLayoutLike;
  createPipelineLayout(d: { bindGroupLayouts: GpuBindGroupLayoutLike[]; label?: string }): unknown;
  createComputePipeline(d: {
    layout: unknown; label?: string;
    compute: { module: GpuShaderModuleLike; entryPoint: string;
               constants?: Record<string, number> };
  }): GpuComputePipelineLike;
  createBindGroup(d: {
    layout: GpuBindGroupLayoutLike; label?: string;
    entries: { binding: number; resource: { buffer: GpuBufferLike; offset?: number; size?: number } }[];
  }): GpuBindGroupLike;
  createCommandEncoder(d?: { label?: string }): GpuCommandEncoderLike;
  pushErrorScope?(filter: string): void;
  popErrorScope?(): Promise<{ message: string } | null>;
}

export interface GpuAdapterLike {
  requestDevice(d?: unknown): Promise<GpuDeviceLike>;
}

/** requestAdapter()'s options (WebGPU's GPURequestAdapterOptions). */
export interface GpuRequestAdapterOptions {
  powerPreference?: 'low-power' | 'high-performance';
  forceFallbackAdapter?: boolean;
  /** 'compatibility': a WebGPU compatibility-mode adapter (Dawn's OpenGL ES backend). */
  featureLevel?: 'core' | 'compatibility';
  [other: string]: unknown;
}

export interface GpuLike {
  requestAdapter(o?: GpuRequestAdapterOptions): Promise<GpuAdapterLike | null>;
}

/**
 * The GPUDevice type of the consumer's TypeScript setup: WebGPU's own
 * (@webgpu/types, which ONNX Runtime's and TF.js's types load, or a lib
 * that declares WebGPU) where the global `GPUDevice` is declared, else the
 * structural {@link GpuDeviceLike}. So `initWebGPU({ device: await
 * ort.env.webgpu.device })` and handing `gpu.device` back to ONNX Runtime
 * compile without casts, and nothing requires @webgpu/types.
 */
export type GPUDeviceType =
    typeof globalThis extends { GPUDevice: { prototype: infer P } } ? P : GpuDeviceLike;

/** The GPUBuffer type of the consumer's setup (see {@link GPUDeviceType}). */
export type GPUBufferType =
    typeof globalThis extends { GPUBuffer: { prototype: infer P } } ? P : GpuBufferLike;

/** The GPUAdapter type of the consumer's setup (see {@link GPUDeviceType}). */
export type GPUAdapterType =
    typeof globalThis extends { GPUAdapter: { prototype: infer P } } ? P : GpuAdapterLike;

/** The GPU type (navigator.gpu's) of the consumer's setup (see {@link GPUDeviceType}). */
export type GPUType = typeof globalThis extends { GPU: { prototype: infer P } } ? P : GpuLike;
