// Writes bench/RESULTS.md from one run's results, with the targets from the benchmark issue.
import fs from 'node:fs';

/** What was tried for speed and what came of it: bench/NOTES.md, edited by hand after each experiment. */
const readNotes = () => fs.readFileSync(new URL('./NOTES.md', import.meta.url), 'utf8').trim().split('\n');

const ratio = (a, b) => (b ? Math.round((a / b) * 100) / 100 : NaN);

export function writeResults(r) {
  const cs = r.coldStart;
  const rt = r.runRoundTrip;
  const out = r.outputHandling;
  const st = r.streamingRender;
  const restartBase = r.interrupt.cachedStartBetweenRestartsMs?.median ?? cs.app.cached.median;
  const lines = [
    '# Benchmark results',
    '',
    `Run on ${r.date} · ${r.machine} · Node ${r.versions.node} · Pyodide ${r.versions.pyodide} · Chromium ${r.versions.chromium} · ${r.repeat} repetitions (median, p95)${r.loadAverage ? ` · 1-minute load average ${r.loadAverage.start.toFixed(1)} at the start, ${r.loadAverage.end.toFixed(1)} at the end` : ''}.`,
    ...(r.uptime ? ['', `\`uptime\` at the start: ${r.uptime.start}; at the end: ${r.uptime.end}. Baseline and app samples are interleaved.`] : []),
    '',
    'Reproduce: `npm run build && npm run bench` (headless Debian Chromium, localhost). Raw numbers: `bench/out/*.json`.',
    '',
    '| measure | app | baseline (same run) | ratio or overhead | target |',
    '| --- | --- | --- | --- | --- |',
    `| cold start, first visit (page load → interpreter ready) | ${cs.app.first.median} ms | bare loadPyodide ${cs.bare.first.median} ms | ${ratio(cs.app.first.median, cs.bare.first.median)}×${cs.pairedRatio ? ` (per round: median ${cs.pairedRatio.first.median}×, p95 ${cs.pairedRatio.first.p95}×)` : ''} | ≤ 1.10× |`,
    `| cold start, cached visit | ${cs.app.cached.median} ms | ${cs.bare.cached.median} ms | ${ratio(cs.app.cached.median, cs.bare.cached.median)}× | ≤ 0.6× |`,
    `| run round trip \`1+1\` (code complete → output in DOM) | ${rt.app.onePlusOne.median} ms (p95 ${rt.app.onePlusOne.p95}) | raw postMessage→runPython ${rt.bare.onePlusOne.median} ms | +${Math.round((rt.app.onePlusOne.median - rt.bare.onePlusOne.median) * 10) / 10} ms | ≤ +5 ms |`,
    `| run round trip \`print\` of 10 kB | ${rt.app.print10k.median} ms (p95 ${rt.app.print10k.p95}) | ${rt.bare.print10k.median} ms | +${Math.round((rt.app.print10k.median - rt.bare.print10k.median) * 10) / 10} ms | ≤ +5 ms |`,
    `| interrupt: limit reached → usable again (state kept) | ${r.interrupt.toUsableAfterLimitMs.median} ms | — | — | ≤ 25 ms |`,
    `| hard restart: limit reached → fresh interpreter ready | ${r.interrupt.hardRestartAfterLimitMs.median} ms | cached cold start ${restartBase} ms (measured between the restarts) | ${ratio(r.interrupt.hardRestartAfterLimitMs.median, restartBase)}× | ≤ 1.2× cached start |`,
    `| output handling: 1 MB of stdout + ${out.images} PNGs in one run (code complete → all rendered) | ${out.codeToRenderedMs.median} ms (p95 ${out.codeToRenderedMs.p95}); run done → rendered ${out.runDoneToRenderedMs.median} ms | — | — | — |`,
    `| output handling: longest main-thread task · total blocking time (whole turn) | ${out.longestTaskMs.median} ms · ${out.totalBlockingMs.median} ms (p95 ${out.longestTaskMs.p95} · ${out.totalBlockingMs.p95}) | — | — | — |`,
    `| streaming render: ${st.tokens.toLocaleString('en-US')}-token markdown answer, longest main-thread task · total blocking time | ${st.longestTaskMs.median} ms · ${st.totalBlockingMs.median} ms (p95 ${st.longestTaskMs.p95} · ${st.totalBlockingMs.p95}) | — | — | — |`,
    `| streaming render: rate shown on screen | ${st.shownTokensPerSecond.median} tokens/s (${st.streamMs.median} ms) | fake model alone ${st.servedTokensPerSecond} tokens/s | ${ratio(st.shownTokensPerSecond.median, st.servedTokensPerSecond)}× | — |`,
    `| chat route, 2,000-token answer: time to first byte | ${r.routeOverhead.route.ttfbMs} ms | fake model direct ${r.routeOverhead.direct.ttfbMs} ms | +${r.routeOverhead.addedTtfbMs} ms | ≤ +10 ms |`,
    `| chat route, 2,000-token answer: time to last byte | ${r.routeOverhead.route.ttlbMs} ms | ${r.routeOverhead.direct.ttlbMs} ms | ${r.routeOverhead.ttlbRatio}× | — |`,
    ...r.concurrency.map(
      (c) => `| ${c.streams} simultaneous chat streams | ${c.completed} completed, ${c.errors} errors; chunk gap p50 ${c.chunkGapP50Ms} ms, p99 ${c.chunkGapP99Ms} ms; server RSS ${c.serverRssMb ?? '?'} MB | — | — | 0 errors at 500 |`,
    ),
    '',
    'Notes:',
    '- Cold starts are measured in each page from its navigation start (`performance.now()` when the interpreter is ready), the app\'s with an init-script MutationObserver on the kernel status; a cached visit is a second page in the same browser context, opened after the first one has stored its memory snapshot.',
    '- The run round trip starts at the app\'s `runpad:code-complete` User Timing mark (set when the tool call\'s code is complete in the browser) and ends when the cell\'s final status is in the DOM; the baseline is a raw `postMessage` → `runPython` → `postMessage` in the bare worker.',
    '- The interrupt figure is the run\'s duration minus the time limit: how long after the limit the result was back and the interpreter usable.',
    '- The hard-restart figure includes the grace period the kernel gives an interrupted run before it terminates the worker (RUN_LIMITS.interruptGraceMs: 1 s since 2026-11-23, 1.5 s before); a flag Python has not taken (the bench\'s C code) is waited for until the page has been run on schedule for 500 ms since the interrupt, 3 s on the wall at most (since 2026-12-07; 3 s on the wall from 2026-11-28).',
    '- Long tasks are PerformanceObserver \'longtask\' entries (buffered) that started between sending the message and the end of the turn; total blocking time is the sum of each one\'s time beyond 50 ms. A longest task of 0 means none reached 50 ms.',
    `- Output handling: the PNGs are built in pure Python (matplotlib is not available offline) and shown via \`_repr_png_\`; 10,000 prints of 100 characters. "Code complete" is the cell first appearing on screen; "rendered" is the stdout block present and all ${out.images} images decoded.`,
    `- Streaming render: the fake model streams ${st.chunkChars}-character chunks ${st.chunkDelayMs} ms apart (a token taken as 4 characters); the answer has headings, paragraphs, lists, a table and a fenced code block in every section. The shown rate is first text → last text on screen.`,
    ...readNotes(),
    '',
  ];
  // The slow-CPU section (bench/report-slow-cpu.mjs) is kept when this run did not measure one.
  const previous = fs.existsSync('bench/RESULTS.md') ? fs.readFileSync('bench/RESULTS.md', 'utf8') : '';
  const kept = previous.match(/<!-- section:slow-cpu -->[\s\S]*<!-- \/section:slow-cpu -->/)?.[0];
  fs.writeFileSync('bench/RESULTS.md', [...lines, ...(kept && !r.throttled ? [kept, ''] : [])].join('\n'));
}

// `node bench/report.mjs bench/out/<run>.json` rewrites RESULTS.md from a stored full run (after editing NOTES.md).
if (import.meta.url === `file://${process.argv[1]}`) writeResults(JSON.parse(fs.readFileSync(process.argv[2], 'utf8')));
