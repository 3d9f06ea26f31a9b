import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { inferType, parseDelimited, PREVIEW_MAX_CHARS, previewToText, sniffTable, type TablePreview } from './sniff.client';

const sniff = (text: string, fileName = 'data.csv', complete = true, maxRows?: number) => sniffTable(text, { fileName, complete, maxRows });
const must = (preview: TablePreview | null): TablePreview => {
  expect(preview).not.toBeNull();
  return preview as TablePreview;
};

describe('delimited text', () => {
  it('reads a plain CSV: columns, types, rows and row count', () => {
    const preview = must(sniff('city,pop,area,capital,founded\nParis,2100000,105.4,true,0052-01-01\nLyon,513000,47.9,false,1989-02-03\n'));
    expect(preview).toEqual({
      format: 'csv',
      delimiter: ',',
      columns: [
        { name: 'city', type: 'string' },
        { name: 'pop', type: 'integer' },
        { name: 'area', type: 'number' },
        { name: 'capital', type: 'boolean' },
        { name: 'founded', type: 'date' },
      ],
      rows: [
        ['Paris', '2100000', '105.4', 'true', '0052-01-01'],
        ['Lyon', '513000', '47.9', 'false', '1989-02-03'],
      ],
      rowCount: 2,
      truncated: false,
      header: true,
      warnings: [],
    });
  });

  it('keeps newlines inside quoted fields (one record, not two)', () => {
    const preview = must(sniff('id,comment\n1,"first line\nsecond line"\n2,plain\n'));
    expect(preview.rowCount).toBe(2);
    expect(preview.rows[0]).toEqual(['1', 'first line\nsecond line']);
    expect(preview.rows[1]).toEqual(['2', 'plain']);
    expect(preview.warnings).toEqual([]);
  });

  it('keeps quoted delimiters and turns doubled quotes into one', () => {
    const preview = must(sniff('name,quote\n"Smith, J","she said ""hi"""\n"",x\n'));
    expect(preview.rows).toEqual([
      ['Smith, J', 'she said "hi"'],
      ['', 'x'],
    ]);
    expect(preview.columns.map((c) => c.name)).toEqual(['name', 'quote']);
  });

  it('strips a UTF-8 BOM (before a quoted header, before JSON)', () => {
    expect(must(sniff('\uFEFFid,name\n1,a\n')).columns[0]).toEqual({ name: 'id', type: 'integer' });
    // With the BOM left in, the quote would not open the field and the name would be '"id"'.
    expect(must(sniff('\uFEFF"id","name"\n1,a\n')).columns.map((c) => c.name)).toEqual(['id', 'name']);
    expect(must(sniff('\uFEFF[{"a":1}]', 'd.json')).columns).toEqual([{ name: 'a', type: 'integer' }]);
  });

  it('handles CRLF line endings, also inside quotes', () => {
    const preview = must(sniff('a,b\r\n1,"x\r\ny"\r\n3,4\r\n'));
    expect(preview.rows).toEqual([
      ['1', 'x\r\ny'],
      ['3', '4'],
    ]);
    expect(preview.columns.map((c) => c.name)).toEqual(['a', 'b']);
    expect(preview.rowCount).toBe(2);
    // Old Mac line endings (lone CR) are line breaks too.
    expect(must(sniff('a,b\r1,2\r')).rows).toEqual([['1', '2']]);
  });

  it('detects a semicolon delimiter even when values contain decimal commas', () => {
    const preview = must(sniff('region;price;units\nnorth;1,5;3\nsouth;2,25;4\n'));
    expect(preview.delimiter).toBe(';');
    expect(preview.format).toBe('csv');
    expect(preview.rows[0]).toEqual(['north', '1,5', '3']);
    expect(preview.columns.map((c) => c.type)).toEqual(['string', 'string', 'integer']);
  });

  it('reads tab-separated files, by extension and by content', () => {
    const byName = must(sniff('a\tb\n1\tx, y\n', 'x.tsv'));
    expect(byName).toMatchObject({ format: 'tsv', delimiter: '\t', rows: [['1', 'x, y']] });
    const byContent = must(sniff('a\tb\tc\n1\t2\t3\n4\t5\t6\n', 'x.txt'));
    expect(byContent).toMatchObject({ format: 'tsv', delimiter: '\t' });
    expect(byContent.columns.map((c) => c.name)).toEqual(['a', 'b', 'c']);
  });

  it('prefers the delimiter that is consistent over the one giving more fields', () => {
    // Split on commas the header has 3 fields but the rows 2: semicolons are consistent.
    const preview = must(sniff('Name;Price, EUR, gross\nfoo;1,5\nbar;2,5\nbaz;3\n'));
    expect(preview.delimiter).toBe(';');
    expect(preview.columns.map((c) => c.name)).toEqual(['Name', 'Price, EUR, gross']);
  });

  it('detects a pipe delimiter and ignores delimiters inside quotes when choosing', () => {
    expect(must(sniff('a|b\n1|2\n3|4\n')).delimiter).toBe('|');
    // Commas only appear inside quotes: split naively by line, a comma would look as good as ';'.
    const quoted = must(sniff('"first, last";age\n"Smith, J";30\n"Doe, A";41\n'));
    expect(quoted.delimiter).toBe(';');
    expect(quoted.columns).toEqual([
      { name: 'first, last', type: 'string' },
      { name: 'age', type: 'integer' },
    ]);
  });

  it('returns null for an empty or blank file', () => {
    expect(sniff('')).toBeNull();
    expect(sniff('\uFEFF')).toBeNull();
    expect(sniff('\n\r\n  \n')).toBeNull();
    expect(sniff('', 'd.json')).toBeNull();
    expect(sniff(' \n', 'd.jsonl')).toBeNull();
  });

  it('header only: columns typed empty and zero rows', () => {
    const preview = must(sniff('x,y\n'));
    expect(preview.rowCount).toBe(0);
    expect(preview.rows).toEqual([]);
    expect(preview.columns).toEqual([
      { name: 'x', type: 'empty' },
      { name: 'y', type: 'empty' },
    ]);
  });

  it('keeps ragged rows and warns about them', () => {
    const preview = must(sniff('a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n'));
    expect(preview.rowCount).toBe(4);
    expect(preview.rows[1]).toEqual(['4', '5']);
    expect(preview.rows[2]).toEqual(['6', '7', '8', '9']);
    expect(preview.warnings).toEqual(['ragged rows: 2 rows have a different number of fields than the header (3)']);
    expect(must(sniff('a,b\n1\n')).warnings[0]).toMatch(/^ragged rows: 1 row has /);
  });

  it('drops a partial last line when only a prefix was given', () => {
    const preview = must(sniff('a,b\n1,2\n3,4\n5,', 'big.csv', false));
    expect(preview.rows).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(preview.rowCount).toBeNull();
    expect(preview.truncated).toBe(true);
    // The same text, complete, keeps the last line and counts it.
    const whole = must(sniff('a,b\n1,2\n3,4\n5,', 'big.csv', true));
    expect(whole.rowCount).toBe(3);
    expect(whole.truncated).toBe(false);
  });

  it('a prefix cut inside a quoted multi-line field drops that whole record', () => {
    const preview = must(sniff('id,note\n1,ok\n2,"starts here\nand goes on', 'big.csv', false));
    expect(preview.rows).toEqual([['1', 'ok']]);
    expect(preview.warnings).toEqual([]);
  });

  it('a prefix that ends on a line break keeps its last line', () => {
    expect(must(sniff('a,b\n1,2\n3,4\n', 'big.csv', false)).rows).toHaveLength(2);
    // Trailing spaces after the last line break are not a record to drop.
    expect(must(sniff('a,b\n1,2\n3,4\n  ', 'big.csv', false)).rows).toHaveLength(2);
  });

  it('shows at most maxRows rows (default 5) but counts them all', () => {
    const text = `n\n${Array.from({ length: 12 }, (_, i) => i).join('\n')}\n`;
    expect(must(sniff(text)).rows).toHaveLength(5);
    expect(must(sniff(text)).rowCount).toBe(12);
    expect(must(sniff(text, 'data.csv', true, 2)).rows).toEqual([['0'], ['1']]);
  });

  it('clips long cells to 80 characters', () => {
    const preview = must(sniff(`text\n${'x'.repeat(200)}\n`));
    expect(preview.rows[0][0]).toHaveLength(80);
    expect(preview.rows[0][0].endsWith('…')).toBe(true);
  });

  it('warns about an unterminated quote in a complete file', () => {
    const preview = must(sniff('a,b\n1,"never closed\n2,3\n'));
    expect(preview.warnings.some((w) => w.startsWith('unterminated quote'))).toBe(true);
  });

  it('names blank header cells and warns about duplicates', () => {
    const preview = must(sniff('id,,id\n1,2,3\n'));
    expect(preview.columns.map((c) => c.name)).toEqual(['id', 'column_2', 'id']);
    expect(preview.warnings).toContain('duplicate column names: id');
  });

  it('parseDelimited reports a cut last record', () => {
    expect(parseDelimited('a,b\n1,2', ',')).toEqual({ records: [['a', 'b'], ['1', '2']], lastPartial: true, openQuote: false });
    expect(parseDelimited('a,b\n1,"2', ',').openQuote).toBe(true);
    expect(parseDelimited('a,b\n1,2\n', ',').lastPartial).toBe(false);
  });
});

