/**
 * The browser's own copy of the conversation's datasets, by content hash, so that a return visit
 * writes /data without downloading the files again. Browser-only (Cache Storage, WebCrypto).
 *
 * - One Cache Storage cache, `runpad-datasets-v1`; each file is one entry keyed by the synthetic
 *   same-origin URL `/__datasets/<sha256>` (never requested from the network).
 * - Nothing is cached unless its SHA-256, computed here, is the hash it is filed under; cached
 *   bytes are checked again when read, and an entry that does not match is dropped. Bytes from
 *   the server are checked before Python sees them too (see `fromServer`).
 * - At most ~1 GB: least recently used entries go first. The sizes and last-use times are kept in
 *   a small index in localStorage; entries the index does not know (it was cleared) count as
 *   the oldest.
 * - The cache is an optimisation only: every failure (no Cache Storage outside secure contexts,
 *   quota, private mode, a damaged entry) falls back to the server; what throws is the server
 *   refusing the file, or its bytes arriving damaged twice.
 */

import 'client-only';
import { RunFailureError } from '@/lib/runtime/run-failure';
import type { DataFile } from './data-file';
import { digestBlob } from './dataset-hash.client';

export const DATASET_CACHE_NAME = 'runpad-datasets-v1';
const INDEX_KEY = 'runpad-datasets-v1-index';
/** Kept in the cache at most (the sum of the entries' sizes). */
export const DATASET_CACHE_MAX_BYTES = 1_000_000_000;
const SHA256 = /^[0-9a-f]{64}$/;

export function datasetCacheKey(sha256: string): string {
  return `/__datasets/${sha256}`;
}

/** A dataset about to be written: its size when known before its bytes are, and the bytes on demand. */
export type DatasetSource = {
  /** Bytes, from the cache entry or the server (Content-Length, or a range's total); null when unknown. */
  size: number | null;
  fromCache: boolean;
  /** The file's bytes, verified where WebCrypto exists (a fresh buffer the caller may transfer). */
  read(): Promise<Uint8Array<ArrayBuffer>>;
};

type DatasetRef = { name: string; sha256: string; url: string };

/** An uploaded dataset's reference; a file kept on another device cannot be opened here (it fails as `dataset-missing`, `on-device`). */
export function accountDataset(file: DataFile): DatasetRef {
  if (file.location !== 'account') throw new RunFailureError({ kind: 'dataset-missing', name: file.name, reason: 'on-device' });
  return file;
}

/**
 * Finds a dataset's bytes: the cache when it has them, the server otherwise (the request is sent
 * and its headers awaited, so the size is known before the body is read). Bytes fetched from the
 * server are put in the cache once their hash matches.
 */
export async function openDataset(file: DatasetRef): Promise<DatasetSource> {
  if (!SHA256.test(file.sha256)) return fromServer(file, false);
  const pending = pendingStores.get(file.sha256);
  if (pending) {
    // This page is putting these bytes in the cache (an upload, a download): read them from
    // there once it is done, rather than downloading them again meanwhile.
    return { size: pending.size, fromCache: true, read: async () => (await pending.done, await readFromCache(file)) };
  }
  const hit = await cachedResponse(file.sha256);
  if (!hit) return fromServer(file, true);
  const size = Number(hit.headers.get('content-length'));
  return {
    size: Number.isFinite(size) && size > 0 ? size : null,
    fromCache: true,
    read: async () => (await readCached(file.sha256, hit)) ?? (await fromServer(file, true)).read(),
  };
}

/** The bytes from the cache, or from the server when the cache does not have them (after all). */
async function readFromCache(file: DatasetRef): Promise<Uint8Array<ArrayBuffer>> {
  const hit = await cachedResponse(file.sha256);
  return (hit && (await readCached(file.sha256, hit))) ?? (await fromServer(file, true)).read();
}

/**
 * After an upload: the page has the bytes, the server said which hash it stored them under. They
 * go in the cache when they hash to the same value. In the background; never rejects.
 */
export function rememberUpload(bytes: Blob, sha256: string): Promise<void> {
  if (!SHA256.test(sha256) || bytes.size > DATASET_CACHE_MAX_BYTES || !cacheAvailable()) return Promise.resolve();
  return track(sha256, bytes.size, async () => {
    // Hashed off the page's thread; the Blob itself is what is stored (a copy would cost the page
    // as much again), and an entry whose bytes changed since is caught when it is read.
    if ((await digestBlob(bytes, false)).sha256 !== sha256) {
      console.warn(`Not caching an upload: its bytes do not hash to ${sha256}.`);
      return;
    }
    await store(sha256, bytes);
  });
}

