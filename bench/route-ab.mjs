#!/usr/bin/env node
// A/B of the chat route's time to first byte over the model's own: two builds served at once
// against one fake model, measured in alternating rounds (the order flips each round), so the
// load of a shared machine moves both alike. BENCH_A_DIR and BENCH_B_DIR are project directories
// with a build (.next) each; the report goes to bench/out/<date>-route-ab-<BENCH_LABEL>.json.
//   BENCH_A_DIR=/tmp/before BENCH_B_DIR=. BENCH_ROUNDS=8 node bench/route-ab.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeOpenAI } from '../e2e/fixtures/fake-openai/server.mjs';
import { routeOverhead } from './route.mjs';
import { startApp } from './servers.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? 0);
const dirs = { A: path.resolve(process.env.BENCH_A_DIR ?? '.'), B: path.resolve(process.env.BENCH_B_DIR ?? '.') };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round1 = (x) => Math.round(x * 10) / 10;

const fake = await startFakeOpenAI({ port: 4011 + OFFSET });
const apps = {};
const urls = { A: `http://127.0.0.1:${3301 + OFFSET}`, B: `http://127.0.0.1:${3302 + OFFSET}` };
const samples = { A: [], B: [] };
const uptime = [execFileSync('uptime', { encoding: 'utf8' }).trim()];
try {
  for (const [label, port] of [['A', 3301 + OFFSET], ['B', 3302 + OFFSET]]) {
    apps[label] = await startApp(port, { PORT: String(port), OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'bench', RUNPAD_MODEL: 'bench', RUNPAD_DATA_DIR: `${os.tmpdir()}/runpad-bench-ab-${label}-${Date.now()}` }, dirs[label]);
  }
  for (let i = 0; i < ROUNDS; i += 1) {
    for (const label of i % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
      const result = await routeOverhead({ app: urls[label], fake, repeat: 1 });
      samples[label].push(result);
      console.log(`round ${i + 1} ${label}: +${result.addedTtfbMs} ms (route ${result.route.ttfbMs}, model ${result.direct.ttfbMs})`);
    }
  }
} finally {
  for (const app of Object.values(apps)) app.kill();
  await fake.close();
}
uptime.push(execFileSync('uptime', { encoding: 'utf8' }).trim());
const summary = (runs) => ({ addedTtfbMs: round1(median(runs.map((r) => r.addedTtfbMs))), routeTtfbMs: round1(median(runs.map((r) => r.route.ttfbMs))), modelTtfbMs: round1(median(runs.map((r) => r.direct.ttfbMs))), rounds: runs.length });
const report = { date: new Date().toISOString(), machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`, uptime, dirs, A: summary(samples.A), B: summary(samples.B), samples };
fs.mkdirSync('bench/out', { recursive: true });
const file = `bench/out/${report.date.slice(0, 19).replace(/:/g, '-')}-route-ab-${process.env.BENCH_LABEL ?? 'experiment'}.json`;
fs.writeFileSync(file, JSON.stringify(report, null, 2));
console.log(JSON.stringify({ A: report.A, B: report.B, uptime }, null, 2), `\nwritten to ${file}`);
