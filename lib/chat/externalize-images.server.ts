/**
 * Images in tool outputs arrive as base64; they are stored as content-addressed blobs and the
 * message keeps `blob:<sha256>` references, so message JSON never carries megabytes of base64.
 */
import 'server-only';
import type { Db } from '@/lib/db/client.server';
import { putConversationBlob } from '@/lib/db/queries/blobs.server';
import { getBlobStore } from '@/lib/files/app-blob-store.server';
import { storageQuota } from '@/lib/files/storage-quota.server';
import { BLOB_REF_PATTERN, type RunResult } from '@/lib/runtime/protocol';
import { readRunPart, runResultOf } from '@/lib/targets/run-part';
import { IMAGE_MIME_TYPES } from '@/lib/runtime/mime-types';

type PartLike = { type: string; output?: unknown; [key: string]: unknown };
export type StoreImage = (bytes: Uint8Array, mediaType: string) => Promise<string>;

const IMAGE_TYPES = IMAGE_MIME_TYPES;

async function externalizeRun(result: RunResult, store: StoreImage): Promise<RunResult> {
  const outputs = await Promise.all(
    result.outputs.map(async (output) => {
      if (output.output_type !== 'display_data' && output.output_type !== 'execute_result') return output;
      const data = { ...output.data };
      for (const mediaType of IMAGE_TYPES) {
        const value = data[mediaType];
        if (value === undefined || BLOB_REF_PATTERN.test(value)) continue;
        data[mediaType] = `blob:${await store(Buffer.from(value, 'base64'), mediaType)}`;
      }
      return { ...output, data };
    }),
  );
  return { ...result, outputs };
}

/** Returns the parts with every run's images replaced by blob references (runs read through lib/targets/run-part.ts). */
export async function externalizeImages<P extends PartLike>(parts: P[], store: StoreImage): Promise<P[]> {
  return Promise.all(
    parts.map(async (part) => {
      const read = readRunPart(part);
      const result = read ? runResultOf(read.part) : null;
      return result ? { ...part, output: await externalizeRun(result, store) } : part;
    }),
  );
}

type MessageLike = { id: string; role: string; parts: unknown[]; metadata?: unknown };

/** The messages with their images stored as the conversation's blobs (counted against its quota). */
export async function externalizeMessageImages<M extends MessageLike>(messages: M[], userId: string, conversationId: string, db: Db): Promise<M[]> {
  const owner = { userId, conversationId, quota: storageQuota() };
  const store = await getBlobStore();
  return Promise.all(
    messages.map(async (message) => ({
      ...message,
      parts: await externalizeImages(message.parts as PartLike[], (bytes, mediaType) => putConversationBlob(db, store, owner, { bytes, mediaType })),
    })),
  );
}
