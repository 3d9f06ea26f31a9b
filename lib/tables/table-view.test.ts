import { describe, expect, it } from 'vitest';
import type { TableData } from '@/lib/runtime/protocol';
import { visibleRange } from '@/components/outputs/use-virtual-rows';
import { alignment, clampPage, filterRows, formatCell, pageCount, parseFilter, sortRows, tableColumns, viewTable, type Row, type ViewState } from './table-view';

function table(fields: [string, string][], data: Row[], primaryKey?: string[]): TableData {
  return { schema: { fields: fields.map(([name, type]) => ({ name, type })), ...(primaryKey ? { primaryKey } : {}) }, data };
}

const base: ViewState = { sort: null, filter: '', page: 0, pageSize: 50 };

function column(t: TableData, name: string, state: Partial<ViewState>): unknown[] {
  return viewTable(t, { ...base, pageSize: Infinity, ...state }).rows.map((r) => r[name]);
}

describe('formatCell', () => {
  it('formats integers with thousands separators and every digit', () => {
    expect(formatCell(0, 'integer')).toBe('0');
    expect(formatCell(42, 'integer')).toBe('42');
    expect(formatCell(1000, 'integer')).toBe('1,000');
    expect(formatCell(-1234567, 'integer')).toBe('-1,234,567');
    expect(formatCell(9007199254740991, 'integer')).toBe('9,007,199,254,740,991');
  });

  it('formats floats with at most 6 decimals', () => {
    expect(formatCell(3.5, 'number')).toBe('3.5');
    expect(formatCell(Math.PI, 'number')).toBe('3.141593');
    expect(formatCell(1234567.891, 'number')).toBe('1,234,567.891');
    expect(formatCell(-0.1 - 0.2, 'number')).toBe('-0.3');
    expect(formatCell(2.0, 'number')).toBe('2');
  });

  it('keeps 6 significant digits of small floats, and writes tiny ones in scientific notation', () => {
    expect(formatCell(0.000123456789, 'number')).toBe('0.000123457');
    expect(formatCell(0.5, 'number')).toBe('0.5');
    expect(formatCell(1.5e-10, 'number')).toBe('1.5e-10');
    expect(formatCell(-1.23456789e-7, 'number')).toBe('-1.23457e-7');
  });

  it('formats large numbers', () => {
    expect(formatCell(1e21, 'number')).toBe('1,000,000,000,000,000,000,000');
    expect(formatCell(123456789.123456789, 'number')).toBe('123,456,789.123457');
  });

  it('spells out NaN and infinities', () => {
    expect(formatCell(NaN, 'number')).toBe('NaN');
    expect(formatCell(Infinity, 'number')).toBe('Infinity');
    expect(formatCell(-Infinity, 'number')).toBe('-Infinity');
  });

  it('writes booleans, null and text', () => {
    expect(formatCell(true, 'boolean')).toBe('true');
    expect(formatCell(false, 'boolean')).toBe('false');
    expect(formatCell(null, 'number')).toBe('');
    expect(formatCell(undefined)).toBe('');
    expect(formatCell('hello', 'string')).toBe('hello');
    expect(formatCell('', 'string')).toBe('');
  });

  it('shows datetimes with a space, and years without separators', () => {
    expect(formatCell('2024-01-05T10:30:00', 'datetime')).toBe('2024-01-05 10:30:00');
    expect(formatCell('2024-01-05T10:30:00', 'string')).toBe('2024-01-05T10:30:00');
    expect(formatCell(2024, 'year')).toBe('2024');
  });
});

describe('alignment and columns', () => {
  it('right-aligns numbers only', () => {
    expect(alignment('integer')).toBe('right');
    expect(alignment('number')).toBe('right');
    expect(alignment('string')).toBe('left');
    expect(alignment('datetime')).toBe('left');
    expect(alignment(undefined)).toBe('left');
  });

  it('marks the primary key as the index', () => {
    const t = table([['index', 'integer'], ['name', 'string']], [], ['index']);
    expect(tableColumns(t)).toEqual([
      { name: 'index', type: 'integer', align: 'right', numeric: true, index: true },
      { name: 'name', type: 'string', align: 'left', numeric: false, index: false },
    ]);
  });
});

