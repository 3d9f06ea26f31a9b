/**
 * BlobStore on S3 or an S3-compatible service. Objects live at `<prefix>blobs/<sha256>`. Since the key
 * is the hash and the hash is known only once the body has been read, uploads are spooled to a temp
 * file (bounded memory) and sent with a single PutObject, which S3 makes visible atomically.
 */
import 'server-only';
import { createReadStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  assertRange,
  assertSha256,
  spoolToFile,
  type BlobSource,
  type BlobStore,
  type ByteRange,
  type PutOptions,
  type PutResult,
} from './blob-store.server';

export type S3BlobStoreOptions = {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  prefix?: string;
  /** Local directory for in-flight uploads; needs room for maxBytes per concurrent put. */
  spoolDir: string;
  /** A request fails when its socket is silent this long (default 30 s): a stalled store is an error, not a hang. */
  idleTimeoutMs?: number;
};

const PUT_ATTEMPTS = 3;

export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = createClient(options);
  const { bucket, spoolDir } = options;
  const keyOf = (sha256: string): string => {
    assertSha256(sha256);
    return `${options.prefix ?? ''}blobs/${sha256}`;
  };

  async function stat(sha256: string): Promise<{ size: number } | null> {
    const key = keyOf(sha256);
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async function upload(tmp: string, result: PutResult, signal: AbortSignal | undefined): Promise<void> {
    const existing = await stat(result.sha256);
    if (existing?.size === result.size) return; // same hash, same bytes: nothing to do
    await sendWithRetry(signal, () =>
      client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: keyOf(result.sha256),
          Body: createReadStream(tmp), // a fresh stream per attempt: a consumed one cannot be resent
          ContentLength: result.size,
          ContentType: 'application/octet-stream',
          // S3 rejects the upload if the bytes it received do not hash to the key.
          ChecksumSHA256: Buffer.from(result.sha256, 'hex').toString('base64'),
        }),
        { abortSignal: signal },
      ),
    );
  }

  return {
    kind: 's3',

    async put(source: BlobSource, putOptions: PutOptions): Promise<PutResult> {
      await mkdir(spoolDir, { recursive: true });
      const tmp = join(spoolDir, `${randomUUID()}.part`);
      const result = await spoolToFile(source, tmp, putOptions);
      try {
        await upload(tmp, result, putOptions.signal);
      } finally {
        await rm(tmp, { force: true });
      }
      return result;
    },

    stat,

    async read(sha256: string, range?: ByteRange): Promise<ReadableStream<Uint8Array> | null> {
      const key = keyOf(sha256);
      if (range) assertRange(range);
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        if (!object.Body) throw new Error(`S3 returned no body for ${key}`);
        return object.Body.transformToWebStream() as ReadableStream<Uint8Array>;
      } catch (error) {
        if (isMissingObject(error)) return null;
        if (statusOf(error) === 416) throw new RangeError(`Range start ${range?.start} is past the end of ${key}`);
        throw error;
      }
    },

    async delete(sha256: string): Promise<void> {
      // S3 deletes are idempotent: a missing key is not an error.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(sha256) }));
    },

    async check(): Promise<void> {
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    },
  };
}

function createClient(options: S3BlobStoreOptions): S3Client {
  const { accessKeyId, secretAccessKey } = options;
  return new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    // Without explicit keys the SDK's default chain applies (env, instance role, ...).
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    // Default CRC32 trailers (aws-chunked bodies) break many S3-compatible servers; we send our own sha256.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // socketTimeout is inactivity (a 100 MB upload may take long, but never stays silent).
    requestHandler: { connectionTimeout: 5_000, socketTimeout: options.idleTimeoutMs ?? 30_000 },
  });
}

/**
 * The SDK never retries requests with a stream body, so PutObject gets its own small retry loop
 * for transient failures (network errors, throttling, 5xx), with a new body for each attempt.
 */
async function sendWithRetry(signal: AbortSignal | undefined, send: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await send();
      return;
    } catch (error) {
      if (attempt >= PUT_ATTEMPTS || signal?.aborted || !isTransient(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }
}

type S3ErrorShape = { name?: string; code?: string; $retryable?: unknown; $metadata?: { httpStatusCode?: number } };

function statusOf(error: unknown): number | undefined {
  return (error as S3ErrorShape | undefined)?.$metadata?.httpStatusCode;
}

function isMissingObject(error: unknown): boolean {
  const name = (error as S3ErrorShape | undefined)?.name;
  if (name === 'NoSuchBucket') return false; // a misconfiguration, not an absent blob
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(error) === 404;
}

function isTransient(error: unknown): boolean {
  const e = error as S3ErrorShape | undefined;
  if (e?.name === 'AbortError') return false;
  if (e?.$retryable) return true;
  const status = statusOf(error);
  if (status === undefined) return true; // no HTTP response at all: connection reset, timeout, DNS
  return status === 429 || status >= 500;
}
