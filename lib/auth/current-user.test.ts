/**
 * resolveIdentity refuses in one way (an AppError from lib/errors.server.ts) and fails in one way too: a
 * person's row that cannot be made is the server's fault (`server:internal`), never a plain Error.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const state = { accountSession: null as null | { user: { id: string; email: string; name: string }; session: { id: string } } };

vi.mock('next/headers', () => ({
  headers: async () => new Headers(),
  cookies: async () => ({
    get: (name: string) => (name === 'guest' ? { value: 'signed' } : undefined),
    has: (name: string) => name === 'account' && state.accountSession !== null,
  }),
}));
vi.mock('@/lib/config.server', () => ({ getConfig: () => ({ access: { mode: 'open' } }) }));
vi.mock('@/lib/request/origin.server', () => ({ requestOrigin: () => 'https://runpad.example', isSecureOrigin: () => true }));
vi.mock('@/lib/request/client-address.server', () => ({ clientAddress: () => '203.0.113.9' }));
vi.mock('@/lib/db/client.server', () => ({ getDb: async () => ({}) }));
// A row that never appears: written, then not found (a database that lost it).
vi.mock('@/lib/db/queries/users.server', () => ({ getPerson: async () => null, ensureUser: async () => undefined, insertGuest: async () => undefined }));
vi.mock('@/lib/abuse/app-rate-limits.server', () => ({ admitNewGuest: async () => ({ ok: true }), limitMessage: () => '' }));
vi.mock('./session.server', () => ({ sessionCookieName: () => 'guest', verifySession: () => 'guest-1' }));
vi.mock('./secret.server', () => ({ getAuthSecret: () => 'secret' }));
vi.mock('./account-cookie.server', () => ({ accountCookieName: () => 'account' }));
vi.mock('./access.server', () => ({ isAdmin: () => false, signInRefusal: () => null }));
vi.mock('./auth.server', () => ({ getAuth: async () => ({ api: { getSession: async () => state.accountSession } }) }));

const { resolveIdentity } = await import('./current-user.server');
const { AppError } = await import('@/lib/errors.server');

describe('resolveIdentity', () => {
  beforeEach(() => {
    state.accountSession = null;
  });

  it('a guest whose row cannot be made is the server’s fault, as an AppError', async () => {
    const failure = await resolveIdentity().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'server:internal' });
  });

  it('an account whose row cannot be made is the server’s fault, as an AppError', async () => {
    state.accountSession = { user: { id: 'user-1', email: 'a@example.com', name: 'A' }, session: { id: 's1' } };
    const failure = await resolveIdentity().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'server:internal' });
  });
});
