/**
 * Model usage as stored and read back, on PGlite and on a Postgres server: a period's totals by
 * person and by model with their cost, the CSV of it, the token budget's decision and its wait,
 * and what a guest's sign-in and an account's deletion do to the rows.
 */
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { Db } from '@/lib/db/client.server';
import { createConversation } from '@/lib/db/queries/conversations.server';
import { deletePersonData } from '@/lib/db/queries/delete-account.server';
import { mergeGuestIntoAccount } from '@/lib/db/queries/merge-guest.server';
import { recordModelUsage, usageTotalsSince } from '@/lib/db/queries/usage.server';
import { ensureUser } from '@/lib/db/queries/users.server';
import { authUsers, modelUsage } from '@/lib/db/schema.server';
import { openForTests, pgliteBackend, serverBackend } from '@/lib/testing/databases';
import { costOf } from './cost.server';
import { periodStart, type UsagePeriod } from './periods';
import { checkTokenBudget } from './token-budget.server';
import { buildUsageReport, usageCsv } from './usage-report';

const HOUR = 60 * 60 * 1000;
const MODELS = [
  { id: 'claude', label: 'Claude', price: { input: 3, output: 15 } },
  { id: 'local', label: 'Local model', price: null },
];

/** A row as the recorder writes it, made `hoursAgo` before now (the recorder always writes now). */
async function used(db: Db, personId: string | null, modelId: string, inputTokens: number, outputTokens: number, hoursAgo: number, kind: 'answer' | 'title' = 'answer') {
  const price = MODELS.find((m) => m.id === modelId)?.price ?? null;
  await db.insert(modelUsage).values({ personId, conversationId: null, modelId, kind, inputTokens, outputTokens, costUsd: costOf({ inputTokens, outputTokens }, price), createdAt: new Date(Date.now() - hoursAgo * HOUR) });
}

async function account(db: Db, email: string): Promise<string> {
  const id = crypto.randomUUID();
  await db.insert(authUsers).values({ id, name: email, email, emailVerified: true });
  await ensureUser(db, id);
  return id;
}

async function report(db: Db, period: UsagePeriod) {
  const until = new Date();
  const since = periodStart(period, until);
  return buildUsageReport(await usageTotalsSince(db, since), MODELS, period, since, until);
}

