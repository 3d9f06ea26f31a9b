import { describe, expect, it } from 'vitest';
import type { TableData } from '@/lib/runtime/protocol';
import { guardFormula, tableToCsv, tableToTsv } from './to-csv.client';
import type { Row } from './table-view';

function table(names: string[], data: Row[], types: string[] = names.map(() => 'string')): TableData {
  return { schema: { fields: names.map((name, i) => ({ name, type: types[i] })) }, data };
}

/** A small RFC 4180 reader: records of fields, quoted fields may hold separators, quotes and line breaks. */
function parseCsv(text: string, delimiter = ','): string[][] {
  const records: string[][] = [];
  let field = '';
  let fields: string[] = [];
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i += 1;
      } else {
        field += c;
        i += 1;
      }
    } else if (c === '"') {
      if (field !== '') throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
      i += 1;
    } else if (c === delimiter) {
      fields.push(field);
      field = '';
      i += 1;
    } else if (c === '\r' && text[i + 1] === '\n') {
      fields.push(field);
      records.push(fields);
      fields = [];
      field = '';
      i += 2;
    } else if (c === '\r' || c === '\n') {
      throw new Error(`a bare line break at ${i}`);
    } else {
      field += c;
      i += 1;
    }
  }
  if (quoted) throw new Error('an unterminated quoted field');
  if (field !== '' || fields.length > 0) {
    fields.push(field);
    records.push(fields);
  }
  return records;
}

describe('tableToCsv', () => {
  it('writes a header from the fields and CRLF after every record', () => {
    const csv = tableToCsv(table(['a', 'b'], [{ a: 'x', b: 1 }, { a: 'y', b: 2 }], ['string', 'integer']));
    expect(csv).toBe('a,b\r\nx,1\r\ny,2\r\n');
  });

  it('quotes fields with commas, quotes, CR or LF, and doubles quotes', () => {
    const csv = tableToCsv(table(['v'], [{ v: 'a,b' }, { v: 'say "hi"' }, { v: 'line1\nline2' }, { v: 'cr\rhere' }, { v: 'plain' }]));
    expect(csv).toBe('v\r\n"a,b"\r\n"say ""hi"""\r\n"line1\nline2"\r\n"cr\rhere"\r\nplain\r\n');
  });

  it('quotes header names that need it', () => {
    expect(tableToCsv(table(['a,b', 'c"d'], [])).split('\r\n')[0]).toBe('"a,b","c""d"');
  });

  it('writes cells raw, not pretty', () => {
    const csv = tableToCsv(
      table(['i', 'f', 'b', 'n', 'd'], [{ i: 1234567, f: 0.1 + 0.2, b: true, n: null, d: '2024-01-05T10:30:00' }], ['integer', 'number', 'boolean', 'number', 'datetime']),
    );
    expect(csv).toBe('i,f,b,n,d\r\n1234567,0.30000000000000004,true,,2024-01-05T10:30:00\r\n');
  });

  it('defuses formulas in text cells', () => {
    const csv = tableToCsv(table(['v'], [{ v: '=SUM(A1:A2)' }, { v: '+cmd|calc' }, { v: '-2+3' }, { v: '@SUM(1)' }, { v: '\tx' }, { v: '\rx' }, { v: 'a=b' }]));
    expect(parseCsv(csv).slice(1).map((r) => r[0])).toEqual(["'=SUM(A1:A2)", "'+cmd|calc", "'-2+3", "'@SUM(1)", "'\tx", "'\rx", 'a=b']);
    expect(csv).toContain('"\'\rx"');
  });

  it('defuses formulas in header names', () => {
    expect(tableToCsv(table(['=HYPERLINK("x")'], [])).split('\r\n')[0]).toBe('"\'=HYPERLINK(""x"")"');
  });

  it('leaves negative numbers alone, as numbers or as numeric text', () => {
    const csv = tableToCsv(table(['n', 's'], [{ n: -5, s: '-5' }, { n: -0.25, s: '+1.5e3' }], ['number', 'string']));
    expect(csv).toBe('n,s\r\n-5,-5\r\n-0.25,+1.5e3\r\n');
    expect(guardFormula('-5')).toBe('-5');
    expect(guardFormula('-5 apples')).toBe("'-5 apples");
  });

  it('writes only the rows it is given', () => {
    const t = table(['a'], [{ a: '1' }, { a: '2' }, { a: '3' }]);
    expect(tableToCsv(t, [t.data[2], t.data[0]])).toBe('a\r\n3\r\n1\r\n');
  });

  it('keeps a lone empty field from becoming a blank line', () => {
    const csv = tableToCsv(table(['a'], [{ a: '' }, { a: null }]));
    expect(csv).toBe('a\r\n""\r\n""\r\n');
    expect(parseCsv(csv)).toEqual([['a'], [''], ['']]);
  });

  it('round-trips through an RFC 4180 reader', () => {
    const names = ['name', 'note, with comma', 'qty', 'ok'];
    const data: Row[] = [
      { name: 'Zoë "Z" Smith', 'note, with comma': 'multi\r\nline\ntext', qty: -12.5, ok: true },
      { name: '', 'note, with comma': null, qty: 0, ok: false },
      { name: 'über, café', 'note, with comma': '   spaced   ', qty: 1e21, ok: null },
    ];
    const parsed = parseCsv(tableToCsv(table(names, data, ['string', 'string', 'number', 'boolean'])));
    expect(parsed).toEqual([
      names,
      ['Zoë "Z" Smith', 'multi\r\nline\ntext', '-12.5', 'true'],
      ['', '', '0', 'false'],
      ['über, café', '   spaced   ', '1e+21', ''],
    ]);
  });
});

describe('tableToTsv', () => {
  it('separates by tabs and lines by LF, quoting what needs it', () => {
    const tsv = tableToTsv(table(['a', 'b'], [{ a: 'x\ty', b: 'p,q' }, { a: '=1+1', b: -3 }], ['string', 'number']));
    expect(tsv).toBe('a\tb\n"x\ty"\tp,q\n\'=1+1\t-3');
  });
});
