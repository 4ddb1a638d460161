// Vite serves web/ and maps the bare import 'unpool' to the entry that the
// package's own package.json publishes, so the page loads the library
// exactly as a user's app would (never cpp/bindings or other private files).
import { readFileSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The browser ESM entry of the package: exports["."] (browser/import/default), module or main. */
function packageEntry() {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
  const pick = (e) => {
    if (typeof e === 'string' || e == null) return e;
    if (e['.'] !== undefined) return pick(e['.']);
    for (const k of ['browser', 'import', 'module', 'default']) if (e[k] !== undefined) return pick(e[k]);
    return undefined;
  };
  const rel = pick(pkg.exports) ?? pkg.module ?? pkg.main;
  const file = rel && resolve(root, rel);
  if (!file || !existsSync(file)) {
    throw new Error(`unpool demo: package entry ${rel ?? '(none in package.json)'} is not built; run npm run build`);
  }
  return file;
}

export default {
  root: resolve(root, 'web'),
  clearScreen: false,
  resolve: { alias: { unpool: packageEntry() } },
  server: {
    host: '127.0.0.1',
    fs: { allow: [root] },
    // The e2e test turns live reload off: a rebuild of dist/ must not reload
    // the page in the middle of a test.
    hmr: process.env.DEMO_NO_HMR !== '1',
  },
  optimizeDeps: { noDiscovery: true, include: [] },
  build: { outDir: resolve(root, 'build/web'), emptyOutDir: true, target: 'es2022' },
};
