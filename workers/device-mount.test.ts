import { describe, expect, it } from 'vitest';
import { deviceMountPath, isDataFileName, ReadAhead } from './device-mount';

/** A file of `size` bytes (byte i is i % 251) whose range reads are recorded. */
function fakeFile(size: number) {
  const bytes = Uint8Array.from({ length: size }, (_, i) => i % 251);
  const reads: [number, number][] = [];
  return { bytes, reads, readRange: (start: number, end: number) => (reads.push([start, end]), bytes.slice(start, end)) };
}

describe('ReadAhead', () => {
  it('serves sequential small reads from one window read and gives the right bytes', () => {
    const file = fakeFile(1000);
    const ahead = new ReadAhead(1000, file.readRange, 256);
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
    const ahead = new ReadAhead(600, file.readRange, 100);
    const out = new Uint8Array(50);
    ahead.read(out, 0, 10, 0);
    expect(ahead.read(out, 0, 50, 80)).toBe(50);
    expect(out).toEqual(file.bytes.slice(80, 130));
  });

  it('reads a large request straight, and a seek backwards re-reads the window', () => {
    const file = fakeFile(1000);
    const ahead = new ReadAhead(1000, file.readRange, 100);
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
    const ahead = new ReadAhead(30, file.readRange, 100);
    const out = new Uint8Array(64);
    expect(ahead.read(out, 0, 64, 20)).toBe(10);
    expect(out.subarray(0, 10)).toEqual(file.bytes.slice(20, 30));
  });
});

describe('deviceMountPath', () => {
  it('mounts by hash and refuses anything else', () => {
    const sha = 'a'.repeat(64);
    expect(deviceMountPath(sha)).toBe(`/mnt/device/${sha}/dataset`);
    expect(() => deviceMountPath('../etc')).toThrow(TypeError);
    expect(() => deviceMountPath('A'.repeat(64))).toThrow(TypeError);
  });

  it('accepts names that live directly in /data', () => {
    expect(isDataFileName('big.csv')).toBe(true);
    expect(isDataFileName('a/b.csv')).toBe(false);
    expect(isDataFileName('..')).toBe(false);
    expect(isDataFileName('')).toBe(false);
  });
});
