/**
 * Stored messages as the AI SDK's UIMessages, for the model's context, the conversation page and
 * the share page: validated part by part (tool inputs and outputs against their tools' schemas)
 * by the SDK, never cast. One that does not validate is message:invalid, in words.
 */
import 'server-only';
import { safeValidateUIMessages, type UIMessage } from 'ai';
import { tools } from '@/lib/ai/python-tool.server';
import type { StoredMessage } from '@/lib/db/queries/messages.server';
import { AppError } from '@/lib/errors.server';

export async function toUIMessages(stored: StoredMessage[]): Promise<UIMessage[]> {
  if (stored.length === 0) return []; // the SDK refuses an empty list; an empty conversation is not invalid
  const validated = await safeValidateUIMessages({ messages: stored, tools });
  if (!validated.success) throw new AppError('message:invalid', { message: `The conversation has an invalid message: ${validated.error.message}`, reason: 'stored messages invalid', cause: validated.error });
  return validated.data;
}
