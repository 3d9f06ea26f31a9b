/**
 * The chat route in process, as route() and handleChat answer POST /api/chat, on the app's own
 * singletons (database, streams, rate limits): a guest with a person row, a first message sent
 * and read to its end, and the singletons closed after the file's tests. The environment (data
 * directory, models) is the test's to set before the first call.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { vi } from 'vitest';
import type { Identity } from '@/lib/auth/current-user.server';
import type { DbHandle } from '@/lib/db/client.server';
import { migratedDataDir } from './migrated-data-dir';

/**
 * The environment of an app on its own embedded database in a new data directory, no Redis, no
 * bucket, the given models (RUNPAD_MODELS), and `more` variables on top: the test file stubs each
 * (vi.stubEnv in the file itself runs it isolated, vitest.config.ts).
 */
export function chatAppEnv(models: unknown[], more: Record<string, string> = {}): { dataDir: string; variables: Array<[string, string]> } {
  // The app's embedded database, migrated already, unless the test names a server of its own.
  const dataDir = more.DATABASE_URL ? fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-chat-')) : migratedDataDir('runpad-chat-');
  const variables: Record<string, string> = { RUNPAD_DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', S3_BUCKET: '', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: '', RUNPAD_MODEL_SEES: '', RUNPAD_MODELS: JSON.stringify(models), ...more };
  return { dataDir, variables: Object.entries(variables) };
}

export async function appDb() {
  return (await import('@/lib/db/client.server')).getDb();
}

/** A guest with a person row, as requireUser hands it to the chat. */
export async function chatGuest(address = '192.0.2.9'): Promise<Identity> {
  const { getPerson, insertGuest } = await import('@/lib/db/queries/users.server');
  const id = crypto.randomUUID();
  await insertGuest(await appDb(), id);
  return { userId: id, kind: 'guest', email: null, name: null, isAdmin: false, sessionId: null, person: (await getPerson(await appDb(), id))!, address };
}

/** POST /api/chat with this body, as route() and handleChat answer it, read to its end. */
export async function postChat(identity: Identity, body: unknown): Promise<{ response: Response; body: string }> {
  const { route } = await import('@/lib/http/route.server');
  const { handleChat } = await import('@/lib/chat/handle-chat.server');
  const { chatRequestSchema } = await import('@/lib/chat/request-schema.server');
  const { ServerTiming } = await import('@/lib/http/server-timing.server');
  const { logger } = await import('@/lib/log/logger.server');
  const request = chatRequestSchema.parse(body);
  const response = await route(async ({ requestId }) => handleChat({ identity, request, timing: new ServerTiming(), requestId, log: logger().child({ requestId }) }))(new Request('http://app.test/api/chat'));
  return { response, body: await response.text() };
}

/** The first message of a new conversation, read to its end. */
export async function chatFirstMessage(identity: Identity, modelId: string, text: string): Promise<{ response: Response; body: string; conversationId: string }> {
  const conversationId = crypto.randomUUID();
  return { ...(await postChat(identity, { id: conversationId, modelId, message: { id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text }] } })), conversationId };
}

/** The conversation's title as stored (null until one is set). */
export async function storedTitle(conversationId: string): Promise<string | null> {
  const { conversations } = await import('@/lib/db/schema.server');
  const [row] = await (await appDb()).select({ title: conversations.title }).from(conversations).where(eq(conversations.id, conversationId));
  return row?.title ?? null;
}

/**
 * Closes the app's singletons the chat route opened and forgets them (and the captured logger),
 * then the test's environment, its model server and its data directory.
 */
export async function closeChatApp(test: { dataDir?: string; model?: { close(): Promise<void> } } = {}): Promise<void> {
  await closeAppSingletons();
  vi.unstubAllEnvs();
  await test.model?.close();
  if (test.dataDir) fs.rmSync(test.dataDir, { recursive: true, force: true });
}

async function closeAppSingletons(): Promise<void> {
  const app = globalThis as unknown as { runpadDb?: Promise<DbHandle>; runpadStreams?: Promise<{ streams: { close(): Promise<void> }; registry: { close(): Promise<void> } }>; runpadRateLimits?: Map<string, Promise<{ close(): Promise<void> }>> };
  const [db, streams, limits] = [app.runpadDb, app.runpadStreams, [...(app.runpadRateLimits?.values() ?? [])]];
  Object.assign(app, { runpadDb: undefined, runpadStreams: undefined, runpadRateLimits: undefined, runpadBlobStore: undefined, runpadLogger: undefined });
  await streams?.then(async ({ streams: context, registry }) => Promise.all([context.close(), registry.close()]));
  await Promise.all(limits.map((opened) => opened.then((l) => l.close())));
  await db?.then((h) => h.close());
}
