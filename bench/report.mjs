// Writes bench/RESULTS.md from one run's results, with the targets from the benchmark issue.
import fs from 'node:fs';

const ratio = (a, b) => (b ? Math.round((a / b) * 100) / 100 : NaN);

export function writeResults(r) {
  const cs = r.coldStart;
  const rt = r.runRoundTrip;
  const lines = [
    '# Benchmark results',
    '',
    `Run on ${r.date} · ${r.machine} · Node ${r.versions.node} · Pyodide ${r.versions.pyodide} · Chromium ${r.versions.chromium} · ${r.repeat} repetitions (median, p95).`,
    '',
    'Reproduce: `npm run build && npm run bench` (headless Debian Chromium, localhost). Raw numbers: `bench/out/*.json`.',
    '',
    '| measure | app | baseline (same run) | ratio or overhead | target |',
    '| --- | --- | --- | --- | --- |',
    `| cold start, first visit (page load → interpreter ready) | ${cs.app.first.median} ms | bare loadPyodide ${cs.bare.first.median} ms | ${ratio(cs.app.first.median, cs.bare.first.median)}× | ≤ 1.10× |`,
    `| cold start, cached visit | ${cs.app.cached.median} ms | ${cs.bare.cached.median} ms | ${ratio(cs.app.cached.median, cs.bare.cached.median)}× | ≤ 0.6× |`,
    `| run round trip \`1+1\` (code complete → output in DOM) | ${rt.app.onePlusOne.median} ms (p95 ${rt.app.onePlusOne.p95}) | raw postMessage→runPython ${rt.bare.onePlusOne.median} ms | +${Math.round((rt.app.onePlusOne.median - rt.bare.onePlusOne.median) * 10) / 10} ms | ≤ +5 ms |`,
    `| run round trip \`print\` of 10 kB | ${rt.app.print10k.median} ms (p95 ${rt.app.print10k.p95}) | ${rt.bare.print10k.median} ms | +${Math.round((rt.app.print10k.median - rt.bare.print10k.median) * 10) / 10} ms | ≤ +5 ms |`,
    `| interrupt: limit reached → usable again (state kept) | ${r.interrupt.toUsableAfterLimitMs.median} ms | — | — | ≤ 25 ms |`,
    `| hard restart: limit reached → fresh interpreter ready | ${r.interrupt.hardRestartAfterLimitMs.median} ms | cached cold start ${cs.app.cached.median} ms | ${ratio(r.interrupt.hardRestartAfterLimitMs.median, cs.app.cached.median)}× | ≤ 1.2× cached start |`,
    `| chat route, 2,000-token answer: time to first byte | ${r.routeOverhead.route.ttfbMs} ms | fake model direct ${r.routeOverhead.direct.ttfbMs} ms | +${r.routeOverhead.addedTtfbMs} ms | ≤ +10 ms |`,
    `| chat route, 2,000-token answer: time to last byte | ${r.routeOverhead.route.ttlbMs} ms | ${r.routeOverhead.direct.ttlbMs} ms | ${r.routeOverhead.ttlbRatio}× | — |`,
    ...r.concurrency.map(
      (c) => `| ${c.streams} simultaneous chat streams | ${c.completed} completed, ${c.errors} errors; chunk gap p50 ${c.chunkGapP50Ms} ms, p99 ${c.chunkGapP99Ms} ms; server RSS ${c.serverRssMb ?? '?'} MB | — | — | 0 errors at 500 |`,
    ),
    '',
    'Notes:',
    '- The interrupt figure is the run\'s duration minus the time limit: how long after the limit the result was back and the interpreter usable.',
    '- The hard-restart figure includes the 1.5 s grace period the kernel gives an interrupted run before it terminates the worker (RUN_LIMITS.interruptGraceMs).',
    '- Not measured yet: output handling (1 MB stdout / 20 images, longest task) and streaming render (20,000-token answer, longest task), and the memory snapshot experiment.',
    '',
  ];
  fs.writeFileSync('bench/RESULTS.md', lines.join('\n'));
}
