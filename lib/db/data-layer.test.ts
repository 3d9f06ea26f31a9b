import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { createFsBlobStore } from '@/lib/blobs/fs-blob-store.server';
import { createDb, type Db } from './client.server';
import { getBlobForShare, getBlobForUser, linkBlob, putBlob, putConversationBlob } from './queries/blobs.server';
import { createConversation, deleteConversation, getConversation, lastUsedModelId, listConversations, renameConversation, setConversationModel, setGeneratedTitle } from './queries/conversations.server';
import { addDeviceFile, addFile, listFiles, removeFile } from '@/lib/files/file-queries.server';
import { listMessages, saveMessages, upsertMessage } from './queries/messages.server';
import { QuotaExceededError, type StorageQuota } from './queries/quota.server';
import { createOrUpdateShare, forkShare, getShare, listShareFiles, revokeShare } from './queries/shares.server';
import { ensureUser } from './queries/users.server';
import { openForTests, pgliteBackend, serverBackend, type TestBackend } from '../testing/databases';

const backends: TestBackend[] = [pgliteBackend(), serverBackend()];
const store = createFsBlobStore(fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-blobs-')));
const quota: StorageQuota = { conversationBytes: 1_000_000, guestBytes: 2_000_000 };
const bytesOf = (text: string) => new TextEncoder().encode(text);
const put = (db: Db, text: string) => putBlob(db, store, bytesOf(text));
const ref = (sha256: string, mediaType: string, size: number) => ({ sha256, mediaType, size });

for (const backend of backends) {
  describe(`data layer on ${backend.name}`, () => {
    let db: Db;
    let url: string | undefined;
    const alice = crypto.randomUUID();
    const bob = crypto.randomUUID();
    const live = openForTests(backend, [alice, bob], (opened) => ({ db, url } = opened));

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

    live('names an untitled conversation in the list by its first question, as its header does', async () => {
      const asked = await createConversation(db, alice);
      await upsertMessage(db, alice, asked.id, { id: 'q1', role: 'user', parts: [{ type: 'file', url: 'blob:x' }, { type: 'text', text: 'Monthly   revenue for 2024,\nby region' }] });
      await upsertMessage(db, alice, asked.id, { id: 'q2', role: 'user', parts: [{ type: 'text', text: 'a later question' }] });
      const empty = await createConversation(db, alice);
      const listed = (await listConversations(db, alice, { limit: 100 })).items;
      expect(listed.find((c) => c.id === asked.id)).toMatchObject({ title: 'Monthly revenue for 2024, by region', titled: false });
      expect(listed.find((c) => c.id === empty.id)).toMatchObject({ title: 'New conversation', titled: false });
      expect(await setGeneratedTitle(db, alice, asked.id, 'Revenue by region')).toBe(true);
      const titled = (await listConversations(db, alice, { limit: 100 })).items.find((c) => c.id === asked.id);
      expect(titled).toMatchObject({ title: 'Revenue by region', titled: true });
    });

    live('a conversation whose first answer failed is not listed unless it holds something: an answer, a file or a name', async () => {
      const dave = crypto.randomUUID();
      await ensureUser(db, dave);
      const ask = async (text: string) => {
        const c = await createConversation(db, dave);
        await upsertMessage(db, dave, c.id, { id: `q-${c.id}`, role: 'user', parts: [{ type: 'text', text }] });
        return c.id;
      };
      const failed = await ask('refused by the provider');
      const answered = await ask('answered');
      await upsertMessage(db, dave, answered, { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'an answer' }] });
      const withFile = await ask('a file came with it');
      await addDeviceFile(db, dave, withFile, { name: 'kept.csv', sha256: 'c'.repeat(64), mediaType: 'text/csv', size: 10 });
      const named = await ask('renamed by the person');
      await renameConversation(db, dave, named, 'Mine');
      const pending = await ask('its first answer is still coming');
      const answering = async (ids: readonly string[]) => new Set(ids.filter((id) => id === pending));
      const listed = (await listConversations(db, dave, { limit: 100, answering })).items.map((c) => c.id);
      expect(listed.sort()).toEqual([answered, withFile, named, pending].sort());
      expect(listed).not.toContain(failed);
      // A page of the list counts what it lists: the hidden one takes no place and the cursor goes on past it.
      const first = await listConversations(db, dave, { limit: 2, answering });
      const second = await listConversations(db, dave, { limit: 100, cursor: first.nextCursor, answering });
      expect([...first.items, ...second.items].map((c) => c.id).sort()).toEqual([answered, withFile, named, pending].sort());
      // The person's archive holds every conversation.
      expect((await listConversations(db, dave, { limit: 100 })).items.map((c) => c.id)).toContain(failed);
    });

    live('keeps message order, updates in place, and replaces the list', async () => {
      const c = await createConversation(db, alice);
      await upsertMessage(db, alice, c.id, { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'q' }] });
      await upsertMessage(db, alice, c.id, { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'draft' }] });
      const before = (await getConversation(db, alice, c.id))!.updatedAt;
      await upsertMessage(db, alice, c.id, { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'final' }], metadata: { model: { id: 'm', label: 'M' } } });
      expect((await listMessages(db, c.id)).map((m) => [m.id, (m.parts[0] as { text: string }).text])).toEqual([
        ['u1', 'q'],
        ['a1', 'final'],
      ]);
      // The same write keeps the message's metadata and marks the conversation updated.
      expect((await listMessages(db, c.id))[1].metadata).toEqual({ model: { id: 'm', label: 'M' } });
      expect((await getConversation(db, alice, c.id))!.updatedAt.getTime()).toBeGreaterThan(before.getTime());
      await saveMessages(db, alice, c.id, [{ id: 'u1', role: 'user', parts: [] }]);
      expect((await listMessages(db, c.id)).map((m) => m.id)).toEqual(['u1']);
    });

    live('another user gets nothing and changes nothing', async () => {
      const c = await createConversation(db, alice, { title: 'private' });
      await upsertMessage(db, alice, c.id, { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'secret' }] });
      const sha = await put(db, 'secret image');
      await linkBlob(db, alice, c.id, ref(sha, 'image/png', 12), quota);
      expect(await getConversation(db, bob, c.id)).toBeNull();
      expect((await listConversations(db, bob)).items.map((i) => i.id)).not.toContain(c.id);
      expect(await renameConversation(db, bob, c.id, 'pwned')).toBe(false);
      expect(await deleteConversation(db, bob, c.id)).toBe(false);
      expect(await upsertMessage(db, bob, c.id, { id: 'x', role: 'user', parts: [] })).toBe(false);
      expect(await saveMessages(db, bob, c.id, [])).toBe(false);
      expect(await createOrUpdateShare(db, bob, c.id)).toBeNull();
      expect(await revokeShare(db, bob, c.id)).toBe(false);
      expect(await getBlobForUser(db, bob, sha)).toBeNull();
      expect(await addFile(db, bob, c.id, { name: 'x.csv', sha256: sha, mediaType: 'text/csv', size: 1 }, quota)).toBeNull();
      expect(await addDeviceFile(db, bob, c.id, { name: 'y.csv', sha256: sha, mediaType: 'text/csv', size: 1 })).toBeNull();
      expect(await removeFile(db, bob, c.id, 'x.csv')).toBeUndefined();
      expect((await getConversation(db, alice, c.id))?.title).toBe('private');
      expect((await listMessages(db, c.id)).map((m) => m.id)).toEqual(['u1']);
      expect(await getBlobForUser(db, alice, sha)).not.toBeNull();
    });

    live('blobs are content-addressed and deduplicated', async () => {
      const a = await put(db, 'same bytes');
      const b = await put(db, 'same bytes');
      expect(a).toBe(b);
      expect(a).toMatch(/^[0-9a-f]{64}$/);
    });

    live('a conversation keeps its model; a new one starts with the model of the most recently active', async () => {
      const carolId = crypto.randomUUID();
      await ensureUser(db, carolId);
      expect(await lastUsedModelId(db, carolId)).toBeNull();
      const older = await createConversation(db, carolId, { modelId: 'gpt' });
      const newer = await createConversation(db, carolId);
      expect(await lastUsedModelId(db, carolId)).toBe('gpt');
      await setConversationModel(db, carolId, newer.id, 'gemini');
      await upsertMessage(db, carolId, newer.id, { id: 'q', role: 'user', parts: [{ type: 'text', text: 'a later question' }] });
      expect(await lastUsedModelId(db, carolId)).toBe('gemini');
      await setConversationModel(db, alice, older.id, 'forged'); // not alice's: nothing changes
      expect((await getConversation(db, carolId, older.id))?.modelId).toBe('gpt');
    });

    live('file names that clash get a suffix', async () => {
      const c = await createConversation(db, alice);
      const sha = await put(db, 'a,b');
      const file = { name: 'data.csv', sha256: sha, mediaType: 'text/csv', size: 3 };
      expect(await addFile(db, alice, c.id, file, quota)).toBe('data.csv');
      expect(await addFile(db, alice, c.id, file, quota)).toBe('data (1).csv');
      expect(await addFile(db, alice, c.id, file, quota)).toBe('data (2).csv');
      expect((await listFiles(db, c.id)).map((f) => f.name)).toEqual(['data.csv', 'data (1).csv', 'data (2).csv']);
    });

    live('a file kept on the device is recorded without bytes or storage, shared as such, and forked without a blob', async () => {
      const c = await createConversation(db, alice);
      const uploaded = await put(db, 'x,y\n1,2');
      await addFile(db, alice, c.id, { name: 'small.csv', sha256: uploaded, mediaType: 'text/csv', size: 7 }, quota);
      // Larger than a 32-bit size and than the quota: it takes no storage, so nothing refuses it.
      const kept = { name: 'small.csv', sha256: 'b'.repeat(64), mediaType: 'text/csv', size: 5_000_000_000 };
      expect(await addDeviceFile(db, alice, c.id, kept)).toBe('small (1).csv');
      expect(await listFiles(db, c.id)).toEqual([
        { name: 'small.csv', sha256: uploaded, mediaType: 'text/csv', size: 7, location: 'account', salts: [] },
        { name: 'small (1).csv', sha256: 'b'.repeat(64), mediaType: 'text/csv', size: 5_000_000_000, location: 'device', salts: [] },
      ]);
      // A link grants no bytes for it (the server has none) and tells the reader where it is.
      const shareId = (await createOrUpdateShare(db, alice, c.id))!;
      expect(await getBlobForShare(db, shareId, 'b'.repeat(64))).toBeNull();
      expect((await listShareFiles(db, shareId)).map((f) => [f.name, f.location])).toEqual([['small.csv', 'account'], ['small (1).csv', 'device']]);
      const fork = (await forkShare(db, bob, shareId, quota))!;
      expect((await listFiles(db, fork)).map((f) => [f.name, f.location, f.size])).toEqual([['small.csv', 'account', 7], ['small (1).csv', 'device', 5_000_000_000]]);
      // Removing it frees no blob; removing the uploaded one returns the blob it held.
      expect(await removeFile(db, alice, c.id, 'small (1).csv')).toBeNull();
      expect(await removeFile(db, alice, c.id, 'small.csv')).toBe(uploaded);
    });

    live('shares snapshot, update, revoke, and fork with messages, files and blobs', async () => {
      const c = await createConversation(db, alice, { title: 'shared' });
      await upsertMessage(db, alice, c.id, { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'one' }] });
      const sha = await put(db, 'png');
      await upsertMessage(db, alice, c.id, { id: 'a1', role: 'assistant', parts: [{ type: 'tool-python', output: { image: `blob:${sha}` } }], metadata: { model: { id: 'claude', label: 'Claude' } } });
      await linkBlob(db, alice, c.id, ref(sha, 'image/png', 3), quota);
      await addFile(db, alice, c.id, { name: 'in.csv', sha256: sha, mediaType: 'text/csv', size: 3 }, quota);
      const id = (await createOrUpdateShare(db, alice, c.id))!;
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      await upsertMessage(db, alice, c.id, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'two' }] });
      expect((await getShare(db, id))!.messages.map((m) => m.id)).toEqual(['u1', 'a1']); // a snapshot
      expect(await createOrUpdateShare(db, alice, c.id)).toBe(id);
      expect((await getShare(db, id))!.messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2']);
      expect(await getBlobForShare(db, id, sha)).not.toBeNull();

      const fork = (await forkShare(db, bob, id, quota))!;
      expect(await getConversation(db, bob, fork)).not.toBeNull();
      expect(await getConversation(db, alice, fork)).toBeNull();
      // The fork keeps the model of the snapshot's last answer.
      expect((await getConversation(db, bob, fork))?.modelId).toBe('claude');
      expect((await listMessages(db, fork)).map((m) => m.id)).toEqual(['u1', 'a1', 'u2']);
      expect((await listFiles(db, fork)).map((f) => f.name)).toEqual(['in.csv']);
      expect(await getBlobForUser(db, bob, sha)).not.toBeNull();

      expect(await revokeShare(db, alice, c.id)).toBe(true);
      expect(await getShare(db, id)).toBeNull();
      expect(await getBlobForShare(db, id, sha)).toBeNull();
      expect(await forkShare(db, bob, id, quota)).toBeNull();
    });

    live('a share grants what its snapshot held, not what was added later or deleted since', async () => {
      const c = await createConversation(db, alice, { title: 'shared early' });
      const figure = await put(db, `figure ${c.id}`);
      await upsertMessage(db, alice, c.id, { id: 'a1', role: 'assistant', parts: [{ type: 'tool-python', output: { png: `blob:${figure}` } }] });
      await linkBlob(db, alice, c.id, ref(figure, 'image/png', 10), quota);
      const dataset = await put(db, `dataset ${c.id}`);
      await addFile(db, alice, c.id, { name: 'public.csv', sha256: dataset, mediaType: 'text/csv', size: 10 }, quota);
      const share = (await createOrUpdateShare(db, alice, c.id))!;

      // Added after sharing: a secret file and a new figure.
      const secret = await put(db, `secret ${c.id}`);
      await addFile(db, alice, c.id, { name: 'secret.csv', sha256: secret, mediaType: 'text/csv', size: 10 }, quota);
      const later = await put(db, `later figure ${c.id}`);
      await upsertMessage(db, alice, c.id, { id: 'a2', role: 'assistant', parts: [{ type: 'tool-python', output: { png: `blob:${later}` } }] });
      await linkBlob(db, alice, c.id, ref(later, 'image/png', 10), quota);

      expect(await getBlobForShare(db, share, figure)).not.toBeNull();
      expect(await getBlobForShare(db, share, dataset)).not.toBeNull();
      expect(await getBlobForShare(db, share, secret)).toBeNull();
      expect(await getBlobForShare(db, share, later)).toBeNull();
      const fork = (await forkShare(db, bob, share, quota))!;
      expect((await listFiles(db, fork)).map((f) => f.name)).toEqual(['public.csv']);
      expect(await getBlobForUser(db, bob, secret)).toBeNull();
      expect(await getBlobForUser(db, bob, later)).toBeNull();

      // Deleting a file takes it out of every link made earlier.
      expect(await removeFile(db, alice, c.id, 'public.csv')).toBe(dataset);
      expect(await getBlobForShare(db, share, dataset)).toBeNull();
      expect(await getBlobForUser(db, alice, dataset)).toBeNull();
    });

    live('a fork of answers written seeing only the shape of the data sends only that shape too', async () => {
      const c = await createConversation(db, alice, { title: 'schema only' });
      await upsertMessage(db, alice, c.id, { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'q' }] });
      await upsertMessage(db, alice, c.id, { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'a' }], metadata: { modelSees: 'schema' } });
      const fork = (await forkShare(db, bob, (await createOrUpdateShare(db, alice, c.id))!, quota))!;
      expect((await getConversation(db, bob, fork))?.modelSees).toBe('schema');
      const open = await createConversation(db, alice, { title: 'outputs' });
      await upsertMessage(db, alice, open.id, { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'a' }] });
      const openFork = (await forkShare(db, bob, (await createOrUpdateShare(db, alice, open.id))!, quota))!;
      expect((await getConversation(db, bob, openFork))?.modelSees).toBeNull();
    });

    live('the media type belongs to each reference, not to the bytes', async () => {
      const html = `<html><script>alert(1)</script></html> ${crypto.randomUUID()}`;
      const mallory = crypto.randomUUID();
      await ensureUser(db, mallory);
      const trap = await createConversation(db, mallory);
      const sha = await putConversationBlob(db, store, { userId: mallory, conversationId: trap.id, quota }, { bytes: bytesOf(html), mediaType: 'text/html' });
      const c = await createConversation(db, alice);
      await addFile(db, alice, c.id, { name: 'data.csv', sha256: sha, mediaType: 'text/csv', size: bytesOf(html).byteLength }, quota);
      expect((await getBlobForUser(db, alice, sha))?.mediaType).toBe('text/csv');
      expect((await getBlobForUser(db, mallory, sha))?.mediaType).toBe('text/html');
    });

    live('storage quotas hold against parallel stores, and deleting gives bytes back', async () => {
      const small: StorageQuota = { conversationBytes: 100, guestBytes: 125 };
      const carol = crypto.randomUUID();
      await ensureUser(db, carol);
      const c = await createConversation(db, carol);
      const shas = await Promise.all(Array.from({ length: 6 }, (_, i) => put(db, `${'x'.repeat(30)}${i}${c.id}`)));
      const results = await Promise.allSettled(shas.map((sha) => linkBlob(db, carol, c.id, ref(sha, 'text/plain', 30), small)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof QuotaExceededError)).toHaveLength(3);
      const other = await createConversation(db, carol);
      await linkBlob(db, carol, other.id, ref(shas[0], 'text/plain', 30), small);
      await expect(linkBlob(db, carol, other.id, ref(shas[1], 'text/plain', 30), small)).rejects.toMatchObject({ scope: 'guest' });
      expect(await deleteConversation(db, carol, c.id)).toBe(true);
      await linkBlob(db, carol, other.id, ref(shas[1], 'text/plain', 30), small);
    });

    live('several instances starting at once migrate safely', async () => {
      if (!url) return; // PGlite is one process by design
      const opened = await Promise.all([createDb({ url }), createDb({ url }), createDb({ url })]);
      for (const other of opened) {
        expect(await getConversation(other.db, alice, crypto.randomUUID())).toBeNull();
        await other.close();
      }
    });
  });
}
