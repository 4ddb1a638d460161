// A Vitest 4 browser provider over tests/engines/engines.mjs, for the engines
// that Playwright cannot drive from Debian's packages: Firefox ESR
// (puppeteer-core, WebDriver BiDi) and WebKitGTK (WebKitWebDriver). Vitest
// serves the test page; the provider only opens it (one page per Vitest
// session, files one after another) and closes everything at the end.
// The suites use no provider commands (userEvent, page.screenshot, CDP), so
// getCommandsContext has nothing to give.
//
//   browser: { provider: engineProvider('firefox', { webgpu: true }), instances: [{ browser: 'firefox' }] }
import { defineBrowserProvider } from '@vitest/browser';
import { launchEngine } from './engines.mjs';

export function engineProvider(engine, options = {}) {
  return defineBrowserProvider({
    name: `unpool-${engine}`,
    supportedBrowser: [engine],
    options,
    providerFactory: (project) => new EngineProvider(project, engine, options),
  });
}

class EngineProvider {
  supportsParallelism = false;
  engine = null;
  pages = new Map();
  closing = false;

  constructor(project, engine, options) {
    this.name = `unpool-${engine}`;
    this.project = project;
    this.engineName = engine;
    this.options = options;
  }

  getCommandsContext() {
    return {};
  }

  async openPage(sessionId, url) {
    if (this.closing) throw new Error(`[${this.name}] the provider was closed`);
    // A failed launch fails the run (never a skip); it is not retried.
    this.engine ??= launchEngine(this.engineName, this.options);
    const engine = await this.engine;
    const old = this.pages.get(sessionId);
    if (old) {
      this.pages.delete(sessionId);
      await old.close();
    }
    const page = await engine.newPage();
    this.pages.set(sessionId, page);
    await page.goto(url);
  }

  async close() {
    this.closing = true;
    const pages = [...this.pages.values()];
    this.pages.clear();
    await Promise.allSettled(pages.map((p) => p.close()));
    const engine = await this.engine?.catch(() => null);
    this.engine = null;
    await engine?.close();
  }
}
