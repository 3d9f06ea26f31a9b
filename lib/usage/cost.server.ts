/**
 * What a model call costs, from the tokens its provider reported and the price the operator set
 * on its RUNPAD_MODELS entry (USD per million input and output tokens). Pure: shared by the
 * recorder (lib/db/queries/usage.server.ts) and its tests.
 */
import 'server-only';
import type { LanguageModelUsage } from 'ai';
import type { ModelPrice } from '@/lib/model-catalog.server';

export type TokenCounts = { inputTokens: number; outputTokens: number };

/** A provider that reports no count (some streams of some servers) counts as 0 for that side. */
export function tokensOf(usage: Pick<LanguageModelUsage, 'inputTokens' | 'outputTokens'>): TokenCounts {
  const count = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : 0);
  return { inputTokens: count(usage.inputTokens), outputTokens: count(usage.outputTokens) };
}

/** The sum of several calls' counts (a chat request's steps). */
export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

/** USD for these tokens at this price; null when the model has no price. */
export function costOf(tokens: TokenCounts, price: ModelPrice | null): number | null {
  if (!price) return null;
  return (tokens.inputTokens * price.input + tokens.outputTokens * price.output) / 1_000_000;
}
