import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, type DbHandle } from '@/lib/db/client';
import { createConversation } from '@/lib/db/queries/conversations';
import { listMessages, upsertMessage } from '@/lib/db/queries/messages';
import { ensureUser } from '@/lib/db/queries/users';
import { saveIncomingMessage } from './chat-store';

vi.mock('server-only', () => ({}));

/** The route builds the model's history from what saveIncomingMessage returns, not from a re-read. */
describe('saveIncomingMessage returns the messages exactly as stored', () => {
  let handle: DbHandle;
  const user = crypto.randomUUID();
  let conversationId: string;
  const text = (t: string) => [{ type: 'text', text: t }];

  beforeAll(async () => {
    handle = await createDb({ dataDir: null });
    await ensureUser(handle.db, user);
    conversationId = (await createConversation(handle.db, user, {})).id;
  });
  afterAll(() => handle.close());

  async function saveAndCompare(message: Parameters<typeof saveIncomingMessage>[3]) {
    const saved = await saveIncomingMessage(handle.db, user, conversationId, message);
    if (!saved.ok) throw new Error(saved.message);
    expect(saved.messages).toEqual(await listMessages(handle.db, conversationId));
    return saved.messages;
  }

  it('a new user message comes last', async () => {
    const messages = await saveAndCompare({ id: 'u1', role: 'user', parts: text('first') });
    expect(messages.map((m) => m.id)).toEqual(['u1']);
  });

  it('tool outputs update the assistant message in place', async () => {
    await upsertMessage(handle.db, user, conversationId, { id: 'a1', role: 'assistant', parts: text('answer') });
    await saveAndCompare({ id: 'u2', role: 'user', parts: text('second'), metadata: { files: [] } });
    const messages = await saveAndCompare({ id: 'a1', role: 'assistant', parts: text('answer with output') });
    expect(messages.map((m) => m.id)).toEqual(['u1', 'a1', 'u2']);
  });

  it('an edited user message replaces itself and everything after it', async () => {
    const messages = await saveAndCompare({ id: 'u1', role: 'user', parts: text('first, edited') });
    expect(messages.map((m) => m.id)).toEqual(['u1']);
    expect(messages[0].parts).toEqual(text('first, edited'));
  });
});
