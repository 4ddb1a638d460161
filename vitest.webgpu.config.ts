// The WebGPU suite (tests/webgpu/cases/*.mjs, through tests/webgpu/*.test.ts)
// in a headless browser, UNPOOL_ENGINE:
//   chromium (default)  Debian's /usr/bin/chromium driven by Playwright, as
//       vitest.browser.config.ts, with WebGPU on SwiftShader (Dawn); every
//       tests/webgpu/*.test.ts, the ONNX Runtime Web and TensorFlow.js ones
//       too (they pin SwiftShader: Chromium's stack only)
//   firefox  Debian's firefox-esr (puppeteer-core, tests/engines/), WebGPU
//       (wgpu) on Mesa's lavapipe: the case modules (stack.test.ts) only, as
//       on the Deno and Node stacks. ESR has WebGPU behind the pref
//       dom.webgpu.enabled, and its blocklist refuses lavapipe without
//       gfx.webgpu.ignore-blocklist (tests/engines/engines.mjs sets both).
// The other three stacks run the same cases without Vitest
// (scripts/test-webgpu.sh). WebKitGTK has no WebGPU (no navigator.gpu): the
// browser suite checks initWebGPU's refusal there instead.
//
// Chromium's flags (CHROMIUM_WEBGPU in tests/engines/engines.mjs), as
// measured with Debian's chromium 156 on a machine without a GPU:
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
import { CHROMIUM, CHROMIUM_ARGS, CHROMIUM_WEBGPU } from './tests/engines/engines.mjs';
import { engineProvider } from './tests/engines/vitest-provider.mjs';

const engine = process.env.UNPOOL_ENGINE ?? 'chromium';
if (!['chromium', 'firefox'].includes(engine)) throw new Error(`UNPOOL_ENGINE=${engine}: one of chromium, firefox (the browsers with WebGPU here)`);

export default defineConfig({
  test: {
    include: engine === 'chromium' ? ['tests/webgpu/**/*.test.ts'] : ['tests/webgpu/stack.test.ts'],
    // SwiftShader compiles shaders slowly; a lost mapAsync must still end.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    browser: {
      enabled: true,
      headless: true,
      screenshotFailures: false,
      api: { host: '127.0.0.1' },
      provider: engine === 'chromium'
        ? playwright({
          // Playwright gives each launch a fresh temporary profile.
          launchOptions: { executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...CHROMIUM_WEBGPU] },
        })
        : engineProvider(engine, { webgpu: true }),
      instances: [{ browser: engine }],
    },
  },
});
