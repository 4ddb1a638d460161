// A page bundled with plain esbuild: `import 'unpool'` and `init()` with no
// options. esbuild leaves new URL('./unpool.wasm', import.meta.url) as it is,
// so the .wasm files are copied beside the bundle (docs/runtimes.md).
import * as api from 'unpool';
import { runChecks } from '../checks.mjs';
import { report, text } from './report.mjs';

report(async () => runChecks(api, await text('./vectors.json')));
