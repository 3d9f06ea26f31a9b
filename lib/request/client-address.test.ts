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

/** Random bytes from the platform's generator: addresses no one chose. */
function randomBytes(count: number): number[] {
  return [...crypto.getRandomValues(new Uint8Array(count))];
}

describe('an address is bucketed by the address alone, and what is not an address shares one bucket', () => {
  // A header source that hands back any string, newlines included (a Headers object refuses those).
  const raw = (value: string, trustProxy: boolean) => clientAddress({ get: (name) => (trustProxy ? ({ [PEER_ADDRESS_HEADER]: '10.0.0.2', 'x-forwarded-for': value } as Record<string, string>)[name] : name === PEER_ADDRESS_HEADER ? value : null) ?? null }, { trustProxy });
  const port = () => String(1 + ((randomBytes(2)[0] << 8) | randomBytes(1)[0]) % 65535);

  it('with a port, brackets, a zone, spaces or capitals, an address is its own bucket (generated addresses)', () => {
    for (let i = 0; i < 200; i++) {
      const v4 = randomBytes(4).join('.');
      const v6 = Array.from({ length: 8 }, () => ((randomBytes(1)[0] << 8) | randomBytes(1)[0]).toString(16)).join(':');
      for (const trustProxy of [true, false]) {
        const v4Bucket = raw(v4, trustProxy);
        expect(v4Bucket).toBe(v4.split('.').map(Number).join('.'));
        for (const written of [`${v4}:${port()}`, ` ${v4}:${port()} `, `[${v4}]:${port()}`, `::ffff:${v4}`, `[::ffff:${v4}]:${port()}`]) expect(raw(written, trustProxy), written).toBe(v4Bucket);
        const v6Bucket = raw(v6, trustProxy);
        expect(v6Bucket).toMatch(/\/64$/);
        for (const written of [`[${v6}]:${port()}`, `[${v6.toUpperCase()}]:${port()}`, `[${v6}]`, `${v6}%eth0`, `[${v6}%25en0]:${port()}`, ` ${v6.toUpperCase()} `]) expect(raw(written, trustProxy), written).toBe(v6Bucket);
      }
    }
  });

  it('the forms load balancers write: `1.2.3.4:1000` and `[2001:db8::5]:443` are the address’s bucket', () => {
    expect(raw('1.2.3.4:1000', true)).toBe('1.2.3.4');
    expect(raw('7.7.7.7, 1.2.3.4:1000', true)).toBe('1.2.3.4');
    expect(raw('[2001:db8::5]:443', true)).toBe('2001:db8::/64');
    expect(raw('[2001:db8::5]:443', false)).toBe(raw('2001:db8::5', false));
  });

  it('anything that is not an address (quotes, spaces, other scripts, newlines, a bad port) is one shared bucket, for our limits and for better-auth’s', () => {
    const junk = [
      'evil.example',
      `"1.2.3.4"`,
      `'1.2.3.4'`,
      '1.2.3.4:abc',
      '1.2.3.4:99999',
      '1.2.3.4:',
      '[2001:db8::5]:',
      '[2001:db8::5]:70000',
      '[not-an-address]:80',
      '1.2.3.4 5.6.7.8',
      '１.２.３.４',
      'адрес',
      '地址:80',
      'a\nb',
      '1.2.3.4\r\n5.6.7.8',
      '‘curly’ “quotes”',
      '999.1.1.1',
      '2001:db8::5::6',
      'unknown',
      `${crypto.randomUUID()}:${port()}`,
    ];
    const buckets = new Set<string>();
    for (const value of junk) for (const trustProxy of [true, false]) buckets.add(raw(value, trustProxy));
    expect([...buckets]).toEqual(['unparseable']);
    // better-auth reads its header as an address: every one of these is handed the same one.
    const handed = new Set(junk.filter((value) => !/[\r\n]/.test(value)).map((value) => withClientAddress(new Request('http://app.test/api/auth/sign-in/email', { headers: { [PEER_ADDRESS_HEADER]: encodeURI(value) === value ? value : value.replace(/[^\x20-\x7e]/g, '?') } }), { trustProxy: false }).headers.get(CLIENT_ADDRESS_HEADER)));
    expect(handed.size).toBe(1);
    expect([...handed][0]).toMatch(/^[0-9.]+$|^[0-9a-f:]+$/);
  });
});
