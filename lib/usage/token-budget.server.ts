/**
 * Per-person token budgets: the input and output tokens a person's model calls used in the last
 * 24 hours (model_usage), against their own number (the admin page) or RUNPAD_TOKENS_PER_DAY.
 *
 * A call under a budget (and every title) reserves its estimated tokens before the provider is
 * asked, and settles when it ends (the estimate replaced by what the provider reported, or removed when it reported
 * nothing). The reservation is admitted atomically against the budget (lib/db/queries/usage.server.ts:
 * one transaction under a lock on the person's row, on PGlite and Postgres alike; with Redis the
 * budget still lives in the database every instance shares): while the tokens used and reserved
 * are under the budget a request is let through, and the next one sees its reservation. So
 * simultaneous requests cannot all pass a budget that none of them has yet spent; a request may
 * still use more than its estimate, and the next is refused.
 */
import 'server-only';
import type { Db } from '@/lib/db/client.server';
import { recordModelUsage, reserveModelUsage, settleModelUsage, tokensUsedSince, usageTimeline, type UsageKind } from '@/lib/db/queries/usage.server';
import type { Logger } from '@/lib/log/logger.server';
import type { ModelEntry } from '@/lib/model-catalog.server';
import { costOf, type TokenCounts } from './cost.server';

export const BUDGET_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Tokens reserved for an answer beyond its new message: the instructions, the history and the answer, until they are known. */
export const ANSWER_ALLOWANCE_TOKENS = 2_000;

export type BudgetDecision = { ok: true } | { ok: false; usedTokens: number; budget: number; retryAfterSeconds: number };

/** About four characters a token: what a request's text is estimated to cost before a provider counts it. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** When the sliding window will have room again: each call leaves it 24 hours after it was made. */
async function refusal(db: Db, personId: string, used: number, budget: number, now: Date): Promise<Extract<BudgetDecision, { ok: false }>> {
  let left = used;
  let freesAt = now.getTime() + BUDGET_WINDOW_MS;
  for (const call of await usageTimeline(db, personId, new Date(now.getTime() - BUDGET_WINDOW_MS))) {
    left -= call.tokens;
    if (left < budget) {
      freesAt = call.at.getTime() + BUDGET_WINDOW_MS;
      break;
    }
  }
  return { ok: false, usedTokens: used, budget, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000)) };
}

export async function checkTokenBudget(db: Db, personId: string, budget: number | null, now: Date = new Date()): Promise<BudgetDecision> {
  if (budget === null) return { ok: true };
  const used = await tokensUsedSince(db, personId, new Date(now.getTime() - BUDGET_WINDOW_MS));
  return used < budget ? { ok: true } : refusal(db, personId, used, budget, now);
}

/** A reserved call: settled once, with what it used (null: nothing was reported) and the conversation it belongs to. */
export type TokenReservation = { settle(used: TokenCounts | null, conversationId: string | null): Promise<void> };

/**
 * A call no budget limits: nothing is asked before it (no database write on the way to the first
 * byte); its tokens are written when it ends.
 */
export function unbudgetedUsage(db: Db, model: Pick<ModelEntry, 'id' | 'price'>, owner: { personId: string; kind: UsageKind }, log: Logger): { ok: true } & TokenReservation {
  let settled = false;
  return {
    ok: true,
    settle: async (used, conversationId) => {
      if (settled || !used) return;
      settled = true;
      try {
        await recordModelUsage(db, { ...owner, conversationId, modelId: model.id, ...used, costUsd: costOf(used, model.price) });
      } catch (error) {
        log.warn({ err: error, model: model.id, kind: owner.kind }, 'model usage not recorded');
      }
    },
  };
}

/**
 * Reserves `estimate` tokens for one call of `model` by this person, refused (nothing reserved)
 * when the budget is reached; `budget` null reserves without a limit (the call's tokens still
 * count against later requests while it runs). A settle that fails is logged and costs the person
 * nothing more: the estimate stays counted, erring on the side of the budget.
 */
export async function reserveTokens(db: Db, model: Pick<ModelEntry, 'id' | 'price'>, owner: { personId: string; kind: UsageKind }, estimate: number, budget: number | null, log: Logger, now: Date = new Date()): Promise<({ ok: true } & TokenReservation) | Extract<BudgetDecision, { ok: false }>> {
  const reserved = await reserveModelUsage(db, { ...owner, modelId: model.id, tokens: estimate }, budget, new Date(now.getTime() - BUDGET_WINDOW_MS));
  if ('used' in reserved) return refusal(db, owner.personId, reserved.used, budget ?? 0, now);
  let settled = false;
  return {
    ok: true,
    settle: async (used, conversationId) => {
      if (settled) return;
      settled = true;
      try {
        await settleModelUsage(db, reserved.id, used && { conversationId, modelId: model.id, ...used, costUsd: costOf(used, model.price) });
      } catch (error) {
        log.warn({ err: error, model: model.id, kind: owner.kind }, 'model usage not recorded');
      }
    },
  };
}
