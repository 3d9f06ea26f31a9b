import { describe, expect, it } from 'vitest';
import { previewToText, sniffTable } from './sniff';

const sniff = (text: string, fileName = 'data.csv', complete = true) => sniffTable(text, { fileName, complete });

describe('dataset sniffer', () => {
  it('reads a plain CSV with types and row count', () => {
    const preview = sniff('city,pop,area,capital,founded\nParis,2100000,105.4,true,0052-01-01\nLyon,513000,47.9,false,1989-02-03\n')!;
    expect(preview.columns).toEqual([
      { name: 'city', type: 'string' },
      { name: 'pop', type: 'integer' },
      { name: 'area', type: 'number' },
      { name: 'capital', type: 'boolean' },
      { name: 'founded', type: 'date' },
    ]);
    expect(preview.rowCount).toBe(2);
  });

  it('keeps quoted delimiters, doubled quotes and newlines inside quotes', () => {
    const preview = sniff('name,note\n"Smith, J","said ""hi""\nthen left"\nDoe,ok\n')!;
    expect(preview.rows[0]).toEqual(['Smith, J', 'said "hi"\nthen left']);
    expect(preview.rowCount).toBe(2);
  });

  it('strips a BOM and handles CRLF', () => {
    const preview = sniff('\uFEFFa,b\r\n1,2\r\n3,4\r\n')!;
    expect(preview.columns.map((c) => c.name)).toEqual(['a', 'b']);
    expect(preview.rows).toEqual([['1', '2'], ['3', '4']]);
  });

  it('detects semicolons, tabs and pipes', () => {
    expect(sniff('a;b;c\n1;2;3\n4;5;6\n')!.delimiter).toBe(';');
    expect(sniff('a\tb\n1\t2\n', 'x.tsv')!.format).toBe('tsv');
    expect(sniff('a|b\n1|2\n3|4\n')!.delimiter).toBe('|');
  });

  it('empty file → null; header only → empty columns and zero rows', () => {
    expect(sniff('')).toBeNull();
    expect(sniff('\uFEFF\n')).toBeNull();
    const header = sniff('x,y\n')!;
    expect(header.rowCount).toBe(0);
    expect(header.columns).toEqual([{ name: 'x', type: 'empty' }, { name: 'y', type: 'empty' }]);
  });

  it('keeps ragged rows with a warning', () => {
    const preview = sniff('a,b,c\n1,2,3\n4,5\n6,7,8,9\n')!;
    expect(preview.rowCount).toBe(3);
    expect(preview.warnings[0]).toContain('2 rows have a different number of fields');
  });

  it('drops a partial last line when the text is only a prefix', () => {
    const preview = sniff('a,b\n1,2\n3,4\n5,', 'big.csv', false)!;
    expect(preview.rows).toEqual([['1', '2'], ['3', '4']]);
    expect(preview.rowCount).toBeNull();
    expect(preview.truncated).toBe(true);
  });

  it('reads JSON arrays, objects of arrays and JSON Lines; invalid JSON → null', () => {
    expect(sniff('[{"a":1,"b":"x"},{"a":2,"c":true}]', 'd.json')!.columns.map((c) => c.name)).toEqual(['a', 'b', 'c']);
    expect(sniff('{"a":[1,2,3],"b":["x","y","z"]}', 'd.json')!.rowCount).toBe(3);
    expect(sniff('{"a":1}\n{"a":2}\n', 'd.jsonl')!.columns).toEqual([{ name: 'a', type: 'integer' }]);
    expect(sniff('[{"a":', 'd.json')).toBeNull();
  });

  it('formats a compact preview for the model', () => {
    const text = previewToText('data/sales.csv', 1234, sniff('region,units\nnorth,12\nsouth,30\n'));
    expect(text).toBe('/data/sales.csv (1.2 kB, CSV, 2 rows)\ncolumns: region (string), units (integer)\nfirst 2 rows:\nregion | units\nnorth | 12\nsouth | 30');
    expect(previewToText('data/photo.png', 5_000_000, null)).toBe('/data/photo.png (5.0 MB)');
  });
});
