// The bare DuckDB-wasm worker (bench/bare/duckdb.html): the same module and engine the app's bridge
// loads (public/duckdb/<version>/), the same settings that matter for speed (one thread), and the
// same CSV handed over as a buffer (one copy into DuckDB's heap, as in bench/duckdb.mjs).
const version = new URL(self.location.href).searchParams.get('v');
const base = `/duckdb/${version}/`;
let lib = null;
let db = null;
let conn = null;

async function start() {
  lib = await import(`${base}duckdb-blocking.mjs`);
  const wasm = new URL(`${base}duckdb-eh.wasm`, self.location.href).href;
  db = await lib.createDuckDB({ mvp: { mainModule: wasm, mainWorker: '' }, eh: { mainModule: wasm, mainWorker: '' } }, new lib.VoidLogger(), lib.BROWSER_RUNTIME);
  await db.instantiate(() => undefined);
  db.open({ query: { castDecimalToDouble: true } });
  conn = db.connect();
  conn.query('SET threads = 1');
  return db.getVersion();
}

const handlers = {
  start,
  file: ({ name, buffer }) => {
    self.pendingFile = { name, bytes: new Uint8Array(buffer) };
    return buffer.byteLength;
  },
  /** Registers the pending file (the copy into DuckDB's heap counts) and runs the statements. */
  run: ({ statements, register }) => {
    if (register) db.registerFileBuffer(`/data/${self.pendingFile.name}`, self.pendingFile.bytes);
    let rows = [];
    for (const sql of statements) rows = conn.query(sql).toArray().map((row) => row.toJSON());
    // BigInt counts as numbers: the page compares them with the app's answer.
    return JSON.parse(JSON.stringify(rows, (_key, value) => (typeof value === 'bigint' ? Number(value) : value)));
  },
};

self.onmessage = async ({ data }) => {
  const t0 = performance.now();
  try {
    const result = await handlers[data.type](data);
    self.postMessage({ id: data.id, workerMs: performance.now() - t0, result });
  } catch (error) {
    self.postMessage({ id: data.id, error: String(error?.stack ?? error) });
  }
};
