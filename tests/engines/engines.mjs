// The three browser engines of the tests, from Debian's packages only
// (nothing downloads a browser), behind one small page interface:
//
//   chromium  /usr/bin/chromium (V8), driven by playwright-core
//   firefox   /usr/bin/firefox-esr (SpiderMonkey), driven by puppeteer-core
//             over WebDriver BiDi; WebGPU on when asked (wgpu on lavapipe)
//   webkit    WebKitGTK's MiniBrowser (JavaScriptCore), driven by
//             WebKitWebDriver (W3C WebDriver classic, plain HTTP) under an
//             Xvfb display of its own (MiniBrowser hangs without a display)
//
// const engine = await launchEngine('firefox', { webgpu: true });
// const page = await engine.newPage();      // a fresh tab / session
// await page.goto(url);                     // resolves at the load event
// await page.evaluate((a) => a + 1, 1);     // a function and JSON arguments
// await page.waitFor(() => window.x, 30000);
// await page.screenshot('test-results/x.png');
// await page.errors();                      // console errors, page errors
// await page.close(); await engine.close();
//
// page.errors() reads window.__unpoolErrors, which ERROR_HOOK (below) fills:
// the servers of the tests put it first in every HTML page they serve, so
// errors are seen the same way in every engine (WebDriver classic has no
// console events). A page without the hook is an error, never "no errors".
//
// Every process started here (browser, driver, Xvfb) is stopped by close();
// and when UNPOOL_ENGINE_PIDS names a directory, its pid is written there
// as a file, so the stage's shell trap (scripts/engines.sh) can stop it
// when this Node process dies first (a timeout, a kill).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, unlinkSync, readdirSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ENGINES = ['chromium', 'firefox', 'webkit'];

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

// The flags that work for Debian's chromium here (see vitest.webgpu.config.ts
// for the WebGPU ones).
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const CHROMIUM_NO_WEBGPU = ['--disable-gpu'];
export const CHROMIUM_WEBGPU = ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--enable-unsafe-swiftshader'];

// Firefox ESR: WebGPU is behind a pref in ESR, and the blocklist refuses
// lavapipe (a software adapter) without the second.
export const FIREFOX_WEBGPU_PREFS = { 'dom.webgpu.enabled': true, 'gfx.webgpu.ignore-blocklist': true };

/** Records every error the page logs or throws, before the page's own scripts run. */
export const ERROR_HOOK = `(() => {
  if (window.__unpoolErrors) return;
  const errors = (window.__unpoolErrors = []);
  const text = (v) => (v instanceof Error ? String(v.stack || v) : typeof v === 'object' ? (() => { try { return JSON.stringify(v); } catch { return String(v); } })() : String(v));
  const error = console.error;
  console.error = function (...args) { errors.push(args.map(text).join(' ')); return error.apply(this, args); };
  addEventListener('error', (e) => errors.push(e instanceof ErrorEvent
    ? \`\${e.message} (\${e.filename}:\${e.lineno})\` : \`failed to load \${e.target?.src || e.target?.href || e.target}\`), true);
  addEventListener('unhandledrejection', (e) => errors.push(\`unhandled rejection: \${text(e.reason)}\`));
})();`;

/** ERROR_HOOK as the first thing in an HTML document's <head>. */
export function withErrorHook(html) {
  const tag = `<script>${ERROR_HOOK}</script>`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => m + tag) : tag + html;
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** The engine's name and version as the stage prints it, e.g. 'firefox-esr 153.8.0esr'. */
export function engineVersion(engine) {
  const run = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  switch (engine) {
    case 'chromium': return `chromium ${run(CHROMIUM, ['--version']).match(/[\d.]+/)[0]}`;
    case 'firefox': return `firefox-esr ${run(FIREFOX, ['--version']).match(/[\d.]+\w*/)[0]}`;
    case 'webkit':
      // MiniBrowser --version needs a display; the library's package has the version.
      return `webkitgtk ${run('dpkg-query', ['-W', '-f', '${Version}', 'libwebkit2gtk-4.1-0']).replace(/-.*/, '')}`;
    default: throw new Error(`unknown engine '${engine}' (one of ${ENGINES.join(', ')})`);
  }
}

// ---- the processes this module starts --------------------------------------

