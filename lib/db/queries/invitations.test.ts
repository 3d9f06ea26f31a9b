import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { isAdmin, signInRefusal, PENDING_APPROVAL } from '@/lib/auth/access.server';
import type { Db } from '../client.server';
import { authUsers } from '../schema.server';
import { openForTests, pgliteBackend, serverBackend } from '../../testing/databases';
import { getAccount, listAccounts, setRole } from './accounts.server';
import { admitAccount, createInvitation, findInvitation, listOpenInvitations, revokeInvitation, redeemInvitation } from './invitations.server';

const DAY = 24 * 60 * 60 * 1000;
const inviteOnly = { mode: 'invite' as const, allowedEmails: ['@team.example'], adminEmails: ['boss@example.com'] };

async function newAccount(db: Db, email: string, emailVerified = false) {
  const id = crypto.randomUUID();
  await db.insert(authUsers).values({ id, name: email, email, emailVerified });
  return id;
}

for (const backend of [pgliteBackend(), serverBackend()]) {
  describe(`invitations, approval and roles on ${backend.name}`, () => {
    let db: Db;
    const live = openForTests(backend, [], (opened) => (db = opened.db));

    live('an invitation link works once, for its email only, until it expires; a new one replaces the open one', async () => {
      const now = new Date('2026-11-27T10:00:00Z');
      const first = await createInvitation(db, { email: ' Ana@Example.com ', role: 'member', createdBy: null, now });
      expect(first).toMatchObject({ email: 'ana@example.com', role: 'member', expiresAt: new Date(now.getTime() + 7 * DAY) });
      expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await findInvitation(db, first.token, now)).toMatchObject({ id: first.id });
      expect(await findInvitation(db, first.token, new Date(now.getTime() + 7 * DAY + 1))).toBeNull();
      expect(await redeemInvitation(db, { email: 'someone@example.com', token: first.token, now })).toBeNull();
      expect(await redeemInvitation(db, { email: 'ana@example.com', token: first.token, now: new Date(now.getTime() + 8 * DAY) })).toBeNull();

      const second = await createInvitation(db, { email: 'ana@example.com', role: 'admin', createdBy: null, now });
      expect(await findInvitation(db, first.token, now)).toBeNull();
      expect(await redeemInvitation(db, { email: 'ANA@example.com', token: second.token, now })).toMatchObject({ id: second.id, role: 'admin' });
      expect(await redeemInvitation(db, { email: 'ana@example.com', token: second.token, now })).toBeNull();
      expect(await findInvitation(db, second.token, now)).toBeNull();
      expect((await listOpenInvitations(db, now)).map((i) => i.email)).not.toContain('ana@example.com');
    });

    live('an open invitation is listed until revoked; a provider-verified email uses it without the link', async () => {
      const now = new Date();
      const revoked = await createInvitation(db, { email: 'rev@example.com', role: 'member', createdBy: null, now });
      const kept = await createInvitation(db, { email: 'oidc@example.com', role: 'member', createdBy: null, now });
      expect((await listOpenInvitations(db, now)).map((i) => i.email)).toEqual(expect.arrayContaining(['rev@example.com', 'oidc@example.com']));
      expect(await revokeInvitation(db, revoked.id)).toBe(revoked.email);
      expect(await revokeInvitation(db, revoked.id)).toBeNull();
      expect(await findInvitation(db, revoked.token, now)).toBeNull();
      expect(await redeemInvitation(db, { email: 'rev@example.com', now })).toBeNull();
      expect(await redeemInvitation(db, { email: 'oidc@example.com', now })).toMatchObject({ id: kept.id });
      expect(await revokeInvitation(db, kept.id)).toBeNull(); // used: kept as a record
    });

    live('a sign-up in invite mode is pending until an admin approves it; roles make and unmake admins, the bootstrap list stays admin', async () => {
      const stranger = await newAccount(db, 'stranger@example.com');
      const unverifiedTeam = await newAccount(db, 'claims@team.example');
      const verifiedTeam = await newAccount(db, 'real@team.example', true);
      const row = async (id: string) => (await getAccount(db, id))!;
      expect(signInRefusal(await row(stranger), inviteOnly)).toBe(PENDING_APPROVAL);
      expect(signInRefusal(await row(unverifiedTeam), inviteOnly)).toBe(PENDING_APPROVAL);
      expect(signInRefusal(await row(verifiedTeam), inviteOnly)).toBeNull();
      expect(signInRefusal(await row(stranger), { ...inviteOnly, mode: 'accounts' })).toBeNull();

      expect(await admitAccount(db, stranger)).toBe(true);
      expect(signInRefusal(await row(stranger), inviteOnly)).toBeNull();
      expect(await admitAccount(db, crypto.randomUUID())).toBe(false);

      expect(isAdmin(await row(stranger), inviteOnly)).toBe(false);
      expect(await setRole(db, stranger, 'admin')).toBe(true);
      expect(isAdmin(await row(stranger), inviteOnly)).toBe(true);
      expect(await setRole(db, stranger, 'member')).toBe(true);
      expect(isAdmin(await row(stranger), inviteOnly)).toBe(false);
      expect(await setRole(db, crypto.randomUUID(), 'admin')).toBe(false);

      const boss = await newAccount(db, 'boss@example.com', true);
      await setRole(db, boss, 'member');
      expect(isAdmin(await row(boss), inviteOnly)).toBe(true);
      const fakeBoss = await newAccount(db, 'BOSS@example.com'.replace('BOSS', 'boss2'));
      await db.update(authUsers).set({ email: 'boss@example.org' }).where(eq(authUsers.id, fakeBoss));
      expect(isAdmin(await row(fakeBoss), inviteOnly)).toBe(false);

      const listed = await listAccounts(db);
      expect(listed.find((a) => a.id === stranger)).toMatchObject({ email: 'stranger@example.com', role: 'member', hasPassword: false });
      expect(listed.find((a) => a.id === stranger)?.admittedAt).toBeInstanceOf(Date);
    });
  });
}
