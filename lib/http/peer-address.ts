/**
 * Route handlers see a Fetch Request, which has no socket, so the TCP peer's address is written
 * into a request header as each request arrives, replacing any header of that name the client
 * sent (lib/http/client-address.ts reads it). Installed once per server process from
 * instrumentation.ts; it wraps http.Server's emit of 'request', nothing else.
 */
import 'server-only';
import http from 'node:http';
import { PEER_ADDRESS_HEADER } from './peer-address-header';

const INSTALLED = Symbol.for('runpad.peerAddressHeader');

export function installPeerAddressHeader(): void {
  const proto = http.Server.prototype as http.Server & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const request = args[0] as http.IncomingMessage;
      request.headers[PEER_ADDRESS_HEADER] = request.socket?.remoteAddress ?? '';
    }
    return emit.call(this, event, ...args);
  } as typeof proto.emit;
}
