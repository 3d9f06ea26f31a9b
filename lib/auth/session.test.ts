import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getAuthSecret, resetAuthSecretCache } from './secret.server';
import { signSession, verifySession } from './session.server';

const secret = 'x'.repeat(40);
const id = '6f1c2f64-4a5e-4d59-9a8e-3f0b1f2a9c11';

describe('guest session cookie', () => {
  it('verifies what it signed', () => {
    expect(verifySession(signSession(id, secret), secret)).toBe(id);
  });

  it.each([
    ['a tampered signature', (v: string) => `${v.slice(0, -2)}xx`],
    ['another user id', (v: string) => v.replace(id, '00000000-0000-4000-8000-000000000000')],
    ['a malformed value', () => 'garbage'],
    ['a wrong version', (v: string) => v.replace('v1.', 'v2.')],
  ])('refuses %s', (_, change) => {
    expect(verifySession(change(signSession(id, secret)), secret)).toBeNull();
  });

  it('refuses a cookie signed with another secret', () => {
    expect(verifySession(signSession(id, 'y'.repeat(40)), secret)).toBeNull();
  });

  it('generates a secret once and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auth-'));
    resetAuthSecretCache();
    const first = getAuthSecret({ authSecret: null, dataDir: dir });
    resetAuthSecretCache();
    const second = getAuthSecret({ authSecret: null, dataDir: dir });
    expect(first).toBe(second);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(path.join(dir, 'auth-secret')).mode & 0o777).toBe(0o600);
    resetAuthSecretCache();
  });
});

describe('the cookie over HTTPS', () => {
  it('is __Host- prefixed: Secure, Path=/, no Domain', async () => {
    const { sessionCookieHeader, sessionCookieName } = await import('./session.server');
    const header = sessionCookieHeader('v', true);
    expect(header.startsWith('__Host-runpad_session=v;')).toBe(true);
    expect(header).toContain('; Secure');
    expect(header).toContain('Path=/;');
    expect(header).not.toMatch(/domain=/i);
    expect(sessionCookieName(false)).toBe('runpad_session');
    expect(sessionCookieHeader('v', false)).not.toContain('Secure');
  });
});
