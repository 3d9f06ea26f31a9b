/**
 * The JavaScript target (server-safe): code run in a dedicated worker of its own, made for each run
 * and terminated after it (no state, no DOM, no network). Its outputs are what it printed with
 * `console` and the value of its last expression.
 */
import { codeInputSchema, defineTarget } from '../target';
import { javascriptCellSource } from './notebook';

export const JAVASCRIPT_WORKER_SCRIPT = '/workers/javascript.worker.mjs';

/**
 * The worker's policy: it loads nothing and reaches no one (`connect-src 'none'`); the code it is
 * given runs through `eval`, so `'unsafe-eval'` is its one script source. The boundary is the
 * network and the worker's own thread, not which code runs in it.
 */
export function javascriptWorkerCsp(): string {
  return ["default-src 'none'", "script-src 'unsafe-eval'", "connect-src 'none'"].join('; ');
}

export const javascript = defineTarget({
  id: 'javascript',
  toolName: 'javascript',
  inputSchema: codeInputSchema,
  name: 'JavaScript',
  label: 'JavaScript',
  fence: 'javascript',
  blockTags: ['javascript', 'js'],
  description:
    "Run JavaScript in a worker of its own in the user's browser and get back what it printed (console.log, console.error) and the value of its last expression, or the error with its line. " +
    'Each call starts fresh: no state is kept between calls, and there is no DOM, no network and no access to /data files. ' +
    'For await, end the code with a promise (e.g. an async function called as the last expression): its value is awaited.',
  prompt:
    'runs JavaScript in a fresh worker of its own (no state between calls, no DOM, no network, no /data files): for quick calculations, string and JSON manipulation, or when the user asks for JavaScript. console.log prints; the last expression\'s value is shown.',
  mimeTypes: ['text/plain'],
  stateful: false,
  engine: 'javascript',
  replay: 'none',
  notebook: { cellSource: javascriptCellSource },
  workers: [{ script: () => JAVASCRIPT_WORKER_SCRIPT, csp: javascriptWorkerCsp }],
  diagrams: false,
});
