import { describe, expect, it } from 'vitest';
import { tableFromArrays, tableFromJSON } from 'apache-arrow';
import { resultOf } from './result';
import { mentionsSql } from '@/lib/targets/python/mentions-sql.client';

describe('resultOf (a DuckDB Arrow result as the JSON Python reads)', () => {
  it('keeps names, gives each column a kind, and rows in order', () => {
    const table = tableFromArrays({ region: ['north', 'south'], n: new Int32Array([3, 5]), total: new Float64Array([2.5, 1]) });
    expect(resultOf(table)).toMatchObject({
      columns: ['region', 'n', 'total'],
      kinds: ['string', 'integer', 'number'],
      rows: [
        ['north', 3, 2.5],
        ['south', 5, 1],
      ],
    });
  });

  it('turns 64-bit integers into numbers when exact and into text when not, nulls into null', () => {
    const table = tableFromArrays({ big: new BigInt64Array([1n, 9007199254740993n]) });
    expect(resultOf(table).rows).toEqual([[1], ['9007199254740993']]);
    expect(resultOf(tableFromJSON([{ a: 1 }, { a: null }])).rows).toEqual([[1], [null]]);
  });

  it('writes timestamps as ISO text', () => {
    const table = tableFromJSON([{ when: new Date(Date.UTC(2024, 0, 31, 12, 30)) }]);
    const result = resultOf(table);
    expect(result.kinds[0]).toBe('datetime');
    expect(result.rows[0][0]).toBe('2024-01-31T12:30:00');
  });
});

describe('mentionsSql (start DuckDB before Python code that calls it)', () => {
  it('finds sql( and sql_table( calls, not other words', () => {
    expect(mentionsSql('df = sql("SELECT 1")')).toBe(true);
    expect(mentionsSql('sql_table("t", rows)')).toBe(true);
    expect(mentionsSql('mysql(1)\nsqlite3.connect()')).toBe(false);
  });
});
