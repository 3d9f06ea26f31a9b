import { defineConfig } from '@playwright/test';
import path from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './e2e/browser';
import { patience, runSlowness } from './e2e/patience';
import { APP_SERVERS_PORT, APP_SERVERS_URL, e2ePort, FAKE_MODEL_PORT, FAKE_MODEL_URL } from './e2e/ports';
import { browserWorkers, suiteCores } from './scripts/lanes.mjs';

/**
 * End-to-end tests against the production build (`npm run build` first), in Debian's Chromium.
 * Four app servers share the build: the main one talks to the fake OpenAI-compatible server (which
 * records what it is sent), one has no model configured and uses the offline demo model, one has
 * small limits, one gives the model no tools.
 */
const APP_PORT = e2ePort(3100);
const DEMO_APP_PORT = e2ePort(3101);
/** Small rate limits and storage quotas, for the tests of those limits (e2e/limits.spec.ts). */
export const STRICT_APP_PORT = e2ePort(3102);
export const MAIN_APP_PORT = APP_PORT;
/** The strict server's RUNPAD_METRICS_TOKEN (e2e/proxy.spec.ts scrapes its metrics). */
export const METRICS_TOKEN = 'e2e-metrics-token-0123456789';
/** RUNPAD_CODE_MODE=blocks: the model gets no tools and writes fenced blocks (e2e/blocks.spec.ts). */
export const BLOCKS_APP_PORT = e2ePort(3103);
/**
 * The main server's per-file upload limit (RUNPAD_UPLOAD_FILE_BYTES; 100 MB by default): a file
 * over it is kept on the device, and the tests of that need a file only this large, not over 100 MB.
 */
export const MAIN_UPLOAD_FILE_BYTES = 24_000_000;
const artifacts = path.resolve('e2e/.artifacts');
// Next's telemetry is off for every server the suite starts (they inherit this environment).
process.env.NEXT_TELEMETRY_DISABLED = '1';
// The safety nets' factor for this machine (e2e/patience.ts), measured once by the main process
// and inherited by its workers (which load this file too).
runSlowness(suiteCores(), `e2e, ${browserWorkers()} workers`);

export { FAKE_MODEL_URL };

/**
 * One app server of the suite: its port, its own data directory (emptied at start), where it
 * stores (a fresh database on the machine's Postgres, or the embedded PGlite) and its settings.
 */
