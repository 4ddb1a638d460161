// The page's mapAsync calls and live GPUBuffers, counted from now on (ORT's,
// unpool's, everyone's): what the WebGPU legs of the runner's tests watch.
/// <reference types="@webgpu/types" />
import type { GpuWatch } from './runner-cases.js';

export function watchGpu(): GpuWatch & { restore(): void } {
  const { mapAsync } = GPUBuffer.prototype;
  const { destroy } = GPUBuffer.prototype;
  const { createBuffer } = GPUDevice.prototype;
  let maps = 0;
  const live = new Set<GPUBuffer>();
  GPUBuffer.prototype.mapAsync = function (this: GPUBuffer, ...a: Parameters<GPUBuffer['mapAsync']>) {
    maps++;
    return mapAsync.apply(this, a);
  };
  GPUBuffer.prototype.destroy = function (this: GPUBuffer) {
    live.delete(this);
    return destroy.apply(this);
  };
  GPUDevice.prototype.createBuffer = function (this: GPUDevice, d: GPUBufferDescriptor) {
    const b = createBuffer.call(this, d);
    live.add(b);
    return b;
  };
  return {
    maps: () => maps,
    liveBuffers: () => live.size,
    restore() {
      Object.assign(GPUBuffer.prototype, { mapAsync, destroy });
      GPUDevice.prototype.createBuffer = createBuffer;
    },
  };
}
