import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsBlobStore } from '@/lib/blobs/fs-blob-store.server';
import { readWhole } from '@/lib/blobs/read-whole.server';
import { createDb, type DbHandle } from '@/lib/db/client.server';
import { getBlobsForUser, linkBlob, putBlob } from '@/lib/db/queries/blobs.server';
import { createConversation } from '@/lib/db/queries/conversations.server';
import { ensureUser } from '@/lib/db/queries/users.server';
import { toModelMessages } from '@/lib/ai/model-messages.server';
import type { UIMessage } from 'ai';
import { createBlobResolver } from './blob-resolver.server';

const store = createFsBlobStore(fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-resolver-')));
const quota = { conversationBytes: 10_000_000, guestBytes: 10_000_000 };

/** An assistant message whose run displayed these figures. */
function runWithFigures(id: string, sha256s: string[]): UIMessage {
  return {
    id,
    role: 'assistant',
    parts: [
      {
        type: 'tool-python',
        toolCallId: `call-${id}`,
        state: 'output-available',
        input: { code: 'show()' },
        output: { status: 'ok', durationMs: 1, outputs: sha256s.map((sha) => ({ output_type: 'display_data', data: { 'image/png': `blob:${sha}`, 'text/plain': '<Figure>' }, metadata: {} })) },
      },
    ],
  } as UIMessage;
}

describe('a chat request’s figures', () => {
  let handle: DbHandle;
  const alice = crypto.randomUUID();
  const bob = crypto.randomUUID();
  const figures: string[] = [];
  let bobsFigure = '';

  beforeAll(async () => {
    handle = await createDb({ dataDir: null });
    await ensureUser(handle.db, alice);
    await ensureUser(handle.db, bob);
    const conversation = await createConversation(handle.db, alice, {});
    for (let i = 0; i < 12; i += 1) {
      const sha = await putBlob(handle.db, store, new TextEncoder().encode(`figure ${i}`));
      await linkBlob(handle.db, alice, conversation.id, { sha256: sha, mediaType: 'image/png', size: 8 }, quota);
      figures.push(sha);
    }
    bobsFigure = await putBlob(handle.db, store, new TextEncoder().encode('bob’s figure'));
    await linkBlob(handle.db, bob, (await createConversation(handle.db, bob, {})).id, { sha256: bobsFigure, mediaType: 'image/png', size: 12 }, quota);
  });
  afterAll(() => handle.close());

  it('are looked up in one query and each read once, however often the history shows them', async () => {
    const lookups: string[][] = [];
    const reads: string[] = [];
    const resolve = createBlobResolver(
      (sha256s) => {
        lookups.push(sha256s);
        return getBlobsForUser(handle.db, alice, sha256s);
      },
      (sha256) => {
        reads.push(sha256);
        return readWhole(store, sha256);
      },
    );
    // Three runs; the last shows the first figures again, and one figure is another user's.
    const history = [runWithFigures('a1', figures.slice(0, 6)), runWithFigures('a2', figures.slice(6)), runWithFigures('a3', [...figures.slice(0, 3), bobsFigure])];
    const messages = await toModelMessages(history, { api: 'responses', includeImages: true, resolveBlob: resolve });
    expect(lookups).toHaveLength(1);
    expect(new Set(lookups[0])).toEqual(new Set([...figures, bobsFigure]));
    expect(reads.sort()).toEqual([...figures].sort());
    const text = JSON.stringify(messages);
    // The model is sent the first four figures of each run (MODEL_VIEW_CAPS), the bytes of each.
    for (const i of [0, 1, 2, 3, 6, 7, 8, 9]) expect(text).toContain(Buffer.from(`figure ${i}`).toString('base64'));
    // Another user's figure is not theirs to send: dropped, as one that no longer exists.
    expect(text).not.toContain(Buffer.from('bob’s figure').toString('base64'));
    expect(text).not.toContain(`blob:${bobsFigure}`);
  });

  it('a later request looks them up again (a figure deleted meanwhile is gone)', async () => {
    let lookups = 0;
    const resolve = createBlobResolver(
      (sha256s) => {
        lookups += 1;
        return getBlobsForUser(handle.db, alice, sha256s);
      },
      (sha256) => readWhole(store, sha256),
    );
    expect(await resolve(figures[0])).toMatchObject({ mediaType: 'image/png' });
    expect(await resolve(figures[0])).toMatchObject({ mediaType: 'image/png' });
    expect(await resolve(figures[1])).toMatchObject({ mediaType: 'image/png' });
    expect(lookups).toBe(2); // the second figure was asked for after the first batch ended
  });
});
