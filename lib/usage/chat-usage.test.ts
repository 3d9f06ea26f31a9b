/**
 * Usage recorded by the chat route itself (route() and handleChat in process, on an embedded
 * database), with the models answering from the fake model server over the real provider client:
 * each answer's and each title's tokens as the provider reported them, priced at the model's
 * price; the demo model's own counts; and the token budget refusing the next request like the
 * other limits do.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '@/e2e/fixtures/fake-openai/server.mjs';
import type { Identity } from '@/lib/auth/current-user.server';
import { modelUsage } from '@/lib/db/schema.server';
import type { Logger } from '@/lib/log/logger.server';
import { capturedLog } from '@/lib/testing/captured-log';
import { appDb, chatFirstMessage, chatGuest, closeChatApp, chatAppEnv } from '@/lib/testing/chat-in-process';

let fake: FakeOpenAI;
let dataDir: string;
const { log, lines } = capturedLog();

beforeAll(async () => {
  fake = await startFakeOpenAI();
  const env = chatAppEnv(
    [
      { id: 'priced', provider: 'openai-compatible', model: 'fake-priced', baseURL: fake.url, price: { input: 2, output: 8 } },
      { id: 'unpriced', provider: 'openai-compatible', model: 'fake-unpriced', baseURL: fake.url },
      { id: 'demo', provider: 'demo' },
    ],
    { RUNPAD_DEMO_CHUNK_DELAY_MS: '0', RUNPAD_TOKENS_PER_DAY: '60' },
  );
  dataDir = env.dataDir;
  for (const [name, value] of env.variables) vi.stubEnv(name, value);
  // The refusals route() logs go to the captured log, not to the test's output.
  (globalThis as unknown as { runpadLogger?: Logger }).runpadLogger = log;
}, 60_000);

afterAll(async () => {
  await closeChatApp({ dataDir, model: fake });
});

const db = appDb;
const guest = () => chatGuest();
const chat = (identity: Identity, modelId: string, text = 'hello') => chatFirstMessage(identity, modelId, text);

/** The conversation's calls that have ended (a call running holds a reservation, settled when it ends). */
async function usageOf(conversationId: string) {
  return (await db()).select().from(modelUsage).where(and(eq(modelUsage.conversationId, conversationId), eq(modelUsage.settled, true)));
}

describe('the chat route records what each model call used', () => {
  it('an answer’s tokens as the provider reported them, at its model’s price, by the time the answer has ended; the title’s after', async () => {
    const person = await guest();
    const { response, conversationId } = await chat(person, 'priced');
    expect(response.status).toBe(200);
    // The fake model reports 10 input and 10 output tokens for every call.
    const answer = (await usageOf(conversationId)).filter((row) => row.kind === 'answer');
    expect(answer.map((r) => [r.personId, r.modelId, r.inputTokens, r.outputTokens, r.costUsd])).toEqual([[person.userId, 'priced', 10, 10, (10 * 2 + 10 * 8) / 1_000_000]]);
    await vi.waitFor(async () => expect((await usageOf(conversationId)).filter((row) => row.kind === 'title')).toHaveLength(1), { timeout: 20_000 });
    const title = (await usageOf(conversationId)).find((row) => row.kind === 'title')!;
    expect([title.personId, title.modelId, title.inputTokens, title.outputTokens]).toEqual([person.userId, 'priced', 10, 10]);
  });

  it('a model without a price is recorded with no cost; the demo model reports counts of its own, at no cost', async () => {
    const person = await guest();
    const unpriced = await chat(person, 'unpriced');
    expect((await usageOf(unpriced.conversationId)).find((r) => r.kind === 'answer')).toMatchObject({ modelId: 'unpriced', inputTokens: 10, outputTokens: 10, costUsd: null });
    // Its title's call ends before the next request, whose budget would count the title's reservation.
    await vi.waitFor(async () => expect(await usageOf(unpriced.conversationId)).toHaveLength(2), { timeout: 20_000 });
    const demo = await chat(person, 'demo', 'what is the mean of 1, 2 and 3?');
    const row = (await usageOf(demo.conversationId)).find((r) => r.kind === 'answer')!;
    expect(row).toMatchObject({ modelId: 'demo', costUsd: 0 });
    // About four characters a token: the prompt (with its instructions) in, the answer and its code out.
    expect(row.inputTokens).toBeGreaterThan(100);
    expect(row.outputTokens).toBeGreaterThan(5);
  });

  it('a budget reached refuses the next request as the other limits do, costing it no request point; the person’s own number replaces the default', async () => {
    const { getPerson, updatePerson } = await import('@/lib/db/queries/users.server');
    const person = await guest();
    // 60 tokens a day (RUNPAD_TOKENS_PER_DAY): each new conversation costs 20 for the answer and 20 for its title.
    const first = await chat(person, 'priced');
    await vi.waitFor(async () => expect(await usageOf(first.conversationId)).toHaveLength(2), { timeout: 20_000 });
    const second = await chat(person, 'priced');
    expect(second.response.status).toBe(200);
    await vi.waitFor(async () => expect(await usageOf(second.conversationId)).toHaveLength(2), { timeout: 20_000 });
    const requestsBefore = (await getPerson(await db(), person.userId))!.modelRequests;

    const refused = await chat(person, 'priced');
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'rate_limit:exceeded', retryable: true, retryAfterSeconds: expect.any(Number), error: 'You have reached the daily number of tokens for the model. Try again in 24 hours.' });
    expect(await usageOf(refused.conversationId)).toEqual([]);
    expect((await getPerson(await db(), person.userId))!.modelRequests).toBe(requestsBefore);
    expect(lines.filter((l) => l.reason === 'token budget').map((l) => [l.code, l.status])).toEqual([['rate_limit:exceeded', 429]]);

    await updatePerson(await db(), person.userId, { limits: { modelRequestsPerMinute: null, modelRequestsPerDay: null, storageBytes: null, tokensPerDay: 1_000 } });
    const allowed = await chat({ ...person, person: (await getPerson(await db(), person.userId))! }, 'priced');
    expect(allowed.response.status).toBe(200);
  });
});