describe('JSON and JSON Lines', () => {
  it('reads an array of objects: columns are the union of keys in first-seen order', () => {
    const preview = must(sniff('[{"a":1,"b":"x"},{"a":2,"c":true},{"c":false,"d":null}]', 'd.json'));
    expect(preview.format).toBe('json');
    expect(preview.delimiter).toBeUndefined();
    expect(preview.columns).toEqual([
      { name: 'a', type: 'integer' },
      { name: 'b', type: 'string' },
      { name: 'c', type: 'boolean' },
      { name: 'd', type: 'empty' },
    ]);
    expect(preview.rows[1]).toEqual(['2', '', 'true', '']);
    expect(preview.rowCount).toBe(3);
  });

  it('reads an object of arrays as columns', () => {
    const preview = must(sniff('{"a":[1,2,3],"b":["x","y","z"],"when":["2024-01-31","2024-02-01",null]}', 'd.json'));
    expect(preview.columns).toEqual([
      { name: 'a', type: 'integer' },
      { name: 'b', type: 'string' },
      { name: 'when', type: 'date' },
    ]);
    expect(preview.rows[2]).toEqual(['3', 'z', '']);
    expect(preview.rowCount).toBe(3);
  });

  it('returns null for invalid or non-tabular JSON', () => {
    expect(sniff('[{"a":', 'd.json')).toBeNull();
    expect(sniff('{"a": 1,}', 'd.json')).toBeNull();
    expect(sniff('42', 'd.json')).toBeNull();
    expect(sniff('[1, 2, 3]', 'd.json')).toBeNull();
  });

  it('recovers the whole elements of a cut-off JSON array when only a prefix was given', () => {
    const preview = must(sniff('[{"a":1,"s":"x]}"},{"a":2,"s":"y"},{"a":3,"s":"z', 'big.json', false));
    expect(preview.rows).toEqual([
      ['1', 'x]}'],
      ['2', 'y'],
    ]);
    expect(preview.rowCount).toBeNull();
    expect(preview.truncated).toBe(true);
  });

  it('stringifies nested values', () => {
    const preview = must(sniff('[{"a":{"b":1},"c":[1,2]}]', 'd.json'));
    expect(preview.rows[0]).toEqual(['{"b":1}', '[1,2]']);
  });

  it('reads JSON Lines, skipping blank lines', () => {
    const preview = must(sniff('{"a":1,"b":2.5}\n\n{"a":2,"c":"z"}\r\n', 'd.jsonl'));
    expect(preview.format).toBe('jsonl');
    expect(preview.columns).toEqual([
      { name: 'a', type: 'integer' },
      { name: 'b', type: 'number' },
      { name: 'c', type: 'string' },
    ]);
    expect(preview.rowCount).toBe(2);
  });

  it('JSON Lines: drops a cut last line when only a prefix was given', () => {
    const preview = must(sniff('{"a":1}\n{"a":2}\n{"a":', 'd.jsonl', false));
    expect(preview.rows).toEqual([['1'], ['2']]);
    expect(preview.rowCount).toBeNull();
    expect(preview.warnings).toEqual([]);
    expect(sniff('{"a":1', 'd.jsonl')).toBeNull();
  });

  it('falls back to content: JSON in a .txt, JSON Lines in a .json', () => {
    expect(must(sniff('[{"a":1}]', 'notes.txt')).format).toBe('json');
    expect(must(sniff('{"a":1}\n{"a":2}\n', 'd.json'))).toMatchObject({ format: 'jsonl', rowCount: 2 });
  });

  it('an extension wins over content: a .csv starting with [ is CSV', () => {
    expect(must(sniff('[a],[b]\n1,2\n', 'x.csv'))).toMatchObject({ format: 'csv', columns: [{ name: '[a]' }, { name: '[b]' }] });
  });
});

