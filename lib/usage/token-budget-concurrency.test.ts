/**
 * A token budget holds under concurrency: twelve requests of one person sent at once against a
 * budget smaller than one answer are let through to the provider once, the others refused in
 * words, whichever store the instance runs on (the embedded database, Postgres, Postgres with
 * Redis for several instances). The chat route runs in process against the fake model server,
 * whose answers are held open until every request has either been refused or reached it, so no
 * request can end (and record its tokens) before the others have been admitted or refused.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { startFakeOpenAI, type FakeOpenAI } from '@/e2e/fixtures/fake-openai/server.mjs';
import { modelUsage } from '@/lib/db/schema.server';
import { captureAppLog } from '@/lib/testing/captured-log';
import { appDb, chatAppEnv, chatFirstMessage, chatGuest, closeChatApp, storedTitle } from '@/lib/testing/chat-in-process';
import { serverBackend, type TestBackend } from '@/lib/testing/databases';
import { deleteKeys, redisUnavailable, TEST_REDIS_URL, uniquePrefix } from '@/lib/testing/redis';

const SIMULTANEOUS = 12;
/** Tokens a day: fewer than one answer's (the fake reports 20 for every call). */
const BUDGET = 50;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake?.close();
});

/** Each store the instance can run on: the variables that choose it, and what to clean after. */
type Store = { name: string; open: () => Promise<{ variables: Record<string, string>; cleanup: () => Promise<void> }> };

const postgres = async (): Promise<{ url: string; backend: TestBackend }> => {
  const backend = serverBackend();
  const missing = await backend.available();
  if (missing) throw new Error(missing);
  const opened = await backend.open();
  await opened.close();
  return { url: opened.url!, backend };
};

const stores: Store[] = [
  { name: 'the embedded database', open: async () => ({ variables: {}, cleanup: async () => undefined }) },
  {
    name: 'Postgres',
    open: async () => {
      const { url, backend } = await postgres();
      return { variables: { DATABASE_URL: url }, cleanup: () => backend.cleanup() };
    },
  },
  {
    name: 'Postgres with Redis (several instances)',
    open: async () => {
      const unavailable = await redisUnavailable();
      if (unavailable) throw new Error(unavailable);
      const { url, backend } = await postgres();
      const prefix = `${uniquePrefix('token-budget')}:`;
      return {
        variables: { DATABASE_URL: url, REDIS_URL: TEST_REDIS_URL, RUNPAD_REDIS_PREFIX: prefix },
        cleanup: async () => {
          await deleteKeys(prefix);
          await backend.cleanup();
        },
      };
    },
  },
];

describe('a token budget under simultaneous requests', () => {
  for (const store of stores) {
    it(`${SIMULTANEOUS} requests at once against ${BUDGET} tokens: one reaches the provider, the rest are refused (${store.name})`, async () => {
      const opened = await store.open();
      const env = chatAppEnv([{ id: 'fake', provider: 'openai-compatible', model: 'fake-model', baseURL: fake.url }], { RUNPAD_TOKENS_PER_DAY: String(BUDGET), RUNPAD_MODEL_REQUESTS_PER_MINUTE: '100', ...opened.variables });
      for (const [name, value] of env.variables) vi.stubEnv(name, value);
      vi.resetModules();
      captureAppLog();
      try {
        const trigger = `budget-${crypto.randomUUID()}`;
        fake.addScenarios([{ trigger, hold: { afterChunks: 1 }, steps: [{ text: 'An answer held open until every request has arrived.' }], unstreamed: { text: 'A title' } }]);
        const person = await chatGuest();
        const answered = new Set<number>();
        const runs = Array.from({ length: SIMULTANEOUS }, (_, i) =>
          chatFirstMessage(person, 'fake', `${trigger} question ${i}`).then((result) => {
            answered.add(i);
            return result;
          }),
        );
        const atProvider = () => fake.requests().filter((request) => request.body.stream && JSON.stringify(request.body).includes(trigger)).length;
        // Every request has been refused or is at the provider (held): none could end before the others were decided.
        await vi.waitFor(() => expect(answered.size + atProvider()).toBe(SIMULTANEOUS), { timeout: 60_000 });
        await fetch(`${fake.url.replace(/\/v1$/, '')}/__release`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ trigger }) });
        const results = await Promise.all(runs);

        const statuses = results.map((result) => result.response.status);
        expect(statuses.filter((status) => status === 200)).toHaveLength(1);
        expect(statuses.filter((status) => status === 429)).toHaveLength(SIMULTANEOUS - 1);
        for (const refused of results.filter((result) => result.response.status === 429)) {
          expect(JSON.parse(refused.body)).toMatchObject({ code: 'rate_limit:exceeded', error: expect.stringMatching(/^You have reached the daily number of tokens for the model\. Try again in /) });
        }
        expect(atProvider()).toBe(1);
        // The one answer settles its reservation at what the provider reported; its title too.
        const answer = results.find((result) => result.response.status === 200)!;
        await vi.waitFor(async () => expect(await storedTitle(answer.conversationId)).not.toBeNull(), { timeout: 20_000 });
        await vi.waitFor(async () => {
          const rows = await (await appDb()).select().from(modelUsage).where(eq(modelUsage.personId, person.userId));
          expect(rows.map((row) => [row.kind, row.inputTokens, row.outputTokens]).sort()).toEqual([
            ['answer', 10, 10],
            ['title', 10, 10],
          ]);
        });
      } finally {
        await closeChatApp({ dataDir: env.dataDir });
        await opened.cleanup();
      }
    }, 120_000);
  }
});
