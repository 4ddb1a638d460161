// The WebGPU suite (tests/webgpu/cases/*.mjs, through tests/webgpu/*.test.ts)
// in headless Chromium: Debian's /usr/bin/chromium driven by Playwright, as
// vitest.browser.config.ts, with WebGPU on SwiftShader. The other three
// stacks run the same cases without Vitest (scripts/test-webgpu.sh).
//
// The flags, as measured with Debian's chromium 156 on a machine without a
// GPU:
//   --enable-unsafe-webgpu   WebGPU is not on by default in Chromium on
//       Linux: without it navigator.gpu exists but requestAdapter() gives
//       null.
//   --use-webgpu-adapter=swiftshader   pins the adapter to SwiftShader (Dawn
//       on Chromium's bundled Vulkan SwiftShader), so a machine with a real
//       GPU runs the same stack; here it changes nothing (SwiftShader is the
//       only adapter).
//   --enable-unsafe-swiftshader   Chromium's opt-in for SwiftShader WebGPU;
//       Playwright passes it already (its default switches), named here so
//       the suite does not depend on that.
//   --disable-gpu is left out: it does not stop the SwiftShader adapter in
//       this build, but it says the opposite of what this config wants.
//   --enable-features=Vulkan and --use-angle=swiftshader are not needed:
//       WebGPU's SwiftShader adapter does not go through ANGLE or through
//       Chromium's Vulkan compositing (tried: same adapter with or without).
// WebGPU needs a secure context: the page is on http://127.0.0.1 (the API
// server's host below), never about:blank; tests/webgpu/stack.test.ts
// checks that.
import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  test: {
    include: ['tests/webgpu/**/*.test.ts'],
    // SwiftShader compiles shaders slowly; a lost mapAsync must still end.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    browser: {
      enabled: true,
      headless: true,
      screenshotFailures: false,
      api: { host: '127.0.0.1' },
      provider: playwright({
        launchOptions: {
          executablePath,
          // Playwright gives each launch a fresh temporary profile.
          args: ['--headless', '--no-sandbox', '--disable-quic', '--no-first-run',
            '--disable-background-networking', '--disable-component-update', '--disable-sync',
            '--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--enable-unsafe-swiftshader'],
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
