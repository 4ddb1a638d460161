// The CommonJS cell: require('unpool') (Node.js >= 20.19 loads the ES
// module synchronously) and require('unpool/inline'), then the same checks.
const { readFileSync } = require('node:fs');

const [entry, vectors] = process.argv.slice(2);
const api = require(entry);
if (typeof api.init !== 'function' || typeof api.maxPool2d !== 'function') {
  throw new Error(`require('${entry}') gave no API: ${Object.keys(api)}`);
}
import('./checks.mjs')
  .then(({ runChecks }) => runChecks(api, readFileSync(vectors, 'utf8')))
  .then((summary) => process.stdout.write(`${JSON.stringify(summary)}\n`))
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
