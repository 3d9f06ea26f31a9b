import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { bytesAsFile } from '@/lib/files/formats/parquet.client';
import { importTable, type ImportTarget } from './offline-tables';
import { openWasmEngine, type WasmEngine } from './wasm-engine.test-support';

/**
 * The offline readers into DuckDB-wasm itself (its Node build, the same engine as the browser's,
 * with no extension available: autoloading is off), from files this test writes: Parquet by native
 * DuckDB (several row groups, zstd), Excel by exceljs, JSON by hand.
 */
let conn: WasmEngine['conn'];
let target: ImportTarget;
let rows: WasmEngine['rows'];
let types: WasmEngine['types'];
let dir: string;

beforeAll(async () => {
  vi.stubGlobal('DUCKDB_RUNTIME', undefined); // set by DuckDB-wasm as it loads: this file runs apart
  ({ conn, target, rows, types } = await openWasmEngine());
  dir = mkdtempSync(path.join(os.tmpdir(), 'runpad-formats-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  vi.unstubAllGlobals();
});

async function writeParquet(file: string, select: string, options = ''): Promise<Uint8Array> {
  const instance = await DuckDBInstance.create(':memory:');
  const native = await instance.connect();
  await native.run(`COPY (${select}) TO '${file}' (FORMAT parquet${options})`);
  native.closeSync();
  instance.closeSync();
  return new Uint8Array(readFileSync(file));
}

describe('Parquet without the parquet extension', () => {
  it('keeps integers, doubles, dates, timestamps, text and nulls across row groups, and answers the SQL the model writes', async () => {
    const bytes = await writeParquet(
      path.join(dir, 'sales.parquet'),
      `SELECT i::BIGINT AS id, (i * 1.5)::DOUBLE AS amount, DATE '2024-01-01' + (i % 31)::INT AS day,
              TIMESTAMP '2024-01-01 08:30:00' + to_seconds(i) AS seen_at, CASE WHEN i % 10 = 0 THEN NULL ELSE 'r' || (i % 3) END AS region,
              i % 2 = 0 AS even, CASE WHEN i = 1 THEN '' END AS note
       FROM range(1, 25001) t(i)`,
      ", COMPRESSION zstd, ROW_GROUP_SIZE 10000",
    );
    const answer = await importTable(target, '/data/sales.parquet', 'parquet', bytesAsFile(bytes));
    expect(answer).toMatchObject({ ok: true, rows: 25_000 });
    expect(types('"/data/sales.parquet"')).toEqual({ id: 'BIGINT', amount: 'DOUBLE', day: 'DATE', seen_at: 'TIMESTAMP', region: 'VARCHAR', even: 'BOOLEAN', note: 'VARCHAR' });
    expect(rows(`SELECT count(*), sum(id), sum(amount), count(region), max(day), max(seen_at) FROM '/data/sales.parquet'`)).toEqual([[25_000, 312_512_500, 468_768_750, 22_500, '2024-01-31', '2024-01-01T15:26:40']]);
    expect(rows(`SELECT region, count(*) AS n FROM read_parquet('/data/sales.parquet') GROUP BY ALL ORDER BY region NULLS LAST`)).toEqual([
      ['r0', 7500],
      ['r1', 7500],
      ['r2', 7500],
      [null, 2500],
    ]);
    // An empty text stays empty, a missing one is NULL.
    expect(rows(`SELECT note = '', note IS NULL FROM parquet_scan('/data/sales.parquet', binary_as_string = true) WHERE id IN (1, 2) ORDER BY id`)).toEqual([
      [true, false],
      [null, true],
    ]);
  });

  it('says a damaged file is damaged, naming it, and leaves no table', async () => {
    const bytes = new Uint8Array([0x50, 0x41, 0x52, 0x31, 1, 2, 3, 4, 0x50, 0x41, 0x52, 0x31]);
    const answer = await importTable(target, '/data/broken.parquet', 'parquet', bytesAsFile(bytes));
    expect(answer.ok).toBe(false);
    expect(answer.ok === false && answer.message).toMatch(/^broken\.parquet could not be read as a Parquet file: it looks damaged/);
    expect(rows(`SELECT count(*) FROM information_schema.tables WHERE table_name = '/data/broken.parquet'`)).toEqual([[0]]);
  });
});

describe('JSON and JSON Lines without the json extension', () => {
  it('an array of objects: integers, numbers, booleans, ISO dates and timestamps, arrays as lists, nulls', async () => {
    const text = JSON.stringify([
      { city: 'Oslo', people: 709_000, area: 454.0, capital: true, founded: '1040-01-01', seen: '2024-03-01T10:00:00Z', tags: ['north'] },
      { city: 'Bergen', people: 286_000, area: 465.3, capital: false, founded: null, seen: '2024-03-02 11:30:00', tags: [] },
      { city: 'Tromsø', area: 2_521.0, capital: false, founded: '1794-01-01', seen: null },
    ]);
    const bytes = new TextEncoder().encode(text);
    expect(await importTable(target, '/data/cities.json', 'json', bytesAsFile(bytes))).toMatchObject({ ok: true, rows: 3 });
    expect(types('"/data/cities.json"')).toEqual({ city: 'VARCHAR', people: 'BIGINT', area: 'DOUBLE', capital: 'BOOLEAN', founded: 'DATE', seen: 'TIMESTAMP', tags: 'VARCHAR[]' });
    expect(rows(`SELECT city, people, area, founded, seen, tags FROM read_json_auto('/data/cities.json') ORDER BY area`)).toEqual([
      ['Oslo', 709_000, 454, '1040-01-01', '2024-03-01T10:00:00', ['north']],
      ['Bergen', 286_000, 465.3, null, '2024-03-02T11:30:00', []],
      ['Tromsø', null, 2521, '1794-01-01', null, null],
    ]);
  });

  it('newline-delimited JSON, blank lines skipped; a bad line is named', async () => {
    const good = new TextEncoder().encode('{"k": 1, "v": 0.5}\n\n{"k": 2, "v": 2}\n');
    expect(await importTable(target, '/data/events.jsonl', 'jsonl', bytesAsFile(good))).toMatchObject({ ok: true, rows: 2 });
    expect(rows(`SELECT sum(k), sum(v) FROM read_json('/data/events.jsonl', format = 'newline_delimited')`)).toEqual([[3, 2.5]]);
    const bad = new TextEncoder().encode('{"k": 1}\n{"k": \n');
    const answer = await importTable(target, '/data/bad.jsonl', 'jsonl', bytesAsFile(bad));
    expect(answer.ok === false && answer.message).toMatch(/^bad\.jsonl could not be read as a JSON Lines file: .*line 2/);
  });
});

describe('Excel (.xlsx) without the excel extension', () => {
  it('the first sheet, its header row, numbers, dates, text and empty cells', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Budget');
    sheet.addRow(['item', 'cost', 'count', 'due', 'paid']);
    sheet.addRow(['rent', 1200.5, 1, new Date(Date.UTC(2024, 0, 31)), true]);
    sheet.addRow(['food', 310.25, 30, new Date(Date.UTC(2024, 1, 29)), false]);
    sheet.addRow(['misc', null, 2, null, null]);
    sheet.getCell('B5').value = { formula: 'B2+B3', result: 1510.75 };
    sheet.getCell('A5').value = 'total';
    workbook.addWorksheet('Other').addRow(['ignored']);
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    expect(await importTable(target, '/data/budget.xlsx', 'xlsx', bytesAsFile(bytes))).toMatchObject({ ok: true, rows: 4 });
    // Every number a DOUBLE, as DuckDB's excel extension reads it.
    expect(types('"/data/budget.xlsx"')).toEqual({ item: 'VARCHAR', cost: 'DOUBLE', count: 'DOUBLE', due: 'DATE', paid: 'BOOLEAN' });
    expect(rows(`SELECT item, cost, count, due, paid FROM read_xlsx('/data/budget.xlsx', sheet := 'Budget')`)).toEqual([
      ['rent', 1200.5, 1, '2024-01-31', true],
      ['food', 310.25, 30, '2024-02-29', false],
      ['misc', null, 2, null, null],
      ['total', 1510.75, null, null, null],
    ]);
  });

  it('every sheet is a table: read_xlsx with a sheet reads that sheet, without one the first; an empty sheet is none', async () => {
    const workbook = new ExcelJS.Workbook();
    const first = workbook.addWorksheet('Budget');
    first.addRow(['item', 'cost']);
    first.addRow(['rent', 1200]);
    const costs = workbook.addWorksheet("Q1's costs");
    costs.addRow(['month', 'amount', 'note']);
    costs.addRow(['Jan', 10.5, 'first']);
    costs.addRow(['Feb', 20, null]);
    workbook.addWorksheet('Empty');
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    expect(await importTable(target, '/data/book.xlsx', 'xlsx', bytesAsFile(bytes))).toMatchObject({ ok: true, rows: 1 });
    expect(rows(`SELECT * FROM read_xlsx('/data/book.xlsx')`)).toEqual([['rent', 1200]]);
    expect(rows(`SELECT * FROM '/data/book.xlsx'`)).toEqual([['rent', 1200]]);
    expect(rows(`SELECT * FROM read_xlsx('/data/book.xlsx', sheet := 'Budget')`)).toEqual([['rent', 1200]]);
    expect(rows(`SELECT month, amount, note FROM read_xlsx('/data/book.xlsx', sheet := 'Q1''s costs') ORDER BY month DESC`)).toEqual([
      ['Jan', 10.5, 'first'],
      ['Feb', 20, null],
    ]);
    expect(types(`"/data/book.xlsx#Q1's costs"`)).toEqual({ month: 'VARCHAR', amount: 'DOUBLE', note: 'VARCHAR' });
    // A sheet the workbook does not have (or an empty one) is no table: DuckDB says which, never the first sheet instead.
    for (const sheet of ['Empty', 'Nope']) expect(() => conn.query(`SELECT * FROM read_xlsx('/data/book.xlsx', sheet := '${sheet}')`)).toThrow(`/data/book.xlsx#${sheet}`);
  });

  it('a file that is not a workbook is named as unreadable', async () => {
    const answer = await importTable(target, '/data/notes.xlsx', 'xlsx', bytesAsFile(new TextEncoder().encode('not a zip')));
    expect(answer.ok === false && answer.message).toMatch(/^notes\.xlsx could not be read as a Excel \(\.xlsx\) file/);
  });
});
