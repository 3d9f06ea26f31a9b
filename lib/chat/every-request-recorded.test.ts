/**
 * "What the model saw" is the whole truth: every request the provider received for a conversation
 * (counted by the fake model server, which records each one) has its record, the title's request
 * included, whether the title comes back, fails or is answered broken; each record holds what was
 * sent (the system prompt and the message as the provider got them). The chat route runs in
 * process against the fake over the real provider client, on an embedded database.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type FakeStep, type RecordedRequest } from '@/e2e/fixtures/fake-openai/server.mjs';
import { appDb, chatFirstMessage, chatGuest, closeChatApp, storedTitle, chatAppEnv } from '@/lib/testing/chat-in-process';
import { captureAppLog } from '@/lib/testing/captured-log';

let fake: FakeOpenAI;
let dataDir: string;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  const env = chatAppEnv([{ id: 'fake', provider: 'openai-compatible', model: 'fake-model', baseURL: fake.url }], { RUNPAD_TOKENS_PER_DAY: '' });
  dataDir = env.dataDir;
  for (const [name, value] of env.variables) vi.stubEnv(name, value);
  captureAppLog();
}, 60_000);

afterAll(async () => {
  await closeChatApp({ dataDir, model: fake });
});

/** The text of a Chat Completions message as sent. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';
}

describe('every request to the provider is recorded', () => {
  const cases: Array<{ name: string; steps: FakeStep[]; unstreamed?: FakeStep; titled: boolean }> = [
    { name: 'an answer and its title', steps: [{ text: 'The answer.' }], unstreamed: { text: 'A short title' }, titled: true },
    { name: 'an answer whose title request fails (a provider error, retried by no one)', steps: [{ text: 'The answer.' }], unstreamed: { fault: { status: 500 } }, titled: true },
    { name: 'an answer whose title comes back broken', steps: [{ text: 'The answer.' }], unstreamed: { fault: { malformed: true }, text: 'half a title' }, titled: true },
    { name: 'an answer the provider refuses (no title is asked for)', steps: [{ error: { status: 400, message: 'Invalid request.' } }], titled: false },
  ];

  for (const { name, steps, unstreamed, titled } of cases) {
    it(name, async () => {
      const trigger = `trigger-${crypto.randomUUID()}`;
      fake.addScenarios([{ trigger, steps, ...(unstreamed ? { unstreamed } : {}) }]);
      const person = await chatGuest();
      const { conversationId } = await chatFirstMessage(person, 'fake', `${trigger} what is in “this” file? 名前`);
      if (titled) await vi.waitFor(async () => expect(await storedTitle(conversationId)).not.toBeNull(), { timeout: 20_000 });
      const { listModelInputs } = await import('@/lib/db/queries/model-inputs.server');
      const sent: RecordedRequest[] = fake.requests().filter((request) => JSON.stringify(request.body).includes(trigger));
      const recorded = await listModelInputs(await appDb(), conversationId);
      expect(sent.length).toBe(titled ? 2 : 1);
      expect(recorded.length).toBe(sent.length);
      // Each request as the provider got it is a record, in the order they were sent.
      for (const [i, request] of sent.entries()) {
        const record = recorded[i];
        const system = request.body.messages.filter((m) => m.role === 'system').map((m) => textOf(m.content));
        const user = request.body.messages.filter((m) => m.role === 'user').map((m) => textOf(m.content));
        expect(record.content.system).toBe(system.join('\n'));
        expect(record.content.messages.filter((m) => m.role === 'user').map((m) => m.items.map((item) => (item.kind === 'text' ? item.text : '')).join(''))).toEqual(user);
        expect(record.content.purpose ?? 'answer').toBe(request.body.stream ? 'answer' : 'title');
      }
      // The title's record is listed under the answer it names, beside that answer's own.
      expect(new Set(recorded.map((r) => r.answerId)).size).toBe(1);
    }, 60_000);
  }
});
