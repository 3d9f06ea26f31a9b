import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsBlobStore } from '@/lib/blobs/fs-blob-store.server';
import type { Db, DbHandle } from '../client.server';
import { authUsers, blobs, conversations, shares, users } from '../schema.server';
import { pgliteBackend, serverBackend, type TestBackend } from '../../testing/databases';
import { deleteBlobIfUnreferenced, putBlob } from './blobs.server';
import { createConversation, listConversations } from './conversations.server';
import { deletePersonData } from './delete-account.server';
import { addFile } from '@/lib/files/file-queries.server';
import { mergeGuestIntoAccount } from './merge-guest.server';
import type { StorageQuota } from './quota.server';
import { createOrUpdateShare } from './shares.server';
import { ensureUser, getPerson } from './users.server';

const backends: TestBackend[] = [pgliteBackend(), serverBackend()];
const store = createFsBlobStore(fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-merge-')));
const quota: StorageQuota = { conversationBytes: 1_000_000, guestBytes: 2_000_000 };
const bytes = (text: string) => new TextEncoder().encode(text);

/** A guest with two conversations, a file in one, and a share of it. */
async function guestWithWork(db: Db, tag: string) {
  const guest = crypto.randomUUID();
  await ensureUser(db, guest);
  const first = await createConversation(db, guest, { title: `${tag} one` });
  await createConversation(db, guest, { title: `${tag} two` });
  const sha = await putBlob(db, store, bytes(`a,b\n1,${tag}\n`));
  await addFile(db, guest, first.id, { name: 'data.csv', sha256: sha, mediaType: 'text/csv', size: 7 }, quota);
  const share = await createOrUpdateShare(db, guest, first.id);
  return { guest, first, sha, share: share! };
}

async function newAccount(db: Db) {
  const id = crypto.randomUUID();
  await db.insert(authUsers).values({ id, name: 'A', email: `${id}@example.com`, emailVerified: true });
  await ensureUser(db, id);
  return id;
}

for (const backend of backends) {
  describe(`guest merge and account deletion on ${backend.name}`, () => {
    let handle: (DbHandle & { url?: string }) | null = null;
    let skipReason: string | null = null;
    let db: Db;

    beforeAll(async () => {
      skipReason = await backend.available();
      if (skipReason) return void console.warn(`[merge] skipping the ${backend.name} half: ${skipReason}`);
      handle = await backend.open();
      db = handle.db;
    });
    afterAll(async () => {
      await handle?.close();
      await backend.cleanup();
    });

    it('moves conversations, files, shares and counters into an existing account, once', async (context) => {
      if (skipReason) return context.skip(skipReason);
      const account = await newAccount(db);
      await createConversation(db, account, { title: 'already there' });
      const { guest, first, share } = await guestWithWork(db, 'g');
      const guestBytes = (await getPerson(db, guest))!.storedBytes;
      expect(guestBytes).toBeGreaterThan(0);

      expect(await mergeGuestIntoAccount(db, guest, account)).toEqual({ conversations: 2, shares: 1, storedBytes: guestBytes });
      const titles = (await listConversations(db, account)).items.map((c) => c.title).sort();
      expect(titles).toEqual(['already there', 'g one', 'g two']);
      const [movedShare] = await db.select().from(shares).where(eq(shares.id, share));
      expect(movedShare.ownerId).toBe(account);
      expect((await getPerson(db, account))!.storedBytes).toBe(guestBytes);
      expect(await getPerson(db, guest)).toBeNull();
      const [conversation] = await db.select().from(conversations).where(eq(conversations.id, first.id));
      expect(conversation.ownerId).toBe(account);

      // Again (a retried callback, a second tab): nothing moves, nothing doubles.
      expect(await mergeGuestIntoAccount(db, guest, account)).toBeNull();
      expect((await listConversations(db, account)).items).toHaveLength(3);
      expect((await getPerson(db, account))!.storedBytes).toBe(guestBytes);
    });

    it('lets exactly one of several concurrent sign-ins with the same guest move its work', async (context) => {
      if (skipReason) return context.skip(skipReason);
      const account = await newAccount(db);
      const { guest } = await guestWithWork(db, 'c');
      const guestBytes = (await getPerson(db, guest))!.storedBytes;
      const results = await Promise.all(Array.from({ length: 6 }, () => mergeGuestIntoAccount(db, guest, account)));
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      expect((await listConversations(db, account)).items).toHaveLength(2);
      expect((await getPerson(db, account))!.storedBytes).toBe(guestBytes);
    });

    it('merges two guests into one account at the same time without losing either', async (context) => {
      if (skipReason) return context.skip(skipReason);
      const account = await newAccount(db);
      const [a, b] = [await guestWithWork(db, 'x'), await guestWithWork(db, 'y')];
      await Promise.all([mergeGuestIntoAccount(db, a.guest, account), mergeGuestIntoAccount(db, b.guest, account)]);
      expect((await listConversations(db, account)).items).toHaveLength(4);
    });

    it('never merges an account away as if it were a guest', async (context) => {
      if (skipReason) return context.skip(skipReason);
      const [one, two] = [await newAccount(db), await newAccount(db)];
      await createConversation(db, one, { title: 'mine' });
      expect(await mergeGuestIntoAccount(db, one, two)).toBeNull();
      expect((await listConversations(db, one)).items).toHaveLength(1);
    });

    it('deletes an account with its rows and the blobs nothing else references', async (context) => {
      if (skipReason) return context.skip(skipReason);
      const account = await newAccount(db);
      const { guest, sha: ownSha } = await guestWithWork(db, 'del-only');
      await mergeGuestIntoAccount(db, guest, account);
      // A blob someone else also references must stay.
      const other = await guestWithWork(db, 'shared');
      const mine = await createConversation(db, account, { title: 'has shared file' });
      await addFile(db, account, mine.id, { name: 'same.csv', sha256: other.sha, mediaType: 'text/csv', size: 7 }, quota);

      const referenced = await deletePersonData(db, account);
      expect(referenced.sort()).toEqual([ownSha, other.sha].sort());
      for (const sha of referenced) await deleteBlobIfUnreferenced(db, store, sha);

      expect(await getPerson(db, account)).toBeNull();
      expect(await db.select().from(authUsers).where(eq(authUsers.id, account))).toHaveLength(0);
      expect(await db.select().from(conversations).where(eq(conversations.ownerId, account))).toHaveLength(0);
      expect(await db.select().from(shares).where(eq(shares.ownerId, account))).toHaveLength(0);
      expect(await db.select().from(blobs).where(eq(blobs.sha256, ownSha))).toHaveLength(0);
      expect(await store.stat(ownSha)).toBeNull();
      expect(await db.select().from(blobs).where(eq(blobs.sha256, other.sha))).toHaveLength(1);
      expect(await store.stat(other.sha)).not.toBeNull();
      expect(await db.select().from(users).where(eq(users.id, other.guest))).toHaveLength(1);
    });
  });
}