const pidDir = process.env.UNPOOL_ENGINE_PIDS;
function track(pid, what) {
  if (pidDir && pid) writeFileSync(join(pidDir, String(pid)), what);
  return () => { if (pidDir && pid) try { unlinkSync(join(pidDir, String(pid))); } catch { /* gone */ } };
}

/** Spawns a process in a process group of its own (so its children go with it). */
function start(cmd, args, options = {}) {
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'], ...options });
  const untrack = track(child.pid, cmd);
  let stderr = '';
  child.stderr?.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => { untrack(); resolve({ code, signal }); }));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
    const t = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, 5000);
    await exited;
    clearTimeout(t);
  };
  return { child, exited, stop, stderr: () => stderr };
}

// ---- chromium (playwright-core) ---------------------------------------------

async function launchChromium({ webgpu = false, viewport } = {}) {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'unpool-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(webgpu ? CHROMIUM_WEBGPU : CHROMIUM_NO_WEBGPU)],
    viewport: viewport ?? { width: 1280, height: 800 },
  });
  return {
    name: 'chromium',
    raw: context,
    async newPage() { return eventPage(await context.newPage(), 'playwright'); },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// ---- firefox (puppeteer-core over WebDriver BiDi) ---------------------------

async function launchFirefox({ webgpu = false, viewport } = {}) {
  const { default: puppeteer } = await import('puppeteer-core');
  const profile = mkdtempSync(join(tmpdir(), 'unpool-firefox-'));
  const env = { ...process.env };
  if (webgpu) {
    // wgpu on Mesa's lavapipe, whatever other Vulkan drivers the machine has.
    const icd = existsSync('/usr/share/vulkan/icd.d')
      ? readdirSync('/usr/share/vulkan/icd.d').find((f) => /^lvp_icd\..*\.json$/.test(f)) : undefined;
    if (icd) env.VK_ICD_FILENAMES = `/usr/share/vulkan/icd.d/${icd}`;
  }
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    userDataDir: profile,
    env,
    defaultViewport: viewport ?? { width: 1280, height: 800 },
    protocolTimeout: 600_000,
    extraPrefsFirefox: {
      ...(webgpu ? FIREFOX_WEBGPU_PREFS : {}),
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
    },
  });
  const untrack = track(browser.process()?.pid, 'firefox-esr');
  return {
    name: 'firefox',
    raw: browser,
    async newPage() { return eventPage(await browser.newPage(), 'puppeteer'); },
    async close() {
      try { await browser.close(); } finally {
        untrack();
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}

/** A playwright or puppeteer page (the same calls, apart from waitForFunction's options). */
function eventPage(page, kind) {
  const events = [];
  page.on('console', (m) => { if (m.type() === 'error') events.push(m.text()); });
  page.on('pageerror', (e) => events.push(String(e?.stack ?? e)));
  return {
    raw: page,
    async goto(url) { await page.goto(url, { timeout: 0, waitUntil: 'load' }); },
    evaluate: (fn, ...args) => page.evaluate(fn, ...args),
    async waitFor(fn, timeout = 30000, ...args) {
      if (kind === 'playwright') await page.waitForFunction(fn, args[0], { timeout });
      else await page.waitForFunction(fn, { timeout, polling: 100 }, ...args);
    },
    async screenshot(path) { await page.screenshot({ path }); },
    // The hook sees the page's console.error calls, the events those too and
    // what the browser itself logs (a failed fetch, a CSP refusal): each once.
    errors: async () => [...new Set([...await hookErrors((fn) => page.evaluate(fn)), ...events])],
    close: () => page.close(),
  };
}

async function hookErrors(evaluate) {
  const errors = await evaluate(() => window.__unpoolErrors ?? null);
  if (!Array.isArray(errors)) throw new Error('the page has no error hook (window.__unpoolErrors): serve it through withErrorHook');
  return errors;
}

// ---- webkit (WebKitWebDriver, WebDriver classic over HTTP, under Xvfb) ------

/** An X display of our own: `Xvfb -displayfd` prints its number when ready. */
async function startXvfb() {
  const xvfb = start('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  const display = await new Promise((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`Xvfb gave no display in 20 s: ${xvfb.stderr()}`)), 20000);
    xvfb.child.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) { clearTimeout(t); resolve(`:${out.trim()}`); }
    });
    xvfb.exited.then(({ code }) => { clearTimeout(t); reject(new Error(`Xvfb exited (${code}): ${xvfb.stderr()}`)); });
  });
  return { display, stop: xvfb.stop };
}

