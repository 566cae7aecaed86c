// Sums the JSON reports of every suite (vitest and Playwright) into one "N passed, N failed" line, after naming each
// failed test (CI's log is often read only from its tail).
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
let files = 0;
const failures = [];

function playwrightFailures(suite, report) {
  for (const spec of suite.specs ?? []) {
    if (!spec.ok) failures.push(`${report}: ${spec.file}:${spec.line} › ${spec.title}`);
  }
  for (const child of suite.suites ?? []) playwrightFailures(child, report);
}

for (const name of fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []) {
  if (!name.endsWith('.json')) continue;
  const report = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  let p = 0;
  let f = 0;
  if (report.stats && 'expected' in report.stats) {
    p = report.stats.expected + (report.stats.flaky ?? 0);
    f = report.stats.unexpected;
    for (const suite of report.suites ?? []) playwrightFailures(suite, name);
  } else {
    p = report.numPassedTests ?? 0;
    f =
      (report.numFailedTests ?? 0) +
      (report.numRuntimeErrorTestSuites ?? 0) +
      (report.success === false && !report.numFailedTests ? 1 : 0);
    for (const file of report.testResults ?? []) {
      const where = path.relative(process.cwd(), file.name ?? '');
      const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failedTests) failures.push(`${name}: ${where} › ${t.fullName}`);
      if (file.status === 'failed' && failedTests.length === 0) {
        failures.push(`${name}: ${where} › ${String(file.message ?? 'failed to run').split('\n')[0]}`);
      }
    }
  }
  files++;
  console.log(`${name}: ${p} passed, ${f} failed`);
  passed += p;
  failed += f;
}
if (files === 0) failed += 1;
if (failures.length > 0) {
  console.log('failed:');
  for (const line of failures) console.log(`  ${line}`);
}
console.log(`${passed} passed, ${failed} failed`);
