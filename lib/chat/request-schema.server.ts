import 'server-only';
import { z } from 'zod';
import { TURN_LIMITS } from '@/lib/runtime/limits';
import { incomingMessageSchema } from './incoming-message.server';
import { modelIdSchema } from '@/lib/model-catalog.server';
import { modelSeesSchema } from '@/lib/messages/model-input-schema';
import { TARGET_IDS } from '@/lib/targets/registry';
import { PACKAGE_SOURCE_ANSWERS } from '@/lib/targets/target';

/**
 * The body the browser posts to /api/chat: the conversation id and only the newest message
 * (a new user message, or the assistant message carrying tool outputs). The server holds the
 * history; what the message may change is decided in incoming-message.ts.
 */
export const chatRequestSchema = z.object({
  id: z.uuid(),
  trigger: z.enum(['submit-message', 'regenerate-message']).default('submit-message'),
  messageId: z.string().max(200).optional(),
  message: incomingMessageSchema.optional(),
  /** The ids of the messages the sending tab has, so a stale tab is refused (not interleaved). */
  knownMessageIds: z.array(z.string().max(200)).max(5_000).optional(),
  /** The project a new conversation starts in (its first message only; lib/chat/project-context.server.ts): asked of the one authorization rule, never trusted. */
  projectId: z.uuid().optional(),
  /** The model picked in the header; checked against the operator's list, never trusted. */
  modelId: modelIdSchema.optional(),
  /**
   * Per target whose engine downloads packages (Python's mirror, R's repository): whether the page
   * reached its source ('unknown' before that engine asked). The model is told to do without a
   * source that does not answer. Absent: nothing known.
   */
  packageSources: z.partialRecord(z.enum(TARGET_IDS), z.enum(PACKAGE_SOURCE_ANSWERS)).default({}),
  settings: z
    .object({
      includeImages: z.boolean().default(true),
      stepBudget: z.number().int().min(1).max(TURN_LIMITS.maxStepBudget).default(TURN_LIMITS.defaultStepBudget),
      /** What the model may see in this conversation: only ever stricter than what it is (lib/db/queries/model-inputs.server.ts). */
      modelSees: modelSeesSchema.optional(),
    })
    .default({ includeImages: true, stepBudget: TURN_LIMITS.defaultStepBudget }),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;
