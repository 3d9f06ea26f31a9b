import { describe, expect, it } from 'vitest';
import { recordedSnapshotDigest, recordSnapshotDigest, snapshotDigestOf, withSnapshotDigest, SNAPSHOT_DIGEST_KEY } from './snapshot-digest.client';

const DIGEST = 'ab'.repeat(32);

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return { values, getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) };
}

describe('the kept snapshot’s recorded digest', () => {
  it('travels from the page’s record to the worker in its URL’s fragment, and back out', () => {
    const storage = memoryStorage();
    recordSnapshotDigest(DIGEST, storage);
    expect(recordedSnapshotDigest(storage)).toBe(DIGEST);
    const url = withSnapshotDigest('/workers/python.worker.mjs?index=%2Fpyodide%2F', recordedSnapshotDigest(storage));
    expect(url).toBe(`/workers/python.worker.mjs?index=%2Fpyodide%2F#snapshot=${DIGEST}`);
    expect(snapshotDigestOf(new URL(url, 'https://runpad.example').href)).toBe(DIGEST);
  });

  it('is nothing when none was recorded or what was recorded is not a digest', () => {
    const storage = memoryStorage();
    expect(recordedSnapshotDigest(storage)).toBeNull();
    storage.values.set(SNAPSHOT_DIGEST_KEY, 'not-a-digest');
    expect(recordedSnapshotDigest(storage)).toBeNull();
    recordSnapshotDigest('zz'.repeat(32), storage);
    expect(storage.values.get(SNAPSHOT_DIGEST_KEY)).toBe('not-a-digest');
    expect(withSnapshotDigest('/workers/python.worker.mjs?x=1', null)).toBe('/workers/python.worker.mjs?x=1');
    expect(snapshotDigestOf('https://runpad.example/workers/python.worker.mjs?snapshot=' + DIGEST)).toBeNull();
    expect(snapshotDigestOf('https://runpad.example/workers/python.worker.mjs#snapshot=' + DIGEST.slice(1))).toBeNull();
  });
});
