// Sums the JSON reports of every suite (vitest and Playwright) into one "N passed, N failed" line.
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let files = 0;
for (const name of fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []) {
  if (!name.endsWith('.json')) continue;
  const report = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  let p = 0;
  let f = 0;
  if (report.stats && 'expected' in report.stats) {
    p = report.stats.expected + (report.stats.flaky ?? 0);
    f = report.stats.unexpected;
  } else {
    p = report.numPassedTests ?? 0;
    f =
      (report.numFailedTests ?? 0) +
      (report.numRuntimeErrorTestSuites ?? 0) +
      (report.success === false && !report.numFailedTests ? 1 : 0);
  }
  files++;
  console.log(`${name}: ${p} passed, ${f} failed`);
  passed += p;
  failed += f;
}
if (files === 0) failed += 1;
console.log(`${passed} passed, ${failed} failed`);
