// A module whose import.meta.url is a data: URL, loaded with
// init({ locateFile }) (#locate) or init({ wasmBinary }) (#binary).
import { report, text } from './report.mjs';

report(async () => {
  const code = await text('./data-module.js');
  const module = await import(`data:text/javascript,${encodeURIComponent(code)}`);
  if (!module.metaUrl.startsWith('data:')) throw new Error(`import.meta.url is ${module.metaUrl.slice(0, 40)}`);
  const options = location.hash === '#locate'
    ? { locateFile: (file) => new URL(`./${file}`, location.href).href }
    : { wasmBinary: new Uint8Array(await (await fetch('./unpool.wasm')).arrayBuffer()) };
  return module.run(await text('./vectors.json'), options);
});
