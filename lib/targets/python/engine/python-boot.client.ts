/**
 * Runs in the page, not in a worker: an async classic script that starts the Python worker as the
 * HTML arrives (lib/targets/python/boot-worker.client.ts). Async and external, so it waits neither for the
 * stylesheet (an inline script would) nor for the parser; it reads the worker's URL from its own.
 */
import { startBootWorker } from '@/lib/targets/python/boot-worker.client';
import { BOOT_SCRIPT_PARAM } from '@/lib/targets/python/worker-url';

const script = document.currentScript;
const workerUrl = script instanceof HTMLScriptElement ? new URL(script.src).searchParams.get(BOOT_SCRIPT_PARAM) : null;
if (workerUrl) startBootWorker(window, workerUrl);
