/**
 * Groups kept in step with an OpenID Connect provider's claim, on the embedded database and on
 * Postgres: the claim's values (generated: quotes of every kind, spaces, other scripts, control
 * characters, non-strings) name groups, made when none has the name; a sign-in puts the account in
 * exactly those, takes it out of the claimed groups no longer named, and leaves every membership
 * an admin made alone. Access a group granted ends with the membership.
 */
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client.server';
import { authUsers, conversations, groupMembers, groups } from '@/lib/db/schema.server';
import { addGroupMembers, listGroupsWithMembers, removeGroupMember, syncClaimedGroups } from '@/lib/db/queries/groups.server';
import { createGroup, putConversationReader } from '@/lib/db/queries/projects.server';
import { openForTests, pgliteBackend, serverBackend } from '@/lib/testing/databases';
import { may } from './authorize.server';
import { claimedGroupNames } from './groups.server';

/** Names a provider may send: every kind of quote, spaces inside and around, other scripts, an emoji. */
const NAMES = [`Ventes "Q3"`, `d'Équipe`, '‘curly’ “double”', '«guillemets» „low“', '数据 团队', 'команда данных', '  padded  ', 'فريق', '🧪 lab', '`back`tick'];

describe('reading the groups claim', () => {
  it('takes a list of strings or one string; drops what is not one line of a name, and counts it', () => {
    expect(claimedGroupNames({ groups: NAMES }, 'groups')).toEqual({ names: NAMES.map((name) => name.trim()), ignored: 0 });
    expect(claimedGroupNames({ roles: 'admins' }, 'roles')).toEqual({ names: ['admins'], ignored: 0 });
    expect(claimedGroupNames({}, 'groups')).toEqual({ names: [], ignored: 0 });
    expect(claimedGroupNames({ groups: null }, 'groups')).toEqual({ names: [], ignored: 0 });
    const bad = ['line\nbreak', 'tab\there', '', '   ', 'nul\u0000', 'x'.repeat(201), 42, { name: 'object' }, ['nested'], null, true];
    expect(claimedGroupNames({ groups: [...bad, 'ok', 'ok'] }, 'groups')).toEqual({ names: ['ok'], ignored: bad.length });
    expect(claimedGroupNames({ groups: Array.from({ length: 300 }, (_, i) => `g${i}`) }, 'groups').names).toHaveLength(200);
    // The claim named, not another: a `groups` claim is not read as `roles`.
    expect(claimedGroupNames({ groups: ['a'] }, 'roles')).toEqual({ names: [], ignored: 0 });
  });
});

for (const backend of [pgliteBackend(), serverBackend()]) {
  describe(`groups kept in step with the provider, on ${backend.name}`, () => {
    let db: Db;
    const person = crypto.randomUUID();
    const other = crypto.randomUUID();
    const live = openForTests(backend, [person, other], (opened) => (db = opened.db));
    const claimedOf = async (userId: string) =>
      (await db.select({ name: groups.name, source: groupMembers.source }).from(groupMembers).innerJoin(groups, eq(groups.id, groupMembers.groupId)).where(eq(groupMembers.userId, userId))).map((row) => `${row.name} (${row.source})`).sort();

    live('a sign-in puts the account in exactly the groups its claim names; an admin’s memberships stay; reading through a group ends with it', async () => {
      for (const [id, email] of [[person, 'ana@example.com'], [other, 'other@example.com']] as const) await db.insert(authUsers).values({ id, name: email, email, emailVerified: true });
      // An admin's group of the same name as a claimed one: the oldest of a name is the one claimed.
      const admins = await createGroup(db, { name: 'Ventes "Q3"', createdBy: null, userIds: [other] });
      await createGroup(db, { name: 'Ventes "Q3"', createdBy: null, userIds: [] });
      const manual = await createGroup(db, { name: 'Made by an admin', createdBy: null, userIds: [person] });
      const conversation = crypto.randomUUID();
      await db.insert(conversations).values({ id: conversation, ownerId: other });
      await putConversationReader(db, conversation, { groupId: admins.id }, other);

      expect(await syncClaimedGroups(db, person, claimedGroupNames({ groups: NAMES }, 'groups').names)).toEqual({ added: NAMES.length, removed: 0 });
      expect(await claimedOf(person)).toEqual([...NAMES.map((name) => `${name.trim()} (oidc)`), 'Made by an admin (admin)'].sort());
      expect((await db.select().from(groupMembers).where(and(eq(groupMembers.groupId, admins.id), eq(groupMembers.userId, person)))).length).toBe(1);
      expect(await may(db, { userId: person, kind: 'account' }, 'read', { conversation })).toBe(true);
      // The same claim again changes nothing; no group is made twice.
      const before = (await listGroupsWithMembers(db)).length;
      expect(await syncClaimedGroups(db, person, NAMES.map((name) => name.trim()))).toEqual({ added: 0, removed: 0 });
      expect((await listGroupsWithMembers(db)).length).toBe(before);

      // The provider names fewer groups, and one new: the others go at this sign-in, and what they granted with them.
      expect(await syncClaimedGroups(db, person, ['数据 团队', 'nouvelle équipe'])).toEqual({ added: 1, removed: NAMES.length - 1 });
      expect(await claimedOf(person)).toEqual(['Made by an admin (admin)', 'nouvelle équipe (oidc)', '数据 团队 (oidc)']);
      expect(await may(db, { userId: person, kind: 'account' }, 'read', { conversation })).toBe(false);
      // Another account's memberships are its own.
      expect(await claimedOf(other)).toEqual(['Ventes "Q3" (admin)']);

      // An admin adds a claimed member by hand: the membership is the admin's, the claim no longer takes it away.
      const [kept] = (await listGroupsWithMembers(db)).filter((group) => group.name === 'nouvelle équipe');
      await addGroupMembers(db, kept!.id, [person]);
      expect(await syncClaimedGroups(db, person, [])).toEqual({ added: 0, removed: 1 });
      expect(await claimedOf(person)).toEqual(['Made by an admin (admin)', 'nouvelle équipe (admin)']);
      expect(await removeGroupMember(db, manual.id, person)).toBe(true);
      expect(await removeGroupMember(db, manual.id, person)).toBe(false);
      expect(await claimedOf(person)).toEqual(['nouvelle équipe (admin)']);
    });
  });
}
