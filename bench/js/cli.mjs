// The command line of the Node entry points (bench.mjs, browser.mjs,
// webgpu.mjs): flags, options with a value, the two folders of --ab, a
// dist folder loaded and initialised as a package, and --write's section
// of bench/RESULTS.md.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);

export const flag = (name) => args.includes(name);

/** The value after `name`, or `fallback` when `name` is absent or a flag follows it. */
export function option(name, fallback) {
  const i = args.indexOf(name);
  const v = i >= 0 ? args[i + 1] : undefined;
  return v === undefined || v.startsWith('--') ? fallback : v;
}

/** A numeric option that must pass `ok` (default: a positive integer). */
export function numberOption(name, fallback, ok = (n) => Number.isInteger(n) && n >= 1) {
  const v = Number(option(name, fallback));
  if (!ok(v)) throw new Error(`bench: ${name} ${option(name)} is out of range`);
  return v;
}

/** A shape option, `1,64,112,112`, as numbers. */
export function shapeOption(name, fallback) {
  const shape = option(name, fallback).split(',').map(Number);
  if (shape.length < 3 || shape.length > 5 || !shape.every((d) => Number.isInteger(d) && d > 0)) {
    throw new Error(`bench: ${name} needs 3 to 5 positive sizes, got ${option(name)}`);
  }
  return shape;
}

/** `--ab <distA> <distB>`: the two folders, or undefined without --ab. */
export function abDists() {
  const i = args.indexOf('--ab');
  if (i < 0) return undefined;
  const dists = args.slice(i + 1, i + 3);
  if (dists.length < 2 || dists.some((d) => d.startsWith('--'))) {
    throw new Error('bench: --ab needs two build folders: --ab <distA> <distB>');
  }
  return dists.map((d) => path.resolve(d));
}

/** The package built in folder `dist`, initialised (`scalar`: the build without SIMD). */
export async function loadDist(dist, scalar = false) {
  const u = await import(pathToFileURL(path.resolve(dist, 'index.js')).href);
  await u.init(scalar ? { simd: false } : {});
  return u;
}

/** The arguments as given, but those named in `drop` (for a command line to print). */
export const argsWithout = (...drop) => args.filter((a) => !drop.includes(a));

/**
 * --write: `lines` become the section of bench/RESULTS.md between
 * `<!-- name:begin -->` and `<!-- name:end -->` (appended if it has none).
 */
export function writeResults(name, lines) {
  const file = fileURLToPath(new URL('../RESULTS.md', import.meta.url));
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const section = [begin, ...lines, end].join('\n');
  let md = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  if (md.includes(begin) && md.includes(end)) {
    md = md.slice(0, md.indexOf(begin)) + section + md.slice(md.indexOf(end) + end.length);
  } else {
    md = `${md.trimEnd()}\n\n${section}\n`;
  }
  writeFileSync(file, md);
  console.error(`bench: wrote ${file}`);
}