describe('sorting', () => {
  const t = table(
    [['id', 'integer'], ['n', 'number'], ['s', 'string'], ['d', 'datetime']],
    [
      { id: 0, n: 10, s: 'item 10', d: '2024-03-01T00:00:00' },
      { id: 1, n: 9, s: 'item 9', d: '2023-12-31T23:59:59' },
      { id: 2, n: null, s: null, d: null },
      { id: 3, n: 100, s: 'Apple', d: '2024-01-15T12:00:00' },
      { id: 4, n: -5.5, s: '', d: '' },
      { id: 5, n: 9, s: 'banana', d: '2024-01-15T08:00:00' },
    ],
  );

  it('sorts numbers numerically, not as text', () => {
    expect(column(t, 'n', { sort: { column: 'n', direction: 'asc' } })).toEqual([-5.5, 9, 9, 10, 100, null]);
    expect(column(t, 'n', { sort: { column: 'n', direction: 'desc' } })).toEqual([100, 10, 9, 9, -5.5, null]);
  });

  it('sorts text with a numeric collation', () => {
    expect(column(t, 's', { sort: { column: 's', direction: 'asc' } }).slice(0, 4)).toEqual(['Apple', 'banana', 'item 9', 'item 10']);
    expect(column(t, 's', { sort: { column: 's', direction: 'desc' } }).slice(0, 4)).toEqual(['item 10', 'item 9', 'banana', 'Apple']);
  });

  it('sorts datetimes chronologically', () => {
    expect(column(t, 'id', { sort: { column: 'd', direction: 'asc' } })).toEqual([1, 5, 3, 0, 2, 4]);
    expect(column(t, 'id', { sort: { column: 'd', direction: 'desc' } })).toEqual([0, 3, 5, 1, 2, 4]);
  });

  it('sorts dates chronologically even when text order differs', () => {
    const offsets = table([['d', 'datetime']], [{ d: '2024-01-01T06:00:00Z' }, { d: 'not a date' }, { d: null }, { d: '2024-01-01T10:00:00+05:00' }]);
    expect(column(offsets, 'd', { sort: { column: 'd', direction: 'asc' } })).toEqual(['2024-01-01T10:00:00+05:00', '2024-01-01T06:00:00Z', 'not a date', null]);
    expect(column(offsets, 'd', { sort: { column: 'd', direction: 'desc' } })).toEqual(['2024-01-01T06:00:00Z', '2024-01-01T10:00:00+05:00', 'not a date', null]);
    const words = table([['d', 'date']], [{ d: 'March 1, 2024' }, { d: 'December 31, 2023' }, { d: 'January 15, 2024' }]);
    expect(column(words, 'd', { sort: { column: 'd', direction: 'asc' } })).toEqual(['December 31, 2023', 'January 15, 2024', 'March 1, 2024']);
    // The same text in a string column sorts alphabetically.
    const text = table([['d', 'string']], words.data);
    expect(column(text, 'd', { sort: { column: 'd', direction: 'asc' } })).toEqual(['December 31, 2023', 'January 15, 2024', 'March 1, 2024'].sort());
  });

  it('puts null and empty cells last in both directions', () => {
    for (const direction of ['asc', 'desc'] as const) {
      expect(column(t, 's', { sort: { column: 's', direction } }).slice(-2)).toEqual([null, '']);
      expect(column(t, 'd', { sort: { column: 'd', direction } }).slice(-2)).toEqual([null, '']);
    }
    const withNaN = table([['x', 'number']], [{ x: NaN }, { x: 2 }, { x: null }, { x: 1 }]);
    expect(column(withNaN, 'x', { sort: { column: 'x', direction: 'desc' } })).toEqual([2, 1, NaN, null]);
  });

  it('is stable: ties keep their original order in both directions', () => {
    const ties = table(
      [['k', 'integer'], ['id', 'integer']],
      Array.from({ length: 40 }, (_, id) => ({ k: id % 3, id })),
    );
    for (const direction of ['asc', 'desc'] as const) {
      const rows = viewTable(ties, { ...base, pageSize: Infinity, sort: { column: 'k', direction } }).rows;
      for (let i = 1; i < rows.length; i++) {
        if (rows[i].k === rows[i - 1].k) expect(rows[i].id as number).toBeGreaterThan(rows[i - 1].id as number);
      }
    }
    expect(column(t, 'id', { sort: { column: 'n', direction: 'asc' } }).slice(1, 3)).toEqual([1, 5]);
    expect(column(t, 'id', { sort: { column: 'n', direction: 'desc' } }).slice(2, 4)).toEqual([1, 5]);
  });

  it('orders booleans false before true, and numbers before text in a mixed column', () => {
    const b = table([['b', 'boolean']], [{ b: true }, { b: false }, { b: null }, { b: true }]);
    expect(column(b, 'b', { sort: { column: 'b', direction: 'asc' } })).toEqual([false, true, true, null]);
    const mixed = table([['m', 'any']], [{ m: 'b' }, { m: 10 }, { m: 'a' }, { m: 9 }]);
    expect(column(mixed, 'm', { sort: { column: 'm', direction: 'asc' } })).toEqual([9, 10, 'a', 'b']);
  });

  it('leaves the order alone without a sort or for an unknown column', () => {
    expect(sortRows(t, [3, 1, 2], null)).toEqual([3, 1, 2]);
    expect(sortRows(t, [3, 1, 2], { column: 'nope', direction: 'asc' })).toEqual([3, 1, 2]);
  });
});

