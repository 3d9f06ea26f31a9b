// What the browser benches share: the suite's browser, the machine's load line, the build check,
// the app with the fake model and a browser profile on disk, releasing what a run started (last in, first out) and writing its raw figures to bench/out/.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startFakeOpenAI } from '../e2e/fixtures/fake-openai/server.mjs';
import { startApp } from './servers.mjs';

/** The suite's browser (e2e/browser.ts): Debian's headless shell unless CHROMIUM_PATH names another. */
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'];

/** `uptime`'s line (load averages over 1, 5 and 15 minutes): the machine is shared. */
export const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

/** Throws, naming the command to run, when a file the bench needs from `npm run build` is missing. */
export function requireBuild(files = ['.next/BUILD_ID']) {
  for (const file of files) if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
}

/**
 * Releases what a run started, last in first out (the browser closes before the servers it talks
 * to, the temp dir goes last); a failed release is logged and the others still run.
 */
export async function releaseAll(resources) {
  for (const release of [...resources].reverse()) {
    try {
      await release();
    } catch (error) {
      console.error('cleanup:', error);
    }
  }
}

/** Writes `results` (whose `date` is an ISO time) to bench/out/<date>-<name>.json; returns the path. */
export function writeOut(name, results) {
  fs.mkdirSync('bench/out', { recursive: true });
  const file = `bench/out/${results.date.slice(0, 19).replace(/:/g, '-')}-${name}.json`;
  fs.writeFileSync(file, JSON.stringify(results, null, 2));
  return file;
}

/**
 * The fake model, the app (`next start` of this build) on it, and Chromium with a profile on disk
 * under `dir`, as a person's browser has (an off-the-record context's storage quota is a share of
 * memory, and refuses a file of gigabytes where a profile's is a share of the disk). Each is pushed
 * on `resources` for releaseAll.
 */
export async function startAppInBrowser({ dir, appPort, fakePort, resources }) {
  const fake = await startFakeOpenAI({ port: fakePort });
  resources.push(() => fake.close());
  const app = await startApp(appPort, { PORT: String(appPort), OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'bench', RUNPAD_MODEL: 'bench', RUNPAD_LOG_LEVEL: 'error', RUNPAD_DATA_DIR: path.join(dir, 'app-data') });
  resources.push(() => app.kill());
  const context = await chromium.launchPersistentContext(path.join(dir, 'profile'), { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
  resources.push(() => context.close());
  return { fake, context, url: `http://127.0.0.1:${appPort}`, chromium: context.browser()?.version() ?? 'unknown' };
}