for (const backend of [pgliteBackend(), serverBackend()]) {
  describe(`model usage on ${backend.name}`, () => {
    let db: Db;
    const live = openForTests(backend, [], (opened) => {
      db = opened.db;
    });

    live('a period sums each person and each model, priced at the price of the day, and the CSV carries it', async () => {
      const ada = await account(db, 'ada@example.com');
      const guest = crypto.randomUUID();
      await ensureUser(db, guest);
      await used(db, ada, 'claude', 1_000, 200, 1);
      await used(db, ada, 'claude', 30, 10, 1, 'title');
      await used(db, ada, 'local', 500, 500, 2);
      await used(db, guest, 'claude', 100_000, 10_000, 3);
      await used(db, ada, 'claude', 2_000_000, 0, 24 * 3); // 3 days ago: in 7 and 30 days only
      await used(db, guest, 'local', 7, 7, 24 * 20); // 20 days ago: in 30 days only
      await used(db, ada, 'claude', 9, 9, 24 * 40); // 40 days ago: in none

      const day = await report(db, '24h');
      // Requests count answers; a title call's tokens count, not as a request.
      expect(day.totals).toEqual({ requests: 3, inputTokens: 101_530, outputTokens: 10_710, costUsd: expect.closeTo(0.45624, 9), unpricedTokens: 1_000 });
      expect(day.byPerson.map((p) => [p.person, p.requests, p.inputTokens, p.outputTokens, Number(p.costUsd.toFixed(6)), p.unpricedTokens])).toEqual([
        [`Guest ${guest.slice(0, 8)}`, 1, 100_000, 10_000, 0.45, 0],
        ['ada@example.com', 2, 1_530, 710, 0.00624, 1_000],
      ]);
      expect(day.byModel.map((m) => [m.label, m.requests, m.inputTokens, m.outputTokens, m.price])).toEqual([
        ['Claude', 2, 101_030, 10_210, { input: 3, output: 15 }],
        ['Local model', 1, 500, 500, null],
      ]);
      expect(day.unpricedModels).toEqual(['Local model']);

      const week = await report(db, '7d');
      expect(week.totals.inputTokens).toBe(2_101_530);
      expect(week.byPerson[0].person).toBe('ada@example.com'); // $6 of input three days ago puts her first
      const month = await report(db, '30d');
      expect(month.totals).toMatchObject({ requests: 5, inputTokens: 2_101_537, outputTokens: 10_717 });

      expect(usageCsv(day).split('\r\n')).toEqual([
        'period_start,period_end,person,person_id,model,model_id,requests,input_tokens,output_tokens,cost_usd,unpriced_tokens',
        `${day.since},${day.until},ada@example.com,${ada},Claude,claude,1,1030,210,0.006240,0`,
        `${day.since},${day.until},ada@example.com,${ada},Local model,local,1,500,500,,1000`,
        `${day.since},${day.until},Guest ${guest.slice(0, 8)},${guest},Claude,claude,1,100000,10000,0.450000,0`,
        '',
      ]);
    });

    live('a sign-in moves the guest’s usage to the account; a deleted account’s usage stays in the totals, without the person', async () => {
      const guest = crypto.randomUUID();
      await ensureUser(db, guest);
      const conversation = await createConversation(db, guest, { title: 'mine' });
      await recordModelUsage(db, { personId: guest, conversationId: conversation.id, modelId: 'claude', kind: 'answer', inputTokens: 11, outputTokens: 22, costUsd: null });
      const grace = await account(db, 'grace@example.com');
      await mergeGuestIntoAccount(db, guest, grace);
      const rows = await db.select().from(modelUsage).where(eq(modelUsage.conversationId, conversation.id));
      expect(rows.map((r) => [r.personId, r.inputTokens, r.outputTokens])).toEqual([[grace, 11, 22]]);

      await deletePersonData(db, grace);
      const kept = await db.select().from(modelUsage).where(eq(modelUsage.inputTokens, 11));
      expect(kept.map((r) => [r.personId, r.conversationId, r.outputTokens])).toEqual([[null, null, 22]]);
      expect((await report(db, '24h')).byPerson.find((p) => p.personId === null)).toMatchObject({ person: 'Deleted person', inputTokens: 11, outputTokens: 22 });
    });

    live('a call whose conversation was deleted while it ran is recorded without it', async () => {
      const person = crypto.randomUUID();
      await ensureUser(db, person);
      const gone = crypto.randomUUID();
      await recordModelUsage(db, { personId: person, conversationId: gone, modelId: 'claude', kind: 'answer', inputTokens: 5, outputTokens: 6, costUsd: null });
      const rows = await db.select().from(modelUsage).where(eq(modelUsage.personId, person));
      expect(rows.map((r) => [r.conversationId, r.inputTokens, r.outputTokens])).toEqual([[null, 5, 6]]);
    });

    live('the budget counts the last 24 hours and, once reached, says when enough of it has slid out', async () => {
      const person = crypto.randomUUID();
      await ensureUser(db, person);
      expect(await checkTokenBudget(db, person, null)).toEqual({ ok: true });
      await used(db, person, 'claude', 300, 100, 30); // outside the window
      await used(db, person, 'claude', 200, 100, 20); // leaves the window in 4 hours
      await used(db, person, 'claude', 100, 50, 10); // leaves it in 14 hours
      await used(db, person, 'local', 50, 0, 1);
      expect(await checkTokenBudget(db, person, 501)).toEqual({ ok: true });
      const now = new Date();
      // 500 used of 500: under 500 again once the call of 20 hours ago has left the window.
      const full = await checkTokenBudget(db, person, 500, now);
      expect(full).toMatchObject({ ok: false, usedTokens: 500, budget: 500 });
      expect(full.ok ? 0 : full.retryAfterSeconds).toBeGreaterThan(4 * 3600 - 120);
      expect(full.ok ? 0 : full.retryAfterSeconds).toBeLessThanOrEqual(4 * 3600);
      // A budget of 100: both of the older calls must leave first.
      const tight = await checkTokenBudget(db, person, 100, now);
      expect(tight.ok ? 0 : tight.retryAfterSeconds).toBeGreaterThan(14 * 3600 - 120);
      expect(tight.ok ? 0 : tight.retryAfterSeconds).toBeLessThanOrEqual(14 * 3600);
    });
  });
}
