// Writes bench/RESULTS-targets.md from one run of bench/targets.mjs, in the layout of bench/RESULTS.md.
import fs from 'node:fs';

const ratio = (a, b) => (b ? `${Math.round((a / b) * 100) / 100}×` : '—');
const overhead = (a, b) => `${a >= b ? '+' : '−'}${Math.round(Math.abs(a - b) * 10) / 10} ms`;
const ms = (s) => `${s.median} ms (p95 ${s.p95})`;
const row = (...cells) => `| ${cells.join(' | ')} |`;
const int = (n) => n.toLocaleString('en-US');

function sqlRows(sql) {
  const b = sql.browser;
  const n = sql.native;
  return [
    row('SQL first run on a new table: load the CSV + GROUP BY (`Kernel.run_sql`, whole call)', ms(b.firstRunMs), `native CPython, same code ${ms(n.firstRunMs)}`, ratio(b.firstRunMs.median, n.firstRunMs.median), '—'),
    row('— of which: CSV → table (`SqliteEngine.load`)', ms(b.loadMs), ms(n.loadMs), ratio(b.loadMs.median, n.loadMs.median), '—'),
    row('— of which: the GROUP BY (`SqliteEngine.execute`)', ms(b.queryMs), ms(n.queryMs), ratio(b.queryMs.median, n.queryMs.median), '—'),
    row('SQL second run, table already loaded (`Kernel.run_sql`, whole call)', ms(b.secondRunMs), ms(n.secondRunMs), ratio(b.secondRunMs.median, n.secondRunMs.median), '—'),
    row('GROUP BY straight on the connection, without the run\'s progress handler', ms(b.bareQueryMs), ms(n.bareQueryMs), ratio(b.bareQueryMs.median, n.bareQueryMs.median), '—'),
    row('SQL first run (load + query) vs a `csv`-module loop, same Pyodide', ms(b.firstRunMs), `csv loop in Pyodide ${ms(b.csvLoopMs)}`, ratio(b.firstRunMs.median, b.csvLoopMs.median), '—'),
    row('SQL second run (loaded table) vs the `csv` loop, same Pyodide', ms(b.secondRunMs), `csv loop in Pyodide ${ms(b.csvLoopMs)}`, ratio(b.secondRunMs.median, b.csvLoopMs.median), '—'),
    row('`csv`-module loop: Pyodide vs native (context)', ms(b.csvLoopMs), `native CPython ${ms(n.csvLoopMs)}`, ratio(b.csvLoopMs.median, n.csvLoopMs.median), '—'),
  ];
}

function graphvizRows(gv) {
  const r = gv.render;
  const c = gv.coldStart;
  return [
    row(`Graphviz render, ${gv.nodes}-node graph, warm worker (request → sanitized SVG back in the page)`, ms(r.browserWorker.renderMs), `@viz-js/viz in Node ${ms(r.node.renderMs)}`, ratio(r.browserWorker.renderMs.median, r.node.renderMs.median), '—'),
    row('— same, against the worker\'s own code (renderDot + sanitizeSvg) in Node', ms(r.browserWorker.renderMs), `app code in Node ${ms(r.appCodeInNode.renderMs)}`, ratio(r.browserWorker.renderMs.median, r.appCodeInNode.renderMs.median), '—'),
    row('Graphviz worker cold start: worker created → ready', ms(c.browserWorker.readyMs), `Node \`instance()\`, fresh process ${ms(c.node.instanceMs)}`, ratio(c.browserWorker.readyMs.median, c.node.instanceMs.median), '—'),
    row(`Graphviz worker cold start: worker created → first result (${gv.nodes}-node graph)`, ms(c.browserWorker.firstResultMs), `second render, same warm worker ${ms(c.browserWorker.secondRenderMs)}`, overhead(c.browserWorker.firstResultMs.median, c.browserWorker.secondRenderMs.median), '—'),
    row('Node, fresh process: first render (context)', ms(c.node.firstRenderMs), `second render ${ms(c.node.secondRenderMs)}`, overhead(c.node.firstRenderMs.median, c.node.secondRenderMs.median), '—'),
  ];
}

