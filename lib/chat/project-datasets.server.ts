/**
 * A project's dataset library, once `authorize` (lib/access/authorize.server.ts) said yes: what a page may
 * say about a dataset (checked with zod), and the library as a conversation started in the
 * project sees it. Reading the bytes is `read_dataset` on the project (its members, Can use and
 * up); adding, describing and removing datasets is `change_instructions` (Can edit and the owner).
 */
import 'server-only';
import { z } from 'zod';
import type { Db } from '@/lib/db/client.server';
import { getBlobForDataset, getBlobForProject, listProjectFiles, type DatasetColumn, type ProjectFile } from '@/lib/files/project-files.server';
import type { BlobRef } from '@/lib/db/queries/blobs.server';
import type { BlobStore } from '@/lib/blobs/blob-store.server';
import { downloadFiles, type DownloadFile } from '@/lib/files/download-files.server';
import { columnsSchema, headerlessName } from '@/lib/messages/attachment';
import { may, type Subject } from '@/lib/access/authorize.server';
import { datasetsUsedBy, getProject, type UsedDataset } from '@/lib/db/queries/projects.server';
import type { ProjectDatasets } from '@/lib/files/data-file';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** What the adding browser's reader found of a dataset: its columns and types, whether from a header row, its rows. Never a value. */
export const datasetFactsSchema = z.strictObject({ columns: columnsSchema, header: z.boolean().optional(), rows: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional() });

/** A dataset kept on the adding member's device: its name, size, SHA-256 and, when read, its columns. No bytes. */
export const deviceDatasetSchema = z.strictObject({
  name: z.string().min(1).max(300),
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  sha256,
  columns: columnsSchema.optional(),
  header: z.boolean().optional(),
  rows: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
});

/**
 * What is stored of what a reader found: without a header row the first row is data, so its
 * names (values) are replaced by the reader's own (column0, column1, …), as a device file's
 * attachment is (lib/messages/attachment.ts); the row count as told.
 */
export function storedFacts(facts: { columns?: DatasetColumn[]; header?: boolean; rows?: number }): { columns?: DatasetColumn[]; header?: boolean; rows?: number } {
  const rows = facts.rows === undefined ? {} : { rows: facts.rows };
  if (facts.columns === undefined) return rows;
  if (facts.header === true) return { columns: facts.columns, header: true, ...rows };
  return { columns: facts.columns.map((column, i) => ({ ...column, name: headerlessName(i) })), header: false, ...rows };
}

/**
 * The project's datasets a conversation in it has under /data, for `who`: none once they may no
 * longer read the project's datasets (a removed member's conversation loses them at once).
 */
export async function projectDatasetsFor(db: Db, who: Subject, projectId: string | null): Promise<ProjectFile[]> {
  if (!projectId || !(await may(db, who, 'read_dataset', { project: projectId }))) return [];
  return listProjectFiles(db, projectId);
}

/** The project's datasets for a conversation's page, or null when `who` may not read them (or there is no project). */
export async function projectDatasetsView(db: Db, who: Subject, projectId: string | null): Promise<ProjectDatasets | null> {
  const project = projectId ? await getProject(db, projectId) : null;
  if (!project) return null;
  const files = await projectDatasetsFor(db, who, project.id);
  if (files.length === 0) return null;
  return { projectId: project.id, name: project.name, files: files.map(({ name, sha256, size, mediaType, location, columns }) => ({ name, sha256, size, mediaType, location, columns })) };
}

/**
 * The project's datasets a conversation uses (those it had under /data: `datasetsUsedBy`) that
 * `who` may read by the one rule (`read_dataset` on each): its project's members, and the
 * conversation's readers while its author may still read them. Uploaded and device-kept alike;
 * the one list behind a reader's page, the re-run's reads and the conversation's downloads.
 */
export async function usedProjectDatasets(db: Db, who: Subject, conversationId: string): Promise<UsedDataset[]> {
  const readable: UsedDataset[] = [];
  for (const file of await datasetsUsedBy(db, conversationId)) {
    if (await may(db, who, 'read_dataset', { dataset: file.id })) readable.push(file);
  }
  return readable;
}

/**
 * The uploaded ones of `usedProjectDatasets`: a device-kept dataset's hash stays with the
 * project's members, as a conversation's own device files stay with its author.
 */
export async function sharedProjectDatasets(db: Db, who: Subject, conversationId: string): Promise<UsedDataset[]> {
  return (await usedProjectDatasets(db, who, conversationId)).filter((file) => file.location === 'account');
}

/**
 * A conversation's files for a download ("Download with data") by `who`, whom the one rule let
 * export it: its own files, read by its own references (lib/files/download-files.server.ts, its
 * author's records), then the project's datasets it used that `who` may read (`usedProjectDatasets`),
 * an uploaded one read by the dataset's own reference to its bytes, a device-kept one named only.
 */
export async function conversationDownloadFiles(db: Db, store: BlobStore, who: Subject, authorId: string, conversationId: string): Promise<DownloadFile[]> {
  const own = await downloadFiles(db, store, authorId, conversationId);
  const project = (await usedProjectDatasets(db, who, conversationId)).map(
    (file): DownloadFile => ({
      name: file.name,
      read:
        file.location === 'device'
          ? null
          : async () => {
              const blob = await getBlobForDataset(db, file.id, file.sha256);
              return blob ? store.read(blob.sha256) : null;
            },
    }),
  );
  return [...own, ...project.filter((file) => !own.some((other) => other.name === file.name))];
}

/** The bytes behind `sha256` when a project's dataset that this conversation uses holds them and `who` may read it; else null. */
export async function datasetBlobThroughConversation(db: Db, who: Subject, conversationId: string, sha256: string): Promise<BlobRef | null> {
  const file = (await sharedProjectDatasets(db, who, conversationId)).find((used) => used.sha256 === sha256);
  return file ? getBlobForProject(db, file.projectId, sha256) : null;
}

/** What the model is told of the project's datasets: names, sizes, types and columns, never a row. */
export function projectDatasetsText(files: readonly ProjectFile[], shadowed: ReadonlySet<string> = new Set()): string {
  const shown = files.filter((file) => !shadowed.has(file.name));
  if (shown.length === 0) return '';
  const lines = shown.map((file) => {
    const columns = (file.columns ?? []).map((column) => `${column.name} (${column.type})`).join(', ');
    const where = file.location === 'device' ? 'kept on members’ devices; each member’s own verified copy' : 'uploaded to the project';
    const rows = file.rows === null ? '' : `, ${file.rows.toLocaleString('en-US')} rows`;
    return `/data/${file.name} (${file.size.toLocaleString('en-US')} bytes, ${file.mediaType}${rows}, ${where})${columns ? `: columns ${columns}` : ''}`;
  });
  return `\n\nThe project's datasets, available to the code under /data/:\n${lines.join('\n')}`;
}
