import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/models/**/*.node.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    reporters: ['default'],
  },
});
