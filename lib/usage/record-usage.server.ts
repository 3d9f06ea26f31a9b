/**
 * Recording what model calls used, after the fact: a chat request's steps are metered as they
 * stream past (UsageMeter.tap, no I/O) and written once the answer has ended; a title call is
 * written when it returns. A failed write is logged and costs the person nothing: the answer
 * they read is not failed for it.
 */
import 'server-only';
import type { LanguageModelUsage, TextStreamPart, ToolSet } from 'ai';
import type { ModelEntry } from '@/lib/model-catalog.server';
import type { Db } from '@/lib/db/client.server';
import { recordModelUsage, type UsageKind } from '@/lib/db/queries/usage.server';
import type { Logger } from '@/lib/log/logger.server';
import { addTokens, costOf, tokensOf, type TokenCounts } from './cost.server';

/** Sums the usage of each step that ends in the stream it taps. */
export class UsageMeter {
  private total: TokenCounts = { inputTokens: 0, outputTokens: 0 };
  private steps = 0;

  /** Passes the model's stream through unchanged, counting each finished step's usage. */
  tap<PART extends TextStreamPart<ToolSet>>(): TransformStream<PART, PART> {
    return new TransformStream<PART, PART>({
      transform: (part, controller) => {
        if (part.type === 'finish-step') this.add(part.usage);
        controller.enqueue(part);
      },
    });
  }

  add(usage: Pick<LanguageModelUsage, 'inputTokens' | 'outputTokens'>): void {
    this.steps += 1;
    this.total = addTokens(this.total, tokensOf(usage));
  }

  /** The steps' summed tokens; null when no step ended (the call failed or was stopped first). */
  measured(): TokenCounts | null {
    return this.steps > 0 ? this.total : null;
  }
}

export type UsageOwner = { personId: string; conversationId: string | null; kind: UsageKind };

/** Writes one call's usage at its model's price; logs (never throws) when it cannot. */
export async function recordUsage(db: Db, model: Pick<ModelEntry, 'id' | 'price'>, owner: UsageOwner, tokens: TokenCounts, log: Logger): Promise<void> {
  try {
    await recordModelUsage(db, { ...owner, modelId: model.id, ...tokens, costUsd: costOf(tokens, model.price) });
  } catch (error) {
    log.warn({ err: error, model: model.id, kind: owner.kind }, 'model usage not recorded');
  }
}
