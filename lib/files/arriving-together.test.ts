import { describe, expect } from 'vitest';
import type { Db } from '@/lib/db/client.server';
import { getConversation } from '@/lib/db/queries/conversations.server';
import { openForTests, pgliteBackend, serverBackend } from '@/lib/testing/databases';
import { ownOrNewConversation } from './store-upload.server';
import { AppError } from '@/lib/errors.server';
import { chatRequestSchema } from '@/lib/chat/request-schema.server';
import { loadConversationForChat, saveIncomingMessage } from '@/lib/chat/chat-store.server';
import { addFile, listFiles } from './file-queries.server';
import { listMessages } from '@/lib/db/queries/messages.server';
import { createOrUpdateShare, getShare, revokeShare } from '@/lib/db/queries/shares.server';
import { shares } from '@/lib/db/schema.server';
import { and, eq, isNull } from 'drizzle-orm';
import { putBlob } from '@/lib/db/queries/blobs.server';
import { createFsBlobStore } from '@/lib/blobs/fs-blob-store.server';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';


/** The first message of a new chat, as the page sends it. */
const firstMessage = (id: string) => chatRequestSchema.parse({ id, message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text: 'hello' }] } });
/** What POST /api/chat does with a first message: the conversation is made with it, if it does not exist. */
async function sendFirstMessage(db: Db, userId: string, id: string): Promise<void> {
  const request = firstMessage(id);
  const loaded = await loadConversationForChat(db, userId, request);
  await saveIncomingMessage(db, userId, id, request.message!, undefined, loaded.creates ? { modelId: 'fake-model' } : undefined);
}
const outcome = (work: Promise<unknown>) => work.then(() => 'ok', (error: unknown) => (error instanceof AppError ? error.code : String(error)));

const quota = { conversationBytes: 1_000_000, guestBytes: 2_000_000 };
const store = createFsBlobStore(fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-arriving-')));

/**
 * Requests that arrive together, as a user's do: two files dropped at once, a file and the first
 * message. On a Postgres server they really run at once (PGlite interleaves them between queries).
 *
 * A new chat's conversation is made by whichever request comes first: a dropped file's upload or
 * the first message. They arrive together (two files dropped at once; a file and the message), and
 * on a Postgres server they really run at once: each must find the conversation its own, never
 * "Not found." (the first turn behaves like every later one).
 */
for (const backend of [pgliteBackend(), serverBackend()]) {
  describe(`a new conversation made by requests that arrive together, on ${backend.name}`, () => {
    let db: Db;
    const alice = crypto.randomUUID();
    const bob = crypto.randomUUID();
    const live = openForTests(backend, [alice, bob], (opened) => (db = opened.db));

    live('uploads and the first message at once all get the new conversation, once, as the sender’s', async () => {
      for (let round = 0; round < 5; round += 1) {
        const id = crypto.randomUUID();
        const results = await Promise.all([
          outcome(ownOrNewConversation(db, alice, id)),
          outcome(ownOrNewConversation(db, alice, id)),
          outcome(sendFirstMessage(db, alice, id)),
          outcome(ownOrNewConversation(db, alice, id)),
        ]);
        expect(results).toEqual(['ok', 'ok', 'ok', 'ok']);
        expect((await getConversation(db, alice, id))?.ownerId).toBe(alice);
        expect(await listMessages(db, id)).toHaveLength(1);
      }
    });

    live('files of one name uploaded at once are all kept, each under a name of its own', async () => {
      const conversation = await ownOrNewConversation(db, alice, crypto.randomUUID());
      const contents = ['a', 'b', 'c', 'd'].map((text) => new TextEncoder().encode(`x,y\n${text},1\n`));
      const shas = await Promise.all(contents.map((bytes) => putBlob(db, store, bytes)));
      const names = await Promise.all(shas.map((sha256, i) => addFile(db, alice, conversation.id, { name: 'data.csv', mediaType: 'text/csv', sha256, size: contents[i].byteLength }, quota)));
      expect(new Set(names).size).toBe(4);
      expect((await listFiles(db, conversation.id)).map((file) => file.name).sort()).toEqual([...names].sort());
      expect(names).toContain('data.csv');
    });

    live('Share pressed twice at once makes one link, and revoking it leaves none', async () => {
      const conversation = await ownOrNewConversation(db, alice, crypto.randomUUID());
      for (let round = 0; round < 5; round += 1) {
        const ids = await Promise.all([0, 1, 2].map(() => createOrUpdateShare(db, alice, conversation.id)));
        expect(new Set(ids).size).toBe(1);
        const active = await db.select({ id: shares.id }).from(shares).where(and(eq(shares.conversationId, conversation.id), isNull(shares.revokedAt)));
        expect(active.map((row) => row.id)).toEqual([ids[0]]);
        expect(await getShare(db, ids[0]!)).not.toBeNull();
        expect(await revokeShare(db, alice, conversation.id)).toBe(true);
        expect(await getShare(db, ids[0]!)).toBeNull();
      }
    });

    live('an id another person holds stays theirs: an upload or a message to it is not found', async () => {
      const id = crypto.randomUUID();
      await ownOrNewConversation(db, alice, id);
      expect(await outcome(ownOrNewConversation(db, bob, id))).toBe('conversation:not_found');
      expect(await outcome(sendFirstMessage(db, bob, id))).toBe('conversation:not_found');
      expect(await listMessages(db, id)).toEqual([]);
      expect(await getConversation(db, bob, id)).toBeNull();
    });
  });
}
