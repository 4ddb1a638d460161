// Opens pages in headless Debian chromium (playwright-core) and checks that
// each one's summary equals the expected one (the Node.js cell's).
//   node browser-cells.mjs EXPECTED-JSON (--dir DIR | --url BASE) PAGE...
// --dir serves DIR on 127.0.0.1 (stopped at the end); --url uses a server
// the caller started. A PAGE is a path such as blob-worker.html#inline; a
// page whose path has "inline" must not request any .wasm, the others
// must (with wasmBinary the page fetches it itself). Prints "PAGE: ok" lines.
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';

const [expected, how, where, ...pages] = process.argv.slice(2);
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json', '.css': 'text/css' };
let server;
let base = where;
if (how === '--dir') {
  server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(where, path.endsWith('/') ? `${path}index.html` : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
} else if (how !== '--url') {
  throw new Error('usage: browser-cells.mjs EXPECTED-JSON (--dir DIR | --url BASE) PAGE...');
}

const profile = await mkdtemp(join(tmpdir(), 'unpool-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let failed = 0;
try {
  for (const name of pages) {
    const page = await context.newPage();
    const errors = [];
    const wasm = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('request', (r) => { if (/\.wasm(\?|$)/.test(r.url())) wasm.push(r.url()); });
    try {
      await page.goto(`${base}/${name}`);
      await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60000 });
      const result = await page.evaluate(() => window.__result);
      if (result.error || errors.length) throw new Error(result.error ?? errors.join('\n'));
      if (JSON.stringify(result) !== expected) {
        throw new Error(`summary differs from Node.js's:\n  got  ${JSON.stringify(result)}\n  want ${expected}`);
      }
      const inline = name.includes('inline');
      if (inline && wasm.length) throw new Error(`unpool/inline requested ${wasm.join(', ')}`);
      if (!inline && !wasm.length) throw new Error('the page requested no .wasm');
      console.log(`${name}: ok`);
    } catch (error) {
      ++failed;
      console.log(`${name}: FAILED: ${error.message.split('\n')[0].slice(0, 300)}`);
      console.error(`${name}:\n${error.message.slice(0, 4000)}`);
    } finally {
      await page.close();
    }
  }
} finally {
  await context.close();
  server?.close();
  await rm(profile, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