function appServer(port: number, database: 'postgres' | 'pglite', env: Record<string, string>) {
  return {
    port,
    dataDir: `${artifacts}/data-${port}`,
    database,
    env: {
      AUTH_SECRET: 'e2e-secret-e2e-secret-e2e-secret-0123',
      // The suites send hundreds of model requests as one guest; limits have their own server.
      RUNPAD_MODEL_REQUESTS_PER_MINUTE: '100000',
      RUNPAD_MODEL_REQUESTS_PER_DAY: '100000',
      // Every test's browser is a new guest from 127.0.0.1: the per-address limits are tested in
      // e2e/accounts.spec.ts on servers of their own.
      RUNPAD_GUESTS_PER_ADDRESS_PER_HOUR: '100000',
      RUNPAD_MODEL_REQUESTS_PER_ADDRESS_PER_DAY: '100000',
      RUNPAD_LOG_LEVEL: 'error',
      ...env,
    },
  };
}

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  // Safety nets for hangs, not expectations: on a fresh virtual machine where every page fault
  // costs the host's time the suite ran 2.8x slower than on a warm one, and the heaviest tests
  // (every engine, several reloads) took 2.5 minutes (bench/NOTES-ci.md, "2026-11-26: CI on a fresh machine").
  // The reference machine's numbers, scaled to this one (e2e/patience.ts).
  timeout: patience(180_000),
  expect: { timeout: patience(60_000) },
  globalSetup: './e2e/global-setup.ts',
  // Spec files are spread over workers; the tests of one file run in order in one worker. One more
  // than the cores (scripts/lanes.mjs: three on two cores, two on one): the suite waits (model
  // pacing, time limits, servers starting), and the extra file fills those gaps
  // (docs/DECISIONS.md, "The test suite's shape"; bench/NOTES-ci.md).
  fullyParallel: false,
  // `npm test` leaves out the tests tagged @long (RUNPAD_E2E_LONG=skip, set by scripts/test.mjs):
  // servers of their own started and killed, 50 MB read by every engine, every kind of output
  // through axe in both schemes. `npm run test:all` and a plain `npx playwright test` run them
  // (docs/DECISIONS.md, "The ten-minute suite and the long tests").
  grepInvert: process.env.RUNPAD_E2E_LONG === 'skip' ? /@long/ : undefined,
  workers: browserWorkers(),
  retries: 0,
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: CHROMIUM_EXECUTABLE,
      args: CHROMIUM_ARGS,
    },
    // Off unless asked for (RUNPAD_E2E_TRACE=1): recording every test's trace, to keep only the
    // failures', cost a quarter of the suite's CPU (screencast frames in the browser and the GPU
    // process), and the suite is CPU-bound on two cores.
    trace: process.env.RUNPAD_E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
  },
  projects: [
    { name: 'fake-model', testIgnore: ['**/demo*.spec.ts', '**/limits.spec.ts', '**/blocks.spec.ts'], use: { baseURL: `http://127.0.0.1:${APP_PORT}` } },
    { name: 'blocks', testMatch: '**/blocks.spec.ts', use: { baseURL: `http://127.0.0.1:${BLOCKS_APP_PORT}` } },
    { name: 'limits', testMatch: '**/limits.spec.ts', use: { baseURL: `http://127.0.0.1:${STRICT_APP_PORT}` } },
    { name: 'demo-model', testMatch: '**/demo*.spec.ts', use: { baseURL: `http://127.0.0.1:${DEMO_APP_PORT}` } },
  ],
  webServer: [
    {
      command: `node e2e/fixtures/fake-openai/cli.mjs`,
      url: `${FAKE_MODEL_URL}/__requests`,
      reuseExistingServer: false,
      env: { PORT: String(FAKE_MODEL_PORT), MIRROR_DIR: `${artifacts}/mirror` },
    },
    // The app servers boot side by side (e2e/fixtures/app-servers.mjs): Playwright starts its
    // entries one after another. Ready when the main one answers; each test waits for its own
    // origin (e2e/test.ts). Packages come from the fake server's offline mirror; the demo app
    // keeps the official CDN.
    {
      command: 'node e2e/fixtures/app-servers.mjs',
      url: `${APP_SERVERS_URL}/status`,
      reuseExistingServer: false,
      timeout: patience(120_000),
      env: {
        PORT: String(APP_SERVERS_PORT),
        RUNPAD_E2E_APP_SERVERS: JSON.stringify([
          appServer(APP_PORT, 'postgres', {
            OPENAI_BASE_URL: `${FAKE_MODEL_URL}/v1`,
            OPENAI_API_KEY: 'test-key',
            RUNPAD_MODEL: 'fake-model',
            PYODIDE_PACKAGE_BASE_URL: `${FAKE_MODEL_URL}/mirror/`,
            // DuckDB's extensions from a stand-in mirror that has none (e2e/duckdb.spec.ts).
            RUNPAD_DUCKDB_EXTENSION_URL: `${FAKE_MODEL_URL}/mirror/duckdb-extensions`,
            // The hang tests wait this long for a silent model (e2e/durable.spec.ts).
            RUNPAD_MODEL_IDLE_TIMEOUT_MS: '6000',
            RUNPAD_UPLOAD_FILE_BYTES: String(MAIN_UPLOAD_FILE_BYTES),
          }),
          appServer(DEMO_APP_PORT, 'pglite', { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', RUNPAD_DEMO_CHUNK_DELAY_MS: '2' }),
          appServer(BLOCKS_APP_PORT, 'postgres', {
            OPENAI_BASE_URL: `${FAKE_MODEL_URL}/v1`,
            OPENAI_API_KEY: 'test-key',
            RUNPAD_MODEL: 'fake-model',
            RUNPAD_CODE_MODE: 'blocks',
          }),
          appServer(STRICT_APP_PORT, 'postgres', {
            OPENAI_BASE_URL: `${FAKE_MODEL_URL}/v1`,
            OPENAI_API_KEY: 'test-key',
            RUNPAD_MODEL: 'fake-model',
            RUNPAD_MODEL_REQUESTS_PER_MINUTE: '4',
            RUNPAD_MODEL_REQUESTS_PER_DAY: '1000',
            RUNPAD_CONVERSATION_STORAGE_BYTES: '3000000',
            RUNPAD_GUEST_STORAGE_BYTES: '5000000',
            // The TLS test proxy (e2e/fixtures/tls-proxy.mjs) and nginx (e2e/proxy.spec.ts) say
            // when the browser used HTTPS, and nginx which address it saw.
            RUNPAD_TRUST_PROXY: '1',
            // Scraped through nginx by e2e/proxy.spec.ts.
            RUNPAD_METRICS_TOKEN: METRICS_TOKEN,
          }),
        ]),
      },
    },
  ],
});
