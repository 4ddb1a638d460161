// A model's bytes from what createSession takes, as ORT's create() takes it:
// bytes, or a URL (fetched) or, in Node.js, a file path or file: URL.
import { describe, UnpoolTypeError } from '../tensor.js';

const isNode = () => typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node ===
    'string' && typeof (globalThis as { window?: unknown }).window === 'undefined';

export async function readBytes(fn: string, model: unknown): Promise<Uint8Array> {
  if (model instanceof Uint8Array) return model;
  if (model instanceof ArrayBuffer) return new Uint8Array(model);
  if (typeof model !== 'string' && !(model instanceof URL)) {
    throw new UnpoolTypeError(`${fn}: model must be its bytes (a Uint8Array or an ArrayBuffer), a URL or a ` +
        `file path, got ${describe(model)}`);
  }
  const text = String(model);
  if (isNode() && !/^(https?|blob|data):/.test(text)) {
    // A variable specifier keeps bundlers from trying to bundle node:fs.
    const specifier = 'node:fs/promises';
    const fs = (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as {
      readFile(path: string | URL): Promise<Uint8Array>;
    };
    return new Uint8Array(await fs.readFile(text.startsWith('file:') ? new URL(text) : text));
  }
  const response = await fetch(text);
  if (!response.ok) throw new UnpoolTypeError(`${fn}: fetching the model ${text} gave HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
