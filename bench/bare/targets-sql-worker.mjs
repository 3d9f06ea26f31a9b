// The SQL target in the browser, for bench/targets.mjs: Pyodide from the same self-hosted files as
// the app, the app's Python package written where the app's worker writes it, and a SQL cell run
// through the call the app's worker makes (`__runpad_kernel.run_sql(code)`, lib/targets/python/engine/python.worker.ts).
// The server substitutes the Pyodide version for the placeholder in the import below.
const { loadPyodide } = await import('/pyodide/VERSION/pyodide.mjs');
const pyodide = await loadPyodide({ indexURL: '/pyodide/VERSION/', stdout: () => undefined, stderr: () => undefined });

// Where lib/targets/python/engine/interpreter.ts installs the package, and /data as the kernel uses it.
const PACKAGE_ROOT = '/runpad-lib';
const HARNESS_ROOT = '/bench-lib';
const CSV_PATH = '/data/sales.csv';
let runSql = null;

function writeTree(root, files) {
  for (const [relative, source] of Object.entries(files)) {
    const full = `${root}/${relative}`;
    pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf('/')));
    pyodide.FS.writeFile(full, source);
  }
}

/** Installs the package and the harness, and creates the kernel as the app's worker init() does. */
function setup({ pythonSources, harness, caps }) {
  writeTree(PACKAGE_ROOT, pythonSources);
  writeTree(HARNESS_ROOT, { 'targets_sql.py': harness });
  pyodide.globals.set('__runpad_emit', (json) => self.postMessage({ type: 'output', json: String(json) }));
  pyodide.globals.set('__runpad_caps', JSON.stringify(caps));
  runSql = pyodide.runPython(`
import sys, json
for root in (${JSON.stringify(PACKAGE_ROOT)}, ${JSON.stringify(HARNESS_ROOT)}):
    if root not in sys.path:
        sys.path.insert(0, root)
from runpad.kernel import Kernel
import targets_sql
targets_sql.configure(__runpad_caps)
__runpad_kernel = Kernel(emit=lambda out: __runpad_emit(json.dumps(out, allow_nan=False)), caps=json.loads(__runpad_caps))
del __runpad_caps
__runpad_kernel.run_sql
`);
  return {
    query: pyodide.runPython('targets_sql.QUERY'),
    python: pyodide.runPython('import sys; sys.version.split()[0]'),     sqlite: pyodide.runPython('import sqlite3; sqlite3.sqlite_version'),
    pyodide: pyodide.version,
  };
}

/** Fetches the CSV (served by the bench) into /data, as an upload is written there; returns its SHA-256. */
async function writeCsv() {
  const bytes = new Uint8Array(await (await fetch('/bench-data/sales.csv')).arrayBuffer());
  pyodide.FS.mkdirTree('/data');
  pyodide.FS.writeFile(CSV_PATH, bytes);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return { bytes: bytes.length, sha256: Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('') };
}

/** One SQL cell as the app's worker runs it (python.worker.ts `run`), timed around that call. */
async function timedSqlRun() {
  const query = pyodide.runPython('targets_sql.QUERY');
  const t0 = performance.now();
  const proxy = await runSql(query);
  const result = proxy.toJs({ dict_converter: Object.fromEntries });
  proxy.destroy();
  const total = performance.now() - t0;
  if (result.status !== 'ok') throw new Error(`SQL run failed: ${JSON.stringify(result)}`);
  const parts = pyodide.runPython('json.dumps(targets_sql.take_timings())');
  return { total, ...JSON.parse(parts) };
}

/** A fresh engine (so the CSV is loaded again), then a first run (load + query) and a second (query). */
async function sqlRepetition() {
  pyodide.runPython('targets_sql.fresh_engine()');
  const first = await timedSqlRun();
  const second = await timedSqlRun();
  second.bareQuery = pyodide.runPython('targets_sql.bare_query()');
  return { first, second };
}

function csvLoop() {
  return JSON.parse(pyodide.runPython(`json.dumps(targets_sql.timed_csv_loop(${JSON.stringify(CSV_PATH)}))`));
}

const HANDLERS = {
  setup,
  writeCsv,
  sqlRepetition,
  csvLoop,
  sqlRows: () => JSON.parse(pyodide.runPython('json.dumps(targets_sql.sql_rows(__runpad_kernel))')),
};

self.onmessage = async ({ data }) => {
  try {
    const result = await HANDLERS[data.type](data.payload ?? {});
    self.postMessage({ type: 'reply', id: data.id, result });
  } catch (error) {
    self.postMessage({ type: 'reply', id: data.id, error: String(error?.stack ?? error) });
  }
};
self.postMessage({ type: 'ready' });
