/**
 * The one authorization rule, walked whole: every standing a person can have (owner, can edit,
 * can use, a conversation's reader, a group's member, a removed member, a stranger, a guest, no
 * one) × every action, on a project, on a conversation in it, on its datasets (the one that
 * conversation uses, the others) and on its share links (for anyone,
 * for signed-in people only, revoked; under each RUNPAD_PUBLIC_SHARES), on the embedded database
 * and on Postgres. Every answer is asserted, and `authorize`'s refusal is a 404 unless the person
 * may read (a 401 to sign in first at a signed-in people's link).
 */
import { describe, expect, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AppConfig } from '@/lib/config.server';
import { createDb, type Db } from '@/lib/db/client.server';
import { authUsers, blobs, conversationFiles, conversations, groupMembers, messages, projectFiles } from '@/lib/db/schema.server';
import { createOrUpdateShare, revokeShare } from '@/lib/db/queries/shares.server';
import { conversationGrants, createGroup, createProject, putConversationReader, putProjectMember, removeConversationReader, removeProjectMember } from '@/lib/db/queries/projects.server';
import { isAppError } from '@/lib/errors.server';
import { ensureUser } from '@/lib/db/queries/users.server';
import { openForTests, pgliteBackend, serverBackend } from '@/lib/testing/databases';
import { ACTIONS, authorize, may, type Action, type Subject, type Target } from './authorize.server';
import { granteeSchema, resolveGrantee } from './grantee.server';
import { claimInvitationsOf } from './project-invitations.server';
import { putProjectInvitation } from '@/lib/db/queries/project-invitations.server';

const ROLES = ['owner', 'editor', 'user', 'reader', 'groupMember', 'removedMember', 'removedReader', 'stranger', 'guest', 'anonymous'] as const;
type Role = (typeof ROLES)[number];
const ids = Object.fromEntries(ROLES.map((role) => [role, crypto.randomUUID()])) as Record<Role, string>;
/** Emails of every kind: quotes, other scripts, plus signs, upper case. */
const EMAIL: Record<Role, string> = {
  owner: "o'wner@example.com",
  editor: 'éditeur+edit@example.com',
  user: 'User.With"Quotes"@example.com',
  reader: 'читатель@example.com',
  groupMember: '成员@example.com',
  removedMember: 'removed@example.com',
  removedReader: 'removed.reader@example.com',
  stranger: 'stranger@example.com',
  guest: '',
  anonymous: '',
};

const ALL = new Set<Action>(ACTIONS);
const NONE = new Set<Action>();
const USE = new Set<Action>(['read', 'run', 'continue', 'read_dataset', 'export']);
const EDIT = new Set<Action>([...USE, 'change_instructions', 'manage_members']);
const READ = new Set<Action>(['read', 'run', 'read_dataset', 'export']);

/**
 * What each person may do to the project, to the owner's conversation in it, to the project's
 * dataset that conversation uses, and to its datasets that conversation does not use (added after
 * its last message, or shadowed by a file of its own by the same name).
 */
type Expected = { project: Set<Action>; conversation: Set<Action>; dataset: Set<Action>; unusedDataset: Set<Action> };
const EXPECTED: Record<Role, Expected> = {
  owner: { project: ALL, conversation: ALL, dataset: READ, unusedDataset: READ },
  editor: { project: EDIT, conversation: NONE, dataset: READ, unusedDataset: READ },
  user: { project: USE, conversation: NONE, dataset: READ, unusedDataset: READ },
  // Reading the conversation grants reading the datasets it uses: never the project's others, nor the project.
  reader: { project: NONE, conversation: READ, dataset: READ, unusedDataset: NONE },
  // In a group that can use the project and reads the conversation.
  groupMember: { project: USE, conversation: READ, dataset: READ, unusedDataset: READ },
  removedMember: { project: NONE, conversation: NONE, dataset: NONE, unusedDataset: NONE },
  removedReader: { project: NONE, conversation: NONE, dataset: NONE, unusedDataset: NONE },
  stranger: { project: NONE, conversation: NONE, dataset: NONE, unusedDataset: NONE },
  guest: { project: NONE, conversation: NONE, dataset: NONE, unusedDataset: NONE },
  anonymous: { project: NONE, conversation: NONE, dataset: NONE, unusedDataset: NONE },
};

/** The operator's RUNPAD_PUBLIC_SHARES, as the rule reads it (the rest of the configuration is not read here). */
const settings = vi.hoisted(() => ({ links: 'on' as AppConfig['publicShares'], email: null as AppConfig['email'] }));
vi.mock('@/lib/config.server', () => ({ getConfig: () => ({ publicShares: settings.links, email: settings.email }) }));

