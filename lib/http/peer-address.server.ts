/**
 * Route handlers see a Fetch Request, which has no socket, so the TCP peer's address is written
 * into a request header as each request arrives, replacing any header of that name the client
 * sent (lib/request/client-address.server.ts reads it). Installed once per server process from
 * instrumentation.ts (lib/http/server-hooks.server.ts).
 */
import 'server-only';
import type http from 'node:http';
import { PEER_ADDRESS_HEADER } from '@/lib/request/peer-address-header.server';
import { addServerHook } from './server-hooks.server';

export function installPeerAddressHeader(): void {
  addServerHook('peer-address', (_server, event, args) => {
    if (event === 'request') {
      const request = args[0] as http.IncomingMessage;
      request.headers[PEER_ADDRESS_HEADER] = request.socket?.remoteAddress ?? '';
    }
    return false;
  });
}
