// Launching Debian's Chromium with playwright-core, and reading the page.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS as ARGS, CHROMIUM_NO_WEBGPU, CHROMIUM_WEBGPU } from '../engines/engines.mjs';

// Without WebGPU (as most of the demo's tests run: the page must work, and
// say why there is no backend switch), and with WebGPU on SwiftShader: the
// flags of vitest.webgpu.config.ts, where they are explained.
export const NO_WEBGPU = CHROMIUM_NO_WEBGPU;
export const WEBGPU = CHROMIUM_WEBGPU;

/**
 * Opens `url` in a fresh profile, with Chromium flags `extra`; collects
 * console errors and the .wasm content types. Waits for the page to be
 * ready and, with WebGPU, for its first GPU run. `prepare(page)` runs
 * before the page is loaded (routes, init scripts).
 */
export async function openDemo(url, extra = NO_WEBGPU, prepare = undefined) {
  const profile = mkdtempSync(join(tmpdir(), 'unpool-demo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? CHROMIUM,
    headless: true,
    args: [...ARGS, ...extra],
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? await context.newPage();
  const errors = [];
  const wasmTypes = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('response', (r) => {
    // A .wasm fetched as such; not Vite's module of its URL ('x.wasm?url').
    const u = new URL(r.url());
    if (u.pathname.endsWith('.wasm') && u.search === '') wasmTypes.push(r.headers()['content-type']);
  });
  await prepare?.(page);
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
  await settled(page);
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  };
  return { page, errors, wasmTypes, close };
}

/** Texts of the grid cells of a panel, row-major. */
export const cellTexts = (page, panel) =>
  page.$$eval(`#${panel} .cell`, (els) => els.map((e) => (e.tagName === 'INPUT' ? e.value : e.textContent)));

/** [row, col] of the cells of a panel that have class `cls`. */
export const marked = (page, panel, cls) =>
  page.$$eval(`#${panel} .cell.${cls}`, (els) => els.map((e) => [Number(e.dataset.r), Number(e.dataset.c)]));

/** The canvas of a panel: its size, CSS width and RGBA pixels. */
export const canvasOf = (page, panel) => page.$eval(`#${panel} canvas`, (c) => ({
  width: c.width,
  height: c.height,
  cssWidth: c.getBoundingClientRect().width,
  rgba: Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data),
}));

/** Planar channel `ch` of RGBA pixels. */
export const channel = (rgba, ch) => rgba.filter((_, i) => i % 4 === ch);

/** Sets pool controls (number inputs fire `input`, the checkbox `change`). */
export async function setPool(page, { kernel, stride, padding = 0, dilation = 1, ceilMode = false }) {
  await page.fill('#kernel', String(kernel));
  await page.fill('#stride', String(stride));
  await page.fill('#padding', String(padding));
  await page.fill('#dilation', String(dilation));
  await page.setChecked('#ceil', ceilMode);
}

/** Shows the number grid, rows x cols filled with 1, 2, 3, ... */
export async function sequenceGrid(page, rows = 4, cols = 4) {
  await page.selectOption('#source', 'grid');
  await page.fill('#rows', String(rows));
  await page.fill('#cols', String(cols));
  await page.click('#fill-seq');
}

/** Hovers the centre of pooled cell (r, c) of a canvas panel. */
export async function hoverCanvasCell(page, panel, r, c) {
  const box = await page.locator(`#${panel} canvas`).boundingBox();
  const { rows, cols } = await page.$eval(`#${panel}`, (s) => ({ rows: +s.dataset.rows, cols: +s.dataset.cols }));
  await page.mouse.move(box.x + ((c + 0.5) * box.width) / cols, box.y + ((r + 0.5) * box.height) / rows);
}

/** Waits until the page's WebGPU run (if any) has finished (body[data-busy] is gone). */
export const settled = (page) => page.waitForSelector('body:not([data-busy])', { state: 'attached', timeout: 120000 });
