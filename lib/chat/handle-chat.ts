/**
 * One POST /api/chat: store what the browser sent, build the model's context from the stored
 * conversation, stream the answer, and store it when it ends. See DESIGN.md, "The loop".
 */
import 'server-only';
import { createUIMessageStreamResponse, streamText, toUIMessageStream, type UIMessage } from 'ai';
import { getConfig } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { notFound, jsonError, tooManyRequests } from '@/lib/http/errors';
import { getRateLimits, limitMessage } from '@/lib/abuse/app-rate-limits';
import { QuotaExceededError } from '@/lib/db/queries/quota';
import { quotaMessage } from '@/lib/files/storage-quota';
import type { Logger } from '@/lib/log/logger';
import type { ServerTiming } from '@/lib/http/server-timing';
import { buildSystemPrompt, mainAvailablePackages } from '@/lib/ai/system-prompt';
import { toModelMessages } from '@/lib/ai/model-messages';
import { tools } from '@/lib/ai/python-tool';
import { getLanguageModel } from '@/lib/ai/provider';
import { describeModelError } from '@/lib/ai/model-errors';
import type { ChatRequest } from './request-schema';
import { runsThisTurn } from './step-budget';
import { loadConversationForChat, saveAssistantMessage, saveIncomingMessage } from './chat-store';
import { maybeGenerateTitle } from './titles';

type HandleChatInput = { userId: string; request: ChatRequest; abortSignal: AbortSignal; timing: ServerTiming; requestId: string; log: Logger };

export async function handleChat({ userId, request, abortSignal, timing, log }: HandleChatInput): Promise<Response> {
  const db = await getDb();
  const config = getConfig();
  // Limits before anything is stored (even a new conversation): a refused request leaves nothing half-written.
  const limited = await (await getRateLimits()).consumeAll(['model-per-minute', 'model-per-day'], userId);
  if (!limited.ok) return tooManyRequests(limitMessage(limited), limited.retryAfterSeconds, `rate limit ${limited.kind}`);
  const loaded = await loadConversationForChat(db, userId, request);
  timing.mark('conversation');
  if (loaded.kind === 'not-found') return notFound('conversation not owned');
  let stored;
  if (request.message) {
    let saved;
    try {
      saved = await saveIncomingMessage(db, userId, request.id, request.message);
    } catch (error) {
      if (error instanceof QuotaExceededError) return jsonError(413, quotaMessage(error), { reason: 'storage quota' });
      throw error;
    }
    if (!saved.ok) return jsonError(saved.status, saved.message);
    stored = saved.messages;
  }
  const conversationLog = log.child({ conversationId: request.id, guest: userId });
  timing.mark('save');
  const history = await loaded.history(stored);
  timing.mark('history');
  if (history.kind === 'invalid') return jsonError(400, history.message);
  const messages = history.messages;

  const stepBudget = Math.min(request.settings.stepBudget, config.stepBudget);
  const budgetSpent = runsThisTurn(messages) >= stepBudget;
  const api = config.model.kind === 'compatible' ? 'chat' : 'responses';
  const modelMessages = await toModelMessages(messages, {
    api,
    includeImages: request.settings.includeImages,
    resolveBlob: loaded.resolveBlob,
  });
  const instructions = buildSystemPrompt({
    packages: mainAvailablePackages(),
    stepBudget,
    budgetSpent,
  });

  const model = await getLanguageModel(config.model);
  timing.mark('prepare');
  const result = streamText({
    model,
    instructions,
    messages: modelMessages,
    tools,
    toolChoice: budgetSpent ? 'none' : 'auto',
    abortSignal,
  });

  const stream = toUIMessageStream<typeof tools, UIMessage>({
    stream: result.stream,
    tools,
    originalMessages: messages,
    generateMessageId: () => crypto.randomUUID(),
    messageMetadata: ({ part }) => (part.type === 'start' && budgetSpent ? { budgetSpent: stepBudget } : undefined),
    onError: (error) => {
      const message = describeModelError(error);
      conversationLog.error({ err: error, cause: message }, 'model request failed');
      return message;
    },
    onEnd: async ({ responseMessage, isAborted }) => {
      if (responseMessage.parts.length === 0 && isAborted) return;
      await saveAssistantMessage(db, userId, request.id, responseMessage);
      // The title is a nicety: generated after the answer, never delaying the end of the stream.
      void maybeGenerateTitle(db, userId, request.id, messages, config.model).catch(() => undefined);
    },
  });
  return createUIMessageStreamResponse({ stream, headers: { 'Server-Timing': timing.header() } });
}
