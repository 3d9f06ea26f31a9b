/**
 * What the browser may add to a stored conversation through /api/chat, and nothing else
 * (ARCHITECTURE.md, "Data"): a new user message of text only (files come through the upload route,
 * so no URL the server would fetch), an edit of one of the user's own messages, and the outputs
 * of tool calls the server stored without one. An assistant message's role, text, code and
 * existing outputs are the server's: they are taken from storage, never from the request.
 * Pure functions, so every rule is unit-tested (incoming-message.test.ts).
 */
import 'server-only';
import { AppError } from '@/lib/errors.server';
import { answerMetadataOf } from '../messages/answer-metadata';
import { z } from 'zod';
import { messageMetadataSchema } from '@/lib/messages/attachment';
import { incomingRunOutputSchema, readRunPart, withRunResult } from '@/lib/targets/run-part';

export const MAX_USER_TEXT_CHARS = 100_000;

const messageIdSchema = z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/);

export const incomingUserMessageSchema = z.object({
  id: messageIdSchema,
  role: z.literal('user'),
  parts: z
    .array(z.object({ type: z.literal('text'), text: z.string().max(MAX_USER_TEXT_CHARS) }).strip())
    .min(1)
    .max(20),
  metadata: messageMetadataSchema.optional(),
});

/** Of an assistant message the browser sends, only run outputs are read (lib/targets/run-part.ts); the rest is ignored. */
const incomingToolOutputSchema = incomingRunOutputSchema;
export const incomingAssistantMessageSchema = z.object({
  id: messageIdSchema,
  role: z.literal('assistant'),
  parts: z.array(z.looseObject({ type: z.string().max(100) })).max(500),
  metadata: z.unknown().optional(),
});

export const incomingMessageSchema = z.discriminatedUnion('role', [incomingUserMessageSchema, incomingAssistantMessageSchema]);
export type IncomingMessage = z.infer<typeof incomingMessageSchema>;

/** A stored message (lib/db/queries/messages.server.ts's StoredMessage), as this pure module sees it. */
export type StoredLike = { id: string; role: 'user' | 'assistant' | 'system'; parts: unknown[]; metadata?: unknown };

/** `messages` is the conversation as it will be once `message` is written. */
export type Applied = { kind: 'new-user' | 'edited-user' | 'tool-outputs' | 'continue'; message: StoredLike; messages: StoredLike[] };

/** A message the browser may not send: refused in words, nothing stored. */
const refuse = (code: 'conversation:changed' | 'message:conflict' | 'message:not_found' | 'message:invalid', message: string) => new AppError(code, { message, reason: message });

export const CHANGED_ELSEWHERE = 'This conversation changed in another tab, so your message was not sent. It now shows the latest messages; send yours again.';

/**
 * Applies what the browser sent to the stored list, in memory; nothing is stored here. What may
 * not be applied throws its AppError (conversation:changed, message:*).
 * `knownIds`: the messages the sending tab has; a stored one it lacks means the tab is stale.
 * (Ids only the tab has, such as a failed answer's, are no evidence of anything.)
 */
export function applyIncoming(stored: StoredLike[], incoming: IncomingMessage, knownIds?: ReadonlySet<string>): Applied {
  const index = stored.findIndex((m) => m.id === incoming.id);
  if (incoming.role === 'user') {
    const message: StoredLike = { id: incoming.id, role: 'user', parts: incoming.parts, ...(incoming.metadata ? { metadata: incoming.metadata } : {}) };
    if (index === -1) {
      // Sent from a tab that had not seen the latest messages: refused, never interleaved.
      if (knownIds && stored.some((m) => !knownIds.has(m.id))) throw refuse('conversation:changed', CHANGED_ELSEWHERE);
      return { kind: 'new-user', message, messages: [...stored, message] };
    }
    if (stored[index].role !== 'user') throw refuse('message:conflict', 'Only your own messages can be edited.');
    // An edited user message replaces the original and everything that followed it.
    return { kind: 'edited-user', message, messages: [...stored.slice(0, index), message] };
  }
  if (index === -1 || stored[index].role !== 'assistant') throw refuse('message:not_found', 'Unknown assistant message.');
  if (index !== stored.length - 1) throw refuse('conversation:changed', CHANGED_ELSEWHERE);
  const outputs = new Map<string, z.infer<typeof incomingToolOutputSchema>>();
  for (const part of incoming.parts) {
    const parsed = incomingToolOutputSchema.safeParse(part);
    if (parsed.success) outputs.set(parsed.data.toolCallId, parsed.data);
    else {
      // A run part (read as lib/targets/run-part.ts reads it) whose output is not a valid run result is refused.
      const run = readRunPart(part)?.part;
      if (run?.state === 'output-available') throw refuse('message:invalid', `The output of tool call ${run.toolCallId} is not a valid run result.`);
    }
  }
  const filled: string[] = [];
  const parts = stored[index].parts.map((part) => {
    const run = readRunPart(part)?.part;
    if (!run) return part;
    const output = outputs.get(run.toolCallId);
    // Only a call still waiting for its output takes one, and only of its own tool.
    if (!output || run.state !== 'input-available' || output.type !== run.type) return part;
    filled.push(run.toolCallId);
    return withRunResult(part as object, output.output);
  });
  if (filled.length === 0) {
    // "Continue" on an answer a crash cut off: nothing changes; the model goes on from it.
    if (answerMetadataOf(stored[index].metadata).cutOff === true) return { kind: 'continue', message: stored[index], messages: stored };
    throw refuse('message:conflict', 'Nothing new to store: these tool calls already have their outputs.');
  }
  const message = { ...stored[index], parts };
  return { kind: 'tool-outputs', message, messages: [...stored.slice(0, index), message] };
}
