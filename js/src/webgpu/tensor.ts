// GpuTensor: a tensor in a GPUBuffer, packed and little-endian as in a typed
// array's buffer (ONNX Runtime's layout): 16-bit values two a word, int64
// indices as (lo, hi) u32 pairs.
import { ArrayClass, DType, DTYPES, StorageArray, TensorData } from '../dtypes.js';
import type { TensorResult } from '../tensor.js';
import { BACKEND_TENSOR, UnpoolError, UnpoolTypeError } from '../tensor.js';
import type { GpuBufferLike, GPUBufferType } from './gpu.js';

/** What a GpuTensor needs of its backend (device.ts). */
export interface GpuOwner {
  readonly fnPrefix: string;
  /** The GPUDevice the tensor's buffer belongs to. */
  readonly device: unknown;
  readBytes(fn: string, buffer: GpuBufferLike, bytes: number): Promise<ArrayBuffer>;
  failure(fn: string, check: ContentCheck): Promise<UnpoolError | undefined>;
  /** The outcomes of several checks, their statuses read back in one mapAsync. */
  failures(fn: string, checks: readonly ContentCheck[]): Promise<UnpoolError | undefined>[];
  alive(fn: string): void;
}

/**
 * The outcome of one call's checks of tensor contents (an index outside its
 * plane, a random sample outside [0, 1]), known only once the GPU has run:
 * the status buffer it wrote and what the core needs to word the error.
 * Not exported by unpool/webgpu, yet kept in the declarations (not marked
 * internal): GpuOwner and device.d.ts name it, and stripInternal would leave
 * them naming nothing (issue 37).
 */
export interface ContentCheck {
  /** [first bad element or 0xffffffff, its value's lo, hi, per call] */
  status?: GpuBufferLike;
  /** The error of a bad element, worded by the core from the status words. */
  error?: (words: Uint32Array) => UnpoolError;
  /** The outcome, once asked for (or from the start: the device's own validation). */
  outcome?: Promise<UnpoolError | undefined>;
}

/** Bytes of `n` elements of `dtype`, as the buffer holds them. */
export const bytesOf = (dtype: DType, n: number) => n * DTYPES[dtype].bytes;

/** A buffer's size for `bytes` of data: rounded up to 16 (ONNX Runtime's fromGpuBuffer needs it). */
export const bufferSize = (bytes: number) => Math.max(16, Math.ceil(bytes / 16) * 16);

/**
 * A tensor in a GPUBuffer. Results of `gpu.*` calls own their buffers
 * (`destroy()` releases them); a tensor made by `gpu.wrap()` does not.
 */
export class GpuTensor<T extends TensorData = TensorData> {
  /** @internal The buffer, as the backend uses it. */
  readonly raw: GpuBufferLike;
  readonly shape: readonly number[];
  readonly dtype: DType;
  /** Number of elements. */
  readonly size: number;
  /** @internal */
  readonly owner: GpuOwner;
  /** @internal The class read() gives. */
  readonly cls: ArrayClass;
  /** @internal Whether destroy() releases the buffer. */
  readonly owned: boolean;
  /** @internal Names this class in the WebAssembly API's messages (tensor.ts checkTensor). */
  get [BACKEND_TENSOR](): string {
    return 'GpuTensor';
  }

  /** @internal The checks of the calls that made this tensor's contents. */
  checks: readonly ContentCheck[] = [];
  private destroyed = false;
  /** Handed to ONNX Runtime by toOrtTensor(): the ort.Tensor owns the buffer. */
  private handedOver = false;
  /** TF.js tensors on the buffer itself (toTfTensor's zeroCopy), while not disposed. */
  private borrowers: { readonly isDisposed?: boolean }[] = [];

  /** @internal */
  constructor(owner: GpuOwner, buffer: GpuBufferLike, shape: readonly number[], dtype: DType,
              cls: ArrayClass, owned: boolean) {
    this.owner = owner;
    this.raw = buffer;
    this.shape = Object.freeze(shape.slice());
    this.dtype = dtype;
    this.size = shape.reduce((a, b) => a * b, 1);
    this.cls = cls;
    this.owned = owned;
  }

  /**
   * The buffer (its first `byteLength` bytes are the tensor), typed as your
   * setup's GPUBuffer (see GPUDeviceType).
   */
  get buffer(): GPUBufferType {
    return this.raw as unknown as GPUBufferType;
  }

  /** Bytes of the tensor in the buffer. */
  get byteLength(): number {
    return bytesOf(this.dtype, this.size);
  }