// --- The server -----------------------------------------------------------------------------

/**
 * The file from the server. Its bytes are checked against the hash they are filed under before
 * anyone sees them (where WebCrypto exists): a damaged answer is asked for once more, straight
 * from the server, and a second mismatch fails the run rather than give Python other bytes.
 * With Cache Storage at hand the browser's HTTP cache is bypassed: the file is kept once, here.
 */
async function fromServer(file: DatasetRef, verifiable: boolean): Promise<DatasetSource> {
  const keep = verifiable && cacheAvailable();
  const response = await download(file, keep ? 'no-store' : 'default');
  return {
    size: declaredSize(response) ?? (await probeSize(file.url)),
    fromCache: false,
    read: async () => {
      if (!verifiable) return new Uint8Array(await response.arrayBuffer());
      // As a Blob (the page holds no copy of the bytes), read and hashed by the hash worker.
      let blob = await response.blob();
      let { sha256: digest, bytes } = await digestBlob(blob, true);
      if (digest !== null && digest !== file.sha256) {
        console.warn(`${file.name}: the bytes served do not hash to ${file.sha256}; downloading it again.`);
        blob = await (await download(file, 'reload')).blob();
        ({ sha256: digest, bytes } = await digestBlob(blob, true));
        if (digest !== file.sha256) throw new RunFailureError({ kind: 'dataset-missing', name: file.name, reason: 'damaged' });
      }
      if (keep && blob.size <= DATASET_CACHE_MAX_BYTES) {
        // The Blob, not the buffer: the caller transfers the buffer to the worker at once. Cached in the background.
        void track(file.sha256, blob.size, () => store(file.sha256, blob));
      }
      return new Uint8Array(bytes!);
    },
  };
}

async function download(file: DatasetRef, cache: RequestCache): Promise<Response> {
  const response = await fetch(file.url, { cache }).catch((error: unknown) => {
    // fetch rejects only when the server cannot be reached (a TypeError): the file is missing for this run.
    if (error instanceof TypeError) throw new RunFailureError({ kind: 'dataset-missing', name: file.name, reason: 'http' });
    throw error;
  });
  if (!response.ok) throw new RunFailureError({ kind: 'dataset-missing', name: file.name, reason: 'http', status: response.status });
  return response;
}

/** The body's size from Content-Length, when the body is not compressed in transit. */
function declaredSize(response: Response): number | null {
  const length = response.headers.get('content-length');
  if (length === null || response.headers.has('content-encoding')) return null;
  const size = Number(length);
  return Number.isSafeInteger(size) && size >= 0 ? size : null;
}

/**
 * A compressed answer (text is gzipped on the way) has no length: the size of the file is then
 * asked for as the total of a one-byte range (`Content-Range: bytes 0-0/<size>`). Null when the
 * server does not say. Never through the HTTP cache: a stored partial answer would be stitched
 * into a later full download, and the server compresses ranges too.
 */
async function probeSize(url: string): Promise<number | null> {
  try {
    const response = await fetch(url, { headers: { range: 'bytes=0-0' }, cache: 'no-store' });
    void response.body?.cancel().catch(() => undefined); // only the headers were wanted; a body that will not cancel is dropped with the response
    const total = response.status === 206 ? /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] : undefined;
    return total === undefined ? null : Number(total);
  } catch {
    return null; // no answer: the size is unknown, and the download proceeds without it
  }
}

// --- Cache Storage --------------------------------------------------------------------------

/** Puts in progress in this page, by hash: a lookup waits for them rather than downloading. */
const pendingStores = new Map<string, { size: number; done: Promise<void> }>();

function track(sha256: string, size: number, work: () => Promise<void>): Promise<void> {
  const pending = pendingStores.get(sha256);
  if (pending) return pending.done;
  // A failed put is a cache miss later, never a wrong answer: the bytes are downloaded again then.
  const done = work()
    .catch((error: unknown) => console.warn(`Dataset ${sha256.slice(0, 12)}… was not kept in the browser's cache; it will be downloaded again when needed.`, error))
    .finally(() => pendingStores.delete(sha256));
  pendingStores.set(sha256, { size, done });
  return done;
}

function cacheAvailable(): boolean {
  return typeof caches !== 'undefined' && typeof crypto !== 'undefined' && Boolean(crypto.subtle);
}

async function openCache(): Promise<Cache | null> {
  if (!cacheAvailable()) return null;
  try {
    return await caches.open(DATASET_CACHE_NAME);
  } catch {
    return null; // e.g. storage disabled, private mode
  }
}

