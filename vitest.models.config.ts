// Vitest in Node for the model fixtures (scripts/test-models.sh, the models
// stage): tests/models/**/*.node.test.ts read the fixtures that
// tests/models/make-fixtures.py wrote to UNPOOL_MODELS_DIR (default
// build/models) and run them in onnxruntime-node.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/models/**/*.node.test.ts'],
    environment: 'node',
    // A SegNet at 3x64x64 takes well under a second on ORT's CPU EP, but the
    // WebGPU-free runner legs and a loaded 2-core machine want a margin.
    testTimeout: 120_000,
    reporters: ['default'],
  },
});