function notes(r) {
  const { sql, graphviz: gv } = r;
  const checks = sql.checks;
  return [
    `- SQL data: \`sales.csv\` (id, region, product, amount), ${int(sql.file.rows)} rows, ${int(sql.file.bytes)} bytes, generated from a fixed seed (bench/targets-data.mjs) into a temp dir; ${checks.groups} regions. Query (one text, from bench/targets_sql.py, used everywhere): \`${sql.query}\`.`,
    `- SQL in the browser: the bare page way (bench/bare/targets-sql.html and targets-sql-worker.mjs on the bare server), not the app page. The worker loads Pyodide ${sql.browser.versions.pyodide} (Python ${sql.browser.versions.python}, SQLite ${sql.browser.versions.sqlite}) from public/pyodide, writes lib/targets/python/engine/ to /runpad-lib as lib/targets/python/engine/interpreter.ts does (the same files scripts/build-workers.mjs embeds), creates \`Kernel\` with the app's OUTPUT_CAPS (compiled from lib/runtime/limits.ts) as python.worker.ts \`init\` does, writes the CSV to /data/sales.csv, and times \`__runpad_kernel.run_sql(query)\` from JavaScript exactly as python.worker.ts \`run\` calls it (call → awaited → \`toJs\`). pandas and DuckDB are not loaded, so the engine is SQLite and \`_sql\` is a list of dicts, as in the app by default. Not included: the page ↔ worker messaging and the React rendering of the table (measured in bench/RESULTS.md's round trip).`,
    `- SQL native baseline: the same harness (bench/targets_sql.py) and the same package under CPython ${sql.native.versions.python} with its native sqlite3 (SQLite ${sql.native.versions.sqlite}), on the same file, run as a child process; the whole call is timed in Python around \`asyncio.run(kernel.run_sql(query))\`. Note the SQLite versions differ (Pyodide bundles its own).`,
    '- SQL load and query are the app\'s own split: `run_sql` first syncs /data (`SqliteEngine.load`: csv-module type inference pass, then batched INSERTs of 1,000 rows inside a savepoint), then executes the statements (`SqliteEngine.execute`: execute + fetchall). Both methods are wrapped with a `perf_counter` timer in both interpreters; the whole-call figure also includes the result table being built and emitted. Each repetition starts from a fresh engine (`runpad.sql.reset()`, as a new interpreter has), so the first run loads the table again; the second run finds the file unchanged (one `stat`) and only queries.',
    '- "Without the run\'s progress handler" is the same query on the engine\'s connection with `execute().fetchall()` after the run removed its progress handler (the handler calls into Python every `runpad.sql.PROGRESS_STEPS` SQLite instructions so the browser\'s interrupt can land). It shows what the interrupt hook costs.',
    `- csv loop: \`csv.reader\` over the same file, \`float(amount)\`, a dict of [count, sum] per region, sorted: the same answer as the query. Results checked in this run: same query text ${checks.sameQueryText ? 'yes' : 'NO'}; the browser got the same bytes (SHA-256) ${checks.sameCsvBytes ? 'yes' : 'NO'}; browser SQL = native SQL ${checks.browserSqlEqualsNativeSql ? 'yes' : 'NO'}; SQL = csv loop in Pyodide ${checks.browserSqlEqualsBrowserLoop ? 'yes' : 'NO'}, natively ${checks.nativeSqlEqualsNativeLoop ? 'yes' : 'NO'} (counts exact, sums to 1e-9 relative: summation order differs).`,
    `- Graphviz graph: ${gv.nodes} nodes (boxes with labels), a random tree plus up to 250 extra edges, fixed seed (bench/targets-data.mjs), ${int(gv.dotChars)} characters of DOT; rendered with \`{ format: 'svg', engine: 'dot' }\` as lib/targets/graphviz/render-dot.client.ts does.`,
    `- Graphviz in the browser: the app's built worker, public/workers/graphviz.worker.mjs (${int(gv.workerBytes)} bytes, the wasm embedded), served by a small server of this bench (the bare server serves only bench/ and Pyodide; a worker must be same-origin) with the app's isolation headers but not the worker CSP that proxy.ts adds per request. bench/bare/targets-graphviz.html speaks the worker's protocol as lib/targets/graphviz/runner.client.ts does (a MessagePort handed over with \`connect\`, \`ready\`, then \`render\` by id; a render is posted once ready). A render is timed in the page from posting the request to the reply with the sanitized SVG (${int(gv.render.browserWorker.svgChars)} characters); the runner's PNG conversion afterwards is not included. Warm renders: one page, after the cold start's two renders.`,
    `- Graphviz in Node: @viz-js/viz's \`instance()\` and \`render()\` in this script's process after two warm-up renders (raw SVG, ${int(gv.render.node.svgChars)} characters: the browser's is smaller because the sanitizer drops the XML prologue, DOCTYPE and comments); "app code in Node" is lib/targets/graphviz/render-dot.client.ts + sanitize-svg.ts bundled with esbuild and timed around \`renderDot\` + \`sanitizeSvg\`.`,
    '- Graphviz cold start: each repetition opens a new browser context and page (nothing cached), then times from just before `new Worker(…)` to the `ready` message (script fetched and evaluated, wasm instantiated, network APIs removed) and to the first render\'s reply; the baseline is a second render of the same graph in that now-warm worker. Node\'s figures come from a new `node` process per repetition: `instance()` after the module import, then a first and a second render (Node compiles wasm lazily, so much of its start-up cost lands in the first render rather than in `instance()`).',
    '- Median and p95 are over the repetitions (nearest rank; with 5 repetitions the p95 is the slowest one). Ratios and overheads are of the medians.',
    '- No targets were stated for these measures, so the target column is empty; the layout follows bench/RESULTS.md.',
  ];
}

export function writeTargetsResults(r) {
  const lines = [
    '# Benchmark results: SQL and Graphviz targets',
    '',
    `Run on ${r.date} · ${r.machine} · Node ${r.versions.node} · Pyodide ${r.versions.pyodide} · Chromium ${r.versions.chromium} · ${r.repeat} repetitions (median, p95) · 1-minute load average ${r.loadAverage.start.toFixed(1)} at the start, ${r.loadAverage.end.toFixed(1)} at the end.`,
    '',
    'Reproduce: `npm run build && flock /tmp/runpad-heavy.lock node bench/targets.mjs` (headless Debian Chromium, localhost, ports 3320–3321; `BENCH_REPEAT` sets the repetitions; the lock keeps it from competing with test runs that take it too, but not with other load, hence the load average above). Raw numbers: `bench/out/*-targets.json`.',
    '',
    '| measure | app | baseline (same run) | ratio or overhead | target |',
    '| --- | --- | --- | --- | --- |',
    ...sqlRows(r.sql),
    ...graphvizRows(r.graphviz),
    '',
    'Notes:',
    ...notes(r),
    '',
  ];
  fs.writeFileSync('bench/RESULTS-targets.md', lines.join('\n'));
}

// `node bench/targets-report.mjs bench/out/<run>-targets.json` rewrites RESULTS-targets.md from a stored run.
if (import.meta.url === `file://${process.argv[1]}`) writeTargetsResults(JSON.parse(fs.readFileSync(process.argv[2], 'utf8')));
