/**
 * The storage side of a chat request: ownership, saving the incoming and the answered message,
 * and loading the history the model's context is built from.
 */
import 'server-only';
import { safeValidateUIMessages, type UIMessage } from 'ai';
import type { Db } from '@/lib/db/client.server';
import { getConversation, lockConversation, lockOrCreateConversation, type ConversationRow } from '@/lib/db/queries/conversations.server';
import { listMessages, saveMessages, upsertMessage, type StoredMessage } from '@/lib/db/queries/messages.server';
import { getBlobsForUser } from '@/lib/db/queries/blobs.server';
import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { readWhole } from '@/lib/blobs/read-whole.server';
import type { ResolveBlob } from '@/lib/ai/run-to-model.server';
import { createBlobResolver } from './blob-resolver.server';
import { tools } from '@/lib/ai/python-tool.server';
import type { ChatRequest } from './request-schema.server';
import { externalizeMessageImages as externalizeImages } from './externalize-images.server';
import { applyIncoming, type IncomingMessage } from './incoming-message.server';
import { toUIMessages } from './ui-messages.server';
import { AppError } from '@/lib/errors.server';
type Loaded = {
  /** The conversation does not exist yet: the request's message makes it (saveIncomingMessage with `create`). */
  creates: boolean;
  hasTitle: boolean;
  /** The model the stored conversation is on (null: none yet, or not made yet). */
  modelId: string | null;
  modelSees: string | null;
  history: (stored?: StoredMessage[]) => Promise<UIMessage[]>;
  /** The request's figures by digest: looked up together, each read once (./blob-resolver.ts). */
  resolveBlob: ResolveBlob;
};

/**
 * The conversation a chat request is about. One that does not exist yet is made by the save of
 * the request's message, in the same transaction (saveIncomingMessage); only a new user message
 * may make one, and an id someone else holds stays a 404 there.
 * `known`: the conversation as the caller already read it for this request (null: none yet); read here when not given.
 */
export async function loadConversationForChat(db: Db, userId: string, request: ChatRequest, known?: ConversationRow | null): Promise<Loaded> {
  const conversation = known === undefined ? await getConversation(db, userId, request.id) : known;
  // Only a new user message may create a conversation; an id someone else owns stays a 404.
  if (!conversation && (request.message?.role !== 'user' || request.trigger !== 'submit-message')) throw new AppError('conversation:not_found', { reason: 'conversation not owned, and the request cannot create it' });
  const conversationId = request.id;
  return {
    creates: !conversation,
    hasTitle: (conversation?.title ?? null) !== null,
    modelId: conversation?.modelId ?? null,
    /** The conversation's own policy of what the model sees (read back by settleModelSees). */
    modelSees: conversation?.modelSees ?? null,
    /** The stored messages, validated (message:invalid when one is not); pass them when the caller already has them (after a save). */
    history: async (known?: StoredMessage[]) => {
      let stored = known ?? (await listMessages(db, conversationId));
      if (request.trigger === 'regenerate-message') {
        stored = dropAfterLastUserMessage(stored);
        await saveMessages(db, userId, conversationId, stored);
      }
      return toUIMessages(stored);
    },
    resolveBlob: createBlobResolver(
      (sha256s) => getBlobsForUser(db, userId, sha256s),
      async (sha256) => readWhole(await getBlobStore(), sha256),
    ),
  };
}

function dropAfterLastUserMessage<M extends { role: string }>(messages: M[]): M[] {
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  return lastUser === -1 ? messages : messages.slice(0, lastUser + 1);
}

type SaveResult = { messages: StoredMessage[]; continued?: boolean; created: boolean };

/**
 * The user's message is stored before the model is called; tool outputs as soon as they arrive.
 * Validated whole before anything is written, so an invalid message is refused, never stored.
 * `create`: the conversation does not exist yet (loadConversationForChat said so): it is made
 * here, on `create.modelId`, with its first message. Returns the conversation's messages as now
 * stored, so the history need not be read again; throws an AppError (conversation:not_found,
 * conversation:changed, message:*) when the message is refused, and then nothing is written.
 */
export async function saveIncomingMessage(db: Db, userId: string, conversationId: string, incoming: IncomingMessage, knownIds?: ReadonlySet<string>, create?: { modelId: string; projectId?: string | null }): Promise<SaveResult> {
  // Images become blobs first: that counts against the quota and must not wait on the lock below.
  // (A message that makes its conversation is a user's text: it has none.)
  const [prepared] = create ? [incoming] : await externalizeImages([incoming], userId, conversationId, db);
  return db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    // One writer at a time per conversation: two tabs sending at once are ordered, and the
    // second one sees the first one's message (and is refused as stale).
    const held = create ? await lockOrCreateConversation(txDb, userId, { id: conversationId, modelId: create.modelId, projectId: create.projectId ?? null }) : (await lockConversation(txDb, userId, conversationId)) ? 'locked' : null;
    if (!held) throw new AppError('conversation:not_found', { reason: create ? 'conversation id owned by another user' : 'conversation not owned when saving' });
    const stored = held === 'created' ? [] : await listMessages(txDb, conversationId);
    const applied = applyIncoming(stored, prepared as IncomingMessage, knownIds);
    const message = applied.message;
    const valid = await safeValidateUIMessages({ messages: [message], tools });
    if (!valid.success) throw new AppError('message:invalid', { message: `The message is not valid: ${valid.error.message}` });
    const created = held === 'created';
    if (applied.kind === 'continue') return { messages: applied.messages, continued: true, created };
    if (applied.kind === 'edited-user') await saveMessages(txDb, userId, conversationId, applied.messages.slice(0, -1));
    const saved = await upsertMessage(txDb, userId, conversationId, message);
    if (!saved) throw new AppError('conversation:not_found', { reason: 'conversation not owned when saving' });
    return { messages: applied.messages, created };
  });
}
