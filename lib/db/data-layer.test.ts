import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db, type DbHandle } from './client';
import { getBlobForShare, getBlobForUser, linkBlob, putBlob } from './queries/blobs';
import { createConversation, deleteConversation, getConversation, listConversations, renameConversation, setGeneratedTitle } from './queries/conversations';
import { addFile, listFiles } from './queries/files';
import { listMessages, saveMessages, upsertMessage } from './queries/messages';
import { createOrUpdateShare, forkShare, getShare, revokeShare } from './queries/shares';
import { ensureUser } from './queries/users';
import { pgliteBackend, serverBackend, type TestBackend } from './test-databases';

const backends: TestBackend[] = [pgliteBackend(), serverBackend()];

for (const backend of backends) {
  describe(`data layer on ${backend.name}`, () => {
    let handle: (DbHandle & { url?: string }) | null = null;
    let skipReason: string | null = null;
    let db: Db;
    const alice = crypto.randomUUID();
    const bob = crypto.randomUUID();

    beforeAll(async () => {
      skipReason = await backend.available();
      if (skipReason) {
        console.warn(`[data layer] skipping the ${backend.name} half: ${skipReason}`);
        return;
      }
      handle = await backend.open();
      db = handle.db;
      await ensureUser(db, alice);
      await ensureUser(db, bob);
    });
    afterAll(async () => {
      await handle?.close();
      await backend.cleanup();
    });

    const live = (name: string, body: () => Promise<void>) =>
      it(name, async (context) => {
        if (skipReason) context.skip(skipReason);
        await body();
      });

    live('creates, lists newest first with a cursor, renames and deletes', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const c = await createConversation(db, alice, { title: `c${i}` });
        ids.push(c.id);
        await upsertMessage(db, alice, c.id, { id: `m${i}`, role: 'user', parts: [{ type: 'text', text: `hi ${i}` }] });
      }
      const first = await listConversations(db, alice, { limit: 2 });
      expect(first.items.map((c) => c.title)).toEqual(['c2', 'c1']);
      const second = await listConversations(db, alice, { limit: 2, cursor: first.nextCursor });
      expect(second.items.map((c) => c.title)).toContain('c0');
      expect(await renameConversation(db, alice, ids[0], 'renamed')).toBe(true);
      expect(await setGeneratedTitle(db, alice, ids[0], 'generated')).toBe(false); // edited titles stay
      expect((await getConversation(db, alice, ids[0]))?.title).toBe('renamed');
      expect(await deleteConversation(db, alice, ids[0])).toBe(true);
      expect(await getConversation(db, alice, ids[0])).toBeNull();
      expect(await listMessages(db, ids[0])).toEqual([]);
    });

    live('keeps message order, updates in place, and replaces the list', async () => {
      const c = await createConversation(db, alice);
      await upsertMessage(db, alice, c.id, { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'q' }] });
      await upsertMessage(db, alice, c.id, { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'draft' }] });
      await upsertMessage(db, alice, c.id, { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'final' }] });
      expect((await listMessages(db, c.id)).map((m) => [m.id, (m.parts[0] as { text: string }).text])).toEqual([
        ['u1', 'q'],
        ['a1', 'final'],
      ]);
      await saveMessages(db, alice, c.id, [{ id: 'u1', role: 'user', parts: [] }]);
      expect((await listMessages(db, c.id)).map((m) => m.id)).toEqual(['u1']);
    });

    live('another user gets nothing and changes nothing', async () => {
      const c = await createConversation(db, alice, { title: 'private' });
      await upsertMessage(db, alice, c.id, { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'secret' }] });
      const sha = await putBlob(db, { bytes: new TextEncoder().encode('secret image'), mediaType: 'image/png' });
      await linkBlob(db, c.id, sha);
      expect(await getConversation(db, bob, c.id)).toBeNull();
      expect((await listConversations(db, bob)).items.map((i) => i.id)).not.toContain(c.id);
      expect(await renameConversation(db, bob, c.id, 'pwned')).toBe(false);
      expect(await deleteConversation(db, bob, c.id)).toBe(false);
      expect(await upsertMessage(db, bob, c.id, { id: 'x', role: 'user', parts: [] })).toBe(false);
      expect(await saveMessages(db, bob, c.id, [])).toBe(false);
      expect(await createOrUpdateShare(db, bob, c.id)).toBeNull();
      expect(await revokeShare(db, bob, c.id)).toBe(false);
      expect(await getBlobForUser(db, bob, sha)).toBeNull();
      expect(await addFile(db, bob, c.id, { name: 'x.csv', sha256: sha, mediaType: 'text/csv', size: 1 })).toBeNull();
      expect((await getConversation(db, alice, c.id))?.title).toBe('private');
      expect((await listMessages(db, c.id)).map((m) => m.id)).toEqual(['u1']);
      expect(await getBlobForUser(db, alice, sha)).not.toBeNull();
    });

    live('blobs are content-addressed and deduplicated', async () => {
      const bytes = new TextEncoder().encode('same bytes');
      const a = await putBlob(db, { bytes, mediaType: 'text/plain' });
      const b = await putBlob(db, { bytes, mediaType: 'text/plain' });
      expect(a).toBe(b);
      expect(a).toMatch(/^[0-9a-f]{64}$/);
    });

    live('file names that clash get a suffix', async () => {
      const c = await createConversation(db, alice);
      const sha = await putBlob(db, { bytes: new TextEncoder().encode('a,b'), mediaType: 'text/csv' });
      const file = { name: 'data.csv', sha256: sha, mediaType: 'text/csv', size: 3 };
      expect(await addFile(db, alice, c.id, file)).toBe('data.csv');
      expect(await addFile(db, alice, c.id, file)).toBe('data (1).csv');
      expect(await addFile(db, alice, c.id, file)).toBe('data (2).csv');
      expect((await listFiles(db, c.id)).map((f) => f.name)).toEqual(['data.csv', 'data (1).csv', 'data (2).csv']);
    });

    live('shares snapshot, update, revoke, and fork with messages, files and blobs', async () => {
      const c = await createConversation(db, alice, { title: 'shared' });
      await upsertMessage(db, alice, c.id, { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'one' }] });
      const sha = await putBlob(db, { bytes: new TextEncoder().encode('png'), mediaType: 'image/png' });
      await linkBlob(db, c.id, sha);
      await addFile(db, alice, c.id, { name: 'in.csv', sha256: sha, mediaType: 'text/csv', size: 3 });
      const id = (await createOrUpdateShare(db, alice, c.id))!;
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      await upsertMessage(db, alice, c.id, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'two' }] });
      expect((await getShare(db, id))!.messages.map((m) => m.id)).toEqual(['u1']); // a snapshot
      expect(await createOrUpdateShare(db, alice, c.id)).toBe(id);
      expect((await getShare(db, id))!.messages.map((m) => m.id)).toEqual(['u1', 'u2']);
      expect(await getBlobForShare(db, id, sha)).not.toBeNull();

      const fork = (await forkShare(db, bob, id))!;
      expect(await getConversation(db, bob, fork)).not.toBeNull();
      expect(await getConversation(db, alice, fork)).toBeNull();
      expect((await listMessages(db, fork)).map((m) => m.id)).toEqual(['u1', 'u2']);
      expect((await listFiles(db, fork)).map((f) => f.name)).toEqual(['in.csv']);
      expect(await getBlobForUser(db, bob, sha)).not.toBeNull();

      expect(await revokeShare(db, alice, c.id)).toBe(true);
      expect(await getShare(db, id)).toBeNull();
      expect(await getBlobForShare(db, id, sha)).toBeNull();
      expect(await forkShare(db, bob, id)).toBeNull();
    });

    live('several instances starting at once migrate safely', async () => {
      if (!handle?.url) return; // PGlite is one process by design
      const opened = await Promise.all([createDb({ url: handle.url }), createDb({ url: handle.url }), createDb({ url: handle.url })]);
      for (const other of opened) {
        expect(await getConversation(other.db, alice, crypto.randomUUID())).toBeNull();
        await other.close();
      }
    });
  });
}
