// The Chromium harness of browser.mjs and webgpu.mjs: Debian's
// /usr/bin/chromium (CHROMIUM_PATH otherwise) driven by playwright-core,
// nothing downloaded; the repository served on a free 127.0.0.1 port, and a
// page that fetches anything else fails the run.
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
                '.wasm': 'application/wasm', '.json': 'application/json' };

/** The repository on a free 127.0.0.1 port: { server, base } (close the server when done). */
export async function serveRoot() {
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

/**
 * Runs `use(open)` with Chromium up (`flags`: its extra command-line flags;
 * `headless`), where `open(page, log)` loads bench/js/<page> (with its
 * query) and resolves to the `window.benchResult` it sets; `log` gets the
 * page's console lines that start with 'bench: '.
 */
export async function withChromium({ flags, headless = true, timeoutMs }, use) {
  const { chromium } = await import('playwright-core');
  const { server, base } = await serveRoot();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'unpool-bench-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless,
      args: [...(headless ? ['--headless'] : []), '--no-sandbox', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync', ...flags],
    });
    try {
      return await use(async (pagePath, log) => {
        const page = await context.newPage();
        page.on('request', (r) => {
          if (!r.url().startsWith(base)) throw new Error(`bench: the page fetched ${r.url()}`);
        });
        if (log) page.on('console', (m) => { if (m.text().startsWith('bench: ')) log(m.text().slice(7)); });
        await page.goto(`${base}/bench/js/${pagePath}`);
        await page.waitForFunction(() => window.benchResult !== undefined, null, { timeout: timeoutMs });
        const result = await page.evaluate(() => window.benchResult);
        await page.close();
        if (result.error) throw new Error(`bench: the page failed: ${result.error}`);
        return result;
      });
    } finally {
      await context.close();
    }
  } finally {
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
