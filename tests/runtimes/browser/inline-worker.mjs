// The Blob-URL module worker with unpool/inline: nothing to fetch or post.
import * as api from 'unpool/inline';
import { runChecks } from '../checks.mjs';

self.onmessage = async ({ data }) => {
  try {
    postMessage(await runChecks(api, data.vectors));
  } catch (error) {
    postMessage({ error: `in the worker (${import.meta.url.slice(0, 5)}): ${(error && error.stack) || error}` });
  }
};