const LINKS = ['on', 'signed-in', 'off'] as const;
const ACCOUNTS = new Set<Role>(ROLES.filter((role) => role !== 'guest' && role !== 'anonymous'));
/** What each person may do through a link for anyone, and through one for signed-in people, under each setting. */
const expectedAtLink = (role: Role, audience: 'anyone' | 'signed_in', links: (typeof LINKS)[number]): Set<Action> =>
  links === 'off' ? NONE : audience === 'anyone' && links === 'on' ? READ : ACCOUNTS.has(role) ? READ : NONE;

const subject = (role: Role): Subject => (role === 'anonymous' ? null : { userId: ids[role], kind: role === 'guest' ? 'guest' : 'account' });

for (const backend of [pgliteBackend(), serverBackend()]) {
  describe(`the authorization rule on ${backend.name}`, () => {
    let db: Db;
    let url: string | undefined;
    const live = openForTests(
      backend,
      ROLES.filter((role) => role !== 'anonymous').map((role) => ids[role]),
      (opened) => {
        db = opened.db;
        url = opened.url;
      },
    );
    let projectId = '';
    let conversationId = '';
    let memberConversation = '';
    /** The project's datasets: the one the conversation uses; one added after its last message; one its own file shadows. */
    const datasets = { used: crypto.randomUUID(), later: crypto.randomUUID(), shadowed: crypto.randomUUID() };
    const targets = (): Array<[keyof Expected, Target]> => [
      ['project', { project: projectId }],
      ['conversation', { conversation: conversationId }],
      ['dataset', { dataset: datasets.used }],
      ['unusedDataset', { dataset: datasets.later }],
      ['unusedDataset', { dataset: datasets.shadowed }],
    ];

    /** Three uploaded datasets in the project; the conversation (and the member's) had the first and the shadowed one under /data when it was written. */
    async function addDatasets() {
      const sha = 'c'.repeat(64);
      await db.insert(blobs).values({ sha256: sha, size: 3 }).onConflictDoNothing();
      const hourAgo = new Date(Date.now() - 3_600_000);
      const file = (id: string, name: string, createdAt: Date) => ({ id, projectId, name, sha256: sha, location: 'account' as const, blobSha256: sha, mediaType: 'text/csv', size: 3, createdAt });
      await db.insert(projectFiles).values([file(datasets.used, 'ventes "Q3".csv', hourAgo), file(datasets.shadowed, 'own.csv', hourAgo), file(datasets.later, 'later.csv', new Date(Date.now() + 3_600_000))]);
      for (const id of [conversationId, memberConversation]) {
        await db.insert(messages).values({ conversationId: id, id: `m-${id}`, seq: 0, role: 'user', parts: [{ type: 'text', text: 'Sum /data/ventes "Q3".csv' }] });
        await db.insert(conversationFiles).values({ conversationId: id, name: 'own.csv', sha256: 'd'.repeat(64), location: 'device', mediaType: 'text/csv', size: 3 });
      }
    }

    async function setUp() {
      for (const role of ROLES) if (EMAIL[role]) await db.insert(authUsers).values({ id: ids[role], name: role, email: EMAIL[role], emailVerified: true });
      const project = await createProject(db, ids.owner, { name: 'Ventes “Q3” 数据\nline', instructions: 'Answer in French.' });
      projectId = project.id;
      conversationId = crypto.randomUUID();
      await db.insert(conversations).values({ id: conversationId, ownerId: ids.owner, projectId });
      memberConversation = crypto.randomUUID();
      await db.insert(conversations).values({ id: memberConversation, ownerId: ids.removedMember, projectId });
      await addDatasets();
      const group = await createGroup(db, { name: "Équipe 'data'", createdBy: ids.owner, userIds: [ids.groupMember] });
      await putProjectMember(db, projectId, { userId: ids.editor }, 'use', ids.owner);
      // Changing a member's role is the same row, not a second grant.
      await putProjectMember(db, projectId, { userId: ids.editor }, 'edit', ids.owner);
      await putProjectMember(db, projectId, { userId: ids.user }, 'use', ids.owner);
      await putProjectMember(db, projectId, { groupId: group.id }, 'use', ids.owner);
      const removed = await putProjectMember(db, projectId, { userId: ids.removedMember }, 'edit', ids.owner);
      await putConversationReader(db, conversationId, { userId: ids.reader }, ids.owner);
      await putConversationReader(db, conversationId, { groupId: group.id }, ids.owner);
      const removedReader = await putConversationReader(db, conversationId, { userId: ids.removedReader }, ids.owner);
      // The removed member could work in the project until now.
      expect(await may(db, subject('removedMember'), 'continue', { conversation: memberConversation })).toBe(true);
      expect(await may(db, subject('removedReader'), 'read', { conversation: conversationId })).toBe(true);
      expect(await removeProjectMember(db, projectId, removed)).toMatchObject({ userId: ids.removedMember, role: 'edit' });
      expect(await removeConversationReader(db, conversationId, removedReader)).toMatchObject({ userId: ids.removedReader });
      // A member id of another project removes nothing.
      expect(await removeProjectMember(db, crypto.randomUUID(), removed)).toBeNull();
    }

    live('every person × every action, on a project, a conversation in it and the project’s datasets (the one it uses, the others)', async () => {
      await setUp();
      const answers: Record<string, Record<string, boolean>> = {};
      const expected: Record<string, Record<string, boolean>> = {};
      for (const role of ROLES) {
        for (const [index, [kind, target]] of targets().entries()) {
          for (const action of ACTIONS) {
            const key = `${role} ${kind} ${index}`;
            (answers[key] ??= {})[action] = await may(db, subject(role), action, target);
            (expected[key] ??= {})[action] = EXPECTED[role][kind].has(action);
          }
        }
      }
      expect(answers).toEqual(expected);
    });

    live('a refusal is a 404 to whoever may not read, a 403 to whoever may read but not do this', async () => {
      const status = async (role: Role, action: Action, target: Target) => {
        try {
          await authorize(db, subject(role), action, target);
          return 200;
        } catch (error) {
          if (!isAppError(error)) throw error;
          return error.status;
        }
      };
      for (const role of ROLES) {
        for (const [kind, target] of targets()) {
          for (const action of ACTIONS) {
            const allowed = EXPECTED[role][kind];
            expect([role, kind, action, await status(role, action, target)]).toEqual([role, kind, action, allowed.has(action) ? 200 : allowed.has('read') ? 403 : 404]);
          }
        }
      }
      // An id that names nothing is the same 404 for everyone, the owner too.
      for (const role of ROLES) {
        expect(await status(role, 'read', { project: crypto.randomUUID() })).toBe(404);
        expect(await status(role, 'read', { conversation: crypto.randomUUID() })).toBe(404);
      }
    });

    live('every person × every action through a link for anyone, one for signed-in people and a revoked one, under each RUNPAD_PUBLIC_SHARES', async () => {
      const forAnyone = (await createOrUpdateShare(db, ids.owner, conversationId, 'anyone'))!;
      const signedInConversation = crypto.randomUUID();
      await db.insert(conversations).values({ id: signedInConversation, ownerId: ids.owner });
      const forSignedIn = (await createOrUpdateShare(db, ids.owner, signedInConversation, 'signed_in'))!;
      const revokedConversation = crypto.randomUUID();
      await db.insert(conversations).values({ id: revokedConversation, ownerId: ids.owner });
      const revoked = (await createOrUpdateShare(db, ids.owner, revokedConversation))!;
      expect(await revokeShare(db, ids.owner, revokedConversation)).toBe(true);
      const status = async (role: Role, action: Action, target: Target) =>
        authorize(db, subject(role), action, target).then(
          () => 200,
          (error: unknown) => (isAppError(error) ? error.status : Promise.reject(error)),
        );
      try {
        for (const links of LINKS) {
          settings.links = links;
          const answers: Record<string, Record<string, boolean>> = {};
          const expected: Record<string, Record<string, boolean>> = {};
          for (const role of ROLES) {
            for (const [audience, share] of [['anyone', forAnyone], ['signed_in', forSignedIn], ['revoked', revoked]] as const) {
              const allowed = audience === 'revoked' ? NONE : expectedAtLink(role, audience, links);
              for (const action of ACTIONS) {
                const key = `${links}: ${role} at a link for ${audience}`;
                (answers[key] ??= {})[action] = await may(db, subject(role), action, { share });
                (expected[key] ??= {})[action] = allowed.has(action);
              }
              // Refused: a 404 as for an id that names nothing, or a 401 to sign in first where the link would open for an account.
              const refusal = audience !== 'revoked' && links !== 'off' && !ACCOUNTS.has(role) && expectedAtLink('stranger', audience, links).has('read') ? 401 : 404;
              expect([links, role, audience, await status(role, 'read', { share })]).toEqual([links, role, audience, allowed.has('read') ? 200 : refusal]);
              expect([links, role, audience, await status(role, 'delete', { share })]).toEqual([links, role, audience, allowed.has('read') ? 404 : refusal]);
            }
          }
          expect(answers).toEqual(expected);
        }
      } finally {
        settings.links = 'on';
      }
      // A link is its own target: holding it grants nothing on the conversation or the project.
      expect(await may(db, subject('stranger'), 'read', { conversation: conversationId })).toBe(false);
      expect(await may(db, null, 'read', { share: 'A'.repeat(22) })).toBe(false);
    });

    live('a removed member no longer continues their own conversation in the project, and still reads it', async () => {
      expect(await may(db, subject('removedMember'), 'continue', { conversation: memberConversation })).toBe(false);
      expect(await may(db, subject('removedMember'), 'read', { conversation: memberConversation })).toBe(true);
      expect(await may(db, subject('removedMember'), 'export', { conversation: memberConversation })).toBe(true);
      // The project's owner is not the reader of a member's conversation in it.
      expect(await may(db, subject('owner'), 'read', { conversation: memberConversation })).toBe(false);
      expect((await conversationGrants(db, ids.owner, memberConversation)).reader).toBe(false);
      // A reader of the removed member's conversation reads it, but not the project's datasets it used: a reader's grant is its author's.
      const theirReader = crypto.randomUUID();
      await ensureUser(db, theirReader);
      await putConversationReader(db, memberConversation, { userId: theirReader }, ids.removedMember);
      expect(await may(db, { userId: theirReader, kind: 'account' }, 'read', { conversation: memberConversation })).toBe(true);
      expect(await may(db, { userId: theirReader, kind: 'account' }, 'read_dataset', { dataset: datasets.used })).toBe(false);
      // The same reader of a conversation whose author still may: the dataset it used, only that one.
      await putConversationReader(db, conversationId, { userId: theirReader }, ids.owner);
      expect(await may(db, { userId: theirReader, kind: 'account' }, 'read_dataset', { dataset: datasets.used })).toBe(true);
      expect(await may(db, { userId: theirReader, kind: 'account' }, 'read_dataset', { dataset: datasets.later })).toBe(false);
      expect(await may(db, { userId: theirReader, kind: 'account' }, 'read_dataset', { dataset: crypto.randomUUID() })).toBe(false);
    });

    live('removing a member ends their access at once, on every instance: nothing holds a membership between requests', async () => {
      // Another instance of Runpad on the same database (a second server's own connections; the embedded database has one instance).
      const other = url ? await createDb({ url }) : null;
      const elsewhere = other?.db ?? db;
      try {
        const id = await putProjectMember(db, projectId, { userId: ids.stranger }, 'use', ids.owner);
        for (const action of ['read', 'run', 'read_dataset'] as const) expect([action, await may(elsewhere, subject('stranger'), action, { project: projectId })]).toEqual([action, true]);
        await removeProjectMember(db, projectId, id);
        for (const action of ['read', 'run', 'read_dataset'] as const) expect([action, await may(elsewhere, subject('stranger'), action, { project: projectId })]).toEqual([action, false]);
        // Through a group: a person taken out of it loses what the group held, as at once.
        const group = await createGroup(db, { name: 'passing', createdBy: null, userIds: [ids.stranger] });
        await putProjectMember(db, projectId, { groupId: group.id }, 'use', ids.owner);
        expect(await may(elsewhere, subject('stranger'), 'read_dataset', { project: projectId })).toBe(true);
        await db.delete(groupMembers).where(eq(groupMembers.groupId, group.id));
        expect(await may(elsewhere, subject('stranger'), 'read_dataset', { project: projectId })).toBe(false);
      } finally {
        await other?.close();
      }
    });

    live('a pending invitee: nothing until an account with their email exists (verified where emails are verified), then the role given', async () => {
      const walk = async (who: Subject) => {
        const answers: string[] = [];
        for (const [kind, target] of targets().slice(0, 2)) for (const action of ACTIONS) if (await may(db, who, action, target)) answers.push(`${kind} ${action}`);
        return answers;
      };
      const asEdit = ACTIONS.filter((action) => EDIT.has(action)).map((action) => `project ${action}`);
      const asUse = ACTIONS.filter((action) => USE.has(action)).map((action) => `project ${action}`);
      const invitee = crypto.randomUUID();
      const who: Subject = { userId: invitee, kind: 'account' };
      await putProjectInvitation(db, projectId, '  Inv\u0069te\u0301e@Example.COM ', 'edit', ids.owner);
      const later = crypto.randomUUID();
      await putProjectInvitation(db, projectId, 'later@example.com', 'use', ids.owner);
      // No account yet: nothing, whoever asks with any id.
      expect(await walk(who)).toEqual([]);
      await ensureUser(db, invitee);
      expect(await walk(who)).toEqual([]);
      // Where this Runpad verifies emails (a mail server), an unverified account with the email gets nothing yet.
      settings.email = { smtpUrl: 'smtp://127.0.0.1:1', from: 'runpad@example.com' };
      try {
        await db.insert(authUsers).values({ id: invitee, name: 'invitee', email: 'invitée@example.com', emailVerified: false });
        expect(await claimInvitationsOf(db, { id: invitee, email: 'INVITÉE@example.com', emailVerified: false })).toBe(0);
        expect(await walk(who)).toEqual([]);
        // Verified: the role given, on the project only (the owner's conversation stays the owner's).
        expect(await claimInvitationsOf(db, { id: invitee, email: 'INVITÉE@example.com', emailVerified: true })).toBe(1);
        expect(await walk(who)).toEqual(asEdit);
        expect(await claimInvitationsOf(db, { id: invitee, email: 'invitée@example.com', emailVerified: true })).toBe(0);
      } finally {
        settings.email = null;
      }
      // Without a mail server no email is verified: the account with the email is the invitee.
      await ensureUser(db, later);
      await db.insert(authUsers).values({ id: later, name: 'later', email: 'Later@Example.com', emailVerified: false });
      expect(await claimInvitationsOf(db, { id: later, email: 'Later@Example.com', emailVerified: false })).toBe(1);
      expect(await walk({ userId: later, kind: 'account' })).toEqual(asUse);
    });

    live('a guest’s own conversation is theirs to do everything with', async () => {
      const own = crypto.randomUUID();
      await db.insert(conversations).values({ id: own, ownerId: ids.guest });
      for (const action of ACTIONS) expect([action, await may(db, subject('guest'), action, { conversation: own })]).toEqual([action, true]);
      for (const action of ACTIONS) expect([action, await may(db, subject('stranger'), action, { conversation: own })]).toEqual([action, false]);
    });

    live('the grants are one account or one group, never both or neither', async () => {
      const bad = [
        { userId: null, groupId: null },
        { userId: ids.user, groupId: (await createGroup(db, { name: 'x', createdBy: null, userIds: [] })).id },
      ];
      const { projectMembers } = await import('@/lib/db/schema.server');
      for (const grantee of bad) {
        await expect(db.insert(projectMembers).values({ id: crypto.randomUUID(), projectId, role: 'use', ...grantee })).rejects.toThrow();
      }
      await expect(db.insert(projectMembers).values({ id: crypto.randomUUID(), projectId, role: 'owner' as 'use', userId: ids.stranger })).rejects.toThrow();
    });
  });
}

