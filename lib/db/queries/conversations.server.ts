import 'server-only';
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client.server';
import { conversations, users } from '../schema.server';
import { questionText, shownTitle } from '@/lib/messages/shown-title';

export type ConversationRow = typeof conversations.$inferSelect;
/** `title` is what the conversation shows (lib/messages/shown-title.ts); `titled` says whether it has a title of its own. */
export type ConversationSummary = Pick<ConversationRow, 'id' | 'title' | 'updatedAt'> & { title: string; titled: boolean };

const owned = (userId: string, id: string) => and(eq(conversations.id, id), eq(conversations.ownerId, userId));

type NewConversation = { id: string; title?: string | null; modelId?: string | null; projectId?: string | null };

/** A new conversation of the user's (a fresh id unless one is given; a taken id is an error). */
export async function createConversation(db: Db, userId: string, values: Partial<NewConversation> = {}): Promise<ConversationRow> {
  const id = values.id ?? crypto.randomUUID();
  const row = await ownOrCreateConversation(db, userId, { ...values, id });
  if (!row) throw new Error(`conversation id ${id} is held by another user`);
  return row;
}

/**
 * The user's conversation `values.id`, made if nobody holds that id; null when someone else does.
 * One statement decides, so requests that arrive together for a new conversation (a dropped file
 * and the first message) all get it: one insert wins, the others read the row it committed.
 */
export async function ownOrCreateConversation(db: Db, userId: string, values: NewConversation): Promise<ConversationRow | null> {
  return (await insertIfNew(db, userId, values)) ?? getConversation(db, userId, values.id);
}

/** The conversation's row when this statement made it; null when the id was taken (by anyone). */
async function insertIfNew(db: Db, userId: string, values: NewConversation): Promise<ConversationRow | null> {
  const [created] = await db
    .insert(conversations)
    .values({ id: values.id, ownerId: userId, title: values.title ?? null, modelId: values.modelId ?? null, projectId: values.projectId ?? null })
    .onConflictDoNothing({ target: conversations.id })
    .returning();
  return created ?? null;
}

/**
 * Inside a transaction: takes the write lock on the user's conversation `values.id`, making it if
 * nobody holds that id. 'created' when this transaction made it (no message can be in it yet:
 * messages reference the row, which no other transaction sees before this one commits), 'locked'
 * when it is the user's and now locked until the transaction ends, null when someone else holds it.
 */
export async function lockOrCreateConversation(tx: Db, userId: string, values: NewConversation): Promise<'created' | 'locked' | null> {
  if (await insertIfNew(tx, userId, values)) return 'created';
  return (await lockConversation(tx, userId, values.id)) ? 'locked' : null;
}

/** Inside a transaction: the write lock on the user's conversation until the transaction ends; false when it is not theirs. */
export async function lockConversation(tx: Db, userId: string, id: string): Promise<boolean> {
  const [row] = await tx.select({ id: conversations.id }).from(conversations).where(owned(userId, id)).for('update');
  return row !== undefined;
}

/** The conversation whoever owns it: only after the one rule (lib/access/authorize.server.ts) said the asker may. */
export async function getConversationById(db: Db, id: string): Promise<ConversationRow | null> {
  const [row] = await db.select().from(conversations).where(eq(conversations.id, id)).limit(1);
  return row ?? null;
}

export async function getConversation(db: Db, userId: string, id: string): Promise<ConversationRow | null> {
  const [row] = await db.select().from(conversations).where(owned(userId, id)).limit(1);
  return row ?? null;
}

export type ConversationPage = { items: ConversationSummary[]; nextCursor: string | null };

/**
 * What the list is asked: `answering` names, of the ids given, the conversations whose answer is
 * being written now (the stream registry's, lib/streams/). With it, a conversation that holds
 * nothing but the person's messages (no answer, no file, no name: its first answer failed, the
 * provider refused it or the network broke) is not listed unless its answer is still coming.
 * Without it (the person's archive), every conversation is.
 */
export type ListOptions = { limit?: number; cursor?: string | null; answering?: (ids: readonly string[]) => Promise<ReadonlySet<string>> };

