// Vitest in Node for the model fixtures (scripts/test-models.sh, the models
// stage): tests/models/**/*.node.test.ts read the fixtures that
// tests/models/make-fixtures.py wrote to UNPOOL_MODELS_DIR (default
// build/models) and run them in onnxruntime-node.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/models/**/*.node.test.ts'],
    environment: 'node',
    // A 3x64x64 SegNet takes well under a second on ORT's CPU EP; the margin
    // is for a loaded 2-core machine and for slower runners' tests here.
    testTimeout: 120_000,
    reporters: ['default'],
  },
});
