/**
 * A project's dataset library, the rows only: files uploaded to the project (a blob, counted
 * against the uploader's storage and the project's) and files kept on members' devices (a name,
 * size, columns and SHA-256, no blob). Who may read or change them is decided by
 * lib/access/authorize.server.ts; the routes call these after it said yes.
 */
import 'server-only';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client.server';
import { projectFiles, projects, users } from '@/lib/db/schema.server';
import { withSuffix } from './accept';
import type { DataFileLocation } from './data-file';
import { QuotaExceededError, type StorageQuota } from '@/lib/db/queries/quota.server';
import type { BlobRef } from '@/lib/db/queries/blobs.server';

export type DatasetColumn = { name: string; type: string };

/** A project's dataset as its members see it. */
export type ProjectFile = {
  id: string;
  name: string;
  sha256: string;
  location: DataFileLocation;
  mediaType: string;
  size: number;
  /** The columns the adding browser's reader found (names and types); null: not read. */
  columns: DatasetColumn[] | null;
  header: boolean | null;
  rows: number | null;
  addedAt: Date;
};

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

const listed = {
  id: projectFiles.id,
  name: projectFiles.name,
  sha256: projectFiles.sha256,
  location: projectFiles.location,
  mediaType: projectFiles.mediaType,
  size: projectFiles.size,
  columns: projectFiles.columns,
  header: projectFiles.header,
  rows: projectFiles.rows,
  addedAt: projectFiles.createdAt,
};
const asFile = (row: Omit<ProjectFile, 'columns'> & { columns: unknown }): ProjectFile => ({ ...row, columns: Array.isArray(row.columns) ? (row.columns as DatasetColumn[]) : null });

export async function listProjectFiles(db: Db, projectId: string): Promise<ProjectFile[]> {
  const rows = await db.select(listed).from(projectFiles).where(eq(projectFiles.projectId, projectId)).orderBy(asc(projectFiles.createdAt), asc(projectFiles.name));
  return rows.map(asFile);
}

export async function getProjectFile(db: Db, projectId: string, fileId: string): Promise<ProjectFile | null> {
  const [row] = await db
    .select(listed)
    .from(projectFiles)
    .where(and(eq(projectFiles.projectId, projectId), eq(projectFiles.id, fileId)))
    .limit(1);
  return row ? asFile(row) : null;
}

/** The project's own reference to uploaded bytes, or null (a device-kept file has none; whoever asks was authorized by the caller). */
export async function getBlobForProject(db: Db, projectId: string, sha256: string): Promise<BlobRef | null> {
  const [row] = await db
    .select({ mediaType: projectFiles.mediaType, size: projectFiles.size })
    .from(projectFiles)
    .where(and(eq(projectFiles.projectId, projectId), eq(projectFiles.blobSha256, sha256), eq(projectFiles.location, 'account')))
    .limit(1);
  return row ? { sha256, ...row } : null;
}

/** The bytes of this uploaded dataset when its hash is `sha256`, or null (whoever asks was authorized by the caller, on this dataset). */
export async function getBlobForDataset(db: Db, datasetId: string, sha256: string): Promise<BlobRef | null> {
  const [row] = await db
    .select({ mediaType: projectFiles.mediaType, size: projectFiles.size })
    .from(projectFiles)
    .where(and(eq(projectFiles.id, datasetId), eq(projectFiles.blobSha256, sha256), eq(projectFiles.location, 'account')))
    .limit(1);
  return row ? { sha256, ...row } : null;
}

/** Adds `bytes` to the project's and the uploader's counters or throws QuotaExceededError (the transaction then rolls back). */
async function reserve(tx: Tx, userId: string, projectId: string, bytes: number, quota: StorageQuota): Promise<void> {
  if (bytes <= 0) return;
  const project = await tx
    .update(projects)
    .set({ storedBytes: sql`${projects.storedBytes} + ${bytes}` })
    .where(and(eq(projects.id, projectId), sql`${projects.storedBytes} + ${bytes} <= ${quota.conversationBytes}`))
    .returning({ id: projects.id });
  if (project.length === 0) throw new QuotaExceededError('project', quota.conversationBytes);
  const person = await tx
    .update(users)
    .set({ storedBytes: sql`${users.storedBytes} + ${bytes}` })
    .where(and(eq(users.id, userId), sql`${users.storedBytes} + ${bytes} <= coalesce(${users.storageBytes}, ${quota.guestBytes})`))
    .returning({ id: users.id });
  if (person.length === 0) throw new QuotaExceededError('guest', quota.guestBytes);
}

