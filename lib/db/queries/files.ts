import { and, asc, eq, sum } from 'drizzle-orm';
import type { Db } from '../client';
import { conversationFiles } from '../schema';
import { withSuffix } from '@/lib/files/accept';
import { getConversation } from './conversations';
import { linkBlob } from './blobs';

export type ConversationFile = { name: string; sha256: string; mediaType: string; size: number };

export async function listFiles(db: Db, conversationId: string): Promise<ConversationFile[]> {
  return db
    .select({ name: conversationFiles.name, sha256: conversationFiles.sha256, mediaType: conversationFiles.mediaType, size: conversationFiles.size })
    .from(conversationFiles)
    .where(eq(conversationFiles.conversationId, conversationId))
    .orderBy(asc(conversationFiles.createdAt));
}

export async function totalFileBytes(db: Db, conversationId: string): Promise<number> {
  const [row] = await db.select({ total: sum(conversationFiles.size) }).from(conversationFiles).where(eq(conversationFiles.conversationId, conversationId));
  return Number(row?.total ?? 0);
}

/** Adds a file by name; a name already taken gets " (1)", " (2)"… Returns the final name. */
export async function addFile(db: Db, userId: string, conversationId: string, file: ConversationFile): Promise<string | null> {
  if (!(await getConversation(db, userId, conversationId))) return null;
  const taken = new Set((await listFiles(db, conversationId)).map((f) => f.name));
  let name = file.name;
  for (let n = 1; taken.has(name); n += 1) name = withSuffix(file.name, n);
  await linkBlob(db, conversationId, file.sha256);
  await db.insert(conversationFiles).values({ conversationId, name, sha256: file.sha256, mediaType: file.mediaType, size: file.size });
  return name;
}

export async function removeFile(db: Db, userId: string, conversationId: string, name: string): Promise<boolean> {
  if (!(await getConversation(db, userId, conversationId))) return false;
  const rows = await db
    .delete(conversationFiles)
    .where(and(eq(conversationFiles.conversationId, conversationId), eq(conversationFiles.name, name)))
    .returning({ name: conversationFiles.name });
  return rows.length > 0;
}
