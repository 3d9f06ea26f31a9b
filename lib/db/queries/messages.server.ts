import 'server-only';
import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../client.server';
import { conversations, messages } from '../schema.server';
import { rowsOf, type Queryable } from '../rows.server';
import { getConversation } from './conversations.server';
import { storedMetadata } from '@/lib/messages/attachment';

export type StoredMessage = { id: string; role: 'user' | 'assistant' | 'system'; parts: unknown[]; metadata?: unknown };
/** A stored message read back (a row, or an entry of a share's snapshot): its shape checked, not assumed (each part's rules: safeValidateUIMessages). */
const storedMessageSchema = z.object({ id: z.string(), role: z.enum(['user', 'assistant', 'system']), parts: z.array(z.looseObject({ type: z.string() })), metadata: z.unknown().optional() });

/**
 * Stored messages read back from JSON the database holds; throws (a 500, logged) when they are not.
 * Files' records are read by their rule (lib/files/attachment.ts): a file kept on a device never
 * shows a row, even one stored before the rule.
 */
export function parseStoredMessages(values: unknown[]): StoredMessage[] {
  return values.map((raw) => {
    const row = storedMessageSchema.parse(raw);
    return { id: row.id, role: row.role, parts: row.parts, ...(row.metadata === null || row.metadata === undefined ? {} : { metadata: storedMetadata(row.metadata) }) };
  });
}
type MessageInput = { id: string; role: string; parts: unknown[]; metadata?: unknown };

export async function listMessages(db: Db, conversationId: string): Promise<StoredMessage[]> {
  const rows = await db
    .select({ id: messages.id, role: messages.role, parts: messages.parts, metadata: messages.metadata })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.seq));
  return parseStoredMessages(rows);
}

/**
 * Inserts a message at the end, or updates it in place when its id exists, and marks the
 * conversation updated; false (nothing written) when the conversation is not the user's. One
 * statement: the ownership check, the conversation's update time and the message together.
 */
export async function upsertMessage(db: Queryable, userId: string, conversationId: string, message: MessageInput): Promise<boolean> {
  const parts = JSON.stringify(message.parts);
  const metadata = message.metadata === undefined || message.metadata === null ? null : JSON.stringify(message.metadata);
  const written = await rowsOf<{ id: string }>(
    db,
    sql`with owned as (
      update ${conversations} set updated_at = now() where ${conversations.id} = ${conversationId} and ${conversations.ownerId} = ${userId} returning ${conversations.id}
    )
    insert into ${messages} (conversation_id, id, seq, role, parts, metadata)
    select owned.id, ${message.id}, (select coalesce(max(m.seq), -1) + 1 from ${messages} m where m.conversation_id = ${conversationId}), ${message.role}, ${parts}::jsonb, ${metadata}::jsonb
    from owned
    on conflict (conversation_id, id) do update set role = excluded.role, parts = excluded.parts, metadata = excluded.metadata, updated_at = now()
    returning ${messages.id}`,
  );
  return written.length > 0;
}

/** Replaces the conversation's messages with this ordered list, in one transaction. */
export async function saveMessages(db: Db, userId: string, conversationId: string, list: MessageInput[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [owner] = await tx
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.id, conversationId), eq(conversations.ownerId, userId)));
    if (!owner) return false;
    const ids = list.map((m) => m.id);
    await tx
      .delete(messages)
      .where(ids.length > 0 ? and(eq(messages.conversationId, conversationId), notInArray(messages.id, ids)) : eq(messages.conversationId, conversationId));
    for (const [seq, message] of list.entries()) {
      await tx
        .insert(messages)
        .values({ conversationId, id: message.id, role: message.role, parts: message.parts, metadata: message.metadata ?? null, seq })
        .onConflictDoUpdate({
          target: [messages.conversationId, messages.id],
          set: { role: message.role, parts: message.parts, metadata: message.metadata ?? null, seq, updatedAt: sql`now()` },
        });
    }
    return true;
  });
}

/** Removes one message (an answer's draft that is being undone). */
export async function deleteMessage(db: Db, userId: string, conversationId: string, id: string): Promise<boolean> {
  if (!(await getConversation(db, userId, conversationId))) return false;
  const rows = await db
    .delete(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.id, id)))
    .returning({ id: messages.id });
  return rows.length > 0;
}
