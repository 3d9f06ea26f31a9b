/**
 * A conversation in a project, through the real chat handler (route() and handleChat, embedded
 * PGlite): a member's first message with `projectId` starts it in the project, the project's
 * instructions and its datasets (names and columns) reach the model's instructions and its
 * model-sees policy applies; a project the
 * person may not work in is a 404 and stores nothing; an author removed from the project cannot
 * continue; a conversation cannot change project.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from '@/lib/log/logger.server';
import { capturedLog } from '@/lib/testing/captured-log';
import { appDb, chatAppEnv, closeChatApp, postChat } from '@/lib/testing/chat-in-process';

vi.mock('@/lib/ai/provider.server', async () => (await import('@/lib/testing/recording-model')).recordingProvider);
const { recording: model } = await import('@/lib/testing/recording-model');

const INSTRUCTIONS = 'Réponds en français.\n« Toujours » "quoted" \'single\' 数据 — ZEBRA-7781';

describe('a conversation in a project, through the chat handler', () => {
  let dataDir = '';
  const { log } = capturedLog();

  beforeAll(() => {
    const app = chatAppEnv([], { RUNPAD_MODELS: '', OPENAI_API_KEY: '' });
    dataDir = app.dataDir;
    for (const [name, value] of app.variables) vi.stubEnv(name, value);
    vi.resetModules();
    (globalThis as unknown as { runpadLogger?: Logger }).runpadLogger = log;
  });
  afterAll(() => closeChatApp({ dataDir }));

  const db = appDb;
  async function account(email: string) {
    const { authUsers } = await import('@/lib/db/schema.server');
    const { ensureUser, getPerson } = await import('@/lib/db/queries/users.server');
    const id = crypto.randomUUID();
    await (await db()).insert(authUsers).values({ id, name: email, email, emailVerified: true });
    await ensureUser(await db(), id);
    return { userId: id, kind: 'account' as const, email, name: email, isAdmin: false, sessionId: null, person: (await getPerson(await db(), id))!, address: '192.0.2.9' };
  }
  type Identity = Awaited<ReturnType<typeof account>>;

  /** POST /api/chat as route() answers it, read to its end. */
  async function chat(identity: Identity, body: unknown): Promise<{ status: number; text: string }> {
    const { response, body: text } = await postChat(identity, body);
    return { status: response.status, text };
  }
  const question = (text: string) => ({ id: crypto.randomUUID(), role: 'user', parts: [{ type: 'text', text }] });
  async function settled(conversationId: string) {
    const { listMessages } = await import('@/lib/db/queries/messages.server');
    await vi.waitFor(async () => expect((await listMessages(await db(), conversationId)).some((m) => m.role === 'assistant' && !JSON.stringify(m.metadata ?? {}).includes('"streaming":true'))).toBe(true), { timeout: 20_000, interval: 100 });
  }

  it('a member’s first message with projectId starts the conversation in it: its instructions reach the model, its model-sees policy applies', async () => {
    const owner = await account('owner@example.com');
    const member = await account("m'ember@example.com");
    const stranger = await account('stranger@example.com');
    const { createProject, putProjectMember, removeProjectMember } = await import('@/lib/db/queries/projects.server');
    const project = await createProject(await db(), owner.userId, { name: 'Ventes "Q3"', instructions: INSTRUCTIONS, modelSees: 'schema' });
    const membership = await putProjectMember(await db(), project.id, { userId: member.userId }, 'use', owner.userId);

    // A dataset kept on the owner's device: the model is told its name, size and columns, under /data.
    const { addProjectFile } = await import('@/lib/files/project-files.server');
    await addProjectFile(await db(), owner.userId, project.id, { name: 'clients «Q3».csv', mediaType: 'text/csv', size: 4321, sha256: 'a'.repeat(64), location: 'device', columns: [{ name: 'client "nom"', type: 'VARCHAR' }], header: true }, { conversationBytes: 1e9, guestBytes: 1e9 });

    model.prompts.length = 0;
    const conversationId = crypto.randomUUID();
    expect((await chat(member, { id: conversationId, projectId: project.id, message: question('total?') })).status).toBe(200);
    await settled(conversationId);
    expect(model.prompts).toHaveLength(1);
    expect(JSON.stringify(model.prompts[0])).toContain(JSON.stringify(INSTRUCTIONS).slice(1, -1));
    expect(JSON.stringify(model.prompts[0])).toContain(JSON.stringify('/data/clients «Q3».csv (4,321 bytes, text/csv, kept on members’ devices; each member’s own verified copy): columns client "nom" (VARCHAR)').slice(1, -1));
    const { getConversationById } = await import('@/lib/db/queries/conversations.server');
    expect(await getConversationById(await db(), conversationId)).toMatchObject({ ownerId: member.userId, projectId: project.id });
    const { listModelInputs } = await import('@/lib/db/queries/model-inputs.server');
    const { listMessages } = await import('@/lib/db/queries/messages.server');
    const answer = (await listMessages(await db(), conversationId)).find((m) => m.role === 'assistant')!;
    expect((await listModelInputs(await db(), conversationId, answer.id)).map((r) => r.modelSees)).toEqual(['schema']);

    // A conversation outside the project does not get its instructions.
    const outside = crypto.randomUUID();
    expect((await chat(member, { id: outside, message: question('total?') })).status).toBe(200);
    await settled(outside);
    expect(JSON.stringify(model.prompts[1])).not.toContain('ZEBRA-7781');
    expect(JSON.stringify(model.prompts[1])).not.toContain('clients «Q3».csv');

    // A stranger naming the project: the same 404 as a project that does not exist, nothing stored.
    for (const projectId of [project.id, crypto.randomUUID()]) {
      const id = crypto.randomUUID();
      const refused = await chat(stranger, { id, projectId, message: question('total?') });
      expect([refused.status, JSON.parse(refused.text).error]).toEqual([404, 'Not found.']);
      expect(await getConversationById(await db(), id)).toBeNull();
    }
    // The conversation cannot change project.
    const other = await createProject(await db(), member.userId, { name: 'mine' });
    expect((await chat(member, { id: conversationId, projectId: other.id, message: question('again') })).status).toBe(400);
    expect((await chat(member, { id: outside, projectId: other.id, message: question('again') })).status).toBe(400);

    // Removed from the project, its author cannot continue it.
    await removeProjectMember(await db(), project.id, membership);
    const stopped = await chat(member, { id: conversationId, message: question('and now?') });
    expect([stopped.status, JSON.parse(stopped.text).error]).toEqual([403, expect.stringMatching(/no longer a member of this conversation’s project/)]);
    expect(model.prompts).toHaveLength(2);
  });

  it('a reader who writes in a conversation shared with them to read is told, as the one rule says, to continue in a copy: 403, nothing stored; a stranger gets the 404', async () => {
    const author = await account('author@example.com');
    const reader = await account('reader@example.com');
    const stranger = await account('another-stranger@example.com');
    const { putConversationReader } = await import('@/lib/db/queries/projects.server');
    const { listMessages } = await import('@/lib/db/queries/messages.server');
    const conversationId = crypto.randomUUID();
    expect((await chat(author, { id: conversationId, message: question('the author’s question') })).status).toBe(200);
    await settled(conversationId);
    await putConversationReader(await db(), conversationId, { userId: reader.userId }, author.userId);
    const asked = model.prompts.length;
    const before = await listMessages(await db(), conversationId);
    const refused = await chat(reader, { id: conversationId, message: question('my turn') });
    expect([refused.status, JSON.parse(refused.text).error]).toEqual([403, expect.stringMatching(/shared with you to read: only its author may change it\. Continue in a copy of your own/)]);
    const hidden = await chat(stranger, { id: conversationId, message: question('my turn') });
    expect([hidden.status, JSON.parse(hidden.text).error]).toEqual([404, 'Not found.']);
    expect(await listMessages(await db(), conversationId)).toEqual(before);
    expect(model.prompts).toHaveLength(asked);
  });
});
