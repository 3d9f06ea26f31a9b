/**
 * The address a request came from, for the per-address limits (guests started, model requests).
 * Behind a proxy the operator trusts (RUNPAD_TRUST_PROXY) it is the last X-Forwarded-For entry,
 * the one that proxy appended; anything to its left was written by the client. Otherwise it is
 * the TCP peer, which the server stamps on every request (lib/http/peer-address.ts) over any
 * header of that name a client sent. Next's own X-Forwarded-For is not used: it keeps whatever
 * the client sent.
 */
import { CLIENT_ADDRESS_HEADER, PEER_ADDRESS_HEADER } from './peer-address-header';

type HeaderSource = { get(name: string): string | null };

export function clientAddress(headers: HeaderSource, settings: { trustProxy: boolean }): string {
  if (settings.trustProxy) {
    const forwarded = headers.get('x-forwarded-for')?.split(',').map((part) => part.trim()).filter(Boolean);
    const last = forwarded?.at(-1);
    if (last) return normalize(last);
  }
  const peer = headers.get(PEER_ADDRESS_HEADER)?.trim();
  return peer ? normalize(peer) : 'unknown';
}

/** An IPv4 address reached over an IPv6 socket (`::ffff:1.2.3.4`) counts as the IPv4 address. */
function normalize(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice(7) : lower;
}

/**
 * The same request with the client address in CLIENT_ADDRESS_HEADER, for a library that keys its
 * own limits by one header (better-auth): one rule for every per-address limit, behind a trusted
 * proxy or not, and a client cannot choose its bucket by writing the header itself.
 */
export function withClientAddress(request: Request, settings: { trustProxy: boolean }): Request {
  const headers = new Headers(request.headers);
  headers.set(CLIENT_ADDRESS_HEADER, clientAddress(request.headers, settings));
  // duplex: a streamed body is passed on as it is, not read first.
  return new Request(request, { headers, duplex: 'half' } as RequestInit);
}
