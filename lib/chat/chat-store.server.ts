/**
 * The storage side of a chat request: ownership, saving the incoming and the answered message,
 * and loading the history the model's context is built from.
 */
import 'server-only';
import { safeValidateUIMessages, type UIMessage } from 'ai';
import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client.server';
import { getConversation, ownOrCreateConversation, type ConversationRow } from '@/lib/db/queries/conversations.server';
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
  hasTitle: boolean;
  modelId: string | null;
  modelSees: string | null;
  history: (stored?: StoredMessage[]) => Promise<UIMessage[]>;
  /** The request's figures by digest: looked up together, each read once (./blob-resolver.ts). */
  resolveBlob: ResolveBlob;
};

/**
 * `modelId`: the model a conversation created here starts with (the request checked it).
 * `known`: the conversation as the caller already read it for this request (null: none yet); read here when not given.
 */
export async function loadConversationForChat(db: Db, userId: string, request: ChatRequest, modelId: string, known?: ConversationRow | null): Promise<Loaded> {
  let conversation = known === undefined ? await getConversation(db, userId, request.id) : known;
  if (!conversation) {
    // Only a new user message may create a conversation; an id someone else owns stays a 404.
    if (request.message?.role !== 'user' || request.trigger !== 'submit-message') throw new AppError('conversation:not_found', { reason: 'conversation not owned, and the request cannot create it' });
    // Made here or by a request that arrived with this one (an upload); held by someone else: a 404.
    conversation = await ownOrCreateConversation(db, userId, { id: request.id, modelId });
    if (!conversation) throw new AppError('conversation:not_found', { reason: 'conversation id owned by another user' });
  }
  const conversationId = conversation.id;
  return {
    hasTitle: conversation.title !== null,
    modelId: conversation.modelId,
    /** The conversation's own policy of what the model sees (read back by settleModelSees). */
    modelSees: conversation.modelSees,
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

type SaveResult = { messages: StoredMessage[]; continued?: boolean };

/**
 * The user's message is stored before the model is called; tool outputs as soon as they arrive.
 * Validated whole before anything is written, so an invalid message is refused, never stored.
 * Returns the conversation's messages as now stored, so the history need not be read again;
 * throws an AppError (conversation:changed, message:*) when the message is refused.
 */
export async function saveIncomingMessage(db: Db, userId: string, conversationId: string, incoming: IncomingMessage, knownIds?: ReadonlySet<string>): Promise<SaveResult> {
  // Images become blobs first: that counts against the quota and must not wait on the lock below.
  const [prepared] = await externalizeImages([incoming], userId, conversationId, db);
  return db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    // One writer at a time per conversation: two tabs sending at once are ordered, and the
    // second one sees the first one's message (and is refused as stale).
    await tx.execute(sql`select 1 from conversations where id = ${conversationId} for update`);
    const stored = await listMessages(txDb, conversationId);
    const applied = applyIncoming(stored, prepared as IncomingMessage, knownIds);
    const message = applied.message;
    const valid = await safeValidateUIMessages({ messages: [message], tools });
    if (!valid.success) throw new AppError('message:invalid', { message: `The message is not valid: ${valid.error.message}` });
    if (applied.kind === 'continue') return { messages: applied.messages, continued: true };
    if (applied.kind === 'edited-user') await saveMessages(txDb, userId, conversationId, applied.messages.slice(0, -1));
    const saved = await upsertMessage(txDb, userId, conversationId, message);
    if (!saved) throw new AppError('conversation:not_found', { reason: 'conversation not owned when saving' });
    return { messages: applied.messages };
  });
}
