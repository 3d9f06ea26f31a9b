/**
 * Every port the end-to-end suite listens on, shifted by RUNPAD_E2E_PORT_OFFSET (default 0) so
 * that two checkouts on one machine can run their suites side by side without sharing a server.
 */
const offset = Number(process.env.RUNPAD_E2E_PORT_OFFSET ?? 0);

export function e2ePort(base: number): number {
  return base + offset;
}

export const FAKE_MODEL_PORT = e2ePort(4010);
export const FAKE_MODEL_URL = `http://127.0.0.1:${FAKE_MODEL_PORT}`;

/** The process that boots the suite's app servers and says which are ready (e2e/fixtures/app-servers.mjs). */
export const APP_SERVERS_PORT = e2ePort(3099);
export const APP_SERVERS_URL = `http://127.0.0.1:${APP_SERVERS_PORT}`;
