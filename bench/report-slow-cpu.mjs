// The slow-CPU table of bench/RESULTS.md: each goal at every CPU rate a run measured
// (BENCH_CPU_RATES, bench/cpu-throttle.mjs), one column a rate, from one run.
import fs from 'node:fs';
import { writeSection } from './results-section.mjs';

const r1 = (x) => Math.round(x * 10) / 10;
const r2 = (x) => Math.round(x * 100) / 100;

/** One rate's figures, as cells of the table's rows (— where that section was not measured). */
function column(m) {
  if (m.error) return Object.fromEntries(ROWS.map(([key]) => [key, `not measured (${m.error})`]));
  const cs = m.coldStart;
  const rt = m.runRoundTrip;
  const it = m.interrupt;
  const over = (a, b) => `+${r1(a - b)} ms`;
  // The throttle's slices count as the thread's CPU time: a task's CPU time is its length on the slow CPU.
  const tasks = (s) =>
    s
      ? `**${s.longestTaskCpuMs.median} ms** of CPU (p95 ${s.longestTaskCpuMs.p95}; ${s.tasksOver50CpuMs.median} tasks ≥ 50 ms); wall ${s.longestTaskWallMs.median} ms · TBT ${s.totalBlockingMs.median} ms`
      : '—';
  return {
    calibration: m.calibration ? `page thread ${m.calibration.pageSlowdown}×; worker ${m.calibration.workerSlowdown}× in CPU time, ${m.calibration.workerWallSlowdown}× in wall time` : 'unthrottled',
    load: m.loadAverage ? `${m.loadAverage.start.toFixed(1)} → ${m.loadAverage.end.toFixed(1)}` : '—',
    first: cs ? `${r2(cs.app.first.median / cs.bare.first.median)}× (${cs.app.first.median} / ${cs.bare.first.median} ms; per round ${cs.pairedRatio.first.median}×)` : '—',
    cached: cs ? `${r2(cs.app.cached.median / cs.bare.cached.median)}× (${cs.app.cached.median} / ${cs.bare.cached.median} ms; per round ${cs.pairedRatio.cached.median}×)` : '—',
    onePlusOne: rt ? `${over(rt.app.onePlusOne.median, rt.bare.onePlusOne.median)} (app ${rt.app.onePlusOne.median}, p95 ${rt.app.onePlusOne.p95}; raw ${rt.bare.onePlusOne.median})` : '—',
    print10k: rt ? `${over(rt.app.print10k.median, rt.bare.print10k.median)} (app ${rt.app.print10k.median}, p95 ${rt.app.print10k.p95}; raw ${rt.bare.print10k.median})` : '—',
    interrupt: it ? `${it.toUsableAfterLimitMs.median} ms (p95 ${it.toUsableAfterLimitMs.p95})` : '—',
    restart: it ? `${r2(it.hardRestartAfterLimitMs.median / it.cachedStartBetweenRestartsMs.median)}× (${it.hardRestartAfterLimitMs.median} / ${it.cachedStartBetweenRestartsMs.median} ms)` : '—',
    output: tasks(m.outputHandling),
    streaming: tasks(m.streamingRender),
  };
}

const ROWS = [
  ['calibration', 'a JavaScript loop\'s CPU time against unthrottled (same run)', '—'],
  ['load', '1-minute load average, start → end of this rate', '—'],
  ['first', 'cold start, first visit / bare loadPyodide (throttled alike)', '≤ 0.45×'],
  ['cached', 'cold start, cached visit / bare', '≤ 0.4×'],
  ['onePlusOne', 'run round trip `1+1` over the raw worker', '≤ +5 ms'],
  ['print10k', 'run round trip `print` of 10 kB over the raw worker', '≤ +5 ms'],
  ['interrupt', 'interrupt: limit → usable again', '≤ 25 ms'],
  ['restart', 'hard restart / cached start between restarts', '≤ 1.2×'],
  ['output', 'longest main-thread task, 1 MB of output + 20 images', '< 50 ms'],
  ['streaming', 'longest main-thread task, 20,000-token answer streaming', '< 50 ms'],
];

/** The section's lines for a run whose JSON has `throttled` (and, for rate 1, the top-level figures). */
export function slowCpuLines(r) {
  const rates = r.cpuRates ?? [1, ...Object.keys(r.throttled ?? {}).map(Number)];
  const byRate = rates.map((rate) => [rate, rate === rates[0] ? r : r.throttled[rate]]);
  const columns = byRate.map(([, m]) => column(m));
  return [
    '## On a slower CPU',
    '',
    `Run on ${r.date} · ${r.machine} · Chromium ${r.versions.chromium} · ${r.repeat} repetitions (medians)${r.only ? ` · sections: ${r.only.join(', ')}` : ''} · \`uptime\` at the start: ${r.uptime.start}; at the end: ${r.uptime.end}.`,
    '',
    'Each column is the same measures with Chromium\'s CPU throttling (`Emulation.setCPUThrottlingRate`) on every page the bench opens, the bare baseline\'s included, so each ratio compares within its column. Reproduce: `BENCH_CPU_RATES=1,3,6 npm run bench`.',
    '',
    `| measure | ${byRate.map(([rate]) => `${rate}×`).join(' | ')} | goal |`,
    `| --- | ${byRate.map(() => '---').join(' | ')} | --- |`,
    ...ROWS.map(([key, label, goal]) => `| ${label} | ${columns.map((c) => c[key]).join(' | ')} | ${goal} |`),
    '',
    '- Chromium throttles the page\'s main thread only (the command is refused for workers, and the calibration row shows a worker\'s loop taking the same CPU time): a throttled column is a slow page with an interpreter (Pyodide\'s worker) at the machine\'s own speed, not a whole slow laptop. Ratios to the bare page therefore show what the page\'s own work (hydration, rendering, message handling) adds on a slow CPU; the bare page does almost nothing on its main thread.',
    '- Longest task: CPU time of the page\'s longest main-thread task in a Chromium trace (`tdur`, which counts the throttle\'s slices: at 3× a task computes for about three times as long). It grows less than wall time and the Long Tasks API\'s figure when other processes take the cores, but not zero under throttling (the throttle\'s slices follow the wall time the work took): the machine is shared, and every wall-clock figure here is inflated by that load.',
  ];
}

export function writeSlowCpu(r, file = 'bench/RESULTS.md') {
  if (!r.throttled) return;
  writeSection(file, 'slow-cpu', 'Benchmark results', slowCpuLines(r));
}

// `node bench/report-slow-cpu.mjs bench/out/<run>.json` rewrites the section from a stored run.
if (import.meta.url === `file://${process.argv[1]}`) writeSlowCpu(JSON.parse(fs.readFileSync(process.argv[2], 'utf8')));
