import { describe, expect, it } from 'vitest';
import { newDropId } from '@/lib/files/data-file';
import { BLOB_READ_AHEAD_BYTES, DeviceFileReader, deviceMountPath, isDataFileName, READ_AHEAD_BYTES, ReadAhead, readAheadBytes, type SyncReader } from './device-mount';

/** A file of `size` bytes (byte i is i % 251) whose range reads are recorded. */
function fakeFile(size: number) {
  const bytes = Uint8Array.from({ length: size }, (_, i) => i % 251);
  const reads: [number, number][] = [];
  const readInto = (target: Uint8Array, position: number) => {
    const end = Math.min(position + target.byteLength, size);
    reads.push([position, end]);
    target.set(bytes.subarray(position, end));
    return end - position;
  };
  return { bytes, reads, readInto };
}

describe('ReadAhead', () => {
  it('serves sequential small reads from one window read and gives the right bytes', () => {
    const file = fakeFile(1000);
    const ahead = new ReadAhead(1000, file.readInto, 256);
    const out = new Uint8Array(1000);
    let position = 0;
    while (position < 1000) {
      const n = ahead.read(out, position, 10, position);
      expect(n).toBeGreaterThan(0);
      position += n;
    }
    expect(out).toEqual(file.bytes);
    expect(ahead.read(out, 0, 10, 1000)).toBe(0);
    expect(file.reads).toEqual([[0, 256], [256, 512], [512, 768], [768, 1000]]);
  });

  it('fills a read that spans the end of the window from the next window', () => {
    const file = fakeFile(600);
    const ahead = new ReadAhead(600, file.readInto, 100);
    const out = new Uint8Array(50);
    ahead.read(out, 0, 10, 0);
    expect(ahead.read(out, 0, 50, 80)).toBe(50);
    expect(out).toEqual(file.bytes.slice(80, 130));
  });

  it('reads a large request straight, and a seek backwards re-reads the window', () => {
    const file = fakeFile(1000);
    const ahead = new ReadAhead(1000, file.readInto, 100);
    const out = new Uint8Array(1000);
    expect(ahead.read(out, 0, 500, 200)).toBe(500);
    expect(out.subarray(0, 500)).toEqual(file.bytes.slice(200, 700));
    expect(file.reads).toEqual([[200, 700]]);
    ahead.read(out, 0, 10, 900);
    ahead.read(out, 0, 10, 5);
    expect(out.subarray(0, 10)).toEqual(file.bytes.slice(5, 15));
    expect(file.reads.slice(1)).toEqual([[900, 1000], [5, 105]]);
  });

  it('stops at the end of the file', () => {
    const file = fakeFile(30);
    const ahead = new ReadAhead(30, file.readInto, 100);
    const out = new Uint8Array(64);
    expect(ahead.read(out, 0, 64, 20)).toBe(10);
    expect(out.subarray(0, 10)).toEqual(file.bytes.slice(20, 30));
  });
});

