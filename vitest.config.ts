// Vitest in Node: the JS suites (tests/js) against the built package (dist/).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/js/**/*.test.ts'],
    environment: 'node',
    reporters: ['default'],
  },
});
