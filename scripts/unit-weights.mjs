// Refreshes scripts/unit-weights.json, the unit test files' measured seconds that `npm test` splits
// its unit parts by (scripts/unit-files.mjs), from the reports of the last `npm test`
// (test-results/unit/part-*.json, Vitest's JSON reporter): `node scripts/unit-weights.mjs`.
// Files the reports do not name keep their recorded weight; files that no longer exist are dropped.
import fs from 'node:fs';
import path from 'node:path';
import { unitTestFiles } from './unit-files.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const REPORTS = path.join(ROOT, 'test-results/unit');
const WEIGHTS = path.join(ROOT, 'scripts/unit-weights.json');

const recorded = fs.existsSync(WEIGHTS) ? JSON.parse(fs.readFileSync(WEIGHTS, 'utf8')) : {};
const measured = {};
const reports = fs.existsSync(REPORTS) ? fs.readdirSync(REPORTS).filter((name) => name.endsWith('.json')) : [];
if (reports.length === 0) {
  console.error(`No reports in ${path.relative(ROOT, REPORTS)}: run \`npm test\` first.`);
  process.exit(1);
}
for (const name of reports) {
  const report = JSON.parse(fs.readFileSync(path.join(REPORTS, name), 'utf8'));
  for (const result of report.testResults ?? []) measured[path.relative(ROOT, result.name).split(path.sep).join('/')] = Math.round((result.endTime - result.startTime) / 100) / 10;
}
const weights = Object.fromEntries(unitTestFiles().flatMap((file) => (file in measured ? [[file, measured[file]]] : file in recorded ? [[file, recorded[file]]] : [])));
fs.writeFileSync(WEIGHTS, `${JSON.stringify(weights, null, 1)}\n`);
console.log(`${path.relative(ROOT, WEIGHTS)}: ${Object.keys(measured).length} files measured, ${Object.keys(weights).length} in all`);
