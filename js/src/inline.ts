/**
 * `unpool/inline`: the whole API of `unpool`, with both WebAssembly builds
 * embedded as base64 in JavaScript, for setups that cannot serve or emit a
 * `.wasm` file (a bundler without asset support, a library bundle, a
 * Blob-URL worker, a single-file page). `init()` never fetches and never
 * reads `import.meta.url`; it takes only `simd`. The cost is size: about
 * 4/3 of both `.wasm` files in JavaScript (see docs/runtimes.md).
 *
 * @example
 * import { init, maxPool2d } from 'unpool/inline';
 * await init();
 *
 * @packageDocumentation
 */
import { init as initFrom, isReady, simdSupported } from './loader.js';
import { typeError } from './tensor.js';
import { scalarWasmBase64, simdWasmBase64 } from './wasm-base64.js';

export * from './index.js';

/** What `unpool/inline`'s `init()` takes: only which build to run. */
export interface InlineInitOptions {
  /** As in `unpool`'s `init`: by default SIMD when the engine has it. */
  simd?: boolean;
}

function decode(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; ++i) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Instantiates the embedded WebAssembly module (SIMD when the engine
 * supports it, else scalar). Later calls return the same promise.
 */
export function init(options: InlineInitOptions = {}): Promise<void> {
  if (options === null || typeof options !== 'object') {
    throw typeError(`init: options must be an object, got ${String(options)}`);
  }
  const given = options as Record<string, unknown>;
  for (const key of ['wasmBinary', 'locateFile']) {
    if (given[key] !== undefined) {
      throw typeError(`init: ${key} is not an option of unpool/inline (the module is embedded)`);
    }
  }
  if (options.simd !== undefined && typeof options.simd !== 'boolean') {
    throw typeError(`init: simd=${String(options.simd)} must be a boolean`);
  }
  if (isReady()) return initFrom();
  const simd = options.simd ?? simdSupported();
  return initFrom({ simd, wasmBinary: decode(simd ? simdWasmBase64 : scalarWasmBase64) });
}
