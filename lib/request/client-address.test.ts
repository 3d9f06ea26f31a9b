import { describe, expect, it } from 'vitest';
import { clientAddress, withClientAddress } from './client-address.server';
import { CLIENT_ADDRESS_HEADER, PEER_ADDRESS_HEADER } from './peer-address-header.server';

const headers = (entries: Record<string, string>) => new Headers(entries);

describe('the client address for per-address limits', () => {
  it('is the TCP peer without a trusted proxy, whatever X-Forwarded-For says', () => {
    expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: '203.0.113.9', 'x-forwarded-for': '198.51.100.1' }), { trustProxy: false })).toBe('203.0.113.9');
  });

  it('behind a trusted proxy is the last X-Forwarded-For entry (what the proxy saw), not what the client wrote', () => {
    expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: '10.0.0.2', 'x-forwarded-for': '1.1.1.1, 203.0.113.9' }), { trustProxy: true })).toBe('203.0.113.9');
    expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: '10.0.0.2' }), { trustProxy: true })).toBe('10.0.0.2');
  });

  it('counts an IPv4 address reached over IPv6 as the IPv4 address', () => {
    expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: '::ffff:203.0.113.9' }), { trustProxy: false })).toBe('203.0.113.9');
  });

  it('counts an IPv6 client as its /64, however the address is written', () => {
    const bucket = (address: string, trustProxy = false) => clientAddress(headers(trustProxy ? { [PEER_ADDRESS_HEADER]: '10.0.0.2', 'x-forwarded-for': address } : { [PEER_ADDRESS_HEADER]: address }), { trustProxy });
    expect(bucket('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    for (const sameBlock of ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2:abcd::9', '[2001:db8:1:2::7]', '2001:db8:1:2::8%eth0']) {
      expect(bucket(sameBlock)).toBe('2001:db8:1:2::/64');
    }
    expect(bucket('2001:db8:1:2::1, 2001:db8:1:3::1', true)).toBe('2001:db8:1:3::/64');
    expect(bucket('2001:db8:1:3::1')).not.toBe(bucket('2001:db8:1:2::1'));
  });

  it('counts IPv4 clients by the whole address', () => {
    expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: '203.0.113.9' }), { trustProxy: false })).toBe('203.0.113.9');
    expect(clientAddress(headers({ [PEER_ADDRESS_HEADER]: '203.0.113.10' }), { trustProxy: false })).toBe('203.0.113.10');
  });

  it('hands better-auth an address it accepts: an IPv6 client as its /64’s network address', () => {
    const request = new Request('http://app.test/api/auth/sign-in/passkey', { headers: { [PEER_ADDRESS_HEADER]: '2001:db8:1:2:abcd::9' } });
    expect(withClientAddress(request, { trustProxy: false }).headers.get(CLIENT_ADDRESS_HEADER)).toBe('2001:db8:1:2::');
  });

  it('is "unknown" when nothing says', () => {
    expect(clientAddress(headers({}), { trustProxy: false })).toBe('unknown');
  });

  it('is handed to a library that reads one header, over whatever the client wrote there, with the body intact', async () => {
    const spoofed = new Request('http://app.test/api/auth/sign-in/social', {
      method: 'POST',
      headers: { [PEER_ADDRESS_HEADER]: '10.0.0.2', 'x-forwarded-for': '1.1.1.1, 203.0.113.9', [CLIENT_ADDRESS_HEADER]: '192.0.2.77' },
      body: JSON.stringify({ provider: 'oidc' }),
    });
    const behindProxy = withClientAddress(spoofed.clone(), { trustProxy: true });
    expect(behindProxy.headers.get(CLIENT_ADDRESS_HEADER)).toBe('203.0.113.9');
    expect(await behindProxy.json()).toEqual({ provider: 'oidc' });
    expect(withClientAddress(spoofed, { trustProxy: false }).headers.get(CLIENT_ADDRESS_HEADER)).toBe('10.0.0.2');
  });
});