describe('filtering', () => {
  const t = table(
    [['index', 'integer'], ['city', 'string'], ['country', 'string'], ['population', 'integer'], ['capital', 'boolean']],
    [
      { index: 0, city: 'Paris', country: 'France', population: 2102650, capital: true },
      { index: 1, city: 'Lyon', country: 'France', population: 522250, capital: false },
      { index: 2, city: 'Berlin', country: 'Germany', population: 3755251, capital: true },
      { index: 3, city: 'Parma', country: 'Italy', population: null, capital: false },
    ],
    ['index'],
  );

  it('matches a case-insensitive substring in any column', () => {
    expect(filterRows(t, 'par')).toEqual([0, 3]);
    expect(filterRows(t, 'FRANCE')).toEqual([0, 1]);
    expect(filterRows(t, '  germany ')).toEqual([2]);
    expect(filterRows(t, 'true')).toEqual([0, 2]);
    expect(filterRows(t, 'nowhere')).toEqual([]);
    expect(filterRows(t, '')).toEqual([0, 1, 2, 3]);
  });

  it('matches numbers as shown and as typed', () => {
    expect(filterRows(t, '2,102')).toEqual([0]);
    expect(filterRows(t, '2102650')).toEqual([0]);
  });

  it('does not match across cell boundaries', () => {
    expect(filterRows(t, 'parisfrance')).toEqual([]);
    expect(filterRows(t, 'france2')).toEqual([]);
  });

  it('filters one column with column:value', () => {
    expect(filterRows(t, 'city:par')).toEqual([0, 3]);
    expect(filterRows(t, 'country:par')).toEqual([]);
    expect(filterRows(t, 'Capital: TRUE')).toEqual([0, 2]);
    expect(filterRows(t, 'index:2')).toEqual([2]);
    expect(filterRows(t, 'city:')).toEqual([0, 1, 2, 3]);
  });

  it('searches everywhere when the prefix is not a column', () => {
    const times = table([['t', 'string']], [{ t: '12:30' }, { t: '13:00' }]);
    expect(filterRows(times, '12:30')).toEqual([0]);
    expect(parseFilter('12:30', times.schema.fields)).toEqual({ column: null, needle: '12:30' });
  });

  it('prefers the longest column name, so names with colons work', () => {
    const t2 = table([['a', 'string'], ['a:b', 'string']], [{ a: 'b:x', 'a:b': 'y' }, { a: 'z', 'a:b': 'x' }]);
    expect(parseFilter('a:b:x', t2.schema.fields)).toEqual({ column: 1, needle: 'x' });
    expect(filterRows(t2, 'a:b:x')).toEqual([1]);
    expect(filterRows(t2, 'a:b')).toEqual([0]);
  });

  it('counts the total after filtering, and sorts the filtered rows', () => {
    const view = viewTable(t, { ...base, filter: 'france', sort: { column: 'population', direction: 'asc' } });
    expect(view.total).toBe(2);
    expect(view.rows.map((r) => r.city)).toEqual(['Lyon', 'Paris']);
    expect(view.matched.map((r) => r.city)).toEqual(['Lyon', 'Paris']);
    expect(view.rowIndices).toEqual([1, 0]);
  });
});

