// Graphviz section of bench/targets.mjs: the app's built Graphviz worker in the browser against
// @viz-js/viz in Node, for a 500-node graph's render and for the worker's cold start.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { instance } from '@viz-js/viz';
import { stats } from './targets-data.mjs';

const WORKER_FILE = 'public/workers/graphviz.worker.mjs';
const RENDER_OPTIONS = { format: 'svg', engine: 'dot' }; // what lib/targets/graphviz/render-dot.client.ts asks for

/**
 * Serves the bench page and the built worker with the app's isolation headers (next.config.ts).
 * The bare server cannot: it serves only bench/ and public/pyodide/, and a worker script must
 * come from the page's own origin. Not served: the worker's per-request CSP (proxy.ts).
 */
export function startWorkerServer(port) {
  const files = { '/': ['bench/bare/targets-graphviz.html', 'text/html'], '/workers/graphviz.worker.mjs': [WORKER_FILE, 'text/javascript'] };
  const server = http.createServer((request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://localhost').pathname];
    if (!file) return response.writeHead(404).end();
    response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    response.setHeader('Cross-Origin-Embedder-Policy', 'require-corp');
    response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cache-Control', 'no-cache');
    response.setHeader('Content-Type', file[1]);
    fs.createReadStream(file[0]).pipe(response);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** A page in a browser context of its own: nothing cached from an earlier repetition. */
async function freshPage(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => typeof window.gvColdStart === 'function');
  return { context, page };
}

/** Repeated cold starts, each in a fresh page: worker created → ready / → first result, then a warm render. */
async function browserColdStarts({ browser, url, dot, repeat }) {
  const runs = [];
  for (let i = 0; i < repeat; i += 1) {
    const { context, page } = await freshPage(browser, url);
    try {
      runs.push(await page.evaluate((d) => window.gvColdStart(d), dot));
    } finally {
      await context.close();
    }
  }
  return {
    readyMs: stats(runs.map((r) => r.readyMs)),
    firstResultMs: stats(runs.map((r) => r.firstResultMs)),
    secondRenderMs: stats(runs.map((r) => r.secondRenderMs)),
    svgChars: runs[0].svgChars,
  };
}

/** Warm renders in one started worker (after the start's own first and second render). */
async function browserRenders({ browser, url, dot, repeat }) {
  const { context, page } = await freshPage(browser, url);
  try {
    await page.evaluate((d) => window.gvColdStart(d), dot);
    const runs = [];
    for (let i = 0; i < repeat; i += 1) runs.push(await page.evaluate((d) => window.gvRender(d), dot));
    return { renderMs: stats(runs.map((r) => r.ms)), svgChars: runs[0].svgChars };
  } finally {
    await context.close();
  }
}

/** @viz-js/viz in this Node process: one instance, a first render (lazy wasm tier-up), then warm renders. */
async function nodeRenders(dot, repeat) {
  const viz = await instance();
  const render = () => {
    const t0 = performance.now();
    const result = viz.render(dot, RENDER_OPTIONS);
    if (result.status !== 'success') throw new Error('Graphviz failed in Node');
    return { ms: performance.now() - t0, svgChars: result.output.length };
  };
  render();
  render();
  const runs = Array.from({ length: repeat }, render);
  return { renderMs: stats(runs.map((r) => r.ms)), svgChars: runs[0].svgChars };
}

/**
 * The worker's own per-render code (renderDot, then sanitizeSvg) bundled for Node: splits the
 * browser/Node gap into Graphviz itself and the app's work around it.
 */
async function appCodeRenders(dot, repeat) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-bench-gv-'));
  const outfile = path.join(dir, 'render.mjs');
  try {
    await esbuild.build({
      stdin: { contents: "export { renderDot } from '@/lib/targets/graphviz/render-dot.client'; export { sanitizeSvg } from '@/lib/targets/graphviz/sanitize-svg.client';", resolveDir: process.cwd(), loader: 'ts' },
      alias: { '@': process.cwd() },
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile,
      logLevel: 'silent',
    });
    const { renderDot, sanitizeSvg } = await import(pathToFileURL(outfile).href);
    const render = async () => {
      const t0 = performance.now();
      const result = await renderDot(dot);
      if (!result.ok) throw new Error(result.message);
      sanitizeSvg(result.svg);
      return performance.now() - t0;
    };
    await render();
    await render();
    const runs = [];
    for (let i = 0; i < repeat; i += 1) runs.push(await render());
    return { renderMs: stats(runs) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Run in a new Node process per repetition, so the import and the instance are really first ones.
const NODE_COLD = `
const t0 = performance.now();
const { instance } = await import('@viz-js/viz');
const t1 = performance.now();
const viz = await instance();
const t2 = performance.now();
const dot = (await import('node:fs')).readFileSync(0, 'utf8');
const t3 = performance.now();
viz.render(dot, ${JSON.stringify(RENDER_OPTIONS)});
const t4 = performance.now();
viz.render(dot, ${JSON.stringify(RENDER_OPTIONS)});
const t5 = performance.now();
console.log(JSON.stringify({ importMs: t1 - t0, instanceMs: t2 - t1, firstRenderMs: t4 - t3, secondRenderMs: t5 - t4 }));
`;

function nodeColdStarts(dot, repeat) {
  const runs = Array.from({ length: repeat }, () => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', NODE_COLD], { input: dot, encoding: 'utf8' })));
  const pick = (key) => stats(runs.map((r) => r[key]));
  return { importMs: pick('importMs'), instanceMs: pick('instanceMs'), firstRenderMs: pick('firstRenderMs'), secondRenderMs: pick('secondRenderMs') };
}

export async function graphvizBench({ browser, url, dot, repeat }) {
  console.log('  renders: browser worker, Node');
  const browserRender = await browserRenders({ browser, url, dot, repeat });
  const nodeRender = await nodeRenders(dot, repeat);
  const appCodeInNode = await appCodeRenders(dot, repeat);
  console.log('  cold starts: browser worker, Node');
  const browserCold = await browserColdStarts({ browser, url, dot, repeat });
  const nodeCold = nodeColdStarts(dot, repeat);
  return {
    workerBytes: fs.statSync(WORKER_FILE).size,
    render: { browserWorker: browserRender, node: nodeRender, appCodeInNode },
    coldStart: { browserWorker: browserCold, node: nodeCold },
  };
}
