/**
 * A conversation's title comes from its first exchange: the model writes one when a real model
 * is configured; with the demo model (or if that fails) it is the first user message, shortened.
 * A title the user edited is never replaced.
 */
import type { Logger } from '@/lib/log/logger.server';
import 'server-only';
import { generateText, type UIMessage } from 'ai';
import type { Db } from '@/lib/db/client.server';
import { setGeneratedTitle } from '@/lib/db/queries/conversations.server';
import type { ModelConfig } from '@/lib/config.server';
import { getLanguageModel } from '@/lib/ai/provider.server';
import { callProviderAfter } from '@/lib/ai/call-after.server';
import { buildModelInput } from '@/lib/ai/model-input.server';
import { recordModelInput } from '@/lib/db/queries/model-inputs.server';
import type { ModelSees } from '@/lib/messages/model-input-schema';
import { logger } from '@/lib/log/logger.server';
import { tokensOf, type TokenCounts } from '@/lib/usage/cost.server';
import { estimateTokens, reserveTokens } from '@/lib/usage/token-budget.server';
import { titleFromText } from '../messages/shown-title';

function firstUserText(messages: UIMessage[]): string | null {
  const first = messages.find((m) => m.role === 'user');
  if (!first) return null;
  return first.parts.map((p) => (p.type === 'text' ? p.text : '')).join(' ');
}

const TITLE_MAX_TOKENS = 30;
const TITLE_INSTRUCTIONS = 'Write a title of at most six words for a conversation that starts with the user message below. Answer with the title only, no quotes.';

/**
 * The title's request is recorded like an answer's ("What the model saw"), under the answer it
 * follows, before the provider is asked; it is made once (no retries): a request that fails leaves
 * the first message as the title, and every request sent has its record.
 */
export async function maybeGenerateTitle(db: Db, userId: string, conversationId: string, messages: UIMessage[], model: ModelConfig, record: { answerId: string; modelSees: ModelSees }, log?: Logger) {
  if (messages.filter((m) => m.role === 'user').length !== 1) return;
  const text = firstUserText(messages);
  if (!text) return;
  let title = titleFromText(text);
  if (model.provider !== 'demo') {
    try {
      const prompt = text.slice(0, 2_000);
      const input = buildModelInput(TITLE_INSTRUCTIONS, [{ role: 'user', content: prompt }], 'title');
      // The title call is the person's too: its tokens are reserved before it is made (part of the
      // answer already admitted, so never refused) and count in their usage and budget.
      const reservation = await reserveTokens(db, model, { personId: userId, kind: 'title' }, estimateTokens(TITLE_INSTRUCTIONS + prompt) + TITLE_MAX_TOKENS, null, log ?? logger());
      if (reservation.ok) {
        let used: TokenCounts | null = null;
        try {
          const { text: generated, usage } = await generateText({
            model: callProviderAfter(await getLanguageModel(model), () => recordModelInput(db, { conversationId, answerId: record.answerId, modelSees: record.modelSees, ...input })),
            instructions: TITLE_INSTRUCTIONS,
            prompt,
            maxOutputTokens: TITLE_MAX_TOKENS,
            maxRetries: 0,
          });
          used = tokensOf(usage);
          if (generated.trim()) title = titleFromText(generated.replace(/^["']|["']$/g, ''));
        } finally {
          await reservation.settle(used, conversationId);
        }
      }
    } catch (error) {
      // The first user message is a fine title; a failed title call must not fail the chat.
      log?.warn({ err: error }, 'title not generated; the first message names the conversation');
    }
  }
  await setGeneratedTitle(db, userId, conversationId, title);
}
