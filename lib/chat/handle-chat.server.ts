/**
 * One POST /api/chat: store what the browser sent, build the model's context from the stored
 * conversation, stream the answer, and store it when it ends. See ARCHITECTURE.md, "The loop".
 */
import 'server-only';
import { APICallError, createUIMessageStreamResponse, streamText, toUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { findConfiguredModel, getConfig, type AppConfig, type ModelConfig } from '@/lib/config.server';
import { may } from '@/lib/access/authorize.server';
import { projectModelSees } from '@/lib/access/projects.server';
import type { ProjectRow } from '@/lib/db/queries/projects.server';
import { projectForChat, projectPrompt } from './project-context.server';
import { chooseModel } from './choose-model.server';
import { getDb, type Db } from '@/lib/db/client.server';
import { AppError } from '@/lib/errors.server';
import { admitModelRequest, limitMessage, waitWords } from '@/lib/abuse/app-rate-limits.server';
import type { Identity } from '@/lib/auth/current-user.server';
import { countModelRequest } from '@/lib/db/queries/users.server';
import type { Logger } from '@/lib/log/logger.server';
import type { ServerTiming } from '@/lib/http/server-timing.server';
import { buildSystemPrompt, mainAvailablePackages } from '@/lib/ai/system-prompt.server';
import { toModelMessages } from '@/lib/ai/model-messages.server';
import { tools } from '@/lib/ai/python-tool.server';
import { getLanguageModel } from '@/lib/ai/provider.server';
import { callProviderAfter } from '@/lib/ai/call-after.server';
import { apiOf } from '@/lib/ai/provider-clients.server';
import { getConversation, setConversationModel } from '@/lib/db/queries/conversations.server';
import { classifyModelError, modelErrorText } from '@/lib/ai/model-errors.server';
import type { ChatRequest } from './request-schema.server';
import { runsThisTurn } from './step-budget.server';
import { loadConversationForChat, saveIncomingMessage } from './chat-store.server';
import { AnswerDraft } from './answer-drafts.server';
import { targetOf } from '@/lib/targets/registry';
import { blockCallId, blocksToToolCalls, splitBlocksInParts } from '@/lib/ai/blocks-stream.server';
import { getAppStreams } from '@/lib/streams/app-streams.server';
import { listMessages } from '@/lib/db/queries/messages.server';
import { maybeGenerateTitle } from './titles.server';
import { observeModelStream } from '@/lib/metrics/model-stream.server';
import { ANSWER_ALLOWANCE_TOKENS, estimateTokens, reserveTokens, unbudgetedUsage, type TokenReservation } from '@/lib/usage/token-budget.server';
import { UsageMeter } from '@/lib/usage/record-usage.server';
import { recordModelInput, settleModelSees } from '@/lib/db/queries/model-inputs.server';
import { ANSWER_STREAM_HEADERS } from '@/lib/http/answer-stream-headers.server';
import { buildModelInput } from '@/lib/ai/model-input.server';

type HandleChatInput = { identity: Identity; request: ChatRequest; timing: ServerTiming; requestId: string; log: Logger };

export async function handleChat({ identity, request, timing, log }: HandleChatInput): Promise<Response> {
  const db = await getDb();
  const config = getConfig();
  const userId = identity.userId;
  // Read once: the model choice and the conversation's loading below both need it.
  const existing = await getConversation(db, userId, request.id);
  // Someone else's conversation shared with them to read: the one rule's 403 in words (they continue
  // in a copy of their own); anyone else's stays the 404 of an id that names nothing (chat-store.server.ts).
  if (!existing && (await may(db, identity, 'read', { conversation: request.id }))) {
    throw new AppError('conversation:not_allowed', { reason: 'a reader wrote in a conversation shared with them to read' });
  }
  timing.mark('conversation');
  // The model: the one the page picked, if the operator offers it. Checked before the limits, so
  // a request refused for its model costs no point, and before anything is stored.
  // The project it works in (the one rule decides whether it may), whose model a new conversation starts on.
  const project = await projectForChat(db, identity, request, existing);
  const projectModel = !existing && request.modelId === undefined && project?.modelId && findConfiguredModel(project.modelId) ? project.modelId : undefined;
  const entry: ModelConfig = await chooseModel(db, userId, projectModel ? { ...request, modelId: projectModel } : request, existing);
  timing.mark('model');
  // Limits before anything is stored (even a new conversation): a refused request leaves nothing half-written.
  // The token budget first: the request reserves its estimated tokens (atomically: simultaneous
  // requests see each other's), and refused by it, the request costs no point of the counters below.
  // Without a budget nothing is asked: the tokens are written when the answer ends.
  const tokenBudget = identity.person.tokensPerDay ?? config.limits.tokensPerDay;
  const owner = { personId: userId, kind: 'answer' as const };
  const reservation = tokenBudget === null ? unbudgetedUsage(db, entry, owner, log) : await reserveTokens(db, entry, owner, estimateTokens(JSON.stringify(request.message?.parts ?? [])) + ANSWER_ALLOWANCE_TOKENS, tokenBudget, log);
  if (!reservation.ok) {
    const wait = reservation.retryAfterSeconds;
    throw new AppError('rate_limit:exceeded', { message: `You have reached the daily number of tokens for the model. Try again in ${waitWords(wait)}.`, reason: 'token budget', headers: { 'retry-after': String(wait) }, details: { retryAfterSeconds: wait } });
  }
  timing.mark('budget');
  try {
    return await answer({ identity, request, timing, log, db, config, existing, entry, reservation, project });
  } catch (error) {
    // Nothing was asked of the provider: the reservation goes.
    await reservation.settle(null, null);
    throw error;
  }
}

type Admitted = Pick<HandleChatInput, 'identity' | 'request' | 'timing' | 'log'> & {
  db: Db;
  config: AppConfig;
  existing: Awaited<ReturnType<typeof getConversation>>;
  entry: ModelConfig;
  reservation: TokenReservation;
  project: ProjectRow | null;
};

/** The request within its token budget: the other limits, then the answer, streamed. */
async function answer({ identity, request, timing, log, db, config, existing, entry, reservation, project }: Admitted): Promise<Response> {
  const userId = identity.userId;
  const limited = await admitModelRequest(userId, identity.address, identity.person);
  if (!limited.ok) {
    const wait = limited.retryAfterSeconds;
    throw new AppError('rate_limit:exceeded', { message: limitMessage(limited), reason: `rate limit ${limited.kind}`, headers: { 'retry-after': String(wait) }, details: { retryAfterSeconds: wait } });
  }
  timing.mark('limits');
  // Refusals below are AppErrors (lib/errors.server.ts), answered and logged once by route().
  const loaded = await loadConversationForChat(db, userId, request, existing);
  // A conversation this request makes is made with its message, on the chosen model.
  const saved = request.message
    ? await saveIncomingMessage(db, userId, request.id, request.message, request.knownMessageIds ? new Set(request.knownMessageIds) : undefined, loaded.creates ? { modelId: entry.id, projectId: project?.id ?? null } : undefined)
    : undefined;
  const stored = saved?.messages;
  const continuing = saved?.continued === true;
  // Any other records a switch of model.
  if (!saved?.created && loaded.modelId !== entry.id) await setConversationModel(db, userId, request.id, entry.id);
  const conversationLog = log.child({ conversationId: request.id, guest: userId });
  timing.mark('save');
  const messages = await loaded.history(stored);
  timing.mark('history');

  const stepBudget = Math.min(request.settings.stepBudget, config.stepBudget);
  const budgetSpent = runsThisTurn(messages) >= stepBudget;
  // Capabilities decide how we talk to it: a model without tool calling writes code blocks, one
  // without image input reads each figure in words. The history is rebuilt in its format.
  const codeMode = config.codeMode === 'blocks' || !entry.tools ? 'blocks' : 'tools';
  const includeImages = request.settings.includeImages && entry.images;
  // What the model may see: the strictest of the operator's, the conversation's and the request's.
  const modelSees = await settleModelSees(db, userId, request.id, project ? projectModelSees(project) : config.modelSees, loaded.modelSees, request.settings.modelSees);
  const modelMessages = await toModelMessages(messages, {
    api: apiOf(entry.provider),
    includeImages,
    resolveBlob: loaded.resolveBlob,
    codeMode,
    modelSees,
  });
  const projectText = await projectPrompt(db, project, request.id);
  const instructions =
    buildSystemPrompt({
      packages: mainAvailablePackages(),
      packageSources: request.packageSources,
      stepBudget,
      budgetSpent,
      codeMode,
    }) +
    projectText +
    (continuing ? '\n\nYour previous answer was cut off before it ended. Continue it exactly where it stopped, without repeating what you already wrote.' : '');

  // No byte from the model for the idle timeout (counted on the wire) aborts the call like a Stop
  // would; an abort without a Stop is then worded as the timeout (timeoutsAsErrors below).
  const idle = new AbortController();
  const provider = await getLanguageModel(entry, { ms: config.modelIdleTimeoutMs, onIdle: () => idle.abort() });
  timing.mark('prepare');
  // The answer belongs to the conversation, not to this connection: a reload (the connection
  // closing) must not stop it. Only Stop does, through its own endpoint, from any instance.
  const { streams, registry } = await getAppStreams();
  const streamId = crypto.randomUUID();
  const stop = new AbortController();
  await registry.start(request.id, streamId);
  const unregisterStop = registry.onStop(request.id, streamId, () => stop.abort());
  timing.mark('register');
  // The SDK's idle timeouts abort the request like a Stop would: an abort without a Stop is the timeout.
  const timedOut = () => !stop.signal.aborted;
  const continued = messages.at(-1)?.role === 'assistant' ? (stored ?? (await listMessages(db, request.id))).find((m) => m.id === messages.at(-1)?.id) ?? null : null;
  // The answer this request writes (the one it continues, or a new one), and what is sent for it.
  const answerId = messages.at(-1)?.role === 'assistant' ? (messages.at(-1)?.id ?? crypto.randomUUID()) : crypto.randomUUID();
  // What the model will see is recorded before the provider is asked, after the answer's first byte.
  const model = callProviderAfter(provider, () => recordModelInput(db, { conversationId: request.id, answerId, modelSees, ...buildModelInput(instructions, modelMessages) }));
  const draft = new AnswerDraft(db, userId, request.id, continued, conversationLog);
  // Past the step budget, blocks stay text: the model was told to stop running code.
  const blocksMode = codeMode === 'blocks' && !budgetSpent;
  const blockIds = blockCallId(streamId);
  // Set by any error the stream reports, even one the SDK then finishes the stream after.
  let failed = false;
  const errorTexts = new Set<string>();
  // What the model reports it used, summed over the steps as they stream past; written after the answer.
  const meter = new UsageMeter();
  const result = streamText({
    model,
    instructions,
    messages: modelMessages,
    // Blocks mode offers no tools: the model writes fenced blocks, which become calls below.
    ...(codeMode === 'blocks' ? {} : { tools, toolChoice: budgetSpent ? ('none' as const) : ('auto' as const) }),
    abortSignal: AbortSignal.any([stop.signal, idle.signal]),
    // Retries are the page's, visible (a countdown for a rate limit, a Retry button otherwise),
    // not seconds of silent waiting here.
    maxRetries: 0,
    // A model that stops sending is a failure with words, not "Thinking…" forever.
    timeout: { firstChunkMs: config.modelIdleTimeoutMs, chunkMs: config.modelIdleTimeoutMs },
    // Logged once, structured, by the UI stream's onError below (the default prints to stderr).
    onError: () => undefined,
  });

  const stream = toUIMessageStream<typeof tools, UIMessage>({
    // Latency, tokens and the answers streaming now, for the metrics (lib/metrics/); tokens for usage.
    stream: observeModelStream(result.stream.pipeThrough(meter.tap()), entry.id),
    tools,
    originalMessages: messages,
    generateMessageId: () => answerId,
    // Each answer records the model that wrote it (shown under it, kept by shares and forks).
    messageMetadata: ({ part }) =>
      part.type === 'start' ? { ...(budgetSpent ? { budgetSpent: stepBudget } : {}), model: { id: entry.id, label: entry.label }, ...(modelSees === 'schema' ? { modelSees } : {}), streaming: false, cutOff: false } : undefined,
    onError: (error) => {
      failed = true;
      // The SDK hands an error text made here back once more, as an Error, while it builds the
      // answer's message: the same failure, already logged with its cause and already in words.
      if (error instanceof Error && errorTexts.has(error.message)) return error.message;
      const classified = classifyModelError(error, entry);
      conversationLog.error({ err: error, cause: classified.cause, model: entry.id, provider: entry.provider, status: APICallError.isInstance(error) ? error.statusCode : undefined }, 'model request failed');
      const text = modelErrorText(classified);
      errorTexts.add(text);
      return text;
    },
    onEnd: async ({ responseMessage, outcome }) => {
      unregisterStop();
      await registry.finish(request.id, streamId).catch((error: unknown) => conversationLog.warn({ err: error }, 'could not clear the live stream'));
      // A failed answer stores nothing (its fragment is discarded; what was stored before stays),
      // and a stopped one only if it has something to show.
      const keep = !(failed || outcome.status === 'failed' || (outcome.status === 'aborted' && timedOut())) && hasContent(responseMessage);
      // In blocks mode the page was sent tool calls where the model wrote blocks: store the same.
      const final = blocksMode ? { ...responseMessage, parts: splitBlocksInParts(responseMessage.parts, continued?.parts.length ?? 0, blockIds) as UIMessage['parts'] } : responseMessage;
      await draft.finish(keep ? final : null);
      // The person's request count (the admin page's): counted once the request reached the model, off the path to the first byte.
      await countModelRequest(db, userId).catch((error: unknown) => conversationLog.warn({ err: error }, 'could not count the model request'));
      // Whatever became of the answer, the tokens the model reported were spent: they replace the reservation.
      await reservation.settle(meter.measured(), request.id);
      if (!keep) return;
      // The title is a nicety: generated after the answer, never delaying the end of the stream.
      // Once per conversation: on the answer to its first user message, not at every step of that turn.
      if (!loaded.hasTitle && request.message?.role === 'user') {
        void maybeGenerateTitle(db, userId, request.id, messages, entry, { answerId, modelSees }, conversationLog).catch((error: unknown) => conversationLog.warn({ err: error }, 'title generation failed'));
      }
    },
  });
  const shaped = blocksMode ? stream.pipeThrough(blocksToToolCalls(blockIds)) : stream;
  const [toPage, toDraft] = shaped.pipeThrough(timeoutsAsErrors(timedOut, conversationLog)).tee();
  draft.watch(toDraft, continued ? messages.at(-1) : undefined);
  return createUIMessageStreamResponse({
    // A code call reaches the page (which runs it at once) only once the answer holding it is
    // stored. Blocks become calls only here, and are stored as the text they are.
    stream: blocksMode ? toPage : toPage.pipeThrough(callsAfterTheirDraft(draft)),
    headers: { ...ANSWER_STREAM_HEADERS, 'Server-Timing': timing.header() },
    // A copy of what the page receives, kept so a reloaded page (or another instance) can attach.
    consumeSseStream: async ({ stream: sse }) => {
      await streams.context.createNewResumableStream(streamId, () => sse).catch((error: unknown) => conversationLog.error({ err: error }, 'could not make the answer resumable'));
    },
  });
}

/** Holds each code call's chunk until the draft holding the call is stored (AnswerDraft.callStored). */
function callsAfterTheirDraft(draft: AnswerDraft): TransformStream<UIMessageChunk, UIMessageChunk> {
  return new TransformStream({
    async transform(chunk, controller) {
      if (chunk.type === 'tool-input-available' && targetOf(chunk.toolName)) await draft.callStored(chunk.toolCallId);
      controller.enqueue(chunk);
    },
  });
}

/** Whether an answer has anything a reader would see: text, reasoning or a tool call. */
function hasContent(message: UIMessage): boolean {
  return message.parts.some((part) => (part.type === 'text' ? part.text.trim() !== '' : part.type !== 'step-start'));
}

/** An abort the browser did not ask for is the idle timeout: the page gets it as an error in words. */
function timeoutsAsErrors(timedOut: () => boolean, log: Logger): TransformStream<UIMessageChunk, UIMessageChunk> {
  return new TransformStream<UIMessageChunk, UIMessageChunk>({
    transform(chunk, controller) {
      if (chunk.type === 'abort' && timedOut()) {
        const classified = classifyModelError(new DOMException('The model sent nothing: timeout of idle ms exceeded', 'TimeoutError'));
        log.error({ cause: classified.cause }, 'model request timed out');
        controller.enqueue({ type: 'error', errorText: modelErrorText(classified) });
        return;
      }
      controller.enqueue(chunk);
    },
  });
}
