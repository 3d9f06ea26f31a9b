// R target benchmark (npm run assets first): Runpad's R worker against bare webR in the same
// Chromium, and webR against native R (Debian's r-base-core, `Rscript`) on the same lm() problem.
// Writes bench/RESULTS-webr.md. Quick: a few repetitions of each, well under two minutes.
//
//   node bench/webr.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { webrVersion, webrDir } from '../scripts/webr-assets.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 4791);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const LM_CODE = 'set.seed(1); n <- 100000; d <- data.frame(x = rnorm(n), g = factor(sample(letters[1:5], n, TRUE))); d$y <- 2 * d$x + as.integer(d$g) + rnorm(n)';
const LM_FIT = 'fit <- lm(y ~ x + g, data = d); cat(sprintf("%.6f\\n", coef(fit)[["x"]]))';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

/** bench/bare/webr.html, the built R worker, webR's copied files and webR's browser build, cross-origin isolated. */
function startServer() {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost').pathname;
    let file = null;
    if (url === '/') file = 'bench/bare/webr.html';
    else if (url === '/workers/r.worker.mjs') file = 'public/workers/r.worker.mjs';
    else if (url.startsWith(`/webr/${webrVersion}/`)) file = path.join('public', decodeURIComponent(url));
    else if (url === '/bare-webr/webr.js') file = path.join(webrDir, 'webr.js');
    if (!file || !path.resolve(file).startsWith(process.cwd()) && !file.startsWith(webrDir) || !fs.existsSync(file)) return response.writeHead(404).end();
    response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    response.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    response.setHeader('Cache-Control', url.startsWith('/webr/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    response.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream');
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(PORT, '127.0.0.1', () => resolve(server)));
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${Math.round(value)} ms`;

async function openPage(context) {
  const page = await context.newPage();
  await page.addInitScript((version) => (window.WEBR_VERSION = version), webrVersion);
  await page.goto(`http://127.0.0.1:${PORT}/`);
  await page.waitForFunction(() => window.benchReady === true);
  return page;
}

/** Cold starts: a first visit (fresh context, empty cache) and a cached visit (same context, reloaded). */
async function coldStarts(browser, start) {
  const first = [];
  const cached = [];
  for (let i = 0; i < REPEAT; i += 1) {
    const context = await browser.newContext();
    try {
      const page = await openPage(context);
      first.push(await page.evaluate(start));
      await page.close();
      const again = await openPage(context);
      cached.push(await again.evaluate(start));
    } finally {
      await context.close();
    }
  }
  return { first: median(first), cached: median(cached) };
}

function nativeLm() {
  try {
    const script = `${LM_CODE}; t <- system.time(for (i in 1:5) { ${LM_FIT} })[["elapsed"]] / 5; cat(sprintf("%.6f\\n", t * 1000))`;
    const out = execFileSync('Rscript', ['-e', script], { encoding: 'utf8' }).trim().split('\n');
    const version = execFileSync('Rscript', ['-e', 'cat(R.version.string)'], { encoding: 'utf8' }).trim();
    return { ms: Number(out.at(-1)), coefficient: out[0], version };
  } catch {
    return null;
  }
}

const server = await startServer();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const runpadStart = await coldStarts(browser, () => window.runpadStart());
  const bareStart = await coldStarts(browser, () => window.bareStart());

  const context = await browser.newContext();
  const page = await openPage(context);
  await page.evaluate(() => Promise.all([window.runpadStart(), window.bareStart()]));
  const roundTrips = { runpad: [], bare: [] };
  for (let i = 0; i < 10; i += 1) {
    roundTrips.runpad.push((await page.evaluate(() => window.runpadRun('1+1'))).ms);
    roundTrips.bare.push((await page.evaluate(() => window.bareRun('1+1'))).ms);
  }
  await page.evaluate((code) => window.runpadRun(code), LM_CODE);
  const lmRuns = [];
  let webrCoefficient = '';
  for (let i = 0; i < REPEAT; i += 1) {
    const run = await page.evaluate((code) => window.runpadRun(code), LM_FIT);
    lmRuns.push(run.ms);
    webrCoefficient = run.text.trim();
  }
  await context.close();
  const native = nativeLm();

  const rows = [
    ['webR cold start, first visit', ms(runpadStart.first), ms(bareStart.first), (runpadStart.first / bareStart.first).toFixed(2)],
    ['webR cold start, cached visit', ms(runpadStart.cached), ms(bareStart.cached), (runpadStart.cached / bareStart.cached).toFixed(2)],
    ['`1+1` round trip (median of 10)', ms(median(roundTrips.runpad)), ms(median(roundTrips.bare)), (median(roundTrips.runpad) / median(roundTrips.bare)).toFixed(2)],
  ];
  const lines = [
    '# webR (R target) benchmark',
    '',
    `Measured ${new Date().toISOString()} by \`node bench/webr.mjs\` on ${process.platform}, Chromium ${browser.version()}, webR ${webrVersion}; medians of ${REPEAT} unless said. ` +
      'Runpad = the app\'s built R worker (lib/targets/r/engine/r.worker.ts) started and driven as lib/targets/r/runner.client.ts does; bare = `new WebR()` in a page of its own, `evalR` + `toJs`. ' +
      'Same machine, same run; the ratio is what matters (the machine is shared and loaded).',
    '',
    '| measure | Runpad | bare webR | ratio |',
    '| --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
    '## lm() on 100,000 rows (y ~ x + a 5-level factor)',
    '',
    '| | time per fit | coefficient of x |',
    '| --- | --- | --- |',
    `| webR in Runpad (run round trip) | ${ms(median(lmRuns))} | ${webrCoefficient} |`,
    native ? `| native R (${native.version}, Rscript) | ${ms(native.ms)} | ${native.coefficient} |` : '| native R | not installed (`apt-get install r-base-core`) | |',
    native ? `\nRatio webR / native: ${(median(lmRuns) / native.ms).toFixed(1)}×. The data are generated in each R with the same seed, so the coefficients should agree.` : '',
    '',
  ];
  fs.writeFileSync('bench/RESULTS-webr.md', lines.join('\n'));
  console.log(lines.join('\n'));
} finally {
  await browser.close();
  server.close();
}
