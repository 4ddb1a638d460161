// Vitest browser mode: the same tests/js suites in one browser engine, so the
// browser loading path (new URL('./unpool.wasm', import.meta.url) + fetch) is
// proven in every engine a web app runs in. UNPOOL_ENGINE picks it:
//   chromium (default)  Debian's /usr/bin/chromium (V8), Vitest's Playwright
//                       provider (nothing downloads a browser)
//   firefox             Debian's firefox-esr (SpiderMonkey), puppeteer-core
//   webkit              WebKitGTK's MiniBrowser (JavaScriptCore), WebKitWebDriver
// The last two through tests/engines/vitest-provider.mjs (Playwright cannot
// drive Debian's builds of them). scripts/test-browser.sh runs all three.
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { CHROMIUM, CHROMIUM_ARGS, CHROMIUM_NO_WEBGPU } from './tests/engines/engines.mjs';
import { engineProvider } from './tests/engines/vitest-provider.mjs';

const engine = process.env.UNPOOL_ENGINE ?? 'chromium';
if (!['chromium', 'firefox', 'webkit'].includes(engine)) throw new Error(`UNPOOL_ENGINE=${engine}: one of chromium, firefox, webkit`);

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
      provider: engine === 'chromium'
        ? playwright({
          // Playwright gives each launch a fresh temporary profile.
          launchOptions: { executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...CHROMIUM_NO_WEBGPU] },
        })
        : engineProvider(engine),
      instances: [{ browser: engine }],
    },
  },
});
