// The shared body of the hostile-argument suites: every case must throw the
// exact error (class, message, and the core's code when the core decides),
// leave the heap as it was, and leave the module working.
import { afterAll, expect, it } from 'vitest';
import * as unpool from '../../dist/index.js';

export type HostileCase = [label: string, call: () => unknown, type: typeof TypeError | typeof RangeError,
  message: string, code?: string];

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
      if (code === undefined) {
        expect(thrown).not.toBeInstanceOf(unpool.UnpoolError);
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
