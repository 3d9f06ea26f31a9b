#!/usr/bin/env node
// Experiment (not part of `npm run bench`): first-visit cold start with and without the kernel
// boot script, interleaved in one run so machine load hits both alike. "Without" strips the
// script from the HTML, so the worker starts only after hydration, as before the change.
import os from 'node:os';
import { chromium } from 'playwright-core';
import { startApp } from './servers.mjs';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 4);
const APP = 'http://127.0.0.1:3302';
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'],
});
const app = await startApp(3302, { PORT: '3302', OPENAI_API_KEY: 'ab', RUNPAD_MODEL: 'ab', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', RUNPAD_DATA_DIR: `${os.tmpdir()}/runpad-ab-${Date.now()}` });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function firstVisit(withBoot) {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (!withBoot) {
    await page.route(`${APP}/`, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/<script nonce="[^"]*">try\{window\.__runpadBootWorker[^<]*<\/script>/, '');
      await route.fulfill({ response, body });
    });
  }
  const t0 = Date.now();
  await page.goto(APP);
  await page.locator('[data-kernel-state="ready"]').waitFor({ timeout: 120_000 });
  const ms = Date.now() - t0;
  await context.close();
  return ms;
}

const times = { withBoot: [], withoutBoot: [] };
try {
  await firstVisit(true); // warm the server up; not counted
  for (let i = 0; i < REPEAT; i += 1) {
    times.withBoot.push(await firstVisit(true));
    times.withoutBoot.push(await firstVisit(false));
  }
} finally {
  await browser.close();
  app.kill();
}
console.log(JSON.stringify({ repeat: REPEAT, times, medianWithBoot: median(times.withBoot), medianWithoutBoot: median(times.withoutBoot) }));
