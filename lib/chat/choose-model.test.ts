/**
 * The model a page starts on and a request without a pick is answered by, through the database:
 * someone whose last conversation ran on the offline demo starts a new one on the operator's
 * default once a real model is offered; a real model they chose is kept; an existing
 * conversation keeps its own model.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, type DbHandle } from '@/lib/db/client.server';
import { createConversation } from '@/lib/db/queries/conversations.server';
import { ensureUser } from '@/lib/db/queries/users.server';

let handle: DbHandle;
beforeAll(async () => {
  vi.stubEnv('RUNPAD_MODELS', JSON.stringify([{ id: 'demo', provider: 'demo' }, { id: 'claude', provider: 'anthropic', model: 'claude-sonnet-4-5' }, { id: 'gpt', provider: 'openai', model: 'gpt-5-mini', default: true }]));
  vi.stubEnv('ANTHROPIC_API_KEY', 'a-key');
  vi.stubEnv('OPENAI_API_KEY', 'o-key');
  handle = await createDb({ dataDir: null });
});
afterAll(async () => {
  await handle?.close();
  vi.unstubAllEnvs();
});

describe('the model a conversation starts on, through the database', () => {
  it('the demo used last is not carried over; a real model chosen last is; a conversation keeps its own', async () => {
    const { chooseModel, initialModelId } = await import('./choose-model.server');
    const { db } = handle;
    const person = crypto.randomUUID();
    await ensureUser(db, person);
    expect(await initialModelId(db, person, null)).toBe('gpt');

    const onDemo = await createConversation(db, person, { modelId: 'demo' });
    expect(await initialModelId(db, person, null)).toBe('gpt');
    expect((await chooseModel(db, person, { id: crypto.randomUUID() })).id).toBe('gpt');
    expect(await initialModelId(db, person, onDemo.modelId)).toBe('demo');
    expect((await chooseModel(db, person, { id: onDemo.id })).id).toBe('demo');

    await createConversation(db, person, { modelId: 'claude' });
    expect(await initialModelId(db, person, null)).toBe('claude');
    expect((await chooseModel(db, person, { id: crypto.randomUUID() })).id).toBe('claude');
    // A guest with no conversation yet.
    expect(await initialModelId(db, null, null)).toBe('gpt');
  });
});
