// Vitest in headless Chromium (Debian's /usr/bin/chromium, driven by
// Playwright; nothing downloads a browser): the same tests/js suites, so the
// browser loading path (new URL('./unpool.wasm', import.meta.url) + fetch)
// is proven too.
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  // examples/pool-worker.mjs imports the package by its name, as an app
  // would; here that is the built package in dist/.
  resolve: {
    alias: [{ find: /^unpool$/, replacement: fileURLToPath(new URL('./dist/index.js', import.meta.url)) }],
  },
  test: {
    include: ['tests/js/**/*.test.ts'],
    // As in vitest.config.ts: the exhaustive tests need a margin under load.
    testTimeout: 60_000,
    // huge.test.ts grows the module's heap past 2 GiB and reads
    // process.env: Node only. So are *.node.test.ts (e.g. ONNX Runtime Web's
    // Node build).
    exclude: [...configDefaults.exclude, 'tests/js/huge.test.ts', 'tests/js/**/*.node.test.ts'],
    browser: {
      enabled: true,
      headless: true,
      screenshotFailures: false,
      provider: playwright({
        launchOptions: {
          executablePath,
          // Playwright gives each launch a fresh temporary profile.
          args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
            '--disable-background-networking', '--disable-component-update', '--disable-sync'],
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
