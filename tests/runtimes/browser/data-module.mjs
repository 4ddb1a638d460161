// Bundled, then imported by data-url.mjs from a data: URL, so its
// import.meta.url is data:… (no base for a relative URL).
import * as api from 'unpool';
import { runChecks } from '../checks.mjs';

export const metaUrl = import.meta.url;
export const run = (vectors, initOptions) => runChecks(api, vectors, { initOptions });
