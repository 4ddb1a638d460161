// Loads the WebAssembly module once and caches it.
//
// Browsers and bundlers: the .wasm sits next to this file and is found with
// `new URL('./unpool.wasm', import.meta.url)`, the pattern Vite and webpack
// rewrite into an emitted asset. Node.js: the glue is built for web and
// worker only, so the bytes are read here and handed over as `wasmBinary`.
// That URL is built only when the caller gives neither `wasmBinary` nor
// `locateFile`: in a Blob-URL worker, a data: module or an opaque origin
// `import.meta.url` is no base for a relative URL and `new URL` throws.
import createUnpoolModule from './unpool.mjs';
import type { UnpoolWasmModule } from './unpool.mjs';
import { attachRuntime } from './runtime.js';
import { typeError } from './tensor.js';

/** Where the `.wasm` comes from, and which build; every field is optional. */
export interface InitOptions {
  /**
   * Which build to load: the SIMD one (`unpool.wasm`, `-msimd128`) or the
   * scalar fallback (`unpool-scalar.wasm`). By default SIMD when the engine
   * validates a tiny SIMD module, else scalar. `false` forces scalar (for
   * tests and comparisons); `true` forces SIMD (loading fails without it).
   */
  simd?: boolean;
  /**
   * Maps the file name (`unpool.wasm`, or `unpool-scalar.wasm` for the scalar
   * build) to the URL (browser) or path / file URL (Node.js) to load it from,
   * like Emscripten's `locateFile`.
   */
  locateFile?: (path: string, prefix: string) => string;
  /** The module's bytes (of the build `simd` selects), when the caller has them already. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

/** Which build is loaded. */
export interface BackendInfo {
  /** True for the WebAssembly SIMD build, false for the scalar fallback. */
  simd: boolean;
}

let loaded: UnpoolWasmModule | undefined;
let loadedInfo: BackendInfo | undefined;

// (module (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt)), as
// wasm-feature-detect checks SIMD.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253,
  15, 253, 98, 11]);

/** Whether this engine runs WebAssembly SIMD (fixed-width, 128-bit). */
export function simdSupported(): boolean {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}
let loading: Promise<UnpoolWasmModule> | undefined;

interface NodeProcess {
  versions?: { node?: string };
}

function isNode(): boolean {
  const proc = (globalThis as { process?: NodeProcess }).process;
  return typeof proc?.versions?.node === 'string' &&
      typeof (globalThis as { window?: unknown }).window === 'undefined';
}

async function readNodeBinary(location: string | URL): Promise<Uint8Array> {
  const text = String(location);
  if (/^https?:/.test(text)) {
    const response = await fetch(text);
    if (!response.ok) {
      throw new Error(`unpool: init: fetching ${text} gave HTTP ${response.status}`);
    }
    return new Uint8Array(await response.arrayBuffer());
  }
  // A variable specifier keeps bundlers from trying to bundle node:fs.
  const specifier = 'node:fs/promises';
  const fs = (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as {
    readFile(path: string | URL): Promise<Uint8Array>;
  };
  return fs.readFile(text.startsWith('file:') ? new URL(text) : text);
}

function checkOptions(options: InitOptions): void {
  if (options.simd !== undefined && typeof options.simd !== 'boolean') {
    throw typeError(`init: simd=${String(options.simd)} must be a boolean`);
  }
  if (options.locateFile !== undefined && typeof options.locateFile !== 'function') {
    throw typeError(`init: locateFile=${String(options.locateFile)} must be a function`);
  }
  const bytes = options.wasmBinary;
  if (bytes !== undefined && !(bytes instanceof ArrayBuffer) && !(bytes instanceof Uint8Array)) {
    const what = bytes === null ? 'null' : typeof bytes !== 'object' ? `a ${typeof bytes}`
                                        : Object.prototype.toString.call(bytes).slice(8, -1);
    throw typeError(`init: wasmBinary (${what}) must be an ArrayBuffer or a Uint8Array`);
  }
}

/** The folder of this module as a URL prefix, from the string alone (no `new URL`). */
function modulePrefix(): string {
  const here = String(import.meta.url);
  return here.slice(0, here.lastIndexOf('/') + 1);
}

async function load(options: InitOptions): Promise<UnpoolWasmModule> {
  checkOptions(options);
  const simd = options.simd ?? simdSupported();
  const file = simd ? 'unpool.wasm' : 'unpool-scalar.wasm';
  let wasmBinary = options.wasmBinary;
  let locate = options.locateFile;
  if (wasmBinary === undefined && locate === undefined) {
    // Both URLs are written out so that bundlers emit both files as assets.
    const url = simd ? new URL('./unpool.wasm', import.meta.url)
                     : new URL('./unpool-scalar.wasm', import.meta.url);
    if (isNode()) wasmBinary = await readNodeBinary(url);
    locate = () => url.href;
  } else if (wasmBinary === undefined && isNode()) {
    wasmBinary = await readNodeBinary(locate!(file, modulePrefix()));
  }
  // Each build has its own glue (the JS library functions a build imports
  // may differ); the scalar one is imported only when it is used.
  const create = simd ? createUnpoolModule
                      : (await import('./unpool-scalar.mjs')).default as typeof createUnpoolModule;
  // A locateFile is always passed: without one the glue itself evaluates
  // `new URL('unpool.wasm', import.meta.url)`. With wasmBinary it is never fetched.
  const m = await create({
    ...(wasmBinary !== undefined ? { wasmBinary } : {}),
    locateFile: (path: string, prefix: string) => (locate ? locate(path, prefix) : path),
  });
  attachRuntime(m);
  loadedInfo = { simd };
  return m;
}

/**
 * Loads and instantiates the WebAssembly module. Call it once (and await it)
 * before any other function; later calls return the same promise, and the
 * options of calls after the first are ignored. If loading fails, the promise
 * rejects and the next call tries again.
 *
 * @example
 * await init();                                   // default location
 * await init({ locateFile: () => '/static/unpool.wasm' });
 * await init({ wasmBinary: bytes });              // no fetch, no import.meta.url
 */
export function init(options: InitOptions = {}): Promise<void> {
  if (options === null || typeof options !== 'object') {
    throw typeError(`init: options must be an object, got ${String(options)}`);
  }
  if (!loading) {
    loading = load(options).then(
      (m) => (loaded = m),
      (error: unknown) => {
        loading = undefined;
        throw error;
      });
  }
  return loading.then(() => undefined);
}

/**
 * Which build `init()` loaded: `{ simd: true }` for the WebAssembly SIMD
 * build, `{ simd: false }` for the scalar fallback. Throws before `init()`.
 */
export function backendInfo(): BackendInfo {
  wasm('backendInfo');
  return { ...loadedInfo! };
}

/** True once `init()` has finished and the functions can be called. */
export function isReady(): boolean {
  return loaded !== undefined;
}

/** The loaded module, or an Error naming `fn` when `init()` has not finished. */
export function wasm(fn: string): UnpoolWasmModule {
  if (loaded === undefined) {
    throw new Error(`${fn}: the WebAssembly module is not loaded; await init() first`);
  }
  return loaded;
}
