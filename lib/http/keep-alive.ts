/**
 * How long the app's HTTP server keeps an idle keep-alive connection open. Node's default (5 s)
 * is shorter than the idle times of the clients and proxies that reuse connections (load
 * balancers idle for 60 s; HTTP clients pool sockets for seconds): a request sent on a socket the
 * server was just closing is reset ("socket hang up", a 502 behind a proxy). So the server
 * outlives them, and waits for request headers a little longer than that, as Node asks. Applied
 * once per server process from instrumentation.ts, to whatever server Next starts (`next start`
 * has a flag for it, which `npm start` and every test server would each have to remember).
 */
import 'server-only';
import http from 'node:http';

export const SERVER_KEEP_ALIVE_MS = 65_000;
const HEADERS_TIMEOUT_MS = SERVER_KEEP_ALIVE_MS + 1_000;

const INSTALLED = Symbol.for('runpad.keepAlive');

export function installKeepAlive(): void {
  const proto = http.Server.prototype as http.Server & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  // The server object is Next's own; its first connection is the first moment this code sees it.
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'connection' && this.keepAliveTimeout < SERVER_KEEP_ALIVE_MS) {
      this.keepAliveTimeout = SERVER_KEEP_ALIVE_MS;
      this.headersTimeout = Math.max(this.headersTimeout, HEADERS_TIMEOUT_MS);
    }
    return emit.call(this, event, ...args);
  } as typeof proto.emit;
}
