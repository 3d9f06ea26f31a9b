// The browser section of bench/RESULTS-duckdb.md, from bench/duckdb-browser.mjs's results: medians
// with the range of the repetitions, each beside its same-run baselines.
import { writeSection } from './results-section.mjs';

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const n = (x) => Math.round(x).toLocaleString('en-US');
/** "1,234 ms (1,100–1,400)": the median and, over several repetitions, the smallest and largest. */
const cell = (xs) => (xs.length > 1 ? `${n(median(xs))} ms (${n(Math.min(...xs))}–${n(Math.max(...xs))})` : `${n(xs[0])} ms`);
const ratio = (a, b) => `${(median(a) / median(b)).toFixed(2)}×`;

export function writeBrowserResults(results) {
  const runs = results.runs;
  const all = (pick) => runs.map(pick);
  const app = {
    first: all((r) => r.app.first.totalMs),
    second: all((r) => r.app.second.totalMs),
    pyFirst: all((r) => r.app.pyFirst.totalMs),
    pySecond: all((r) => r.app.pySecond.totalMs),
    bigFirst: all((r) => r.app.big.first.totalMs),
    bigSecond: all((r) => r.app.big.second.totalMs),
    coldFirst: all((r) => r.app.coldFirst.coldStartMs),
    coldCached: all((r) => r.app.coldCached.coldStartMs),
    cellFirst: all((r) => r.app.coldFirst.totalMs),
    cellCached: all((r) => r.app.coldCached.totalMs),
    cellWarm: all((r) => r.app.warm.totalMs),
    longest: all((r) => r.app.big.mainThread.longestTaskMs),
  };
  const native = {
    first: all((r) => r.native.firstMs),
    second: all((r) => r.native.secondMs),
    bigFirst: all((r) => r.native.big.firstMs),
    bigSecond: all((r) => r.native.big.secondMs),
    cold: all((r) => r.native.coldStartMs),
  };
  const bare = {
    first: all((r) => r.bare.firstMs),
    second: all((r) => r.bare.secondMs),
    bigFirst: all((r) => r.bare.bigFirstMs),
    coldFirst: all((r) => r.bare.coldStartFirstMs),
    coldCached: all((r) => r.bare.coldStartCachedMs),
  };
  const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
  const goal = (met, text) => `${text} (${met ? 'met' : 'missed'})`;
  // Medians of each part of a run: the page's phases and, inside the worker, what the run logged.
  const phases = (pick) => ({
    toFiles: all((r) => pick(r).toFilesMs),
    files: all((r) => pick(r).filesMs),
    running: all((r) => pick(r).runningMs),
    python: all((r) => pick(r).worker.pythonMs),
    load: all((r) => pick(r).worker.loadMs),
    statements: all((r) => pick(r).worker.statementsMs - pick(r).worker.loadMs),
    pythonOwn: all((r) => pick(r).worker.pythonMs - pick(r).worker.statementsMs),
    outside: all((r) => pick(r).runningMs - pick(r).worker.pythonMs),
  });
  const small = phases((r) => r.app.first);
  const smallSecond = phases((r) => r.app.second);
  const large = phases((r) => r.app.big.first);
  const tbt = all((r) => r.app.big.mainThread.totalBlockingMs);
  const uploadLongest = all((r) => r.app.big.uploadMainThread.longestTaskMs);

  const lines = [
    '## In the browser, through the app',
    '',
    `Written by \`node bench/duckdb-browser.mjs\` on ${results.date} (Chromium ${results.versions.chromium}, DuckDB-wasm ${results.versions.duckdbWasm}, Node ${results.versions.node}, ${results.machine}).`,
    `Machine load (\`uptime\`): at the start \`${results.uptime.start}\`; at the end \`${results.uptime.end}\`. The machine is shared: other work inflates every number, the same-run ratios less.`,
    `Inputs: the sales CSV of bench/targets-data.mjs, ${results.csv.rows.toLocaleString('en-US')} rows (${mb(results.csv.bytes)}), and ${results.bigCsv.rows.toLocaleString('en-US')} rows (${mb(results.bigCsv.bytes)}, the upload limit's size). Query: \`${'SELECT region, count(*) AS n, sum(amount) AS total FROM sales GROUP BY region ORDER BY region'}\`. Medians of ${results.repeat} repetitions (smallest–largest), each a fresh browser context; the engines take turns within a repetition.`,
    '',
    '**The app** = the production build (`next start`) in Chromium with the fake model: the CSV is dropped on the conversation (uploaded and in the browser\'s dataset cache before the call), the model makes the `sql` call, and the time runs from the app\'s `runpad:code-complete` mark to the cell\'s result on the page (its `data-cell-status`), so it holds the bytes reaching /data, Python, DuckDB, the result\'s way back and rendering. **Bare** = DuckDB-wasm\'s blocking bindings in a worker of a page of their own, same files, the CSV already in the worker as a buffer (registering it is timed). **Native** = `@duckdb/node-api`, `threads = 1`, reading the CSV from disk.',
    '',
    '| measurement | the app in Chromium | bare DuckDB-wasm worker | native DuckDB, 1 thread | app ÷ native | goal |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    `| first SQL run on a fresh ${results.csv.rows.toLocaleString('en-US')}-row CSV (load + GROUP BY, the whole call) | ${cell(app.first)} | ${cell(bare.first)} | ${cell(native.first)} | ${ratio(app.first, native.first)} | ${goal(median(app.first) <= 3 * median(native.first), '≤ 3×')} |`,
    `| second run on the loaded table | ${cell(app.second)} | ${cell(bare.second)} | ${cell(native.second)} | ${ratio(app.second, native.second)} | ${goal(median(app.second) <= 3 * median(native.second), '≤ 3×')} |`,
    `| the same query from Python's \`sql()\`, first (a fresh copy of the CSV) | ${cell(app.pyFirst)} | — | ${cell(native.first)} | ${ratio(app.pyFirst, native.first)} | — |`,
    `| the same query from Python's \`sql()\`, on the loaded table | ${cell(app.pySecond)} | — | ${cell(native.second)} | ${ratio(app.pySecond, native.second)} | — |`,
    `| first query on the ${mb(results.bigCsv.bytes)} CSV (load + GROUP BY) | ${cell(app.bigFirst)} | ${cell(bare.bigFirst)} | ${cell(native.bigFirst)} | ${ratio(app.bigFirst, native.bigFirst)} | — |`,
    `| second query on the ${mb(results.bigCsv.bytes)} table | ${cell(app.bigSecond)} | — | ${cell(native.bigSecond)} | ${ratio(app.bigSecond, native.bigSecond)} | — |`,
    `| DuckDB cold start, first visit (first need → ready) | ${cell(app.coldFirst)} | ${cell(bare.coldFirst)} | ${cell(native.cold)} | — | — |`,
    `| DuckDB cold start, cached visit | ${cell(app.coldCached)} | ${cell(bare.coldCached)} | — | — | — |`,
    `| longest main-thread task while the ${mb(results.bigCsv.bytes)} CSV is queried | ${n(median(app.longest))} ms (${n(Math.min(...app.longest))}–${n(Math.max(...app.longest))}); blocking time ${n(median(tbt))} ms | — | — | — | ${goal(Math.max(...app.longest) <= 50, 'no task over 50 ms')} |`,
    '',
    `Cold start in the app: from the first need (the \`sql\` call's cell appears as the model begins it, and the app starts DuckDB) to DuckDB ready in the worker (the moment it hands Python the bridge, logged by the instrumented interpreter); the interpreter was ready before. It is DuckDB's download (first visit only), compile, instantiate and setup. The whole first SQL cell (\`SELECT 42\`, code complete → result) took ${cell(app.cellFirst)} on a first visit and ${cell(app.cellCached)} on a cached one, against ${cell(app.cellWarm)} once DuckDB is up. Bare: the page's round trip to an idle worker that imports the module and instantiates the engine. Native: creating an in-memory instance and its connection. A main-thread task of 0 ms means none reached 50 ms (the Long Tasks API reports no shorter ones); while the 100 MB file was uploaded (before the query) the longest was ${n(median(uploadLongest))} ms (median).`,
    '',
    '### Where a run\'s time goes (medians)',
    '',
    `| phase | first run, ${results.csv.rows.toLocaleString('en-US')} rows | second run | first run, ${mb(results.bigCsv.bytes)} |`,
    '| --- | ---: | ---: | ---: |',
    ...[
      ['code complete → the run posted to the worker (runner start, the dataset opened in the cache)', 'toFiles'],
      ["the CSV's bytes into /data (read from the dataset cache, SHA-256 checked, transferred, written to Pyodide's file system)", 'files'],
      ['the run in the worker and its result on the page', 'running'],
      ["— the SQL cell in Python (run_sql), of which:", 'python'],
      ["— — DuckDB's load: `CREATE TABLE … AS SELECT * FROM read_csv(…)`, the bytes read through the bridge's readFile hook", 'load'],
      ['— — the other statements: the GROUP BY, the tables listing of the sync', 'statements'],
      ["— — Python's own work (the table sync, the result as a table, `_sql`)", 'pythonOwn'],
      ["— outside Python: the run message, the result's way back, rendering", 'outside'],
    ].map(([label, key]) => `| ${label} | ${n(median(small[key]))} ms | ${n(median(smallSecond[key]))} ms | ${n(median(large[key]))} ms |`),
    '',
    'The worker\'s parts are logged by the measured run itself: a Python cell run earlier in the same interpreter wraps `runpad.sql.run_sql` and `runpad.duckdb_bridge.execute` with timers. Per-repetition numbers and the machine\'s load average before each are in the JSON file in bench/out/.',
    '',
  ];
  writeSection(new URL('./RESULTS-duckdb.md', import.meta.url), 'browser', 'DuckDB: the browser engine against native DuckDB', lines);
  console.log(lines.join('\n'));
}