  /** Whether destroy() was called. */
  get isDestroyed(): boolean {
    return this.destroyed;
  }

  /** @internal Throws unless the tensor can be used by `fn` as `name`. */
  usable(fn: string, name: string): void {
    if (this.destroyed) throw new UnpoolTypeError(`${fn}: ${name} is a destroyed GpuTensor`);
    this.owner.alive(fn);
  }

  /**
   * Resolves when the calls that made this tensor found nothing wrong in
   * their inputs' contents, and rejects with the error the WebAssembly API
   * throws for the same tensors otherwise (an index outside its plane, a
   * random sample outside [0, 1]). Reads back a few status words, not the
   * data.
   */
  async check(): Promise<void> {
    const fn = `${this.owner.fnPrefix}check`;
    this.usable(fn, 'tensor');
    // Every status not read yet is read in one mapAsync.
    for (const outcome of this.owner.failures(fn, this.checks)) {
      const e = await outcome;
      if (e !== undefined) throw e;
    }
  }

  /**
   * The data, read back: `{ data, shape, dtype }` in the class the WebAssembly
   * API returns (for 16-bit values the upload's class; for a wrapped buffer
   * Float16Array where the global exists, else Uint16Array bits). Rejects as
   * check() does when a call that made it found bad input contents.
   */
  async read(): Promise<TensorResult<T>> {
    const fn = `${this.owner.fnPrefix}read`;
    this.usable(fn, 'tensor');
    const type = DTYPES[this.dtype];
    const bytes = this.byteLength;
    const raw = bytes === 0 ? new ArrayBuffer(0) : await this.owner.readBytes(fn, this.raw, bytes);
    await this.check();
    const storage = type.view(raw, 0, this.size) as StorageArray;
    return { data: this.cls.wrap(storage) as T, shape: this.shape.slice(), dtype: this.dtype } as TensorResult<T>;
  }

  /**
   * Releases the buffer when the library made it (a wrapped buffer stays its
   * owner's). May be called twice; the tensor is unusable after it. Throws
   * for a tensor handed to ONNX Runtime by toOrtTensor(): the ort.Tensor owns
   * it, and its dispose() destroys it.
   */
  destroy(): void {
    if (this.destroyed) return;
    if (this.handedOver) {
      throw new UnpoolTypeError(`${this.owner.fnPrefix}destroy: this GpuTensor was handed to ONNX Runtime ` +
          "by toOrtTensor(), and the ort.Tensor owns its buffer: call that tensor's dispose(), which " +
          'destroys it once ONNX Runtime is done with it');
    }
    this.borrowers = this.borrowers.filter((b) => b.isDisposed !== true);
    if (this.borrowers.length > 0) {
      throw new UnpoolTypeError(`${this.owner.fnPrefix}destroy: a TF.js tensor made by toTfTensor(t, tf, ` +
          '{ zeroCopy: true }) uses this buffer and is not disposed: dispose() it first');
    }
    this.destroyed = true;
    if (this.owned) this.raw.destroy();
  }

  /**
   * This tensor's buffer as a tensor of `shape` (as many elements), which
   * takes over the buffer and its checks; this one is destroyed without
   * releasing the buffer.
   * @internal
   */
  reshaped(shape: readonly number[]): GpuTensor<T> {
    const t = new GpuTensor<T>(this.owner, this.raw, shape, this.dtype, this.cls, this.owned);
    if (t.size !== this.size) throw new RangeError(`reshaped: ${this.shape} to ${shape}`);
    t.checks = this.checks;
    this.destroyed = true;
    return t;
  }

  /**
   * toTfTensor's zeroCopy: `borrower` (a TF.js tensor) uses the buffer itself
   * until its `isDisposed`; destroy() refuses until then.
   * @internal
   */
  lend(borrower: { readonly isDisposed?: boolean }): void {
    this.borrowers.push(borrower);
  }

  /**
   * toOrtTensor(): the ort.Tensor owns the buffer from now on (destroy()
   * refuses); the returned function, its dispose(), destroys the tensor.
   * @internal
   */
  handOver(fn: string): () => void {
    if (this.handedOver) {
      throw new UnpoolTypeError(`${fn}: t was handed to ONNX Runtime by an earlier toOrtTensor(), and ` +
          'that ort.Tensor owns its buffer: use it (two would each destroy the buffer on dispose())');
    }
    this.handedOver = true;
    return () => {
      this.handedOver = false;
      this.destroy();
    };
  }
}
