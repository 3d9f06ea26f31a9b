/**
 * Where the worker keeps Pyodide memory snapshots: Cache Storage, under a key that changes with
 * everything the snapshot bakes in (the Pyodide files' location, which names their version, and
 * our Python package's sources). The Cache Storage object is captured when the store is made,
 * because lockDown() later removes `caches` from the worker's globals; user code cannot reach it.
 */
import { SNAPSHOT_CACHE_NAME } from '@/lib/targets/python/worker-url';

export type SnapshotStore = {
  load(): Promise<Uint8Array<ArrayBuffer> | null>;
  save(bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  discard(): Promise<void>;
};

/** The SHA-256 of `data` (text as UTF-8), in hex. */
export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', typeof data === 'string' ? new TextEncoder().encode(data) : data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const NO_STORE: SnapshotStore = { load: async () => null, save: async () => undefined, discard: async () => undefined };

export async function snapshotStore(indexURL: string, contents: unknown): Promise<SnapshotStore> {
  const storage = typeof caches === 'undefined' ? null : caches;
  if (!storage) return NO_STORE;
  // A synthetic same-origin key: nothing is fetched from it.
  const key = new URL(`/__runpad-snapshot/${await sha256Hex(JSON.stringify({ indexURL, contents }))}`, self.location.href).href;
  const open = () => storage.open(SNAPSHOT_CACHE_NAME);
  return {
    async load() {
      try {
        const response = await (await open()).match(key);
        return response ? new Uint8Array(await response.arrayBuffer()) : null;
      } catch {
        return null; // storage unavailable (private mode, quota): start without
      }
    },
    async save(bytes) {
      try {
        // Only one snapshot is useful: older keys belong to other versions.
        await storage.delete(SNAPSHOT_CACHE_NAME);
        await (await open()).put(key, new Response(bytes, { headers: { 'content-type': 'application/octet-stream' } }));
      } catch {
        // quota or storage errors only cost the next start its shortcut
      }
    },
    async discard() {
      await storage.delete(SNAPSHOT_CACHE_NAME).catch(() => false);
    },
  };
}
