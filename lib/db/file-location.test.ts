import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { createFsBlobStore } from '@/lib/blobs/fs-blob-store.server';
import type { Db } from './client.server';
import { getBlobForUser, linkBlob, putBlob } from './queries/blobs.server';
import { createConversation } from './queries/conversations.server';
import { addAccountFile, addDeviceFile, addFile, listAccountFiles, listDownloadFiles, listFiles, setFileLocation } from '@/lib/files/file-queries.server';
import { QuotaExceededError, type StorageQuota } from './queries/quota.server';
import { openForTests, pgliteBackend, serverBackend, type TestBackend } from '../testing/databases';
import { isExpectedFile } from '../security/salted-hash';
import { createOrUpdateShare, forkShare, listShareFiles } from './queries/shares.server';

/** Moving a file between the device and the account, and the account's library, on both database backends. */
const backends: TestBackend[] = [pgliteBackend(), serverBackend()];
const store = createFsBlobStore(fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-blobs-')));
const quota: StorageQuota = { conversationBytes: 1_000_000, guestBytes: 2_000_000 };
const put = (db: Db, text: string) => putBlob(db, store, new TextEncoder().encode(text));

for (const backend of backends) {
  describe(`file locations on ${backend.name}`, () => {
    let db: Db;
    const alice = crypto.randomUUID();
    const bob = crypto.randomUUID();
    const live = openForTests(backend, [alice, bob], (opened) => ({ db } = opened));

    live('a kept file moves to the account once its bytes are uploaded, and back to the device, releasing the blob', async () => {
      const c = await createConversation(db, alice);
      const sha256 = await put(db, 'a,b\n1,2\n');
      expect(await addDeviceFile(db, alice, c.id, { name: 'kept.csv', sha256, mediaType: 'text/csv', size: 8 })).toBe('kept.csv');
      // Not uploaded yet: refused, nothing changes.
      expect(await setFileLocation(db, alice, c.id, 'kept.csv', 'account', quota)).toEqual({ kind: 'not-uploaded' });
      // Uploaded (here: the blob linked to another of Alice's conversations).
      const other = await createConversation(db, alice);
      await linkBlob(db, alice, other.id, { sha256, mediaType: 'text/csv', size: 8 }, quota);
      const moved = await setFileLocation(db, alice, c.id, 'kept.csv', 'account', quota);
      expect(moved).toMatchObject({ kind: 'changed', file: { name: 'kept.csv', location: 'account' } });
      expect(await listFiles(db, c.id)).toEqual([expect.objectContaining({ name: 'kept.csv', location: 'account', sha256 })]);
      const back = await setFileLocation(db, alice, c.id, 'kept.csv', 'device', quota);
      expect(back).toEqual({ kind: 'changed', file: expect.objectContaining({ location: 'device' }), released: sha256 });
      expect(await listFiles(db, c.id)).toEqual([expect.objectContaining({ name: 'kept.csv', location: 'device' })]);
      // Someone else's conversation or file: not found.
      expect(await setFileLocation(db, bob, c.id, 'kept.csv', 'account', quota)).toEqual({ kind: 'not-found' });
      expect(await setFileLocation(db, alice, c.id, 'absent.csv', 'device', quota)).toEqual({ kind: 'not-found' });
    });

    live('moving to the account counts against the quota and changes nothing when it is reached', async () => {
      const c = await createConversation(db, alice);
      const sha256 = await put(db, 'x'.repeat(600));
      await addDeviceFile(db, alice, c.id, { name: 'big.csv', sha256, mediaType: 'text/csv', size: 600 });
      const other = await createConversation(db, alice);
      await linkBlob(db, alice, other.id, { sha256, mediaType: 'text/csv', size: 600 }, quota);
      await expect(setFileLocation(db, alice, c.id, 'big.csv', 'account', { conversationBytes: 500, guestBytes: 2_000_000 })).rejects.toBeInstanceOf(QuotaExceededError);
      expect(await listFiles(db, c.id)).toEqual([expect.objectContaining({ location: 'device' })]);
    });

    live("the library lists a person's account files once per SHA-256, and adds one to another conversation without its bytes", async () => {
      const carol = crypto.randomUUID();
      const { ensureUser } = await import('./queries/users.server');
      await ensureUser(db, carol);
      const first = await createConversation(db, carol);
      const second = await createConversation(db, carol);
      const sha256 = await put(db, 'region,units\nnorth,1\n');
      await addFile(db, carol, first.id, { name: 'sales.csv', sha256, mediaType: 'text/csv', size: 21 }, quota);
      await addFile(db, carol, second.id, { name: 'sales again.csv', sha256, mediaType: 'text/csv', size: 21 }, quota);
      await addDeviceFile(db, carol, second.id, { name: 'kept.csv', sha256: 'f'.repeat(64), mediaType: 'text/csv', size: 5 });
      const listed = await listAccountFiles(db, carol);
      expect(listed).toEqual([expect.objectContaining({ sha256, name: 'sales again.csv', size: 21 })]);
      expect(await listAccountFiles(db, bob)).toEqual([]);

      const third = await createConversation(db, carol);
      expect(await addAccountFile(db, carol, third.id, { sha256, name: 'sales.csv' }, quota)).toEqual({ name: 'sales.csv', sha256, mediaType: 'text/csv', size: 21, location: 'account', salts: [] });
      expect(await listFiles(db, third.id)).toEqual([expect.objectContaining({ name: 'sales.csv', location: 'account' })]);
      // Bob does not hold that blob: nothing is added to his conversation.
      const bobs = await createConversation(db, bob);
      expect(await getBlobForUser(db, bob, sha256)).toBeNull();
      expect(await addAccountFile(db, bob, bobs.id, { sha256, name: 'stolen.csv' }, quota)).toBeNull();
      expect(await listFiles(db, bobs.id)).toEqual([]);
    });

    live('a download reads only bytes its conversation holds: a hash claimed for a device file reads nothing, another person reads nothing', async () => {
      const mine = await createConversation(db, alice);
      const sha256 = await put(db, `secret,${crypto.randomUUID()}\n`);
      await addFile(db, alice, mine.id, { name: 'secret.csv', sha256, mediaType: 'text/csv', size: 44 }, quota);
      await addDeviceFile(db, alice, mine.id, { name: 'kept.csv', sha256, mediaType: 'text/csv', size: 44 });
      expect(await listDownloadFiles(db, alice, mine.id)).toEqual([
        { name: 'secret.csv', location: 'account', blob: sha256 },
        { name: 'kept.csv', location: 'device', blob: null },
      ]);
      // Bob names Alice's hash for a file on his device: his download reads nothing, and hers is not his.
      const his = await createConversation(db, bob);
      await addDeviceFile(db, bob, his.id, { name: 'secret.csv', sha256, mediaType: 'text/csv', size: 44 });
      expect(await listDownloadFiles(db, bob, his.id)).toEqual([{ name: 'secret.csv', location: 'device', blob: null }]);
      expect(await listDownloadFiles(db, bob, mine.id)).toEqual([]);
    });

    live('a share shows a kept file’s hash salted for that share; a fork keeps the salted value with its salt, and a dropped file is still checked', async () => {
      const sha256 = 'c'.repeat(64);
      const shown = async () => {
        const c = await createConversation(db, alice);
        await addDeviceFile(db, alice, c.id, { name: 'kept.csv', sha256, mediaType: 'text/csv', size: 3 });
        const shareId = (await createOrUpdateShare(db, alice, c.id))!;
        return { shareId, file: (await listShareFiles(db, shareId))[0] };
      };
      const [one, two] = [await shown(), await shown()];
      expect([one.file.sha256, two.file.sha256]).not.toContain(sha256);
      expect(one.file.sha256).not.toBe(two.file.sha256);
      expect(one.file.salts).toHaveLength(1);
      expect(await isExpectedFile(sha256, one.file)).toBe(true);
      const fork = (await forkShare(db, bob, one.shareId, quota))!;
      expect(await listFiles(db, fork)).toEqual([expect.objectContaining({ name: 'kept.csv', location: 'device', sha256: one.file.sha256, salts: one.file.salts })]);
      expect(await isExpectedFile('d'.repeat(64), one.file)).toBe(false);
    });
  });
}