/** Newest first; the cursor is `<updatedAt ISO>|<id>` of the last conversation the previous page went past. */
export async function listConversations(db: Db, userId: string, options: ListOptions = {}): Promise<ConversationPage> {
  const limit = Math.min(Math.max(options.limit ?? 30, 1), 100);
  const [at, id] = options.cursor?.split('|') ?? [];
  let after = at && id && !Number.isNaN(Date.parse(at)) ? { at: new Date(at), id } : null;
  const items: ConversationSummary[] = [];
  // Rows the list hides take no place on a page: read on until the page is full or the list ends.
  for (;;) {
    const wanted = limit + 1 - items.length; // one more than the page, to know whether another follows
    const rows = await conversationRows(db, userId, after, wanted);
    const live = options.answering ? await options.answering(rows.filter((row) => row.holdsNothing).map((row) => row.id)) : null;
    for (const { firstQuestion: parts, holdsNothing, ...row } of rows) {
      after = { at: row.updatedAt, id: row.id };
      if (holdsNothing && live && !live.has(row.id)) continue;
      if (items.length === limit) return { items, nextCursor: cursorOf(items.at(-1)!) };
      items.push({ ...row, title: shownTitle(row.title, questionText(parts)), titled: row.title !== null });
    }
    if (rows.length < wanted) return { items, nextCursor: null };
  }
}

const cursorOf = (item: ConversationSummary) => `${item.updatedAt.toISOString()}|${item.id}`;

/** `count` of the user's conversations after `after` (newest first), with what the list shows and whether each holds nothing but the person's messages. */
async function conversationRows(db: Db, userId: string, after: { at: Date; id: string } | null, count: number) {
  // An untitled conversation is named by its first question, as its header names it.
  const firstQuestion = sql<unknown>`case when "conversations"."title" is null then (select m.parts from messages m where m.conversation_id = "conversations"."id" and m.role = 'user' order by m.seq limit 1) end`;
  const holdsNothing = sql<boolean>`("conversations"."title" is null and not exists (select 1 from messages m where m.conversation_id = "conversations"."id" and m.role <> 'user') and not exists (select 1 from conversation_files f where f.conversation_id = "conversations"."id"))`;
  return db
    .select({ id: conversations.id, title: conversations.title, updatedAt: conversations.updatedAt, firstQuestion, holdsNothing })
    .from(conversations)
    .where(and(eq(conversations.ownerId, userId), after ? or(lt(conversations.updatedAt, after.at), and(eq(conversations.updatedAt, after.at), lt(conversations.id, after.id))) : undefined))
    .orderBy(desc(conversations.updatedAt), desc(conversations.id))
    .limit(count);
}

export async function renameConversation(db: Db, userId: string, id: string, title: string): Promise<boolean> {
  const rows = await db
    .update(conversations)
    .set({ title, titleEdited: true, updatedAt: sql`now()` })
    .where(owned(userId, id))
    .returning({ id: conversations.id });
  return rows.length > 0;
}

/** Sets a generated title unless the conversation has one (generated or edited). */
export async function setGeneratedTitle(db: Db, userId: string, id: string, title: string): Promise<boolean> {
  const rows = await db
    .update(conversations)
    .set({ title })
    .where(and(owned(userId, id), eq(conversations.titleEdited, false), isNull(conversations.title)))
    .returning({ id: conversations.id });
  return rows.length > 0;
}

/** Deletes the conversation; its messages, files, blob links and shares go with it (cascade). */
export async function deleteConversation(db: Db, userId: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.delete(conversations).where(owned(userId, id)).returning({ storedBytes: conversations.storedBytes });
    if (rows.length === 0) return false;
    // The guest's quota gives back what the conversation held.
    await tx.update(users).set({ storedBytes: sql`greatest(${users.storedBytes} - ${rows[0].storedBytes}, 0)` }).where(eq(users.id, userId));
    return true;
  });
}

/** Records the model picked for the conversation (an id the caller checked against the catalog). */
export async function setConversationModel(db: Db, userId: string, id: string, modelId: string): Promise<void> {
  await db.update(conversations).set({ modelId }).where(owned(userId, id));
}

/** The model of the user's most recently active conversation that has one: a new conversation starts with it. */
export async function lastUsedModelId(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ modelId: conversations.modelId })
    .from(conversations)
    .where(and(eq(conversations.ownerId, userId), sql`${conversations.modelId} is not null`))
    .orderBy(desc(conversations.updatedAt))
    .limit(1);
  return row?.modelId ?? null;
}
