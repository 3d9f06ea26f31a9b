/**
 * The Pyodide memory snapshot a browser keeps (Cache Storage, lib/targets/python/engine/snapshot-store.ts) is
 * restored only when its SHA-256 is the one this page recorded when the worker stored it. Cache
 * Storage is written by any same-origin context (another worker, a page); a snapshot is the whole
 * interpreter's memory, so a written one would run its writer's code in every conversation. The
 * record lives in the page's local storage, which no worker can reach: the worker reports the
 * digest of what it stored (its init reply), the page records it and hands it to the next worker
 * in its URL's fragment (read before anything is restored; a fragment is not sent to the server).
 */
import 'client-only';
export const SNAPSHOT_DIGEST_KEY = 'runpad:python-snapshot-sha256';
const FRAGMENT_PARAM = 'snapshot';
const DIGEST = /^[0-9a-f]{64}$/;

export function isSnapshotDigest(value: unknown): value is string {
  return typeof value === 'string' && DIGEST.test(value);
}

type DigestStorage = Pick<Storage, 'getItem' | 'setItem'>;

function pageStorage(): DigestStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled: nothing is recorded, so no kept snapshot is trusted
  }
}

/** The digest this page recorded, or null. */
export function recordedSnapshotDigest(storage: DigestStorage | null = pageStorage()): string | null {
  try {
    const value = storage?.getItem(SNAPSHOT_DIGEST_KEY) ?? null;
    return isSnapshotDigest(value) ? value : null;
  } catch {
    return null;
  }
}

export function recordSnapshotDigest(digest: string, storage: DigestStorage | null = pageStorage()): void {
  if (!isSnapshotDigest(digest)) return;
  try {
    storage?.setItem(SNAPSHOT_DIGEST_KEY, digest);
  } catch {
    // full or disabled: the next worker finds no record and makes or fetches a snapshot it can trust
  }
}

/** The worker URL carrying the recorded digest, for the worker to check the kept snapshot against. */
export function withSnapshotDigest(url: string, digest: string | null = recordedSnapshotDigest()): string {
  return digest ? `${url.split('#')[0]}#${FRAGMENT_PARAM}=${digest}` : url;
}

/** In the worker: the digest its URL carries, or null. */
export function snapshotDigestOf(href: string): string | null {
  const hash = href.includes('#') ? href.slice(href.indexOf('#') + 1) : '';
  const value = new URLSearchParams(hash).get(FRAGMENT_PARAM);
  return isSnapshotDigest(value) ? value : null;
}
