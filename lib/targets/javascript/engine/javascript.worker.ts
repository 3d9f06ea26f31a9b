/**
 * The JavaScript worker: runs one piece of model-written code, off the page's thread, and is
 * terminated after it (lib/targets/javascript/runner.client.ts makes one per run).
 *
 * It answers nobody on its global scope: the page sends one `connect` message carrying a
 * MessagePort, then the run request on that port (lib/targets/javascript/protocol.client.ts). It has no
 * DOM (a dedicated worker) and no network: its Content-Security-Policy, declared by the target
 * (lib/targets/javascript/meta.ts), is `connect-src 'none'`. `console` prints to the port; the
 * value of the code's last expression (awaited when it is a promise) is the result; an error
 * comes back with the line of the code it names.
 */
import { inspect, lineOfError, printed } from '@/lib/targets/javascript/format.client';
import { connectMessageSchema, runRequestSchema, type Reply } from '@/lib/targets/javascript/protocol.client';
import { OUTPUT_CAPS } from '@/lib/runtime/limits';

function onConnect(event: MessageEvent): void {
  const connect = connectMessageSchema.safeParse(event.data);
  if (!connect.success) return;
  // The first valid connect wins; the global scope is not listened to after it.
  self.removeEventListener('message', onConnect);
  const port = connect.data.port;
  port.addEventListener('message', (message) => void run(port, message.data), { once: true });
  port.start();
}
self.addEventListener('message', onConnect);

const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

function reply(port: MessagePort, message: Reply): void {
  port.postMessage(message);
}

/** Every console method prints to the port: log, info and debug as stdout, warn and error as stderr. */
function captureConsole(port: MessagePort): void {
  const print = (name: 'stdout' | 'stderr') => (...args: unknown[]) => reply(port, { type: 'printed', name, text: cut(`${printed(args)}\n`, OUTPUT_CAPS.streamChars) });
  for (const method of ['log', 'info', 'debug'] as const) console[method] = print('stdout');
  for (const method of ['warn', 'error'] as const) console[method] = print('stderr');
}

async function run(port: MessagePort, data: unknown): Promise<void> {
  const request = runRequestSchema.safeParse(data);
  if (!request.success) {
    reply(port, { type: 'threw', name: 'RunpadError', message: 'the run request was malformed' });
    return;
  }
  captureConsole(port);
  try {
    // Indirect eval: the code runs in the worker's global scope, and its completion value (the
    // last expression statement's) is the result.
    let value: unknown = (0, eval)(request.data.code);
    if (value instanceof Promise) value = await value;
    reply(port, { type: 'finished', ...(value === undefined ? {} : { value: cut(inspect(value), OUTPUT_CAPS.textChars) }) });
  } catch (error) {
    const thrown = error instanceof Error ? error : null;
    const line = lineOfError(thrown?.stack);
    reply(port, {
      type: 'threw',
      name: cut(thrown?.name || 'Uncaught', 200),
      message: cut(thrown ? thrown.message : inspect(error), 4_000),
      ...(line ? { line } : {}),
    });
  }
}
