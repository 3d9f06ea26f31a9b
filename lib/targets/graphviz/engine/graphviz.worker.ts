/**
 * The Graphviz worker: renders model-written DOT to sanitized SVG, off the page's thread.
 *
 * It answers nobody on its global scope. The page that created it sends one `connect` message
 * carrying a MessagePort; from then on the worker listens only on that port (see
 * lib/targets/graphviz/protocol.client.ts). Graphviz starts instantiating as soon as this script runs;
 * once it has, the worker removes its network APIs (defence in depth: Graphviz needs none, its
 * wasm is embedded in the bundle), then says `ready`.
 */
import { loadGraphviz, renderDot } from '@/lib/targets/graphviz/render-dot.client';
import { sanitizeSvg } from '@/lib/targets/graphviz/sanitize-svg.client';
import { connectMessageSchema, renderRequestSchema, type WorkerReply } from '@/lib/targets/graphviz/protocol.client';

// Not lib/targets/shared/engine/lockdown.ts: that one is the Python kernel's, which lends fetch back while it loads packages.
const NETWORK_GLOBALS = ['fetch', 'XMLHttpRequest', 'WebSocket', 'WebSocketStream', 'EventSource', 'WebTransport', 'importScripts'];

/** Deletes each name from the global object and its prototypes (fetch lives on WorkerGlobalScope.prototype). */
function removeNetworkGlobals(): void {
  for (const name of NETWORK_GLOBALS) {
    for (let target: object | null = globalThis; target; target = Object.getPrototypeOf(target)) {
      const descriptor = Object.getOwnPropertyDescriptor(target, name);
      if (!descriptor) continue;
      if (descriptor.configurable) delete (target as Record<string, unknown>)[name];
      else if (descriptor.writable) (target as Record<string, unknown>)[name] = undefined;
    }
  }
}

/** Resolves to null once Graphviz is up, or to why it could not start; either way the network is gone by then. */
const started: Promise<string | null> = loadGraphviz()
  .then(
    () => null,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  )
  .finally(removeNetworkGlobals);

function onConnect(event: MessageEvent): void {
  const connect = connectMessageSchema.safeParse(event.data);
  if (!connect.success) return;
  // The first valid connect wins; the global scope is not listened to after it.
  self.removeEventListener('message', onConnect);
  void serve(connect.data.port);
}
self.addEventListener('message', onConnect);

async function serve(port: MessagePort): Promise<void> {
  const failure = await started;
  if (failure !== null) {
    reply(port, { type: 'failed', failure: { kind: 'engine-start', engine: 'Graphviz', detail: failure.slice(0, 2_000) } });
    port.close();
    return;
  }
  port.addEventListener('message', (event) => void handle(port, event.data));
  port.start();
  reply(port, { type: 'ready' });
}

async function handle(port: MessagePort, data: unknown): Promise<void> {
  const request = renderRequestSchema.safeParse(data);
  if (!request.success) {
    // Answer a malformed request when it names an id the sender is waiting on; otherwise drop it.
    const id = (data as { id?: unknown } | null)?.id;
    if (Number.isSafeInteger(id)) reply(port, { type: 'rendered', id: id as number, ok: false, failure: { kind: 'crashed', engine: 'Graphviz', cause: 'fault', stateLost: false, detail: 'the render request was malformed' } });
    return;
  }
  const { id, dot } = request.data;
  const result = await renderDot(dot);
  if (!result.ok) {
    reply(port, { type: 'rendered', id, ...result });
    return;
  }
  let svg: string;
  try {
    svg = sanitizeSvg(result.svg);
  } catch (error) {
    reply(port, { type: 'rendered', id, ok: false, failure: { kind: 'crashed', engine: 'Graphviz', cause: 'fault', stateLost: false, detail: `its SVG could not be sanitized: ${error instanceof Error ? error.message : String(error)}`.slice(0, 2_000) } });
    return;
  }
  reply(port, { type: 'rendered', id, ok: true, svg, width: result.width, height: result.height });
}

function reply(port: MessagePort, message: WorkerReply): void {
  port.postMessage(message);
}