for (const backend of [pgliteBackend(), serverBackend()]) {
  describe(`whom a share names, on ${backend.name}`, () => {
    let db: Db;
    const live = openForTests(backend, [], (opened) => (db = opened.db));

    live('an email of any script or quoting names its account, compared without case; a group by its id; anything else is refused in words', async () => {
      const emails = ["o'brien+tag@example.com", 'User.With"Quotes"@example.com', 'читатель@пример.рф', '成员@example.com'];
      const accounts: string[] = [];
      for (const email of emails) {
        const id = crypto.randomUUID();
        accounts.push(id);
        await db.insert(authUsers).values({ id, name: email, email, emailVerified: true });
        await ensureUser(db, id);
      }
      for (const [index, email] of emails.entries()) {
        for (const asked of [email, email.toUpperCase(), `  ${email}\n`]) {
          expect(await resolveGrantee(db, granteeSchema.parse({ email: asked }))).toEqual({ userId: accounts[index] });
        }
      }
      const group = await createGroup(db, { name: 'g', createdBy: null, userIds: accounts });
      expect(await resolveGrantee(db, granteeSchema.parse({ groupId: group.id }))).toEqual({ groupId: group.id });
      await expect(resolveGrantee(db, { groupId: crypto.randomUUID() })).rejects.toMatchObject({ code: 'group:not_found', status: 404 });
      await expect(resolveGrantee(db, { email: 'nobody@example.com' })).rejects.toMatchObject({ code: 'member:no_account', message: expect.stringMatching(/No account here has this email/) });
      for (const bad of [{}, { email: 'no-at-sign' }, { email: 'a@b\u0000c' }, { email: 'x@y', groupId: group.id }, { groupId: 'not-a-uuid' }, { email: `${'a'.repeat(400)}@example.com` }]) {
        expect([bad, granteeSchema.safeParse(bad).success]).toEqual([bad, false]);
      }
    });
  });
}
