/** The request header that carries the TCP peer's address (set by lib/http/peer-address.ts). */
export const PEER_ADDRESS_HEADER = 'x-runpad-peer-address';