type NewProjectFile = { name: string; mediaType: string; size: number; sha256: string; location: DataFileLocation; columns?: DatasetColumn[]; header?: boolean; rows?: number };

/**
 * Adds a dataset under its name (a name already taken gets " (1)", " (2)"…): an uploaded one holds
 * its blob and counts against the storage of `userId` and of the project (throws
 * QuotaExceededError, adding nothing); a device-kept one holds none. Its id and final name.
 */
export async function addProjectFile(db: Db, userId: string, projectId: string, file: NewProjectFile, quota: StorageQuota): Promise<{ id: string; name: string }> {
  return db.transaction(async (tx) => {
    if (file.location === 'account') await reserve(tx, userId, projectId, file.size, quota);
    const taken = new Set((await tx.select({ name: projectFiles.name }).from(projectFiles).where(eq(projectFiles.projectId, projectId))).map((row) => row.name));
    for (let n = 0; ; n += 1) {
      const name = n === 0 ? file.name : withSuffix(file.name, n);
      if (taken.has(name)) continue;
      const [added] = await tx
        .insert(projectFiles)
        .values({
          id: crypto.randomUUID(),
          projectId,
          name,
          sha256: file.sha256,
          location: file.location,
          blobSha256: file.location === 'account' ? file.sha256 : null,
          mediaType: file.mediaType,
          size: file.size,
          columns: file.columns ?? null,
          header: file.header ?? null,
          rows: file.rows ?? null,
          addedBy: userId,
        })
        .onConflictDoNothing()
        .returning({ id: projectFiles.id, name: projectFiles.name });
      if (added) return added;
    }
  });
}

/** What the adding browser's reader found of a dataset's columns (never a value). */
export async function setProjectFileColumns(db: Db, projectId: string, fileId: string, facts: { columns?: DatasetColumn[]; header?: boolean; rows?: number }): Promise<boolean> {
  const updated = await db
    .update(projectFiles)
    .set({ columns: facts.columns ?? null, header: facts.header ?? null, rows: facts.rows ?? null })
    .where(and(eq(projectFiles.projectId, projectId), eq(projectFiles.id, fileId)))
    .returning({ id: projectFiles.id });
  return updated.length > 0;
}

/**
 * Removes a dataset; an uploaded one's bytes are no longer counted against its uploader and the
 * project. The blob it held (its bytes may now be unreferenced; null for a device-kept one), or
 * undefined when the project has no such file.
 */
export async function removeProjectFile(db: Db, projectId: string, fileId: string): Promise<string | null | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(projectFiles)
      .where(and(eq(projectFiles.projectId, projectId), eq(projectFiles.id, fileId)))
      .returning({ blobSha256: projectFiles.blobSha256, size: projectFiles.size, addedBy: projectFiles.addedBy });
    if (!row) return undefined;
    if (row.blobSha256 !== null) {
      await tx.update(projects).set({ storedBytes: sql`greatest(${projects.storedBytes} - ${row.size}, 0)` }).where(eq(projects.id, projectId));
      if (row.addedBy) await tx.update(users).set({ storedBytes: sql`greatest(${users.storedBytes} - ${row.size}, 0)` }).where(eq(users.id, row.addedBy));
    }
    return row.blobSha256;
  });
}

/** Before a project is deleted: its uploads' blobs, released from their uploaders' storage (the rows go with the project). */
export async function releaseProjectFiles(db: Db, projectId: string): Promise<string[]> {
  const rows = await db.select({ id: projectFiles.id }).from(projectFiles).where(eq(projectFiles.projectId, projectId));
  const blobs: string[] = [];
  for (const row of rows) {
    const blob = await removeProjectFile(db, projectId, row.id);
    if (blob) blobs.push(blob);
  }
  return blobs;
}