describe('paging', () => {
  const t = table([['i', 'integer']], Array.from({ length: 120 }, (_, i) => ({ i })));

  it('cuts 0-based pages', () => {
    const first = viewTable(t, { ...base, page: 0, pageSize: 50 });
    expect(first.rows.map((r) => r.i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(first.pages).toBe(3);
    expect(first.total).toBe(120);
    const last = viewTable(t, { ...base, page: 2, pageSize: 50 });
    expect(last.rows.map((r) => r.i)).toEqual(Array.from({ length: 20 }, (_, i) => 100 + i));
    expect(last.start).toBe(100);
  });

  it('clamps the page', () => {
    expect(viewTable(t, { ...base, page: 99, pageSize: 50 }).page).toBe(2);
    expect(viewTable(t, { ...base, page: 99, pageSize: 50 }).rows[0].i).toBe(100);
    expect(viewTable(t, { ...base, page: -3, pageSize: 50 }).page).toBe(0);
    expect(viewTable(t, { ...base, page: 1, pageSize: 50, filter: 'i:11' }).page).toBe(0);
    expect(clampPage(NaN, 3)).toBe(0);
    expect(clampPage(Infinity, 3)).toBe(2);
    expect(clampPage(1.7, 3)).toBe(1);
    expect(clampPage(5, 0)).toBe(0);
  });

  it('has one page for no rows, and for "all"', () => {
    const none = viewTable(t, { ...base, filter: 'nothing matches', page: 4 });
    expect(none).toMatchObject({ total: 0, pages: 1, page: 0, rows: [] });
    const all = viewTable(t, { ...base, pageSize: Infinity, page: 2 });
    expect(all).toMatchObject({ pages: 1, page: 0 });
    expect(all.rows).toHaveLength(120);
    expect(pageCount(120, 0)).toBe(1);
    expect(pageCount(120, 25)).toBe(5);
    expect(pageCount(125, 25)).toBe(5);
    expect(pageCount(126, 25)).toBe(6);
  });
});

describe('windowing (useVirtualRows)', () => {
  it('renders the rows in view plus overscan, with spacers for the rest', () => {
    expect(visibleRange(1000, 28, { scrollTop: 0, height: 280 }, 5)).toEqual({ start: 0, end: 16, before: 0, after: 984 * 28 });
    expect(visibleRange(1000, 28, { scrollTop: 2800, height: 280 }, 5)).toEqual({ start: 95, end: 116, before: 95 * 28, after: 884 * 28 });
  });

  it('stops at the last row, and copes with no rows', () => {
    const end = visibleRange(1000, 28, { scrollTop: 1000 * 28, height: 280 }, 5);
    expect(end).toMatchObject({ start: 995, end: 1000, after: 0 });
    expect(visibleRange(0, 28, { scrollTop: 50, height: 280 }, 5)).toEqual({ start: 0, end: 0, before: 0, after: 0 });
    expect(visibleRange(10, 28, { scrollTop: -20, height: 280 }, 5)).toEqual({ start: 0, end: 10, before: 0, after: 0 });
  });

  it('keeps the DOM small for 1,000 rows', () => {
    for (let top = 0; top <= 28_000; top += 997) {
      const { start, end, before, after } = visibleRange(1000, 28, { scrollTop: top, height: 448 }, 10);
      expect(end - start).toBeLessThanOrEqual(38);
      expect(before + (end - start) * 28 + after).toBe(28_000);
    }
  });
});