describe('type inference', () => {
  it('integer, number, boolean, date, string, empty', () => {
    expect(inferType(['1', '-2', '+30', ''])).toBe('integer');
    expect(inferType(['1', '-3.2', '1e5', '.5', '2.'])).toBe('number');
    expect(inferType(['true', 'FALSE', ' '])).toBe('boolean');
    expect(inferType(['2024-01-31', '2024-01-31T10:00:00Z', '2024-01-31T10:00:00.123+02:00', '2024-01-31 10:00'])).toBe('date');
    expect(inferType(['1', 'x'])).toBe('string');
    expect(inferType(['true', '1'])).toBe('string');
    expect(inferType(['', '  '])).toBe('empty');
  });

  it('rejects impossible dates and loose numbers', () => {
    expect(inferType(['2024-13-01'])).toBe('string');
    expect(inferType(['2024-01-32'])).toBe('string');
    expect(inferType(['2024-01-31T25:00'])).toBe('string');
    expect(inferType(['1,000'])).toBe('string');
    expect(inferType(['1e'])).toBe('string');
    expect(inferType(['-'])).toBe('string');
  });

  it('empty cells do not change a column type in a file', () => {
    const preview = must(sniff('a,b\n1,\n,2.5\n3,\n'));
    expect(preview.columns).toEqual([
      { name: 'a', type: 'integer' },
      { name: 'b', type: 'number' },
    ]);
  });
});

