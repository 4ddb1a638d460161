// The shared body of the hostile-argument suites: every case must throw the
// exact error (class, message, and the core's code when the core decides),
// leave the heap as it was, and leave the module working; and the helpers
// the boundary suites (hostile.test.ts, unusual-inputs.test.ts) share.
import { afterAll, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';

export type HostileCase = [label: string, call: () => unknown, type: typeof TypeError | typeof RangeError,
  message: string, code?: string];

/** The codes of the RangeErrors the JavaScript layer raises itself (the core's are given with the case). */
const JS_RANGE_CODES = ['invalid_argument', 'invalid_shape', 'too_large'];

/** Registers, inside the caller's describe, one test a case and the heap and module checks around them. */
export function hostileCases(cases: HostileCase[], moduleStillWorks: () => void): void {
  const before = { bytes: 0 };
  it('the module works before', () => {
    moduleStillWorks();
    before.bytes = unpool.memoryUsage().inUseBytes;
  });

  for (const [label, call, type, message, code] of cases) {
    it(label, () => {
      let thrown: unknown;
      try {
        call();
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(type);
      expect((thrown as Error).message).toBe(message);
      // Every error carries a documented code (issue 32): the core's, given
      // with the case, or the JavaScript checks' (a TypeError is an
      // UnpoolTypeError, a RangeError an UnpoolError).
      expect(unpool.isUnpoolError(thrown)).toBe(true);
      if (code === undefined) {
        if (type === TypeError) {
          expect(thrown).toBeInstanceOf(unpool.UnpoolTypeError);
          expect(['invalid_type', 'unknown_option']).toContain((thrown as unpool.UnpoolTypeError).code);
        } else {
          expect(thrown).toBeInstanceOf(unpool.UnpoolError);
          expect(JS_RANGE_CODES).toContain((thrown as unpool.UnpoolError).code);
        }
      } else {
        expect(thrown).toBeInstanceOf(unpool.UnpoolError);
        expect((thrown as unpool.UnpoolError).code).toBe(code);
      }
    });
  }

  afterAll(() => {
    moduleStillWorks();
    expect(unpool.memoryUsage().inUseBytes).toBe(before.bytes);
  });
}

export const range = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
export const rep = (v: number, dims: number) => range(dims, () => v);
export const prod = (a: readonly number[]) => a.reduce((p, v) => p * v, 1);

/** The known result checked after every hostile call (float32): the PyTorch docs example. */
export function moduleStillWorks(): void {
  const x = { data: Float32Array.from(range(16, (i) => i + 1)), shape: [1, 1, 4, 4] };
  const { output, indices } = unpool.maxPool2d(x, { kernelSize: 2 });
  expect(Array.from(output.data)).toEqual([6, 8, 14, 16]);
  expect(Array.from(indices.data)).toEqual([5, 7, 13, 15]);
  const y = unpool.maxUnpool2d(output, indices, { kernelSize: 2 });
  expect(Array.from(y.data)).toEqual([0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 14, 0, 16]);
}

/** A (1, 1, 4, ...) input with distinct values and its 2-pooled output and indices. */
export function pooled(dims: number) {
  const inShape = [1, 1, ...rep(4, dims)], outShape = [1, 1, ...rep(2, dims)];
  const x = { data: Float32Array.from(range(prod(inShape), (i) => (i * 7) % 23)), shape: inShape };
  const r = unpool[`maxPool${dims}d` as 'maxPool2d'](x, { kernelSize: 2 });
  return { inShape, outShape, x, output: r.output, indices: r.indices };
}
