import { describe, expect, it } from 'vitest';
import { acceptedMediaType, sanitizeFileName, withSuffix } from './accept';

describe('upload acceptance', () => {
  it.each([
    ['sales.csv', 'text/csv'],
    ['DATA.TSV', 'text/tab-separated-values'],
    ['book.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['photo.JPEG', 'image/jpeg'],
    ['script.exe', null],
    ['noextension', null],
    ['archive.csv.zip', null],
  ])('%s → %s', (name, type) => {
    expect(acceptedMediaType(name)).toBe(type);
  });

  it.each([
    ['../../etc/passwd.csv', 'passwd.csv'],
    ['C:\\Users\\me\\data.csv', 'data.csv'],
    ['bad\u0000na\u001fme\u007f.csv', 'badname.csv'],
    ['..hidden.csv', 'hidden.csv'],
    ['a<b>c|d?.csv', 'a_b_c_d_.csv'],
    ['..', null],
    ['/', null],
  ])('sanitizes %j → %j', (raw, expected) => {
    expect(sanitizeFileName(raw)).toBe(expected);
  });

  it('caps long names but keeps the extension', () => {
    const name = sanitizeFileName(`${'x'.repeat(300)}.csv`)!;
    expect(name.length).toBe(120);
    expect(name.endsWith('.csv')).toBe(true);
  });

  it('suffixes clashes before the extension', () => {
    expect(withSuffix('data.csv', 1)).toBe('data (1).csv');
    expect(withSuffix('README', 2)).toBe('README (2)');
  });
});
