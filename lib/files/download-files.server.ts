/**
 * The one way a download (a conversation's "Download with data", "Export everything") reads a
 * conversation's files: by the conversation's own reference to bytes its owner uploaded or linked
 * (lib/files/file-queries.server.ts, listDownloadFiles), never by the SHA-256 a record names. A file
 * kept on a device is never read from the blob store: its bytes are on that device. The project's
 * datasets a conversation used join them in its zip through lib/chat/project-datasets.server.ts
 * (`conversationDownloadFiles`), each read by the dataset's own reference to its bytes.
 */
import 'server-only';
import type { BlobStore } from '@/lib/blobs/blob-store.server';
import type { Db } from '@/lib/db/client.server';
import { listDownloadFiles } from './file-queries.server';

/** A file of a download: `read` gives its stored bytes (null when no longer stored); null `read`: kept on its owner's device. */
export type DownloadFile = { name: string; read: (() => Promise<AsyncIterable<Uint8Array> | null>) | null };

export async function downloadFiles(db: Db, store: BlobStore, userId: string, conversationId: string): Promise<DownloadFile[]> {
  return (await listDownloadFiles(db, userId, conversationId)).map(({ name, blob }) => ({ name, read: blob === null ? null : () => store.read(blob) }));
}
