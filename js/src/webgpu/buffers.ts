// The buffers of one device: the library's tensors (new, uploaded, or a
// caller's wrapped), read-back, and a call's uniform, status and scratch
// buffers.
import { ArrayClass, DType, DTYPES } from '../dtypes.js';
import { describe, numel, UnpoolError, UnpoolTypeError } from '../tensor.js';
import { GpuBufferLike, GpuDeviceLike, USAGE } from './gpu.js';
import { NONE } from './kernels.js';
import { PARAMS_BYTES } from './params.js';
import { bufferSize, bytesOf, GpuOwner, GpuTensor } from './tensor.js';

const F16 = (globalThis as { Float16Array?: unknown }).Float16Array;

/** The class read() gives a wrapped buffer of `dtype` (ONNX Runtime's rule for float16). */
function wrappedClass(dtype: DType): ArrayClass {
  const classes = DTYPES[dtype].classes;
  if (dtype === 'float16' && F16 === undefined) return classes.find((c) => c.tag === 'Uint16Array')!;
  return classes[0];
}

export abstract class GpuMemory {
  readonly fnPrefix = 'gpu.';

  protected constructor(readonly device: GpuDeviceLike) {}

  /** The owner of the tensors made here (the backend). */
  protected abstract get owner(): GpuOwner;

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
    return new GpuTensor(this.owner, buffer, shape, dtype, cls, true);
  }

  /** `data` written into a new buffer (its bytes padded to a whole word). */
  upload(fn: string, data: ArrayBufferView, shape: readonly number[], dtype: DType, cls: ArrayClass): GpuTensor {
    const t = this.tensor(fn, shape, dtype, cls, 'upload');
    const bytes = data.byteLength;
    if (bytes > 0) {
      let src = new Uint8Array(data.buffer, data.byteOffset, bytes);
      if (bytes % 4 !== 0) {
        const padded = new Uint8Array(Math.ceil(bytes / 4) * 4);
        padded.set(src);
        src = padded;
      }
      this.device.queue.writeBuffer(t.raw, 0, src, 0, src.byteLength);
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
    return new GpuTensor(this.owner, b, shape, dtype, wrappedClass(dtype), false);
  }

  /** The first `bytes` of `buffer`, copied out through a staging buffer. */
  async readBytes(fn: string, buffer: GpuBufferLike, bytes: number): Promise<ArrayBuffer> {
    this.owner.alive(fn);
    const size = Math.ceil(bytes / 4) * 4;
    const staging = this.device.createBuffer({ size, usage: USAGE.MAP_READ | USAGE.COPY_DST, label: 'unpool read' });
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

  /**
   * The first `bytes` of each of `buffers`, one after the other, copied out
   * through one staging buffer: one mapAsync for all of them.
   */
  async readEach(fn: string, buffers: readonly GpuBufferLike[], bytes: number): Promise<ArrayBuffer> {
    this.owner.alive(fn);
    const size = Math.ceil(bytes / 4) * 4;
    const staging = this.device.createBuffer({
      size: size * buffers.length, usage: USAGE.MAP_READ | USAGE.COPY_DST, label: 'unpool read',
    });
    try {
      const enc = this.device.createCommandEncoder({ label: 'unpool read' });
      buffers.forEach((b, k) => enc.copyBufferToBuffer(b, 0, staging, k * size, size));
      this.device.queue.submit([enc.finish()]);
      await staging.mapAsync(1);
      const copy = staging.getMappedRange(0, size * buffers.length).slice(0);
      staging.unmap();
      return copy;
    } finally {
      staging.destroy();
    }
  }

  /** A status buffer: [NONE, 0, 0, 0], for one call's content checks. */
  statusBuffer(): GpuBufferLike {
    const b = this.device.createBuffer({
      size: 16, usage: USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST, label: 'unpool status',
    });
    this.device.queue.writeBuffer(b, 0, new Uint32Array([NONE, 0, 0, 0]));
    return b;
  }

  /**
   * A uniform buffer of the Params block, destroyed once its call is
   * submitted. Not pooled: reusing one (a queue write into a buffer that
   * submitted work still reads) made unpool calls slower on Dawn
   * (bench/RESULTS.md, decisions).
   */
  uniform(): GpuBufferLike {
    return this.device.createBuffer({ size: PARAMS_BYTES, usage: USAGE.UNIFORM | USAGE.COPY_DST, label: 'unpool params' });
  }
}
