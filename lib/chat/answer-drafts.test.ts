/**
 * A code call reaches the page only once the answer holding it is stored (lib/chat/answer-drafts.server.ts,
 * `callStored`; the chat route holds the call's chunk until then): a reload while the cell runs
 * finds the call in the stored conversation, instead of the question alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UIMessageChunk } from 'ai';
import { createDb, type DbHandle } from '@/lib/db/client.server';
import { ensureUser } from '@/lib/db/queries/users.server';
import { createConversation } from '@/lib/db/queries/conversations.server';
import { listMessages } from '@/lib/db/queries/messages.server';
import { AnswerDraft } from './answer-drafts.server';

let handle: DbHandle;
const user = crypto.randomUUID();

beforeAll(async () => {
  handle = await createDb({ dataDir: null });
  await ensureUser(handle.db, user);
}, 60_000);
afterAll(async () => {
  await handle?.close();
});

/** A stream the test feeds chunk by chunk. */
function chunkSource() {
  let controller!: ReadableStreamDefaultController<UIMessageChunk>;
  const stream = new ReadableStream<UIMessageChunk>({ start: (c) => (controller = c) });
  return { stream, push: (chunk: UIMessageChunk) => controller.enqueue(chunk), close: () => controller.close() };
}

describe('a code call and its draft', () => {
  it('is stored, as part of the streaming answer, before callStored resolves: at once, not at the next 2 s draft', async () => {
    const conversationId = (await createConversation(handle.db, user, {})).id;
    const draft = new AnswerDraft(handle.db, user, conversationId, null);
    const source = chunkSource();
    draft.watch(source.stream);
    const answerId = crypto.randomUUID();
    source.push({ type: 'start', messageId: answerId });
    source.push({ type: 'start-step' });
    source.push({ type: 'text-start', id: 't' });
    source.push({ type: 'text-delta', id: 't', delta: 'Let me count.' });
    source.push({ type: 'text-end', id: 't' });
    source.push({ type: 'tool-input-start', toolCallId: 'call-1', toolName: 'python' });
    source.push({ type: 'tool-input-available', toolCallId: 'call-1', toolName: 'python', input: { code: 'print(1)' } });
    await draft.callStored('call-1');
    const stored = (await listMessages(handle.db, conversationId)).find((m) => m.id === answerId);
    expect(stored?.parts).toContainEqual(expect.objectContaining({ type: 'tool-python', toolCallId: 'call-1', state: 'input-available' }));
    expect(stored?.metadata).toMatchObject({ streaming: true });
    source.close();
    await draft.finish(null);
  });

  it('a call the draft never sees (drafting ended) does not hold the page', async () => {
    const conversationId = (await createConversation(handle.db, user, {})).id;
    const draft = new AnswerDraft(handle.db, user, conversationId, null);
    const source = chunkSource();
    draft.watch(source.stream);
    const waiting = draft.callStored('never-sent');
    source.close();
    await draft.finish(null);
    await expect(waiting).resolves.toBeUndefined();
  });
});