describe('DeviceFileReader', () => {
  /** A read-only access handle over `bytes` (or one opened in another mode), recording its reads and whether it is open. */
  function fakeHandle(bytes: Uint8Array, mode = 'read-only') {
    const state = { opened: 0, open: false, reads: 0 };
    const access: SyncReader = {
      mode,
      read(target, { at }) {
        if (!state.open) throw new Error('closed');
        state.reads += 1;
        const part = bytes.subarray(at, at + target.byteLength);
        target.set(part);
        return part.byteLength;
      },
      close: () => void (state.open = false),
    };
    return { state, handle: { createSyncAccessHandle: async () => ((state.opened += 1), (state.open = true), access) } };
  }

  it('reads through the read-only handle while open, into the caller’s memory, and through the File when closed', async () => {
    const file = fakeFile(100);
    const blobReads: [number, number][] = [];
    const { state, handle } = fakeHandle(file.bytes);
    const reader = new DeviceFileReader(new Blob([file.bytes]), handle, () => (start, end) => (blobReads.push([start, end]), file.bytes.slice(start, end)));
    const target = new Uint8Array(30);
    expect(reader.readInto(target, 10)).toBe(30);
    expect(blobReads).toEqual([[10, 40]]);
    await reader.open();
    expect(state.open).toBe(true);
    expect(reader.readInto(target, 80)).toBe(20); // the end of the file
    expect(target.subarray(0, 20)).toEqual(file.bytes.slice(80, 100));
    expect(state.reads).toBe(1);
    expect(reader.readInto(target, 100)).toBe(0);
    reader.close();
    expect(state.open).toBe(false);
    expect(reader.readInto(target, 0)).toBe(30);
    expect(blobReads).toEqual([[10, 40], [0, 30]]);
  });

  it('never keeps a handle that is not read-only (it would lock the file for every other reader)', async () => {
    const file = fakeFile(10);
    const { state, handle } = fakeHandle(file.bytes, 'readwrite');
    const reader = new DeviceFileReader(new Blob([file.bytes]), handle, () => (start, end) => file.bytes.slice(start, end));
    await reader.open();
    expect(state.open).toBe(false);
    await reader.open();
    expect(state.opened).toBe(1); // not asked again
  });

  it('reads through the File when the handle cannot be opened (a writer holds it)', async () => {
    const file = fakeFile(10);
    const blobReads: [number, number][] = [];
    const reader = new DeviceFileReader(new Blob([file.bytes]), { createSyncAccessHandle: () => Promise.reject(new DOMException('held', 'NoModificationAllowedError')) }, () => (start, end) => (blobReads.push([start, end]), file.bytes.slice(start, end)));
    await reader.open();
    const target = new Uint8Array(10);
    expect(reader.readInto(target, 0)).toBe(10);
    expect(target).toEqual(file.bytes);
    expect(blobReads).toEqual([[0, 10]]);
  });
});

describe('reading a file just dropped (FileReaderSync) in large blocks', () => {
  it('serves Python’s small sequential reads of a dropped file from one FileReaderSync read per 32 MiB', () => {
    const size = 3 * BLOB_READ_AHEAD_BYTES + 12_345;
    const blobReads: [number, number][] = [];
    // No OPFS handle: every read of the file is a FileReaderSync read of a slice (recorded here).
    const reader = new DeviceFileReader(new Blob([new Uint8Array(size)]), null, () => (start, end) => (blobReads.push([start, end]), new Uint8Array(end - start)));
    const ahead = new ReadAhead(size, (into, position) => reader.readInto(into, position), readAheadBytes(null));
    const out = new Uint8Array(8192);
    let position = 0;
    for (let n = ahead.read(out, 0, 8192, 0); n > 0; n = ahead.read(out, 0, 8192, position)) position += n;
    expect(position).toBe(size);
    expect(blobReads).toHaveLength(4);
    expect(blobReads[0]).toEqual([0, BLOB_READ_AHEAD_BYTES]);
  });

  it('a kept file, read through its access handle, keeps the smaller window', () => {
    expect(readAheadBytes({ createSyncAccessHandle: () => Promise.reject(new Error('unused')) })).toBe(READ_AHEAD_BYTES);
    expect(readAheadBytes(null)).toBeGreaterThan(READ_AHEAD_BYTES);
  });
});

describe('deviceMountPath', () => {
  it('mounts by hash and refuses anything else', () => {
    const sha = 'a'.repeat(64);
    expect(deviceMountPath(sha)).toBe(`/mnt/device/${sha}/dataset`);
    expect(() => deviceMountPath('../etc')).toThrow(TypeError);
    expect(() => deviceMountPath('A'.repeat(64))).toThrow(TypeError);
  });

  it('mounts a file dropped and not kept yet by its drop id, and nothing shaped otherwise', () => {
    const id = newDropId();
    expect(deviceMountPath(id)).toBe(`/mnt/device/${id}/dataset`);
    expect(() => deviceMountPath('dropped-../x')).toThrow(TypeError);
    expect(() => deviceMountPath(`${id}/..`)).toThrow(TypeError);
  });

  it('accepts names that live directly in /data', () => {
    expect(isDataFileName('big.csv')).toBe(true);
    expect(isDataFileName('a/b.csv')).toBe(false);
    expect(isDataFileName('..')).toBe(false);
    expect(isDataFileName('')).toBe(false);
  });
});
