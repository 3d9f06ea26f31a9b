/**
 * The browser the end-to-end suite drives: Debian's Chromium headless shell
 * (`chromium-headless-shell`, the same Blink and V8 as `chromium`, installed by .ci/run) unless
 * CHROMIUM_PATH names another. The full browser's headless mode did the same specs with a quarter
 * more CPU (bench/NOTES-ci.md, "2026-11-25: The suite's browser"), and the suite is CPU-bound on two cores.
 * Playwright's own downloaded browsers are not reachable here.
 */
import fs from 'node:fs';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** Without the background-networking flags this closed network refuses Chromium's own requests. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'];
