/** A small blob's bytes in memory (images for the model, at most a few MB), or null when absent. */
import 'server-only';
import type { BlobStore } from './blob-store.server';

export async function readWhole(store: BlobStore, sha256: string): Promise<Buffer | null> {
  const stream = await store.read(sha256);
  if (!stream) return null;
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}
