// The bare DuckDB-wasm baseline of bench/duckdb-browser.mjs: bench/bare/duckdb.html and its worker,
// served with the app's isolation headers, the engine from public/duckdb/ (cached as immutable, as
// the app serves it) and the bench's CSVs from its temp dir.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { groupBy, loadCsv } from './duckdb-native.mjs';

const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.csv': 'text/csv' };

export function startBareDuckdbServer(port, dataDir) {
  const server = http.createServer((request, response) => {
    const url = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    let file = null;
    if (url === '/') file = 'bench/bare/duckdb.html';
    else if (url === '/bare/duckdb-worker.mjs') file = 'bench/bare/duckdb-worker.mjs';
    else if (/^\/duckdb\/[\w.-]+\/[\w.-]+$/.test(url)) file = path.join('public', url);
    else if (/^\/data\/[\w.-]+$/.test(url)) file = path.join(dataDir, path.basename(url));
    if (!file || !fs.existsSync(file)) return response.writeHead(404).end();
    response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    response.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    response.setHeader('Cache-Control', url.startsWith('/duckdb/') ? 'public, max-age=31536000, immutable' : 'no-store');
    response.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream');
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

async function ask(page, request) {
  const answer = await page.evaluate((r) => window.bareDuckdb(r), request);
  if (answer.error) throw new Error(`bare DuckDB-wasm: ${answer.error}`);
  return answer;
}

async function openBare(context, url) {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.bareWorkerUp === true);
  return page;
}

/**
 * One fresh context: DuckDB's start on a first visit, the first run on the CSV (its bytes are in the
 * worker beforehand; registering them, the load and the GROUP BY are timed) and a second run; then
 * the start on a cached visit and the big CSV's first run. Times are the page's round trips to the worker.
 */
export async function bareRun(browser, url, files) {
  const context = await browser.newContext();
  try {
    const page = await openBare(context, url);
    const startFirst = await ask(page, { type: 'start' });
    await page.evaluate((name) => window.bareFile(name), files.csv);
    const first = await ask(page, { type: 'run', register: true, statements: [loadCsv('sales', `/data/${files.csv}`), groupBy('sales')] });
    const second = await ask(page, { type: 'run', statements: [groupBy('sales')] });
    await page.close();
    // As in the app: the big CSV's first run in a fresh engine of a cached visit, not one whose
    // CSV reader already ran (wasm code gets faster as V8 optimises the functions that run hot).
    const cached = await openBare(context, url);
    const startCached = await ask(cached, { type: 'start' });
    await cached.evaluate((name) => window.bareFile(name), files.big);
    const big = await ask(cached, { type: 'run', register: true, statements: [loadCsv('sales_100mb', `/data/${files.big}`), groupBy('sales_100mb')] });
    return {
      coldStartFirstMs: startFirst.ms,
      coldStartCachedMs: startCached.ms,
      firstMs: first.ms,
      secondMs: second.ms,
      bigFirstMs: big.ms,
      answer: first.result.map((r) => [r.region, r.n]),
    };
  } finally {
    await context.close();
  }
}