describe('previewToText', () => {
  it('formats path, size, format, row count, columns and a pipe table', () => {
    const text = previewToText('data/sales.csv', 1_234_567, sniff('region,units\nnorth,12\nsouth,30\n'));
    expect(text).toBe(
      [
        '/data/sales.csv (1.2 MB, CSV, 2 rows): columns region (string), units (integer)',
        'first 2 rows:',
        'region | units',
        'north | 12',
        'south | 30',
      ].join('\n'),
    );
  });

  it('uses thousands separators and names unusual delimiters', () => {
    const preview: TablePreview = { format: 'csv', delimiter: ';', columns: [{ name: 'a', type: 'integer' }], rows: [['1']], rowCount: 12_345, truncated: false, header: true, warnings: [] };
    expect(previewToText('data/x.csv', 500, preview).split('\n')[0]).toBe('/data/x.csv (500 B, CSV, delimiter ";", 12,345 rows): columns a (integer)');
  });

  it('says when the row count is unknown and adds warnings as notes', () => {
    const text = previewToText('data/big.tsv', 300_000_000, sniff('a\tb\n1\t2\n3\n4\t', 'big.tsv', false));
    expect(text.split('\n')[0]).toBe('/data/big.tsv (300 MB, TSV, row count unknown: only the start of the file was read): columns a (integer), b (integer)');
    expect(text).toContain('\nnote: ragged rows: 1 row has a different number of fields than the header (2)');
  });

  it('escapes pipes and line breaks so each row stays one table line', () => {
    const text = previewToText('data/q.csv', 10, sniff('a,b\n"x|y","line1\nline2"\n'));
    expect(text.split('\n').slice(-2)).toEqual(['a | b', 'x\\|y | line1\\nline2']);
    const named = previewToText('data/n.csv', 10, sniff('"first\nname",b\n1,2\n'));
    expect(named.split('\n')[0]).toBe('/data/n.csv (10 B, CSV, 1 row): columns first\\nname (integer), b (integer)');
  });

  it('without a preview gives only path and size', () => {
    expect(previewToText('data/photo.png', 5_000_000, null)).toBe('/data/photo.png (5.0 MB)');
    expect(previewToText('/data/a.csv', 999, null)).toBe('/data/a.csv (999 B)');
  });

  it('stays under the attachment preview limit for very wide tables', () => {
    const names = Array.from({ length: 400 }, (_, i) => `a_rather_long_column_name_${i}`);
    const row = names.map(() => 'y'.repeat(70));
    const text = previewToText('data/wide.csv', 10_000_000, sniff(`${names.join(',')}\n${Array(5).fill(row.join(',')).join('\n')}\n`));
    expect(text.length).toBeLessThanOrEqual(PREVIEW_MAX_CHARS);
    // The columns it leaves out are counted: the listed ones and the count make all 400.
    const listed = text.split('\n')[0].match(/a_rather_long_column_name_\d+ \(string\)/g) ?? [];
    const more = Number(text.match(/… \((\d+) more columns\)/)?.[1]);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length + more).toBe(400);
    // Rows are shown while the budget lasts, each cut at 1,000 characters with a mark, and the
    // count it announces is the count it shows (the header row, then the data rows).
    const [, announced, ...shown] = text.split('\n');
    const count = Number(announced.match(/^first (\d+) rows?:$/)?.[1]);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(5);
    expect(shown).toHaveLength(count + 1);
    for (const line of shown) expect(line.length <= 1_000 && line.endsWith('…')).toBe(true);
    expect(text.startsWith('/data/wide.csv (10 MB, CSV, 5 rows): columns a_rather_long_column_name_0 (string)')).toBe(true);
  });
});

