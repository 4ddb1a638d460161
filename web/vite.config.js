// Vite serves web/ (two pages: index.html, one pool and unpool; segnet.html,
// a SegNet run by unpool/onnx) and maps the bare imports 'unpool',
// 'unpool/webgpu' and 'unpool/onnx' to the entries that the package's own
// package.json publishes, so the pages load the library exactly as a user's
// app would (never cpp/bindings or other private files).
import { readFileSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The browser ESM file of the package's export `key` ('.', './webgpu', './onnx'):
 * exports[key] (browser/import/default), or module / main for '.'.
 */
function packageEntry(key) {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
  const pick = (e) => {
    if (typeof e === 'string' || e == null) return e;
    for (const k of ['browser', 'import', 'module', 'default']) if (e[k] !== undefined) return pick(e[k]);
    return undefined;
  };
  const rel = pick(pkg.exports?.[key]) ?? (key === '.' ? pkg.module ?? pkg.main : undefined);
  const file = rel && resolve(root, rel);
  if (!file || !existsSync(file)) {
    throw new Error(`unpool demo: package entry ${rel ?? `${key} (none in package.json)`} is not built; run npm run build`);
  }
  return file;
}

export default {
  root: resolve(root, 'web'),
  clearScreen: false,
  resolve: {
    alias: [
      { find: /^unpool$/, replacement: packageEntry('.') },
      { find: /^unpool\/webgpu$/, replacement: packageEntry('./webgpu') },
      { find: /^unpool\/onnx$/, replacement: packageEntry('./onnx') },
    ],
  },
  server: {
    host: '127.0.0.1',
    fs: { allow: [root] },
    // The e2e test turns live reload off: a rebuild of dist/ must not reload
    // the page in the middle of a test.
    hmr: process.env.DEMO_NO_HMR !== '1',
  },
  optimizeDeps: { noDiscovery: true, include: [] },
  build: {
    outDir: resolve(root, 'build/web'), emptyOutDir: true, target: 'es2022',
    rollupOptions: { input: { index: resolve(root, 'web/index.html'), segnet: resolve(root, 'web/segnet.html') } },
  },
};
