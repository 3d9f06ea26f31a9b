/**
 * The storage side of a chat request: ownership, saving the incoming and the answered message,
 * and loading the history the model's context is built from.
 */
import 'server-only';
import { safeValidateUIMessages, type UIMessage } from 'ai';
import type { Db } from '@/lib/db/client';
import { createConversation, getConversation } from '@/lib/db/queries/conversations';
import { listMessages, saveMessages, upsertMessage, type StoredMessage } from '@/lib/db/queries/messages';
import { getBlobForUser, putConversationBlob } from '@/lib/db/queries/blobs';
import { tools } from '@/lib/ai/python-tool';
import type { ChatRequest } from './request-schema';
import { externalizeImages } from './externalize-images';
import { messageMetadataSchema } from '@/lib/files/attachment';

type IncomingMessage = NonNullable<ChatRequest['message']>;
type History = { kind: 'ok'; messages: UIMessage[] } | { kind: 'invalid'; message: string };
type Loaded =
  | { kind: 'not-found' }
  | { kind: 'ok'; history: (stored?: StoredMessage[]) => Promise<History>; resolveBlob: (sha: string) => Promise<{ mediaType: string; base64: string } | null> };

export async function loadConversationForChat(db: Db, userId: string, request: ChatRequest): Promise<Loaded> {
  let conversation = await getConversation(db, userId, request.id);
  if (!conversation) {
    // Only a new user message may create a conversation; an id someone else owns stays a 404.
    if (request.message?.role !== 'user' || request.trigger !== 'submit-message') return { kind: 'not-found' };
    try {
      conversation = await createConversation(db, userId, { id: request.id });
    } catch {
      return { kind: 'not-found' };
    }
  }
  const conversationId = conversation.id;
  return {
    kind: 'ok',
    /** The stored messages, validated; pass them when the caller already has them (after a save). */
    history: async (known?: StoredMessage[]) => {
      let stored = known ?? (await listMessages(db, conversationId));
      if (request.trigger === 'regenerate-message') {
        stored = dropAfterLastUserMessage(stored);
        await saveMessages(db, userId, conversationId, stored);
      }
      const validated = await safeValidateUIMessages({ messages: stored, tools });
      if (!validated.success) return { kind: 'invalid', message: `The conversation has an invalid message: ${validated.error.message}` };
      return { kind: 'ok', messages: validated.data };
    },
    resolveBlob: async (sha) => {
      const blob = await getBlobForUser(db, userId, sha);
      return blob ? { mediaType: blob.mediaType, base64: Buffer.from(blob.bytes).toString('base64') } : null;
    },
  };
}

function dropAfterLastUserMessage<M extends { role: string }>(messages: M[]): M[] {
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  return lastUser === -1 ? messages : messages.slice(0, lastUser + 1);
}

type SaveResult = { ok: true; messages: StoredMessage[] } | { ok: false; message: string };

/**
 * The user's message is stored before the model is called; tool outputs as soon as they arrive.
 * Returns the conversation's messages as now stored, so the history need not be read again.
 */
export async function saveIncomingMessage(db: Db, userId: string, conversationId: string, message: IncomingMessage): Promise<SaveResult> {
  if (message.metadata !== undefined && !messageMetadataSchema.safeParse(message.metadata).success) {
    return { ok: false, message: 'The message metadata is not valid.' };
  }
  const stored = await listMessages(db, conversationId);
  const existingIndex = stored.findIndex((m) => m.id === message.id);
  if (message.role === 'assistant' && existingIndex === -1) {
    // The browser may only add tool outputs to an assistant message the server produced.
    return { ok: false, message: 'Unknown assistant message.' };
  }
  const edited = message.role === 'user' && existingIndex !== -1;
  if (edited) {
    // An edited user message replaces the original and everything that followed it.
    await saveMessages(db, userId, conversationId, stored.slice(0, existingIndex));
  }
  const parts = await externalizeImages(message.parts, (bytes, mediaType) => putConversationBlob(db, conversationId, { bytes, mediaType }));
  const metadata = message.metadata ?? null;
  const saved = await upsertMessage(db, userId, conversationId, { id: message.id, role: message.role, parts, metadata });
  if (!saved) return { ok: false, message: 'The message could not be saved.' };
  // What the upsert did, in memory: an existing message keeps its place, a new one comes last.
  const kept = edited ? stored.slice(0, existingIndex) : stored;
  const written: StoredMessage = { id: message.id, role: message.role, parts, ...(metadata === null ? {} : { metadata }) };
  const index = kept.findIndex((m) => m.id === message.id);
  return { ok: true, messages: index === -1 ? [...kept, written] : kept.map((m, i) => (i === index ? written : m)) };
}

export async function saveAssistantMessage(db: Db, userId: string, conversationId: string, message: UIMessage): Promise<void> {
  await upsertMessage(db, userId, conversationId, { id: message.id, role: message.role, parts: message.parts, metadata: message.metadata ?? null });
}
