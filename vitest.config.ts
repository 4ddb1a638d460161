// Vitest in Node: the JS suites (tests/js) against the built package (dist/).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/js/**/*.test.ts'],
    environment: 'node',
    // The large exhaustive tests (hostile.test.ts's thousands of cases) take
    // 2-4 s alone and twice that on a loaded 2-core machine: the default
    // 5 s is no margin. A timeout is not a speed claim (those are benches).
    testTimeout: 60_000,
    reporters: ['default'],
  },
});
