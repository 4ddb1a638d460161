// examples/pool-worker.mjs as a browser module Web Worker: its own module
// instance, pool + unpool off the main thread, buffers transferred back.
// Browser only (Node has no global Worker; tests/examples runs the same file
// in a worker_threads Worker).
import { describe, expect, it } from 'vitest';

interface Reply {
  id: number;
  error?: string;
  output: { data: Float32Array; shape: number[] };
  indices: { data: Int32Array; shape: number[] };
  restored: { data: Float32Array; shape: number[] };
}

describe.skipIf(typeof Worker === 'undefined')('examples/pool-worker.mjs in a Web Worker', () => {
  it('pools and unpools the PyTorch docs example; errors come back as messages', async () => {
    const worker = new Worker(new URL('../../examples/pool-worker.mjs', import.meta.url), { type: 'module' });
    const ask = (msg: object) => new Promise<Reply>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<Reply>) => resolve(e.data);
      worker.onerror = (e) => reject(new Error(e.message));
      worker.postMessage(msg);
    });
    try {
      const x = { data: Float32Array.from({ length: 16 }, (_, i) => i + 1), shape: [1, 1, 4, 4] };
      const r = await ask({ id: 1, x, kernelSize: 2 });
      expect(r.id).toBe(1);
      expect(r.error).toBeUndefined();
      expect(r.output.shape).toEqual([1, 1, 2, 2]);
      expect(Array.from(r.output.data)).toEqual([6, 8, 14, 16]);
      expect(r.indices.data).toBeInstanceOf(Int32Array);
      expect(Array.from(r.indices.data)).toEqual([5, 7, 13, 15]);
      expect(Array.from(r.restored.data)).toEqual([0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 14, 0, 16]);
      const bad = await ask({ id: 2, x, kernelSize: 0 });
      expect(bad).toEqual({ id: 2, error: 'maxPool2d: kernelSize=0 must be >= 1' });
    } finally {
      worker.terminate();
    }
  });
});
