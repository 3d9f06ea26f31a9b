/**
 * Metering what a chat request used: its steps are counted as they stream past (UsageMeter.tap,
 * no I/O); the sum settles the request's reservation once the answer has ended
 * (lib/usage/token-budget.server.ts).
 */
import 'server-only';
import type { LanguageModelUsage, TextStreamPart, ToolSet } from 'ai';
import { addTokens, tokensOf, type TokenCounts } from './cost.server';

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
