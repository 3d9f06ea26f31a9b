/**
 * Messages between the page and the keep worker (lib/files/device-keep.worker.ts), checked on both
 * sides. The page sends the File (a reference: no bytes are copied to send it); the worker copies
 * it into the device's datasets directory (lib/files/device-files.client.ts) while hashing it, and
 * answers with facts, never words: the page words them (lib/files/keep-on-device.client.ts).
 *
 * The hashing runs in a second instance of the same worker, fed over a MessageChannel: the keeper
 * transfers each written chunk to the hasher, which acknowledges it, and keeps at most
 * `KEEP_HASH_IN_FLIGHT` chunks unacknowledged (the hasher is the slower of the two, and chunks
 * must not pile up in memory). Reading and writing then overlap the hashing.
 */
import { z } from 'zod';
import { hashSaltsSchema } from '@/lib/security/salted-hash';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const keepRequestSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('keep'),
    file: z.instanceof(Blob),
    name: z.string().min(1).max(200),
    mediaType: z.string().max(200),
    /** Keep it only if its SHA-256 is this one (the same file dropped again); otherwise nothing is kept. */
    expectedSha256: sha256.optional(),
    /** `expectedSha256` is a value a share showed, salted with these: the file's SHA-256 salted so must equal it. */
    expectedSalts: hashSaltsSchema.optional(),
    /** The hasher's end of the channel; without one the keeper hashes itself. */
    hashPort: z.instanceof(MessagePort).optional(),
  }),
  z.object({ type: z.literal('cancel') }),
  /** A run reads a dropped file in place: stop between chunks until `resume` (lib/files/in-place-reads.ts). */
  z.object({ type: z.literal('pause') }),
  z.object({ type: z.literal('resume') }),
  /** Be the hasher: hash what arrives on `port`. */
  z.object({ type: z.literal('hash'), port: z.instanceof(MessagePort) }),
]);
export type KeepRequest = z.infer<typeof keepRequestSchema>;

/** Why keeping failed: the device's storage is full, the browser keeps no files, the file could not be read, or the storage failed. */
export const keepFailureSchema = z.enum(['quota', 'unavailable', 'unreadable', 'cancelled', 'storage']);
export type KeepFailureReason = z.infer<typeof keepFailureSchema>;

export const keepReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), written: z.number().nonnegative(), total: z.number().nonnegative() }),
  z.object({ type: z.literal('kept'), sha256, size: z.number().nonnegative() }),
  /** The file is not the one expected: nothing was kept. */
  z.object({ type: z.literal('different'), sha256, size: z.number().nonnegative() }),
  z.object({ type: z.literal('failed'), reason: keepFailureSchema, detail: z.string().max(500) }),
]);
export type KeepReply = z.infer<typeof keepReplySchema>;

/** Keeper → hasher: a chunk (transferred), or the end. */
export const hashChunkSchema = z.union([z.object({ type: z.literal('chunk'), bytes: z.instanceof(ArrayBuffer) }), z.object({ type: z.literal('end') })]);
export type HashChunk = z.infer<typeof hashChunkSchema>;
/** Hasher → keeper: a chunk taken, the digest at the end, or a failure. */
export const hashAckSchema = z.union([z.object({ type: z.literal('ack') }), z.object({ type: z.literal('digest'), sha256 }), z.object({ type: z.literal('failed'), detail: z.string().max(500) })]);
export type HashAck = z.infer<typeof hashAckSchema>;
/** How many chunks may wait for the hasher (each KEEP_CHUNK_BYTES). */
export const KEEP_HASH_IN_FLIGHT = 4;

export const DEVICE_KEEP_WORKER_URL = '/workers/device-keep.worker.mjs';

/** The size of each read, write and hash step: large enough to run at the disk's speed, small enough to show progress. */
export const KEEP_CHUNK_BYTES = 8 * 1024 * 1024;
