// Loads the WebAssembly module once and caches it.
//
// Browsers and bundlers: the .wasm sits next to this file and is found with
// `new URL('./unpool.wasm', import.meta.url)`, the pattern Vite and webpack
// rewrite into an emitted asset. Node.js: the glue is built for web and
// worker only, so the bytes are read here and handed over as `wasmBinary`.
import createUnpoolModule from './unpool.mjs';
import type { UnpoolWasmModule } from './unpool.mjs';

/** Where the `.wasm` comes from; both fields are optional. */
export interface InitOptions {
  /**
   * Maps the file name `unpool.wasm` to the URL (browser) or path / file URL
   * (Node.js) to load it from, like Emscripten's `locateFile`.
   */
  locateFile?: (path: string, prefix: string) => string;
  /** The module's bytes, when the caller has them already. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

let loaded: UnpoolWasmModule | undefined;
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

async function load(options: InitOptions): Promise<UnpoolWasmModule> {
  const defaultUrl = new URL('./unpool.wasm', import.meta.url);
  const locate = options.locateFile;
  let wasmBinary = options.wasmBinary;
  if (wasmBinary === undefined && isNode()) {
    // Not new URL('./', import.meta.url): bundlers would inline that as an asset.
    const prefix = defaultUrl.href.slice(0, defaultUrl.href.lastIndexOf('/') + 1);
    wasmBinary = await readNodeBinary(locate ? locate('unpool.wasm', prefix) : defaultUrl);
  }
  return createUnpoolModule({
    ...(wasmBinary !== undefined ? { wasmBinary } : {}),
    locateFile: (path: string, prefix: string) =>
      locate ? locate(path, prefix) : defaultUrl.href,
  });
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
 */
export function init(options: InitOptions = {}): Promise<void> {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`init: options must be an object, got ${String(options)}`);
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
