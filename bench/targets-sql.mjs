// SQL section of bench/targets.mjs: a GROUP BY over a 1,000,000-row CSV in /data, through the
// app's SQL module in the browser's Pyodide, against the same code natively (CPython's sqlite3)
// and a hand-written csv-module loop in the same Pyodide. bench/targets_sql.py holds the query.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { stats } from './targets-data.mjs';

const PYTHON_ROOT = 'lib/targets/python/engine';
const HARNESS = 'bench/targets_sql.py';

/** lib/targets/python/engine (the runpad package) as path → source: what scripts/build-workers.mjs embeds in the app's worker. */
function pythonSources(dir = PYTHON_ROOT) {
  const files = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== '__pycache__') Object.assign(files, pythonSources(full));
    else if (entry.name.endsWith('.py')) files[path.relative(PYTHON_ROOT, full)] = fs.readFileSync(full, 'utf8');
  }
  return files;
}

/** The app's OUTPUT_CAPS, compiled from lib/runtime/limits.ts rather than copied, so they cannot drift. */
export async function outputCaps() {
  const built = await esbuild.build({ entryPoints: ['lib/runtime/limits.ts'], bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'silent' });
  const source = built.outputFiles[0].text;
  const { OUTPUT_CAPS } = await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
  return OUTPUT_CAPS;
}

/** The same harness under CPython 3 on this machine: native SQLite, the same package, the same file. */
function nativeSql({ dataDir, repeat, caps }) {
  const out = execFileSync(process.env.PYTHON ?? 'python3', [HARNESS, dataDir, String(repeat), JSON.stringify(caps)], {
    env: { ...process.env, PYTHONPATH: PYTHON_ROOT, PYTHONDONTWRITEBYTECODE: '1' },
    maxBuffer: 16 << 20,
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

/** A page on the bare server whose worker has Pyodide, the app's package and the CSV in /data. */
async function openSqlPage({ browser, bareUrl, csvPath, caps }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The worker fetches the CSV; Playwright serves it from the temp file (no copy under bench/).
  await page.route('**/bench-data/sales.csv', (route) => route.fulfill({ path: csvPath, contentType: 'text/csv' }));
  await page.goto(`${bareUrl}/bare/targets-sql.html`);
  await page.waitForFunction(() => window.sqlReady || window.sqlFailed, null, { timeout: 120_000 });
  const failed = await page.evaluate(() => window.sqlFailed);
  if (failed) throw new Error(`the SQL worker did not start: ${failed}`);
  const call = (type, payload) => page.evaluate(([t, p]) => window.sqlCall(t, p), [type, payload]);
  const versions = await call('setup', { pythonSources: pythonSources(), harness: fs.readFileSync(HARNESS, 'utf8'), caps });
  const file = await call('writeCsv');
  return { context, call, versions, file };
}

/** Per repetition: fresh engine, first run (load + query), second run (query), then the csv loop. */
async function browserSql(session, repeat) {
  const runs = [];
  for (let i = 0; i < repeat; i += 1) {
    const sql = await session.call('sqlRepetition');
    const loop = await session.call('csvLoop');
    runs.push({ ...sql, csvLoopMs: loop.ms });
  }
  return { runs, sqlRows: await session.call('sqlRows'), csvRows: (await session.call('csvLoop')).rows };
}

/** Same regions, counts and sums (to 1e-9 relative: the two sum floats in different orders). */
function sameRows(a, b) {
  const close = (x, y) => Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
  return a.length === b.length && a.every((row, i) => row[0] === b[i][0] && row[1] === b[i][1] && close(row[2], b[i][2]) && close(row[3], b[i][3]));
}

function summarize(runs) {
  const pick = (f) => stats(runs.map(f));
  return {
    loadMs: pick((r) => r.first.load),
    queryMs: pick((r) => r.first.execute),
    firstRunMs: pick((r) => r.first.total),
    secondRunMs: pick((r) => r.second.total),
    secondQueryMs: pick((r) => r.second.execute),
    bareQueryMs: pick((r) => r.second.bareQuery),
    csvLoopMs: pick((r) => r.csvLoopMs),
  };
}

export async function sqlBench({ browser, bareUrl, csvPath, csvFile, repeat }) {
  const caps = await outputCaps();
  console.log('  native CPython');
  const native = nativeSql({ dataDir: path.dirname(csvPath), repeat, caps });
  console.log('  browser Pyodide');
  const session = await openSqlPage({ browser, bareUrl, csvPath, caps });
  try {
    if (session.file.sha256 !== csvFile.sha256) throw new Error('the browser received a different CSV than the one generated');
    const browserRuns = await browserSql(session, repeat);
    const checks = {
      sameQueryText: session.versions.query === native.query,
      sameCsvBytes: session.file.sha256 === csvFile.sha256,
      browserSqlEqualsNativeSql: sameRows(browserRuns.sqlRows, native.sqlRows),
      browserSqlEqualsBrowserLoop: sameRows(browserRuns.sqlRows, browserRuns.csvRows),
      nativeSqlEqualsNativeLoop: sameRows(native.sqlRows, native.csvRows),
      groups: native.sqlRows.length,
    };
    return {
      query: native.query,
      file: csvFile,
      checks,
      browser: { versions: session.versions, ...summarize(browserRuns.runs) },
      native: { versions: { python: native.python, sqlite: native.sqlite }, ...summarize(native.runs) },
    };
  } finally {
    await session.context.close();
  }
}
