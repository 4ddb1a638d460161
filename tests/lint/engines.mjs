// Every package package-lock.json installs admits the Node.js the README
// names (`npm ci` warns EBADENGINE otherwise, and the package may not run):
// the development tools (dev packages) the README's "Node.js >= X and npm
// must be present", the package's own dependencies its engines.node too.
// Run by scripts/lint.sh; `node tests/lint/engines.mjs` alone.
import { readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const read = (f) => readFileSync(new URL(f, root), 'utf8');

/** [major, minor, patch] of '20', '20.19', 'v20.19.1'. */
function version(s) {
  const m = /^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?/.exec(s.trim());
  if (m === null) throw new Error(`not a version: ${JSON.stringify(s)}`);
  return [m[1], m[2], m[3]].map((p) => (p === undefined || p === 'x' || p === '*' ? undefined : Number(p)));
}

const cmp = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
const full = (v) => v.map((p) => p ?? 0);

/**
 * Whether `range` (npm's semver ranges as engines fields write them:
 * `||`, space-separated comparators, >= > <= < =, ^, ~, x and hyphen
 * ranges) admits the version `v`.
 */
export function admits(range, v) {
  const want = full(version(v));
  return range.split('||').some((alt) => {
    const s = alt.trim().replace(/\s+-\s+/, ' - ').replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1');
    if (s === '' || s === '*' || s === 'x') return true;
    const hyphen = /^(\S+) - (\S+)$/.exec(s);
    if (hyphen) {
      // A partial upper bound is a wildcard: '18 - 20' admits every 20.x.
      const hi = version(hyphen[2]);
      const n = hi.findIndex((p) => p === undefined);
      const upper = n < 0 ? cmp(want, hi) <= 0 : cmp(want.slice(0, n).concat([0, 0, 0]).slice(0, 3), full(hi)) <= 0;
      return cmp(want, full(version(hyphen[1]))) >= 0 && upper;
    }
    return s.split(/\s+/).every((c) => {
      const m = /^(>=|<=|>|<|=|\^|~)?\s*(.+)$/.exec(c);
      const op = m[1] ?? '=';
      const parts = version(m[2]);
      const lo = full(parts);
      const d = cmp(want, lo);
      switch (op) {
        case '>=': return d >= 0;
        case '>': return d > 0;
        case '<=': return d <= 0;
        case '<': return d < 0;
        case '^': {
          const i = lo[0] !== 0 || parts[1] === undefined ? 0 : lo[1] !== 0 || parts[2] === undefined ? 1 : 2;
          return d >= 0 && want[i] === lo[i] && want.slice(0, i).every((p, k) => p === lo[k]);
        }
        case '~': return d >= 0 && want[0] === lo[0] && (parts[1] === undefined || want[1] === lo[1]);
        default: // '=' and a bare version, where missing parts are wildcards
          return parts.every((p, k) => p === undefined || p === want[k]);
      }
    });
  });
}

// The rule's own cases: a wrong evaluator would pass every package.
const selfTest = [
  ['>=18', '20.0.0', true], ['>=22.12.0', '20.19.0', false], ['^20.19.0 || >=22.12.0', '20.19.0', true],
  ['^20.19.0 || >=22.12.0', '20.18.9', false], ['^20.19.0 || >=22.12.0', '21.0.0', false],
  ['^20.0.0 || ^22.0.0 || >=24.0.0', '20.19.0', true], ['>=12.20.0', '20.19.0', true],
  ['>= 14.17', '20.19.0', true], ['~20.1', '20.19.0', false], ['20.x', '20.19.0', true], ['18 - 20', '20.19.0', true],
  ['<20', '20.19.0', false], ['^0.10.0', '0.10.5', true], ['^0.10.0', '0.11.0', false], ['*', '1.0.0', true],
];
for (const [r, v, want] of selfTest) {
  if (admits(r, v) !== want) throw new Error(`engines.mjs: admits(${JSON.stringify(r)}, ${v}) should be ${want}`);
}

const readme = read('README.md');
const dev = /Node\.js >= (\d+(?:\.\d+){0,2})[^.]*? and npm must be present/.exec(readme);
if (dev === null) throw new Error('engines.mjs: README.md has no "Node.js >= X ... and npm must be present"');
const pkg = JSON.parse(read('package.json'));
const user = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(pkg.engines?.node ?? '');
if (user === null) throw new Error(`engines.mjs: package.json engines.node ${JSON.stringify(pkg.engines?.node)} is not ">=X"`);
const installLine = new RegExp(`Node\\.js >= ${user[1].replace(/\./g, '\\.')}\\. `);
if (!installLine.test(readme)) throw new Error(`engines.mjs: README.md does not say "Node.js >= ${user[1]}." (package.json engines.node)`);

const lock = JSON.parse(read('package-lock.json'));
const bad = [];
let checked = 0;
for (const [path, p] of Object.entries(lock.packages)) {
  const range = p.engines?.node;
  if (path === '' || typeof range !== 'string') continue;
  const need = p.dev ? dev[1] : user[1];
  checked++;
  if (!admits(range, need)) bad.push(`${path.replace(/^.*node_modules\//, '')}@${p.version}: engines.node ${JSON.stringify(range)} refuses Node.js ${need}`);
}
if (bad.length > 0) {
  console.error(`engines.mjs: packages of package-lock.json refuse the Node.js README.md names:\n  ${bad.join('\n  ')}`);
  process.exit(1);
}
console.log(`engines: ${checked} locked packages admit Node.js ${dev[1]} (development) and ${user[1]} (dependencies)`);
