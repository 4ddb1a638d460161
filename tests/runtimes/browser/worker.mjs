// The module worker that blob-worker.mjs starts from a Blob URL (its
// import.meta.url is blob:…, no base for a relative URL): `unpool` with the
// .wasm bytes the page posts as wasmBinary.
import * as api from 'unpool';
import { runChecks } from '../checks.mjs';

self.onmessage = async ({ data }) => {
  try {
    postMessage(await runChecks(api, data.vectors, { initOptions: { wasmBinary: data.wasmBinary } }));
  } catch (error) {
    postMessage({ error: `in the worker (${import.meta.url.slice(0, 5)}): ${(error && error.stack) || error}` });
  }
};
