/** The request header that carries the TCP peer's address (set by lib/http/peer-address.server.ts). */
import 'server-only';
export const PEER_ADDRESS_HEADER = 'x-runpad-peer-address';

/**
 * The request header that carries the client address as `clientAddress()` decides it, set on the
 * request handed to better-auth (its sign-in limiter reads one header), over any the client sent.
 */
export const CLIENT_ADDRESS_HEADER = 'x-runpad-client-address';
