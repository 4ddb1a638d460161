// Prints `<label>: N passed, N failed` (and `<label>: N skipped` before it,
// when some were) from a Vitest JSON report: the stage summary line of
// scripts/test-browser.sh and of the Vitest legs of scripts/test-webgpu.sh.
//   node tests/engines/vitest-summary.mjs REPORT.json LABEL
// A missing or unreadable report is one failure, and says so.
import { readFileSync } from 'node:fs';

const [file, label] = process.argv.slice(2);
let r;
try {
  r = JSON.parse(readFileSync(file, 'utf8'));
} catch (e) {
  console.log(`${label}: no Vitest JSON report (${e.message})`);
  console.log(`${label}: 0 passed, 1 failed`);
  process.exit(0);
}
const skipped = r.numPendingTests + r.numTodoTests;
if (skipped) console.log(`${label}: ${skipped} skipped`);
// A test file that failed to load has no failed test: count it.
const broken = r.numFailedTests === 0 && r.numFailedTestSuites > 0 ? 1 : 0;
console.log(`${label}: ${r.numPassedTests} passed, ${r.numFailedTests + broken} failed`);