describe('a header row, decided as DuckDB decides it', () => {
  /** First rows that are data (names would be their cells) and first rows that are names, over columns of every type. */
  const VALUES = { text: ['KIWI SECRET', 'O’Brien', 'Ωμέγα', 'a, b'], integer: ['3', '-41', '7', '1200'], number: ['3.5', '-0.25', '7', '1e3'], boolean: ['true', 'false', 'TRUE', 'false'], date: ['2024-01-31', '2023-12-01', '2024-02-29', '2020-06-15'] } as const;
  type Kind = keyof typeof VALUES;
  const layouts: Kind[][] = [['text', 'integer'], ['text', 'text'], ['integer', 'integer'], ['date', 'text'], ['text', 'boolean'], ['text', 'number', 'text'], ['number', 'integer'], ['text', 'date', 'integer']];
  const quote = (cell: string) => `"${cell.replace(/"/g, '""')}"`;

  it.each(layouts.flatMap((kinds) => [{ kinds, named: true }, { kinds, named: false }]))('$kinds, a header: $named', async ({ kinds, named }) => {
    const rows = [0, 1, 2, 3].map((row) => kinds.map((kind, column) => VALUES[kind][(row + column) % 4]));
    const text = `${[...(named ? [kinds.map((kind, i) => `${kind}_${i}`)] : []), ...rows].map((row) => row.map(quote).join(',')).join('\n')}\n`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-header-'));
    const file = path.join(dir, 'x.csv');
    fs.writeFileSync(file, text);
    const instance = await DuckDBInstance.create(':memory:');
    try {
      const connection = await instance.connect();
      const duckdb = (await connection.runAndReadAll(`SELECT * FROM read_csv('${file}') LIMIT 0`)).columnNames();
      connection.closeSync();
      const preview = must(sniff(text));
      expect(preview.columns.map((c) => c.name)).toEqual(duckdb);
      expect(preview.header).toBe(!duckdb.every((name, i) => name === `column${i}`));
    } finally {
      instance.closeSync();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
