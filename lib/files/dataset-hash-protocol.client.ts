/**
 * Messages between the page and the dataset hash worker (lib/files/dataset-hash.worker.ts), checked
 * on both sides. The page sends a Blob (a reference: no bytes are copied to send it); the worker
 * answers its SHA-256 and, when asked, the bytes it read (transferred, not copied).
 */
import 'client-only';
import { z } from 'zod';

export const hashRequestSchema = z.object({
  id: z.number().int(),
  blob: z.instanceof(Blob),
  keepBytes: z.boolean(),
});

export type HashRequest = z.infer<typeof hashRequestSchema>;

export const hashReplySchema = z.union([
  z.object({ id: z.number().int(), sha256: z.string().regex(/^[0-9a-f]{64}$/).nullable(), bytes: z.instanceof(ArrayBuffer).nullable() }),
  z.object({ id: z.number().int(), error: z.string() }),
]);

export type HashReply = z.infer<typeof hashReplySchema>;

export const DATASET_HASH_WORKER_URL = '/workers/dataset-hash.worker.mjs';
