import { describe, expect, it } from 'vitest';
import { libraryTotals, mergeLibrary, newestBySha256 } from './datasets-library';

const a = 'a'.repeat(64);
const b = 'b'.repeat(64);
const c = 'c'.repeat(64);

describe('newestBySha256', () => {
  it('keeps one row per SHA-256, the newest, newest first', () => {
    const rows = [
      { sha256: a, name: 'old.csv', addedAt: 1 },
      { sha256: b, name: 'other.csv', addedAt: 2 },
      { sha256: a, name: 'new.csv', addedAt: 3 },
    ];
    expect(newestBySha256(rows).map((r) => r.name)).toEqual(['new.csv', 'other.csv']);
  });
});

describe('mergeLibrary', () => {
  const csv = 'text/csv';
  it('merges the same bytes on the device and in the account into one entry, named as last given', () => {
    const merged = mergeLibrary(
      [
        { sha256: a, name: 'kept.csv', mediaType: csv, size: 10, keptAt: 50 },
        { sha256: c, name: 'only-here.csv', mediaType: csv, size: 7, keptAt: 10 },
      ],
      [
        { sha256: a, name: 'uploaded.csv', mediaType: csv, size: 10, addedAt: 20 },
        { sha256: b, name: 'account.csv', mediaType: csv, size: 5, addedAt: 30 },
      ],
    );
    expect(merged).toEqual([
      { sha256: a, name: 'kept.csv', mediaType: csv, size: 10, onDevice: true, inAccount: true, at: 50 },
      { sha256: b, name: 'account.csv', mediaType: csv, size: 5, onDevice: false, inAccount: true, at: 30 },
      { sha256: c, name: 'only-here.csv', mediaType: csv, size: 7, onDevice: true, inAccount: false, at: 10 },
    ]);
    expect(libraryTotals(merged)).toEqual({ deviceBytes: 17, accountBytes: 15 });
  });

  it('keeps the account name when the account copy is newer', () => {
    const [entry] = mergeLibrary([{ sha256: a, name: 'kept.csv', mediaType: csv, size: 1, keptAt: 1 }], [{ sha256: a, name: 'renamed.csv', mediaType: csv, size: 1, addedAt: 9 }]);
    expect(entry).toMatchObject({ name: 'renamed.csv', onDevice: true, inAccount: true, at: 9 });
  });
});