async function launchWebKit({ viewport } = {}) {
  const stops = [];
  const stopAll = async () => { for (const s of stops.reverse()) await s().catch(() => {}); };
  try {
    let display = process.env.UNPOOL_DISPLAY;
    if (!display) {
      const x = await startXvfb();
      stops.push(x.stop);
      display = x.display;
    }
    // A port of our own: a driver that finds its port taken exits, and a
    // client could then talk to an old driver.
    const port = await freePort();
    const driver = start(WEBKIT_DRIVER, [`--port=${port}`], {
      env: { ...process.env, DISPLAY: display, GDK_BACKEND: 'x11' },
    });
    stops.push(driver.stop);
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 20000;
    for (;;) {
      if (driver.child.exitCode !== null) throw new Error(`WebKitWebDriver exited: ${driver.stderr()}`);
      try {
        const r = await fetch(`${base}/status`);
        if (r.ok && (await r.json()).value?.ready !== false) break;
      } catch { /* not up yet */ }
      if (Date.now() > deadline) throw new Error(`WebKitWebDriver did not answer on ${base}: ${driver.stderr()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const sessions = new Set();
    return {
      name: 'webkit',
      async newPage() {
        const page = await webDriverPage(base, viewport ?? { width: 1280, height: 800 });
        sessions.add(page);
        const close = page.close;
        page.close = async () => { sessions.delete(page); await close(); };
        return page;
      },
      async close() {
        for (const p of [...sessions]) await p.close().catch(() => {});
        await stopAll();
      },
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

async function webDriver(base, method, path, body) {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(`WebDriver ${method} ${path}: ${r.status} ${json.value?.error ?? ''} ${json.value?.message ?? ''}`);
  return json.value;
}

async function webDriverPage(base, viewport) {
  const session = await webDriver(base, 'POST', '/session', {
    capabilities: {
      alwaysMatch: {
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
        timeouts: { script: 600_000, pageLoad: 600_000 },
      },
    },
  });
  const s = `/session/${session.sessionId}`;
  await webDriver(base, 'POST', `${s}/window/rect`, viewport).catch(() => {});
  // A function and JSON arguments, run as an async script; its result or its
  // error. The result travels as JSON.stringify's text: WebKit's WebDriver
  // serialization does not keep the order of an object's keys.
  const evaluate = async (fn, ...args) => {
    const r = await webDriver(base, 'POST', `${s}/execute/async`, {
      script: `const done = arguments[arguments.length - 1];
        Promise.resolve().then(() => (${fn})(...Array.from(arguments).slice(0, -1)))
          .then((value) => done(value === undefined ? {} : { json: JSON.stringify(value) }),
            (e) => done({ error: String(e && e.stack || e) }));`,
      args,
    });
    if (r && 'error' in r) throw new Error(`in the page: ${r.error}`);
    return r?.json === undefined ? undefined : JSON.parse(r.json);
  };
  let closed = false;
  return {
    version: session.capabilities?.browserVersion,
    async goto(url) { await webDriver(base, 'POST', `${s}/url`, { url }); },
    evaluate,
    async waitFor(fn, timeout = 30000, ...args) {
      const deadline = Date.now() + timeout;
      while (!(await evaluate(fn, ...args))) {
        if (Date.now() > deadline) throw new Error(`waitFor: timed out after ${timeout} ms: ${fn}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async screenshot(path) {
      writeFileSync(path, Buffer.from(await webDriver(base, 'GET', `${s}/screenshot`), 'base64'));
    },
    errors: () => hookErrors(evaluate),
    async close() {
      if (closed) return;
      closed = true;
      await webDriver(base, 'DELETE', s);
    },
  };
}

/**
 * Starts `engine` ('chromium', 'firefox' or 'webkit'). Options: webgpu (on
 * in chromium (SwiftShader) and firefox (lavapipe); WebKitGTK has none),
 * viewport { width, height }.
 */
export function launchEngine(engine, options = {}) {
  switch (engine) {
    case 'chromium': return launchChromium(options);
    case 'firefox': return launchFirefox(options);
    case 'webkit': return launchWebKit(options);
    default: throw new Error(`unknown engine '${engine}' (one of ${ENGINES.join(', ')})`);
  }
}
