// Serves a folder over HTTP (a page bundled by Vite or webpack, or the
// installed app for the import-map page), opens one of its pages in one
// browser engine (chromium, firefox or webkit, from tests/engines/) and
// prints the page's result (window.__result) as JSON. The page's console
// errors and uncaught errors fail it (the server puts tests/engines'
// error hook first in the HTML), and so does a page that loads no .wasm,
// or, with --wasm FILE, none with FILE's bytes (unpool's own module, whatever
// name the bundler gave it).
//   node browser-smoke.mjs DIR ENGINE [PAGE (default /)] [--wasm FILE]
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { launchEngine, withErrorHook } from '../../engines/engines.mjs';

const args = process.argv.slice(2);
const wasmAt = args.indexOf('--wasm');
const wasmFile = wasmAt >= 0 ? args.splice(wasmAt, 2)[1] : undefined;
const [root, engineName = 'chromium', pagePath = '/'] = args;
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css' };
const requested = [];
const servedWasm = [];
const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  requested.push(path);
  // The browser's own favicon request (Chromium logs its 404 as a console
  // error), not the bundle's: answered empty.
  if (path === '/favicon.ico') return void res.writeHead(204).end();
  const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
  try {
    let body = await readFile(file);
    if (extname(file) === '.html') body = withErrorHook(body.toString('utf8'));
    if (extname(file) === '.wasm') servedWasm.push(body);
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    console.error(`browser-smoke: 404 ${path}`);
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();
let engine;
try {
  engine = await launchEngine(engineName);
  const page = await engine.newPage();
  await page.goto(`http://127.0.0.1:${port}${pagePath}`);
  // ORT Web's .wasm (14 to 28 MB) compiles slowly on a loaded machine. A
  // module that fails to load (an import map that misses a specifier) sets
  // no result, only an error: either ends the wait.
  await page.waitFor(() => window.__result !== undefined || window.__unpoolErrors?.length > 0, 120000);
  const result = await page.evaluate(() => window.__result ?? null);
  const errors = await page.errors();
  if (result?.error || errors.length) {
    throw new Error(`page failed in ${engineName}: ${[result?.error, ...errors].filter(Boolean).join('\n')}`);
  }
  if (!requested.some((p) => p.endsWith('.wasm'))) throw new Error('the page did not load a .wasm');
  if (wasmFile !== undefined) {
    const want = await readFile(wasmFile);
    if (!servedWasm.some((b) => b.equals(want))) throw new Error(`the page did not load ${wasmFile}`);
  }
  process.stdout.write(JSON.stringify(result));
} finally {
  await engine?.close();
  server.close();
}
