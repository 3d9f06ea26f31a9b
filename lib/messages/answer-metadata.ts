/**
 * What an answer carries in its metadata, stored with it and read back by the server (drafts,
 * cut-off answers, forks) and the page (the model under an answer, the step budget, Continue):
 * one schema, parsed wherever it is read, never cast. Shared by server and browser.
 */
import { z } from 'zod';

/** Stored on each answer (metadata.model) and shown under it; kept by shares and forks. */
export const answerModelSchema = z.object({ id: z.string().max(64), label: z.string().max(80) });
export type AnswerModel = z.infer<typeof answerModelSchema>;

/**
 * Each field is read on its own (a malformed one is dropped, the others kept), and fields of
 * other kinds of metadata (a user message's files) pass through untouched.
 */
export const answerMetadataSchema = z.looseObject({
  model: answerModelSchema.optional().catch(undefined),
  /** The step budget this answer ran into (the model was told to stop running code). */
  budgetSpent: z.number().int().nonnegative().optional().catch(undefined),
  /** What the model could see of outputs and files when it wrote this answer (lib/ai/model-sees.server.ts). */
  modelSees: z.enum(['outputs', 'schema']).optional().catch(undefined),
  /** A draft written while the answer streams (lib/chat/answer-drafts.server.ts). */
  streaming: z.boolean().optional().catch(undefined),
  /** Cut off by a crash: shown with Continue and Regenerate. */
  cutOff: z.boolean().optional().catch(undefined),
});
export type AnswerMetadata = z.infer<typeof answerMetadataSchema>;

/** A message's metadata as an answer's; empty when there is none or it is not an object. */
export function answerMetadataOf(metadata: unknown): AnswerMetadata {
  const parsed = answerMetadataSchema.safeParse(metadata);
  return parsed.success ? parsed.data : {};
}

/** The model that wrote the last answer in these messages, if one was recorded. */
export function lastAnswerModel(messages: ReadonlyArray<{ role: string; metadata?: unknown }>): AnswerModel | null {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    if (messages[i].role !== 'assistant') continue;
    const { model } = answerMetadataOf(messages[i].metadata);
    if (model) return model;
  }
  return null;
}
