// Vitest browser mode for the model runner's tests (the models stage,
// scripts/test-models.sh), UNPOOL_ENGINE choosing the engine as in
// vitest.browser.config.ts and UNPOOL_WEBGPU=1 the WebGPU legs
// (tests/models/*.webgpu.test.ts, Chromium on SwiftShader and Firefox ESR on
// lavapipe, with the flags of vitest.webgpu.config.ts); without it,
// tests/models/*.browser.test.ts (ORT's wasm EP) in any of the three engines.
import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { CHROMIUM, CHROMIUM_ARGS, CHROMIUM_NO_WEBGPU, CHROMIUM_WEBGPU } from './tests/engines/engines.mjs';
import { engineProvider } from './tests/engines/vitest-provider.mjs';

const engine = process.env.UNPOOL_ENGINE ?? 'chromium';
const webgpu = process.env.UNPOOL_WEBGPU === '1';
if (!['chromium', 'firefox', 'webkit'].includes(engine) || (webgpu && engine === 'webkit')) {
  throw new Error(`UNPOOL_ENGINE=${engine}: one of chromium, firefox${webgpu ? '' : ', webkit'}`);
}

export default defineConfig({
  test: {
    include: [webgpu ? 'tests/models/**/*.webgpu.test.ts' : 'tests/models/**/*.browser.test.ts'],
    // ORT's convolutions and unpool's shaders compile slowly on software adapters.
    testTimeout: 240_000,
    hookTimeout: 240_000,
    browser: {
      enabled: true,
      headless: true,
      screenshotFailures: false,
      // WebGPU needs a secure context: a page on 127.0.0.1.
      api: { host: '127.0.0.1' },
      provider: engine === 'chromium'
        ? playwright({
          launchOptions: { executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...(webgpu ? CHROMIUM_WEBGPU : CHROMIUM_NO_WEBGPU)] },
        })
        : engineProvider(engine, { webgpu }),
      instances: [{ browser: engine }],
    },
  },
});
