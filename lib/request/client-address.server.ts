/**
 * The address a request came from, for the per-address limits (guests started, model requests).
 * Behind a proxy the operator trusts (RUNPAD_TRUST_PROXY) it is the last X-Forwarded-For entry,
 * the one that proxy appended; anything to its left was written by the client. Otherwise it is
 * the TCP peer, which the server stamps on every request (lib/http/peer-address.server.ts) over any
 * header of that name a client sent. Next's own X-Forwarded-For is not used: it keeps whatever
 * the client sent.
 *
 * What a limit counts is the address's bucket: an IPv4 address is one bucket, an IPv6 address
 * counts as its /64 (`2001:db8:1:2::/64`), the block one subscriber or one host is given: a client
 * holding a /64 would otherwise have 2^64 separate limits.
 */
import 'server-only';
import ipaddr from 'ipaddr.js';
import { CLIENT_ADDRESS_HEADER, PEER_ADDRESS_HEADER } from './peer-address-header.server';

type HeaderSource = { get(name: string): string | null };

/** The address as the proxy or the socket wrote it, or null when nothing says. */
function rawAddress(headers: HeaderSource, settings: { trustProxy: boolean }): string | null {
  if (settings.trustProxy) {
    const forwarded = headers.get('x-forwarded-for')?.split(',').map((part) => part.trim()).filter(Boolean);
    const last = forwarded?.at(-1);
    if (last) return last;
  }
  return headers.get(PEER_ADDRESS_HEADER)?.trim() || null;
}

/** An IPv4 address with a port (`1.2.3.4:1000`), as some load balancers write it. */
const IPV4_WITH_PORT = /^([0-9.]+):([0-9]{1,5})$/;
/** A bracketed address, with or without a port (`[2001:db8::5]:443`, `[2001:db8::5]`). */
const BRACKETED = /^\[([^\]]*)\](?::([0-9]{1,5}))?$/;
/** The bucket every value that is not an address shares: writing junk does not buy a limit of one's own. */
export const UNPARSEABLE = 'unparseable';
/** The address better-auth is handed for that bucket (it reads its header as an address; the unspecified one is no client's). */
const UNPARSEABLE_FOR_LIBRARY = '0.0.0.0';

const validPort = (port: string | undefined) => port === undefined || Number(port) <= 65_535;

/**
 * The address parsed: surrounding spaces, a port, brackets and an interface zone (`fe80::1%eth0`)
 * dropped, an IPv4 address reached over an IPv6 socket (`::ffff:1.2.3.4`) read as the IPv4
 * address. null when it is not one (a port that is no port included).
 */
function parsed(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let bare = address.trim();
  const bracketed = BRACKETED.exec(bare) ?? IPV4_WITH_PORT.exec(bare);
  if (bracketed) {
    if (!validPort(bracketed[2])) return null;
    bare = bracketed[1];
  }
  bare = bare.replace(/%[^%]*$/, '');
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : null;
}

/** The /64 an IPv6 address is in, as its network address (the first four groups, the rest zero). */
function network64(address: ipaddr.IPv6): ipaddr.IPv6 {
  return new ipaddr.IPv6([...address.parts.slice(0, 4), 0, 0, 0, 0]);
}

/**
 * The bucket a per-address limit counts this request in: the IPv4 address, an IPv6 address's /64
 * (`2001:db8:1:2::/64`), however either was written (a port, brackets, a zone); "unparseable" for
 * anything that is not an address, one bucket for all of them; "unknown" when nothing says.
 */
export function clientAddress(headers: HeaderSource, settings: { trustProxy: boolean }): string {
  const raw = rawAddress(headers, settings);
  if (!raw) return 'unknown';
  const address = parsed(raw);
  if (!address) return UNPARSEABLE;
  return address.kind() === 'ipv4' ? address.toString() : `${network64(address as ipaddr.IPv6).toString()}/64`;
}

/** The address itself (IPv4, or the IPv6 /64's network address), for a library that wants an address. */
function addressForLibrary(headers: HeaderSource, settings: { trustProxy: boolean }): string {
  const raw = rawAddress(headers, settings);
  const address = raw ? parsed(raw) : null;
  if (!address) return raw ? UNPARSEABLE_FOR_LIBRARY : 'unknown';
  return address.kind() === 'ipv4' ? address.toString() : network64(address as ipaddr.IPv6).toString();
}

/**
 * The same request with the client address in CLIENT_ADDRESS_HEADER, for a library that keys its
 * own limits by one header (better-auth): one rule for every per-address limit, behind a trusted
 * proxy or not, and a client cannot choose its bucket by writing the header itself. better-auth
 * reads the header as an address, so an IPv6 client is written as its /64's network address.
 */
export function withClientAddress(request: Request, settings: { trustProxy: boolean }): Request {
  const headers = new Headers(request.headers);
  headers.set(CLIENT_ADDRESS_HEADER, addressForLibrary(request.headers, settings));
  // duplex: a streamed body is passed on as it is, not read first.
  return new Request(request, { headers, duplex: 'half' } as RequestInit);
}