async function cachedResponse(sha256: string): Promise<Response | null> {
  const cache = await openCache();
  if (!cache) return null;
  try {
    return (await cache.match(datasetCacheKey(sha256))) ?? null;
  } catch {
    return null; // storage went away: a miss, and the bytes are downloaded
  }
}

/** A cached entry's bytes when they still hash to `sha256`; null (and the entry dropped) otherwise. */
async function readCached(sha256: string, hit: Response): Promise<Uint8Array<ArrayBuffer> | null> {
  try {
    const { sha256: digest, bytes } = await digestBlob(await hit.blob(), true);
    if (digest === sha256 && bytes) {
      touch(sha256, bytes.byteLength);
      return new Uint8Array(bytes);
    }
  } catch {
    // unreadable entry: dropped below
  }
  await forget(sha256);
  return null;
}

async function store(sha256: string, bytes: Blob): Promise<void> {
  const cache = await openCache();
  if (!cache) return;
  const key = datasetCacheKey(sha256);
  try {
    if (await cache.match(key)) {
      touch(sha256, bytes.size);
      return;
    }
    await evict(cache, DATASET_CACHE_MAX_BYTES - bytes.size);
    await cache.put(key, new Response(bytes, { headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.size) } }));
    touch(sha256, bytes.size);
  } catch {
    // Over quota, or storage went away: no entry rather than a partial one (a miss, downloaded again later).
    console.warn(`Dataset ${sha256.slice(0, 12)}… could not be kept in the browser's cache.`);
    await cache.delete(key).catch(() => false); // nothing was written, or storage is gone: either way no entry
    dropFromIndex(sha256);
  }
}

async function forget(sha256: string): Promise<void> {
  const cache = await openCache();
  // Storage gone: the index no longer lists it, and an entry that is read again is checked by its hash.
  await cache?.delete(datasetCacheKey(sha256)).catch(() => false);
  dropFromIndex(sha256);
}

/**
 * Deletes least recently used entries until the cache holds at most `budget` bytes. The index is
 * reconciled with the cache's keys first: entries it lacks are counted (size from their headers)
 * as the oldest, index rows without an entry are dropped.
 */
async function evict(cache: Cache, budget: number): Promise<void> {
  const index = readIndex();
  const entries: Array<{ sha256: string; size: number; usedAt: number }> = [];
  for (const request of await cache.keys()) {
    const sha256 = new URL(request.url).pathname.split('/').pop() ?? '';
    const known = index[sha256];
    if (known) {
      entries.push({ sha256, ...known });
      continue;
    }
    const response = await cache.match(request);
    const size = Number(response?.headers.get('content-length'));
    entries.push({ sha256, size: Number.isFinite(size) ? size : 0, usedAt: 0 });
  }
  entries.sort((a, b) => a.usedAt - b.usedAt);
  let total = entries.reduce((sum, entry) => sum + entry.size, 0);
  const next: DatasetIndex = {};
  for (const entry of entries) {
    if (total > budget) {
      await cache.delete(datasetCacheKey(entry.sha256));
      total -= entry.size;
    } else {
      next[entry.sha256] = { size: entry.size, usedAt: entry.usedAt };
    }
  }
  writeIndex(next);
}

// --- The index (localStorage) ---------------------------------------------------------------

type DatasetIndex = Record<string, { size: number; usedAt: number }>;

function readIndex(): DatasetIndex {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(INDEX_KEY) ?? '{}');
    if (!parsed || typeof parsed !== 'object') return {};
    const index: DatasetIndex = {};
    for (const [sha256, value] of Object.entries(parsed as Record<string, unknown>)) {
      const entry = value as { size?: unknown; usedAt?: unknown } | null;
      if (SHA256.test(sha256) && typeof entry?.size === 'number' && typeof entry.usedAt === 'number') index[sha256] = { size: entry.size, usedAt: entry.usedAt };
    }
    return index;
  } catch {
    return {}; // no localStorage (private mode, disabled): every entry counts as old
  }
}

function writeIndex(index: DatasetIndex): void {
  try {
    localStorage.setItem(INDEX_KEY, JSON.stringify(index));
  } catch {
    // full or unavailable: eviction then treats entries as old, which is safe
  }
}

function touch(sha256: string, size: number): void {
  const index = readIndex();
  index[sha256] = { size, usedAt: Date.now() };
  writeIndex(index);
}

function dropFromIndex(sha256: string): void {
  const index = readIndex();
  if (!(sha256 in index)) return;
  delete index[sha256];
  writeIndex(index);
}
