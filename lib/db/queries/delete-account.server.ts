/**
 * Deletes a person and everything they own in one transaction: their conversations (messages,
 * files, output references), shares (links stop working), projects (their datasets), their row with its counters and, for
 * an account, its sessions, provider links and passkeys. Returns the blobs they referenced; the
 * caller drops those nothing else references (deleteBlobIfUnreferenced), after the commit.
 */
import 'server-only';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client.server';
import { authUsers, conversationBlobs, conversationFiles, conversations, projectFiles, projects, shareBlobs, shareFiles, shares, users } from '../schema.server';

export async function deletePersonData(db: Db, userId: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    const owned = tx.select({ id: conversations.id }).from(conversations).where(eq(conversations.ownerId, userId));
    const ownedShares = tx.select({ id: shares.id }).from(shares).where(eq(shares.ownerId, userId));
    const ownedProjects = tx.select({ id: projects.id }).from(projects).where(eq(projects.ownerId, userId));
    const referenced = await tx.execute<{ sha256: string }>(sql`
      select sha256 from ${conversationBlobs} where ${inArray(conversationBlobs.conversationId, owned)}
      union select blob_sha256 from ${conversationFiles} where ${inArray(conversationFiles.conversationId, owned)} and blob_sha256 is not null
      union select sha256 from ${shareBlobs} where ${inArray(shareBlobs.shareId, ownedShares)}
      union select blob_sha256 from ${shareFiles} where ${inArray(shareFiles.shareId, ownedShares)} and blob_sha256 is not null
      union select blob_sha256 from ${projectFiles} where ${inArray(projectFiles.projectId, ownedProjects)} and blob_sha256 is not null`);
    // postgres-js returns the rows as an array, PGlite as { rows }.
    const rows = (Array.isArray(referenced) ? referenced : (referenced as unknown as { rows: Array<{ sha256: string }> }).rows) as Array<{ sha256: string }>;
    await tx.delete(users).where(eq(users.id, userId)); // conversations and shares cascade
    await tx.delete(authUsers).where(eq(authUsers.id, userId)); // sessions, accounts, passkeys cascade
    return rows.map((row) => row.sha256);
  });
}
