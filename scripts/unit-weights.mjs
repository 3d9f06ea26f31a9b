// Refreshes scripts/unit-weights.json, the unit test files' measured seconds that `npm test` splits
// its unit parts by (scripts/unit-files.mjs), from the reports of the last `npm test`
// (.unit-reports/part-*.json: not under test-results/, which Playwright empties when it starts, Vitest's JSON reporter): `node scripts/unit-weights.mjs`.
// Files the reports do not name keep their recorded weight; files that no longer exist are dropped.
import fs from 'node:fs';
import path from 'node:path';
import { unitTestFiles } from './unit-files.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const REPORTS = path.join(ROOT, '.unit-reports');
const WEIGHTS = path.join(ROOT, 'scripts/unit-weights.json');

const recorded = fs.existsSync(WEIGHTS) ? JSON.parse(fs.readFileSync(WEIGHTS, 'utf8')) : {};
const known = unitTestFiles();
const measured = {};
const reports = fs.existsSync(REPORTS) ? fs.readdirSync(REPORTS).filter((name) => name.endsWith('.json')) : [];
if (reports.length === 0) {
  console.error(`No reports in ${path.relative(ROOT, REPORTS)}: run \`npm test\` first.`);
  process.exit(1);
}
for (const name of reports) {
  const report = JSON.parse(fs.readFileSync(path.join(REPORTS, name), 'utf8'));
  // A report names files by absolute path, from whichever checkout made it (a clean clone's, say).
  for (const result of report.testResults ?? []) {
    const file = known.find((candidate) => result.name.split(path.sep).join('/').endsWith(`/${candidate}`));
    if (file) measured[file] = Math.round((result.endTime - result.startTime) / 100) / 10;
  }
}
const weights = Object.fromEntries(known.flatMap((file) => (file in measured ? [[file, measured[file]]] : file in recorded ? [[file, recorded[file]]] : [])));
fs.writeFileSync(WEIGHTS, `${JSON.stringify(weights, null, 1)}\n`);
console.log(`${path.relative(ROOT, WEIGHTS)}: ${Object.keys(measured).length} files measured, ${Object.keys(weights).length} in all`);
