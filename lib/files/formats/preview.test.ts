import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { previewToText } from '../sniff.client';
import { bytesAsFile } from './parquet.client';
import { tablePreviewOf } from './preview.client';
import { cellOf, chunkToCsv, FormatReadError, inferSqlType, uniqueNames } from './table.client';

describe('the preview the model is told of a Parquet or Excel file', () => {
  it('Parquet: DuckDB types from the schema, the row count from the footer, the first rows', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'runpad-preview-'));
    try {
      const file = path.join(dir, 'trips.parquet');
      const instance = await DuckDBInstance.create(':memory:');
      const native = await instance.connect();
      await native.run(`COPY (SELECT i AS trip, i * 0.5 AS km, DATE '2024-05-01' + (i % 3)::INT AS day, NULLIF('z' || i, 'z2') AS who FROM range(1000) t(i)) TO '${file}' (FORMAT parquet)`);
      native.closeSync();
      instance.closeSync();
      const preview = await tablePreviewOf('parquet', bytesAsFile(new Uint8Array(readFileSync(file))), 3);
      expect(preview.columns).toEqual([
        { name: 'trip', type: 'BIGINT' },
        { name: 'km', type: 'DECIMAL(21,1)' },
        { name: 'day', type: 'DATE' },
        { name: 'who', type: 'VARCHAR' },
      ]);
      expect(preview.rowCount).toBe(1000);
      expect(preview.rows).toEqual([
        ['0', '0', '2024-05-01', 'z0'],
        ['1', '0.5', '2024-05-02', 'z1'],
        ['2', '1', '2024-05-03', ''],
      ]);
      const text = previewToText('data/trips.parquet', 12_345, preview);
      expect(text).toContain('/data/trips.parquet (12 kB, PARQUET, 1,000 rows): columns trip (BIGINT), km (DECIMAL(21,1)), day (DATE), who (VARCHAR)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Excel: the first sheet, and the other sheets named', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('People');
    sheet.addRow(['name', 'born', '', 'name']);
    sheet.addRow(['Ada', new Date(Date.UTC(1815, 11, 10)), 1, 'x']);
    workbook.addWorksheet('Notes');
    const preview = await tablePreviewOf('xlsx', bytesAsFile(new Uint8Array(await workbook.xlsx.writeBuffer())));
    expect(preview.columns).toEqual([
      { name: 'name', type: 'VARCHAR' },
      { name: 'born', type: 'DATE' },
      { name: 'column3', type: 'DOUBLE' },
      { name: 'name_2', type: 'VARCHAR' },
    ]);
    expect(preview.rows).toEqual([['Ada', '1815-12-10', '1', 'x']]);
    expect(preview.warnings).toEqual(["2 sheets (People, Notes); the first, People, is the file's table, and each sheet is read by name with read_xlsx(path, sheet = 'name')"]);
  });

  it('a damaged file is a reader failure, not a preview', async () => {
    await expect(tablePreviewOf('parquet', bytesAsFile(new Uint8Array([1, 2, 3])))).rejects.toBeInstanceOf(FormatReadError);
  });
});

describe('column types and cells of untyped values', () => {
  it('infers integers, numbers, booleans, dates, timestamps and text; nulls do not count', () => {
    expect(inferSqlType([1, null, 3])).toBe('BIGINT');
    expect(inferSqlType([1, 2.5])).toBe('DOUBLE');
    expect(inferSqlType([true, null])).toBe('BOOLEAN');
    expect(inferSqlType(['2024-01-01', null])).toBe('DATE');
    expect(inferSqlType(['2024-01-01', '2024-01-02T10:00:00Z'])).toBe('TIMESTAMP');
    expect(inferSqlType([new Date(Date.UTC(2024, 0, 1, 12))])).toBe('TIMESTAMP');
    expect(inferSqlType([1, 'a'])).toBe('VARCHAR');
    expect(inferSqlType([null, undefined])).toBe('VARCHAR');
  });

  it('writes CSV DuckDB reads back exactly: quoted text, empty fields for nulls, ISO dates', () => {
    const columns = [
      { name: 'a', type: 'BIGINT' as const },
      { name: 'b', type: 'VARCHAR' as const },
      { name: 'c', type: 'TIMESTAMP' as const },
      { name: 'd', type: 'DOUBLE' as const },
    ];
    const rows = [
      [cellOf(9007199254740993n, 'BIGINT'), cellOf('say "hi"\nthere', 'VARCHAR'), cellOf('2024-01-02 03:04:05', 'TIMESTAMP'), cellOf(Number.NaN, 'DOUBLE')],
      [null, cellOf('', 'VARCHAR'), null, cellOf(-Infinity, 'DOUBLE')],
    ];
    expect(chunkToCsv(columns, rows, true)).toBe('"a","b","c","d"\n9007199254740993,"say ""hi""\nthere",2024-01-02T03:04:05.000,nan\n,"",,-inf\n');
    expect(uniqueNames(['x', 'X', '', 'x'])).toEqual(['x', 'X_2', 'column3', 'x_3']);
  });
});
