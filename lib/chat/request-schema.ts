import { z } from 'zod';
import { TURN_LIMITS } from '@/lib/runtime/limits';

/**
 * The body the browser posts to /api/chat: the conversation id and only the newest message
 * (a new user message, or the assistant message carrying tool outputs). The server holds the
 * history; the message's parts are validated against the tools by the AI SDK afterwards.
 */
export const chatRequestSchema = z.object({
  id: z.uuid(),
  trigger: z.enum(['submit-message', 'regenerate-message']).default('submit-message'),
  messageId: z.string().max(200).optional(),
  message: z
    .object({
      id: z.string().min(1).max(200),
      role: z.enum(['user', 'assistant']),
      parts: z.array(z.looseObject({ type: z.string() })).max(500),
      metadata: z.unknown().optional(),
    })
    .optional(),
  settings: z
    .object({
      includeImages: z.boolean().default(true),
      stepBudget: z.number().int().min(1).max(TURN_LIMITS.maxStepBudget).default(TURN_LIMITS.defaultStepBudget),
    })
    .default({ includeImages: true, stepBudget: TURN_LIMITS.defaultStepBudget }),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;
