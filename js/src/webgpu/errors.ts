// What a call's errors are once the GPU has run: a content check's status
// read back and worded by the core, and a device's validation error traced
// to the argument whose buffer it refused (a one-invocation probe each).
import { UnpoolError } from '../tensor.js';
import type { GpuBindGroupLayoutLike, GpuBufferLike, GpuComputePipelineLike, GpuDeviceLike } from './gpu.js';
import { NONE } from './kernels.js';
import type { ContentCheck, GpuTensor } from './tensor.js';

const COMPUTE = 0x4;  // GPUShaderStage.COMPUTE

export class DeviceErrors {
  private probe: { layout: GpuBindGroupLayoutLike; pipeline: GpuComputePipelineLike } | undefined;

  constructor(private readonly device: GpuDeviceLike,
              private readonly readEach: (fn: string, b: readonly GpuBufferLike[], bytes: number) => Promise<ArrayBuffer>) {}

  /** The outcome of content check `c`: its status read back (once) and worded, or none. */
  failure(fn: string, c: ContentCheck): Promise<UnpoolError | undefined> {
    return this.failures(fn, [c])[0];
  }

  /**
   * The outcomes of content checks `checks`: the statuses not read yet read
   * back together (one mapAsync) and worded; each outcome is kept, and its
   * status buffer, no longer needed, destroyed.
   */
  failures(fn: string, checks: readonly ContentCheck[]): Promise<UnpoolError | undefined>[] {
    const unread = [...new Set(checks.filter((c) => c.outcome === undefined))];
    if (unread.length > 0) {
      const words = this.readEach(fn, unread.map((c) => c.status!), 16).then((raw) => new Uint32Array(raw));
      unread.forEach((c, k) => {
        c.outcome = words.then((all) => {
          c.status!.destroy();
          c.status = undefined;
          const w = all.subarray(4 * k, 4 * k + 4);
          return w[0] === NONE ? undefined : c.error!(w);
        });
      });
    }
    return checks.map((c) => c.outcome!);
  }

  /**
   * Runs `encode` (which encodes and submits a call's work) in a validation
   * error scope of the device. A buffer the GPU cannot use (destroyed by its
   * owner, or of another device) is no JavaScript error at the call: the
   * device reports it later. The returned check then fails with an error
   * naming the function and the argument whose buffer the device refused
   * (each wrapped argument is probed alone), so read() and check() of the
   * results reject rather than give a silent wrong result.
   */
  refusals(fn: string, named: [string, GpuTensor][], encode: () => void): ContentCheck | undefined {
    const d = this.device;
    if (d.pushErrorScope === undefined || d.popErrorScope === undefined) {
      encode();
      return undefined;
    }
    d.pushErrorScope('validation');
    let popped!: Promise<{ message: string } | null>;
    try {
      encode();
    } finally {
      popped = d.popErrorScope();
    }
    const outcome = popped.then(async (e) => {
      if (e === null) return undefined;
      const culprits: string[] = [];
      for (const [name, t] of named) {
        if (!t.owned && !(await this.usable(t.raw))) culprits.push(name);
      }
      const who = culprits.length > 0
        ? `${culprits.join(' and ')}: the device cannot use ${culprits.length > 1 ? 'their buffers' : 'its buffer'} ` +
          '(destroyed by its owner, or of another device)'
        : 'the device refused the call';
      return new UnpoolError(`${fn}: ${who}: ${e.message}`, 'invalid_argument');
    });
    return { outcome };
  }

  /**
   * Whether the device can run a kernel on `buffer`: a one-invocation probe
   * in an error scope (a buffer of another device fails its bind group, a
   * destroyed one the submit).
   */
  private async usable(buffer: GpuBufferLike): Promise<boolean> {
    const d = this.device;
    d.pushErrorScope!('validation');
    if (this.probe === undefined) {
      const layout = d.createBindGroupLayout({
        label: 'unpool probe',
        entries: [{ binding: 0, visibility: COMPUTE, buffer: { type: 'read-only-storage' } }],
      });
      const module = d.createShaderModule({
        label: 'unpool probe',
        code: '@group(0) @binding(0) var<storage, read> b: array<u32>;\n' +
              '@compute @workgroup_size(1) fn probe() { _ = b[0]; }\n',
      });
      const pipeline = d.createComputePipeline({
        layout: d.createPipelineLayout({ bindGroupLayouts: [layout] }), label: 'unpool probe',
        compute: { module, entryPoint: 'probe' },
      });
      this.probe = { layout, pipeline };
    }
    const group = d.createBindGroup({
      layout: this.probe.layout, label: 'unpool probe',
      entries: [{ binding: 0, resource: { buffer, offset: 0, size: 4 } }],
    });
    const enc = d.createCommandEncoder({ label: 'unpool probe' });
    const pass = enc.beginComputePass();
    pass.setPipeline(this.probe.pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(1);
    pass.end();
    d.queue.submit([enc.finish()]);
    return (await d.popErrorScope!()) === null;
  }
}
