/**
 * The app's blob store, chosen by configuration (lib/config.server.ts): files under the data directory
 * by default, an S3-compatible bucket when S3_BUCKET is set. Opened once per process; on first
 * use, blobs that earlier versions kept in the database are moved into it.
 */
import 'server-only';
import { getConfig } from '@/lib/config.server';
import { getDb } from '@/lib/db/client.server';
import { moveDatabaseBlobs } from '@/lib/db/queries/blob-move.server';
import { logger } from '@/lib/log/logger.server';
import type { BlobStore } from '../blobs/blob-store.server';
import { createFsBlobStore } from '../blobs/fs-blob-store.server';
import { createS3BlobStore } from '../blobs/s3-blob-store.server';

const globalForBlobs = globalThis as unknown as { runpadBlobStore?: Promise<BlobStore> };

async function open(): Promise<BlobStore> {
  const config = getConfig().blobStore;
  const store = config.kind === 's3' ? createS3BlobStore(config) : createFsBlobStore(config.rootDir);
  const moved = await moveDatabaseBlobs(await getDb(), store);
  if (moved > 0) logger().info({ moved, store: store.kind }, 'moved blobs out of the database');
  return store;
}

export function getBlobStore(): Promise<BlobStore> {
  if (!globalForBlobs.runpadBlobStore) {
    globalForBlobs.runpadBlobStore = open();
    globalForBlobs.runpadBlobStore.catch(() => {
      globalForBlobs.runpadBlobStore = undefined; // let the next request try again
    });
  }
  return globalForBlobs.runpadBlobStore;
}
