/**
 * Per-person token budgets: the input and output tokens a person's model calls used in the last
 * 24 hours (model_usage), against their own number (the admin page) or RUNPAD_TOKENS_PER_DAY.
 * A request is refused once the budget is reached; tokens are known only when an answer ends, so
 * the request that crosses the budget finishes and the next one is refused. Nothing is read when
 * no budget applies.
 */
import 'server-only';
import type { Db } from '@/lib/db/client.server';
import { tokensUsedSince, usageTimeline } from '@/lib/db/queries/usage.server';

export const BUDGET_WINDOW_MS = 24 * 60 * 60 * 1000;

export type BudgetDecision = { ok: true } | { ok: false; usedTokens: number; budget: number; retryAfterSeconds: number };

export async function checkTokenBudget(db: Db, personId: string, budget: number | null, now: Date = new Date()): Promise<BudgetDecision> {
  if (budget === null) return { ok: true };
  const since = new Date(now.getTime() - BUDGET_WINDOW_MS);
  const used = await tokensUsedSince(db, personId, since);
  if (used < budget) return { ok: true };
  // The window slides: each call leaves it 24 hours after it was made. The wait ends when what
  // is left in it is under the budget.
  let left = used;
  let freesAt = now.getTime() + BUDGET_WINDOW_MS;
  for (const call of await usageTimeline(db, personId, since)) {
    left -= call.tokens;
    if (left < budget) {
      freesAt = call.at.getTime() + BUDGET_WINDOW_MS;
      break;
    }
  }
  return { ok: false, usedTokens: used, budget, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000)) };
}
