// unpool/inline bundled by esbuild: one JavaScript file, no .wasm beside it.
import * as api from 'unpool/inline';
import { runChecks } from '../checks.mjs';
import { report, text } from './report.mjs';

report(async () => runChecks(api, await text('./vectors.json')));
