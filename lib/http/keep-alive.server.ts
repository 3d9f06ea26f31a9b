/**
 * How long the app's HTTP server keeps an idle keep-alive connection open. Node's default (5 s)
 * is shorter than the idle times of the clients and proxies that reuse connections (load
 * balancers idle for 60 s; HTTP clients pool sockets for seconds): a request sent on a socket the
 * server was just closing is reset ("socket hang up", a 502 behind a proxy). So the server
 * outlives them, and waits for request headers a little longer than that, as Node asks. Applied
 * once per server process from instrumentation.ts (lib/http/server-hooks.server.ts), to whatever server
 * Next starts (`next start` has a flag for it, which `npm start` and every test server would each
 * have to remember).
 */
import 'server-only';
import { addServerHook } from './server-hooks.server';

export const SERVER_KEEP_ALIVE_MS = 65_000;
const HEADERS_TIMEOUT_MS = SERVER_KEEP_ALIVE_MS + 1_000;

export function installKeepAlive(): void {
  // The server object is Next's own; its first connection is the first moment this code sees it.
  addServerHook('keep-alive', (server, event) => {
    if (event === 'connection' && server.keepAliveTimeout < SERVER_KEEP_ALIVE_MS) {
      server.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
      server.headersTimeout = Math.max(server.headersTimeout, HEADERS_TIMEOUT_MS);
    }
    return false;
  });
}
