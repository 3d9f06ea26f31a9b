/** The record of what the model was sent (lib/ai/model-input.server.ts), as stored and as the page reads it. Shared by server and browser. */
import { z } from 'zod';

export const modelSeesValues = z.enum(['outputs', 'schema']);

export const modelInputItemSchema = z.discriminatedUnion('kind', [
  /** Text as sent: a message's text, a tool call's input (JSON), a tool result's text. */
  z.object({ kind: z.literal('text'), label: z.string().max(200), text: z.string() }),
  z.object({ kind: z.literal('image'), label: z.string().max(200), mediaType: z.string().max(200), sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().nonnegative() }),
]);
export type ModelInputItem = z.infer<typeof modelInputItemSchema>;

export const modelInputContentSchema = z.object({
  system: z.string(),
  messages: z.array(z.object({ role: z.string().max(20), items: z.array(modelInputItemSchema) })),
});
export type ModelInputContent = z.infer<typeof modelInputContentSchema>;

/** One recorded request, as the page gets it. */
export const modelInputSchema = z.object({
  id: z.string(),
  answerId: z.string(),
  modelSees: modelSeesValues,
  textBytes: z.number().int().nonnegative(),
  imageBytes: z.number().int().nonnegative(),
  createdAt: z.string(),
  content: modelInputContentSchema,
});
export type ModelInput = z.infer<typeof modelInputSchema>;


/** GET /api/conversations/<id>/model-inputs. */
export const modelInputsResponseSchema = z.object({
  modelSees: modelSeesValues,
  operatorModelSees: modelSeesValues,
  totals: z.object({ requests: z.number().int().nonnegative(), textBytes: z.number().int().nonnegative(), imageBytes: z.number().int().nonnegative() }),
  inputs: z.array(modelInputSchema),
});
