/**
 * Every query a request makes finds its rows through an index: a lookup that scans a table costs
 * in proportion to everyone's data, and the embedded database never gathers the statistics that
 * would let its planner notice (PGlite runs no autovacuum). Each query the data layer runs below
 * (captured through drizzle's logger) is explained with sequential scans disabled: a plan that
 * still scans has no index to use.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsBlobStore } from '@/lib/blobs/fs-blob-store.server';
import type { Db } from './client.server';
import { getBlobForShare, getBlobForUser, linkBlob, putBlob, unlinkBlobIfUnused } from './queries/blobs.server';
import { createConversation, deleteConversation, getConversation, lastUsedModelId, listConversations, renameConversation, lockConversation, lockOrCreateConversation, setGeneratedTitle } from './queries/conversations.server';
import { addFile, listFiles, removeFile } from '@/lib/files/file-queries.server';
import { listMessages, saveMessages, upsertMessage } from './queries/messages.server';
import { deleteRunProgress, listRunProgress, saveRunProgress } from './queries/run-progress.server';
import type { StorageQuota } from './queries/quota.server';
import { createOrUpdateShare, forkShare, getShare, listShareFiles, revokeShare } from './queries/shares.server';
import { moveUsage, recordModelUsage, tokensUsedSince, usageTimeline, usageTotalsSince } from './queries/usage.server';
import { countModelRequest, ensureUser, getPerson, isBlocked } from './queries/users.server';
import * as schema from './schema.server';

type Logged = { query: string; params: unknown[] };

/**
 * Statements that read a whole table on purpose, with why: not a request's lookup.
 * (The blob mover's one-off pass over rows still holding bytes; the people list of the admin page.)
 */
const SCANS_BY_DESIGN = [/from "blobs" where "blobs"\."bytes" is not null/, /^select .* from "users" order by/];

describe('query plans', () => {
  let client: PGlite;
  let db: Db;
  const logged: Logged[] = [];
  const store = createFsBlobStore(fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-plans-')));
  const quota: StorageQuota = { conversationBytes: 1_000_000, guestBytes: 2_000_000 };

  beforeAll(async () => {
    client = new PGlite();
    const database = drizzle(client, { schema, logger: { logQuery: (query, params) => logged.push({ query, params }) } });
    await migrate(database, { migrationsFolder: path.join(process.cwd(), 'lib/db/migrations') });
    db = database as unknown as Db;
  });
  afterAll(async () => {
    await client.close();
  });

  it('every lookup of a request uses an index', async () => {
    const alice = crypto.randomUUID();
    const bob = crypto.randomUUID();
    await ensureUser(db, alice);
    await ensureUser(db, bob);
    logged.length = 0; // the migrations' own statements are not a request's

    const conversation = await createConversation(db, alice, { title: 'plans' });
    await getConversation(db, alice, conversation.id);
    await listConversations(db, alice, { limit: 10 });
    await renameConversation(db, alice, conversation.id, 'renamed');
    await setGeneratedTitle(db, alice, conversation.id, 'generated');
    await db.transaction(async (tx) => {
      await lockOrCreateConversation(tx as unknown as Db, alice, { id: crypto.randomUUID(), modelId: 'm' });
      await lockOrCreateConversation(tx as unknown as Db, alice, { id: conversation.id });
      await lockConversation(tx as unknown as Db, alice, conversation.id);
    });
    await lastUsedModelId(db, alice);
    await upsertMessage(db, alice, conversation.id, { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hello' }] });
    await saveMessages(db, alice, conversation.id, [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hello again' }] }]);
    await listMessages(db, conversation.id);
    await saveRunProgress(db, alice, conversation.id, 'call-1', { startedAt: new Date(), durationMs: 1_200, outputs: [] });
    await listRunProgress(db, conversation.id);
    await deleteRunProgress(db, conversation.id);
    const sha = await putBlob(db, store, new TextEncoder().encode('a figure'));
    await linkBlob(db, alice, conversation.id, { sha256: sha, mediaType: 'image/png', size: 8 }, quota);
    await getBlobForUser(db, alice, sha);
    await addFile(db, alice, conversation.id, { name: 'data.csv', sha256: sha, mediaType: 'text/csv', size: 8 }, quota);
    await listFiles(db, conversation.id);
    const shareId = await createOrUpdateShare(db, alice, conversation.id);
    expect(shareId).not.toBeNull();
    await getShare(db, shareId!);
    expect(await createOrUpdateShare(db, alice, conversation.id)).toBe(shareId);
    await listShareFiles(db, shareId!);
    await getBlobForShare(db, shareId!, sha);
    await forkShare(db, bob, shareId!, quota);
    await revokeShare(db, alice, conversation.id);
    await removeFile(db, alice, conversation.id, 'data.csv');
    await unlinkBlobIfUnused(db, alice, conversation.id, sha);
    await getPerson(db, alice);
    await isBlocked(db, alice);
    await countModelRequest(db, alice);
    await recordModelUsage(db, { personId: bob, conversationId: conversation.id, modelId: 'm', kind: 'answer', inputTokens: 1, outputTokens: 2, costUsd: null });
    await tokensUsedSince(db, bob, new Date(Date.now() - 86_400_000));
    await usageTimeline(db, bob, new Date(Date.now() - 86_400_000));
    await usageTotalsSince(db, new Date(Date.now() - 86_400_000));
    await moveUsage(db, bob, alice);
    await deleteConversation(db, alice, conversation.id);

    const lookups = logged.filter(({ query }) => /\bwhere\b/i.test(query) && !/^\s*insert\b/i.test(query) && !SCANS_BY_DESIGN.some((pattern) => pattern.test(query)));
    expect(lookups.length).toBeGreaterThan(20);
    const scanning: string[] = [];
    await client.transaction(async (tx) => {
      await tx.exec('set local enable_seqscan = off');
      for (const { query, params } of lookups) {
        const plan = await tx.query<{ 'QUERY PLAN': string }>(`explain ${query}`, params);
        const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
        if (/Seq Scan/.test(text)) scanning.push(`${query}\n${text}`);
      }
    });
    expect(scanning).toEqual([]);
  });
});
