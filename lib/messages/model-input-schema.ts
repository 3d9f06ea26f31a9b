/** What the model may see, and the record of what it was sent (lib/ai/model-input.server.ts), as stored and as the page reads it. Shared by server and browser. */
import { z } from 'zod';

/**
 * What the model may see of the person's data, from least to most strict: `outputs` or `schema`
 * (what each shows the model: lib/ai/model-sees.server.ts). The operator sets the default
 * (RUNPAD_MODEL_SEES), a conversation may only be stricter.
 */
export const MODEL_SEES = ['outputs', 'schema'] as const;
export const modelSeesSchema = z.enum(MODEL_SEES);
export type ModelSees = z.infer<typeof modelSeesSchema>;

/** The strictest of the given policies (absent ones are ignored; none at all: `outputs`). */
export function strictest(...policies: Array<ModelSees | null | undefined>): ModelSees {
  let rank = 0;
  for (const policy of policies) if (policy) rank = Math.max(rank, MODEL_SEES.indexOf(policy));
  return MODEL_SEES[rank];
}

export const modelInputItemSchema = z.discriminatedUnion('kind', [
  /** Text as sent: a message's text, a tool call's input (JSON), a tool result's text. */
  z.object({ kind: z.literal('text'), label: z.string().max(200), text: z.string() }),
  z.object({ kind: z.literal('image'), label: z.string().max(200), mediaType: z.string().max(200), sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().nonnegative() }),
]);
export type ModelInputItem = z.infer<typeof modelInputItemSchema>;

/** What a request was for: an answer (a record written before this field existed is one) or the conversation's title. */
export const modelInputPurposeSchema = z.enum(['answer', 'title']);
export type ModelInputPurpose = z.infer<typeof modelInputPurposeSchema>;

export const modelInputContentSchema = z.object({
  system: z.string(),
  messages: z.array(z.object({ role: z.string().max(20), items: z.array(modelInputItemSchema) })),
  purpose: modelInputPurposeSchema.optional(),
});
export type ModelInputContent = z.infer<typeof modelInputContentSchema>;

/** One recorded request, as the page gets it. */
export const modelInputSchema = z.object({
  id: z.string(),
  answerId: z.string(),
  modelSees: modelSeesSchema,
  textBytes: z.number().int().nonnegative(),
  imageBytes: z.number().int().nonnegative(),
  createdAt: z.string(),
  content: modelInputContentSchema,
});
export type ModelInput = z.infer<typeof modelInputSchema>;


/** GET /api/conversations/<id>/model-inputs. */
export const modelInputsResponseSchema = z.object({
  modelSees: modelSeesSchema,
  operatorModelSees: modelSeesSchema,
  /** Every model this server offers is its built-in demo model: nothing was sent to a model provider. */
  builtInModel: z.boolean(),
  totals: z.object({ requests: z.number().int().nonnegative(), textBytes: z.number().int().nonnegative(), imageBytes: z.number().int().nonnegative() }),
  inputs: z.array(modelInputSchema),
});
