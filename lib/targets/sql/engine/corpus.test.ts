import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { parquetWriteBuffer } from 'hyparquet-writer';
import * as parquetWasm from 'parquet-wasm/node';
import { bytesAsFile } from '@/lib/files/formats/parquet.client';
import { skipOutsideCi } from '@/lib/testing/required';
import { tabularFormatOf } from '@/lib/files/formats/read-table.client';
import { importTable } from './offline-tables';
import { openWasmEngine, type WasmEngine } from './wasm-engine.test-support';
import { pythonEnvMissing, pythonWith } from '@/lib/testing/python-env';

/**
 * Files written by other tools, made at test time, read as the browser reads them with no DuckDB
 * extension reachable (DuckDB-wasm's Node build, the kept readers: offline-tables.ts) and compared
 * with a reference reading the same file: native DuckDB (@duckdb/node-api, with its own Parquet,
 * JSON and CSV readers) or, for Excel, pandas over openpyxl. Per file: the row count, each column's
 * type and the sum of each numeric column. Under CI=true a missing writer fails the test.
 */
const require = createRequire(import.meta.url);
/** pandas over openpyxl, in a venv of exactly those Debian packages (lib/testing/python-env.ts). */
const PYTHON_PACKAGES = ['python3-openpyxl', 'python3-pandas'];
let engine: WasmEngine;
let native: DuckDBConnection;
let nativeInstance: DuckDBInstance;
let dir: string;

beforeAll(async () => {
  vi.stubGlobal('DUCKDB_RUNTIME', undefined); // set by DuckDB-wasm as it loads: this file runs apart
  engine = await openWasmEngine();
  nativeInstance = await DuckDBInstance.create(':memory:');
  native = await nativeInstance.connect();
  dir = mkdtempSync(path.join(os.tmpdir(), 'runpad-corpus-'));
}, 120_000);

afterAll(() => {
  native?.closeSync();
  nativeInstance?.closeSync();
  rmSync(dir, { recursive: true, force: true });
  vi.unstubAllGlobals();
});

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL\(\d+,\d+\))$/;
type Summary = { rows: number; types: Record<string, string>; sums: Record<string, number | null> };

function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function sumsQuery(from: string, types: Record<string, string>): string {
  const numeric = Object.keys(types).filter((name) => NUMERIC.test(types[name]));
  return `SELECT count(*)::DOUBLE ${numeric.map((name) => `, sum("${name.replaceAll('"', '""')}")::DOUBLE`).join('')} FROM ${from}`;
}

function summaryOf(types: Record<string, string>, row: unknown[]): Summary {
  const numeric = Object.keys(types).filter((name) => NUMERIC.test(types[name]));
  return { rows: Number(row[0]), types, sums: Object.fromEntries(numeric.map((name, i) => [name, row[i + 1] === null ? null : Number(row[i + 1])])) };
}

async function nativeSummary(from: string): Promise<Summary> {
  const described = (await native.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`)).getRowsJS();
  const types = Object.fromEntries(described.map((row) => [String(row[0]), String(row[1])]));
  const [row] = (await native.runAndReadAll(sumsQuery(from, types))).getRowsJS();
  return summaryOf(types, row as unknown[]);
}

/** The file as the browser reads it: imported by the kept reader into DuckDB-wasm, under its /data path. */
async function runpadSummary(file: string, format = tabularFormatOf(file)): Promise<Summary> {
  if (!format) throw new Error(`no kept reader for ${file}`);
  const table = `/data/${path.basename(file)}`;
  const answer = await importTable(engine.target, table, format, bytesAsFile(new Uint8Array(readFileSync(file))));
  if (!answer.ok) throw new Error(answer.message);
  const from = `"${table.replaceAll('"', '""')}"`;
  const types = engine.types(from);
  return summaryOf(types, engine.rows(sumsQuery(from, types))[0]);
}

/**
 * Two types belong to extensions the engine lacks offline. DuckDB's JSON type is its json
 * extension's: a field of mixed JSON values is VARCHAR holding the same JSON text (compared value
 * by value where it occurs). TIMESTAMP WITH TIME ZONE needs the icu extension for its functions
 * (without it epoch() on one traps DuckDB-wasm): an instant is its UTC time as TIMESTAMP.
 */
function offlineTypes(types: Record<string, string>): Record<string, string> {
  const offline: Record<string, string> = { JSON: 'VARCHAR', 'TIMESTAMP WITH TIME ZONE': 'TIMESTAMP' };
  return Object.fromEntries(Object.entries(types).map(([name, type]) => [name, offline[type] ?? type]));
}

/** Sums equal to the last representable digits (the engines may add doubles in another order). */
function expectSameSummary(actual: Summary, expected: Summary): void {
  expect(actual.rows).toBe(expected.rows);
  expect(actual.types).toEqual(offlineTypes(expected.types));
  expect(Object.keys(actual.sums)).toEqual(Object.keys(expected.sums));
  for (const [name, sum] of Object.entries(expected.sums)) {
    if (sum === null) expect(actual.sums[name], name).toBeNull();
    else expect(Math.abs((actual.sums[name] ?? NaN) - sum), name).toBeLessThanOrEqual(Math.abs(sum) * 1e-12 + 1e-9);
  }
}

/** A Thrift compact-protocol reader over a Parquet footer: just enough to find where each value ends. */
class CompactReader {
  constructor(
    readonly bytes: Uint8Array,
    public at: number,
  ) {}
  byte(): number {
    return this.bytes[this.at++];
  }
  varint(): bigint {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = this.byte();
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  }
  /** Skips one value of compact type `type` (a struct's booleans hold no bytes; a list's hold one each). */
  skip(type: number, inList = false): void {
    if (type === 1 || type === 2) this.at += inList ? 1 : 0;
    else if (type === 3) this.at += 1;
    else if (type === 4 || type === 5 || type === 6) this.varint();
    else if (type === 7) this.at += 8;
    else if (type === 8) {
      const length = Number(this.varint()); // read before `at` is: `this.at += this.varint()` would lose the length's bytes
      this.at += length;
    }
    else if (type === 9 || type === 10) {
      const { size, element } = this.listHeader();
      for (let i = 0; i < size; i += 1) this.skip(element, true);
    } else if (type === 11) {
      const size = Number(this.varint());
      const kinds = size > 0 ? this.byte() : 0;
      for (let i = 0; i < size; i += 1) {
        this.skip(kinds >> 4, true);
        this.skip(kinds & 0x0f, true);
      }
    } else if (type === 12) for (let field = this.field(0); field.type !== 0; field = this.field(field.id)) this.skip(field.type);
    else throw new Error(`thrift compact type ${type} at ${this.at}`);
  }
  listHeader(): { size: number; element: number } {
    const header = this.byte();
    return { size: header >> 4 === 15 ? Number(this.varint()) : header >> 4, element: header & 0x0f };
  }
  field(previous: number): { id: number; type: number } {
    const header = this.byte();
    const type = header & 0x0f;
    if (type === 0) return { id: previous, type };
    if (header >> 4 !== 0) return { id: previous + (header >> 4), type };
    const zigzag = Number(this.varint());
    return { id: (zigzag >>> 1) ^ -(zigzag & 1), type };
  }
}

function varintBytes(value: bigint): number[] {
  const out: number[] = [];
  for (let rest = value; ; rest >>= 7n) {
    if (rest < 0x80n) return [...out, Number(rest)];
    out.push(Number(rest & 0x7fn) | 0x80);
  }
}

/**
 * A Parquet file's first `count` row groups, as its writer wrote them: every byte before the
 * footer kept (pages, dictionaries, page index: offsets stay right), the footer's row groups cut
 * to the first `count` and its row count to theirs; every other footer field copied byte for byte.
 */
function firstRowGroups(file: Uint8Array, count: number): Uint8Array {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const footerLength = view.getUint32(file.length - 8, true);
  const footerStart = file.length - 8 - footerLength;
  const reader = new CompactReader(file, footerStart);
  const footer: number[] = [];
  let rows = 0n;
  let previous = 0;
  for (let field = reader.field(0); field.type !== 0; field = reader.field(field.id)) {
    footer.push(((field.id - previous) << 4) | field.type);
    previous = field.id;
    const start = reader.at;
    if (field.id === 3) {
      reader.varint(); // num_rows, written below once the kept row groups are counted
      footer.push(-1);
      continue;
    }
    if (field.id !== 4) {
      reader.skip(field.type);
      footer.push(...file.subarray(start, reader.at));
      continue;
    }
    const { size } = reader.listHeader();
    if (size < count) throw new Error(`the file has ${size} row groups, fewer than ${count}`);
    footer.push((count << 4) | 12);
    for (let group = 0; group < count; group += 1) {
      const groupStart = reader.at;
      for (let inner = reader.field(0); inner.type !== 0; inner = reader.field(inner.id)) {
        if (inner.id === 3) {
          const zigzag = reader.varint();
          rows += zigzag >> 1n; // a row count is never negative
        } else reader.skip(inner.type);
      }
      footer.push(...file.subarray(groupStart, reader.at));
    }
    for (let group = count; group < size; group += 1) reader.skip(12);
  }
  footer.push(0);
  const hole = footer.indexOf(-1);
  footer.splice(hole, 1, ...varintBytes(rows << 1n));
  const out = new Uint8Array(footerStart + footer.length + 8);
  out.set(file.subarray(0, footerStart));
  out.set(footer, footerStart);
  new DataView(out.buffer).setUint32(footerStart + footer.length, footer.length, true);
  out.set(file.subarray(file.length - 4), footerStart + footer.length + 4);
  return out;
}

/** The Python packages the writers and the reference need: missing, the test fails under CI and is said skipped elsewhere. */
function requirePython(): boolean {
  return skipOutsideCi(pythonEnvMissing(PYTHON_PACKAGES)) === null;
}

/** A writer that is a program on this machine: missing, the test fails under CI (and is skipped, saying so, elsewhere). */
function requireProgram(command: string, args: string[]): boolean {
  const found = spawnSync(command, args, { stdio: 'ignore' }).status === 0;
  return skipOutsideCi(found ? null : `${command} ${args.join(' ')} failed: the writer is missing (.ci/run installs it)`) === null;
}

// Values with every awkward kind of text: quotes of each kind, separators, newlines, non-Latin letters.
const AWKWARD = `['plain', 'it''s', 'say "hi"', 'semi;colon, comma', e'line\\nbreak', 'Ünïcödé 東京 مرحبا', '  spaces  ', '']`;

const NATIVE_TABLE = `SELECT i::INTEGER AS id, (i % 100)::SMALLINT AS small, i::BIGINT * 1000003 AS big,
    (i * 1.25)::DOUBLE AS amount, (i / 7)::FLOAT AS ratio, (i * 0.01)::DECIMAL(12,2) AS price,
    (i * 0.001)::DECIMAL(18,3) AS wide, DATE '2024-01-01' + (i % 400)::INT AS day,
    TIMESTAMP '2024-01-01 08:30:00' + to_seconds(i * 37) AS seen_at,
    TIMESTAMPTZ '2024-03-31 01:30:00+00' + to_seconds(i * 61) AS seen_utc,
    CASE WHEN i % 11 = 0 THEN NULL ELSE ${AWKWARD}[1 + i % 8] END AS label,
    ['north', 'south', 'east', 'west'][1 + i % 4] AS region,
    i % 3 = 0 AS flag,
    CASE WHEN i % 5 = 0 THEN NULL ELSE [i, i + 1, i % 7]::INTEGER[] END AS numbers,
    {'code': i % 13, 'name': 'n' || (i % 5)} AS info
  FROM range(1, 4501) t(i)`;

/**
 * 4,500 rows: three row groups (DuckDB writes them in multiples of 2,048 rows), each column's pages
 * and dictionaries decoded by the kept reader in each codec; more rows only repeat the same pages.
 */
describe('Parquet written by native DuckDB', () => {
  for (const codec of ['snappy', 'zstd', 'gzip', 'lz4', 'brotli', 'uncompressed']) {
    it(`${codec}: integers, decimals, floats, dates, timestamps with and without time zone, text, LIST, STRUCT, dictionary pages, many row groups`, async () => {
      const file = path.join(dir, `native_${codec}.parquet`);
      await native.run(`COPY (${NATIVE_TABLE}) TO ${quote(file)} (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE 2048)`);
      expectSameSummary(await runpadSummary(file), await nativeSummary(`read_parquet(${quote(file)})`));
      // The instants answer as native DuckDB's do, and a time function on them leaves the engine answering.
      const instants = 'SELECT epoch(max(seen_utc))::BIGINT, epoch(min(seen_utc))::BIGINT FROM';
      const [theirs] = (await native.runAndReadAll(`${instants} read_parquet(${quote(file)})`)).getRowsJS();
      expect(engine.rows(`${instants} "/data/native_${codec}.parquet"`)).toEqual([theirs.map(Number)]);
    }, 120_000);
  }
});

/**
 * Types a reader could flatten to text: each column's type and every value (as native DuckDB
 * prints it) equal native DuckDB's reading the same file. An instant is its UTC time as TIMESTAMP
 * offline (offlineTypes): its values are compared as epochs.
 */
const KEPT_TYPES_TABLE = `SELECT i::INTEGER AS id, TIME '01:02:03.456789' + to_seconds(i * 97) AS at_time,
    ('00000000-0000-4000-8000-' || lpad(i::VARCHAR, 12, '0'))::UUID AS uid,
    MAP {'a': i, 'b': i * 2} AS counts, INTERVAL 1 month + to_days(i) + to_milliseconds(i * 7) AS span,
    ((i - 20) * 12345.0123456789)::DECIMAL(38,10) AS exact, ((i - 20) * 0.01)::DECIMAL(4,2) AS small_price, ((i - 20) * 7.5)::DECIMAL(18,3) AS mid,
    TIMESTAMPTZ '2024-03-31 01:30:00+00' + to_seconds(i * 61) AS seen_utc, TIMESTAMP_MS '2024-01-01 00:00:00.123' + to_seconds(i) AS at_ms, TIMESTAMP '1969-12-31 23:59:59.999999' - to_days(i) AS before_epoch, DATE '1960-02-29' + i::INTEGER AS old_day,
    [[i, i + 1], [i]] AS nested_list, {'x': [i, i], 's': {'y': 'q' || i}} AS nested_struct,
    ('\\x00\\xFF' || i::VARCHAR)::BLOB AS bytes, (['sad', 'ok', 'happy'][1 + i % 3])::ENUM('sad', 'ok', 'happy') AS mood
  FROM range(0, 40) t(i)
  UNION ALL SELECT 40, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL`;

/** Every column's values as native DuckDB prints them, in id order (instants as epochs). */
async function expectSameValues(table: string, reference: string, types: Record<string, string>): Promise<void> {
  for (const [column, type] of Object.entries(types)) {
    const value = type === 'TIMESTAMP WITH TIME ZONE' ? `epoch_us("${column}")::VARCHAR` : `"${column}"::VARCHAR`;
    const [[mine]] = engine.rows(`SELECT list(${value} ORDER BY id) FROM "${table}"`);
    const [[theirs]] = (await native.runAndReadAll(`SELECT list(${value} ORDER BY id) FROM ${reference}`)).getRowsJS();
    expect(mine, `${column} (${type})`).toEqual(theirs);
  }
}

describe('Types kept, not text: TIME, UUID, MAP, INTERVAL, DECIMAL, TIMESTAMPTZ, nested LIST and STRUCT, BLOB, ENUM', () => {
  it('written by native DuckDB', async () => {
    const file = path.join(dir, 'kept_types_native.parquet');
    await native.run(`COPY (${KEPT_TYPES_TABLE}) TO ${quote(file)} (FORMAT parquet, ROW_GROUP_SIZE 16)`);
    const expected = await nativeSummary(`read_parquet(${quote(file)})`);
    expectSameSummary(await runpadSummary(file), expected);
    await expectSameValues('/data/kept_types_native.parquet', `read_parquet(${quote(file)})`, expected.types);
  });

  it('the same table written again by arrow-rs (parquet-wasm)', async () => {
    const source = path.join(dir, 'kept_types_source.parquet');
    await native.run(`COPY (${KEPT_TYPES_TABLE}) TO ${quote(source)} (FORMAT parquet)`);
    const file = path.join(dir, 'kept_types_arrow_rs.parquet');
    const properties = new parquetWasm.WriterPropertiesBuilder().setCompression(parquetWasm.Compression.ZSTD).setMaxRowGroupSize(16).build();
    writeFileSync(file, parquetWasm.writeParquet(parquetWasm.readParquet(new Uint8Array(readFileSync(source))), properties));
    const expected = await nativeSummary(`read_parquet(${quote(file)})`);
    expectSameSummary(await runpadSummary(file), expected);
    await expectSameValues('/data/kept_types_arrow_rs.parquet', `read_parquet(${quote(file)})`, expected.types);
  });
});

describe('Parquet written by arrow-rs (parquet-wasm) and by hyparquet-writer', () => {
  const arrow = () =>
    tableFromArrays({
      id: Int32Array.from({ length: 5000 }, (_, i) => i),
      amount: Float64Array.from({ length: 5000 }, (_, i) => i * 0.5),
      big: BigInt64Array.from({ length: 5000 }, (_, i) => BigInt(i) * 10_000_000_000n),
      label: Array.from({ length: 5000 }, (_, i) => (i % 9 === 0 ? null : `l${i % 17} "q" 'x'`)),
    });

  for (const [name, codec] of [['snappy', parquetWasm.Compression.SNAPPY], ['zstd', parquetWasm.Compression.ZSTD], ['gzip', parquetWasm.Compression.GZIP], ['lz4', parquetWasm.Compression.LZ4_RAW], ['brotli', parquetWasm.Compression.BROTLI]] as const) {
    it(`arrow-rs, ${name}`, async () => {
      const properties = new parquetWasm.WriterPropertiesBuilder().setCompression(codec).setMaxRowGroupSize(1000).build();
      const bytes = parquetWasm.writeParquet(parquetWasm.Table.fromIPCStream(tableToIPC(arrow(), 'stream')), properties);
      const file = path.join(dir, `arrow_rs_${name}.parquet`);
      writeFileSync(file, bytes);
      expectSameSummary(await runpadSummary(file), await nativeSummary(`read_parquet(${quote(file)})`));
    });
  }

  it('hyparquet-writer', async () => {
    const count = 3000;
    const buffer = parquetWriteBuffer({
      columnData: [
        { name: 'id', data: Int32Array.from({ length: count }, (_, i) => i), type: 'INT32' },
        { name: 'value', data: Float64Array.from({ length: count }, (_, i) => i / 3), type: 'DOUBLE' },
        { name: 'name', data: Array.from({ length: count }, (_, i) => (i % 4 === 0 ? null : `名前 ${i}`)), type: 'STRING' },
        { name: 'ok', data: Array.from({ length: count }, (_, i) => i % 2 === 0), type: 'BOOLEAN' },
        { name: 'at', data: Array.from({ length: count }, (_, i) => new Date(Date.UTC(2024, 0, 1) + i * 3_600_000)), type: 'TIMESTAMP' },
      ],
      rowGroupSize: 700,
    });
    const file = path.join(dir, 'hyparquet_writer.parquet');
    writeFileSync(file, new Uint8Array(buffer));
    expectSameSummary(await runpadSummary(file), await nativeSummary(`read_parquet(${quote(file)})`));
  });
});

describe("vega-datasets' own files", () => {
  const data = path.join(path.dirname(require.resolve('vega-datasets')), '..', 'data');

  // Polars wrote it: 3,000,000 rows in 11 row groups, ZSTD, dictionary pages, a page index. Its
  // first two row groups, as Polars wrote them (the whole file is the format bench's:
  // bench/formats-offline.mjs), read ~5x faster than all eleven and take every path the whole does.
  it('flights-3m.parquet, its first two row groups as Polars wrote them', async () => {
    const file = path.join(dir, 'flights-polars-2-row-groups.parquet');
    writeFileSync(file, firstRowGroups(new Uint8Array(readFileSync(path.join(data, 'flights-3m.parquet'))), 2));
    const expected = await nativeSummary(`read_parquet(${quote(file)})`);
    expect(expected.rows).toBe(545_454);
    expectSameSummary(await runpadSummary(file), expected);
  }, 600_000);

  it('cars.json', async () => {
    const file = path.join(data, 'cars.json');
    expectSameSummary(await runpadSummary(file), await nativeSummary(`read_json_auto(${quote(file)})`));
  });

  it('flights-200k.arrow holds what flights-200k.json holds', async () => {
    const arrow = await runpadSummary(path.join(data, 'flights-200k.arrow'));
    const json = await nativeSummary(`read_json_auto(${quote(path.join(data, 'flights-200k.json'))})`);
    expect(arrow.rows).toBe(json.rows);
    expect(Object.keys(arrow.types)).toEqual(Object.keys(json.types));
    for (const [name, sum] of Object.entries(json.sums)) expect(arrow.sums[name], name).toBeCloseTo(sum ?? NaN, 3);
  }, 120_000);
});

describe('Arrow IPC written by arrow-rs', () => {
  it('a Parquet file native DuckDB wrote, as an Arrow IPC stream from arrow-rs, holds what native DuckDB reads in the Parquet file', async () => {
    const parquet = path.join(dir, 'for_arrow.parquet');
    await native.run(`COPY (SELECT id, small, big, amount, ratio, day, seen_at, label, region, flag FROM (${NATIVE_TABLE})) TO ${quote(parquet)} (FORMAT parquet)`);
    const file = path.join(dir, 'from_arrow_rs.arrow');
    writeFileSync(file, parquetWasm.readParquet(new Uint8Array(readFileSync(parquet))).intoIPCStream());
    expectSameSummary(await runpadSummary(file), await nativeSummary(`read_parquet(${quote(parquet)})`));
  });
});

describe('JSON and JSON Lines', () => {
  const cases: Array<[string, string]> = [
    ['nulls_and_mixed.json', JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, score: i % 3 === 0 ? null : i % 2 ? i * 1.5 : i, note: i % 4 === 0 ? null : `n "${i}"`, when: `2024-02-${String(1 + (i % 28)).padStart(2, '0')}`, mixed: i % 2 ? i : `t${i}` })))],
    ['nested.json', JSON.stringify(Array.from({ length: 120 }, (_, i) => ({ id: i, place: { city: `c${i % 7}`, zip: 1000 + i }, tags: [`a${i % 3}`, 'b'], amount: i / 4 })))],
    ['events.jsonl', Array.from({ length: 300 }, (_, i) => JSON.stringify({ k: i, v: i % 5 === 0 ? null : i * 0.25, who: `ü${i % 9}`, at: `2024-05-01 10:${String(i % 60).padStart(2, '0')}:00` })).join('\n') + '\n'],
  ];
  for (const [name, text] of cases) {
    it(name, async () => {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      const reader = name.endsWith('.jsonl') ? `read_json_auto(${quote(file)}, format = 'newline_delimited')` : `read_json_auto(${quote(file)})`;
      const expected = await nativeSummary(reader);
      expectSameSummary(await runpadSummary(file), expected);
      for (const [column, type] of Object.entries(expected.types).filter(([, type]) => type === 'JSON')) {
        const [[mine]] = engine.rows(`SELECT list(v ORDER BY n) FROM (SELECT "${column}" AS v, row_number() OVER () AS n FROM "/data/${name}")`);
        const [[theirs]] = (await native.runAndReadAll(`SELECT list(v::VARCHAR ORDER BY n) FROM (SELECT "${column}" AS v, row_number() OVER () AS n FROM ${reader})`)).getRowsJS();
        expect(mine, `${column} (${type})`).toEqual(theirs);
      }
    });
  }
});

describe('CSV written elsewhere (DuckDB core reads it in both)', () => {
  const cases: Array<[string, string]> = [
    ['bom.csv', '\ufeffcity,people,area\nOslo,709000,454.5\nBergen,286000,465.3\n'],
    ['semicolons.csv', 'name;amount;day\n"a;b";1,5;2024-01-02\nc;2;2024-01-03\n'],
    ['quoted_newlines.csv', 'id,text,value\n1,"first\nline",10\n2,"say ""hi""",20.5\n3,,\n'],
  ];
  for (const [name, text] of cases) {
    it(name, async () => {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      engine.target.registerBuffer(`/data/${name}`, new Uint8Array(readFileSync(file)));
      const from = `read_csv('/data/${name}')`;
      const wasmTypes = engine.types(`SELECT * FROM ${from}`);
      const mine = summaryOf(wasmTypes, engine.rows(sumsQuery(from, wasmTypes))[0]);
      expectSameSummary(mine, await nativeSummary(`read_csv(${quote(file)})`));
    });
  }
});

type PandasSummary = { rows: number; kinds: Record<string, string>; sums: Record<string, number> };

/**
 * pandas over openpyxl, the reference for Excel (native DuckDB's excel extension is not installable
 * here): each of `sheets`, read by one Python process (importing pandas costs a second of CPU).
 */
function pandasSummaries(file: string, sheets: string[]): PandasSummary[] {
  const script = `
import json, sys, pandas as pd
summaries = []
for sheet in sys.argv[2:]:
    frame = pd.read_excel(sys.argv[1], sheet_name=sheet, engine="openpyxl")
    kinds, sums = {}, {}
    for name in frame.columns:
        column = frame[name]
        kind = column.dtype.kind
        kinds[str(name)] = {"i": "number", "f": "number", "M": "time", "b": "boolean"}.get(kind, "text")
        if kind in "if":
            sums[str(name)] = float(column.sum())
    summaries.append({"rows": len(frame), "kinds": kinds, "sums": sums})
print(json.dumps(summaries))
`;
  return JSON.parse(pythonWith(PYTHON_PACKAGES, ['-c', script, file, ...sheets])) as PandasSummary[];
}

function kindOf(type: string): string {
  if (NUMERIC.test(type)) return 'number';
  if (type === 'DATE' || type.startsWith('TIMESTAMP')) return 'time';
  if (type === 'BOOLEAN') return 'boolean';
  return 'text';
}

async function expectLikePandas(file: string, sheets: string[]): Promise<void> {
  const table = `/data/${path.basename(file)}`;
  const answer = await importTable(engine.target, table, 'xlsx', bytesAsFile(new Uint8Array(readFileSync(file))));
  if (!answer.ok) throw new Error(answer.message);
  const references = pandasSummaries(file, sheets);
  for (const [index, sheet] of sheets.entries()) {
    const from = `"${(index === 0 ? table : `${table}#${sheet}`).replaceAll('"', '""')}"`;
    const types = engine.types(from);
    const mine = summaryOf(types, engine.rows(sumsQuery(from, types))[0]);
    const reference = references[index];
    expect(mine.rows, sheet).toBe(reference.rows);
    expect(Object.fromEntries(Object.entries(types).map(([name, type]) => [name, kindOf(type)])), sheet).toEqual(reference.kinds);
    expect(Object.keys(mine.sums), sheet).toEqual(Object.keys(reference.sums));
    for (const [name, sum] of Object.entries(reference.sums)) expect(mine.sums[name], `${sheet}.${name}`).toBeCloseTo(sum, 6);
  }
}

const OPENPYXL_WRITER = `
import datetime, sys
from openpyxl import Workbook
book = Workbook()
sheet = book.active
sheet.title = "Sales"
sheet.append(["item", "units", "price", "sold on", "paid", "total"])
for i in range(1, 41):
    sheet.append([f"it's \\"{i}\\" ü", i, round(i * 1.25, 2) if i % 6 else None, datetime.date(2024, 1, 1) + datetime.timedelta(days=i), i % 2 == 0, None])
    sheet.cell(row=i + 1, column=6).value = f"=B{i + 1}*2"
other = book.create_sheet("Q1 costs")
other.append(["month", "amount"])
for month, amount in [("Jan", 10.5), ("Feb", 20), ("Mar", None), ("Apr", 7.25)]:
    other.append([month, amount])
book.save(sys.argv[1])
`;

/** The workbook openpyxl writes, written once for the tests that read it (a copy each). */
let openpyxlWorkbook: string | undefined;
function openpyxlWorkbookAs(file: string): string {
  if (!openpyxlWorkbook) {
    openpyxlWorkbook = path.join(dir, 'openpyxl-written.xlsx');
    pythonWith(PYTHON_PACKAGES, ['-c', OPENPYXL_WRITER, openpyxlWorkbook]);
  }
  copyFileSync(openpyxlWorkbook, file);
  return file;
}

describe('Excel written by openpyxl, LibreOffice and exceljs', () => {
  it('openpyxl: dates, empty cells, booleans, several sheets (its formulas carry no cached value: read as empty)', async () => {
    if (!requirePython()) return;
    const file = openpyxlWorkbookAs(path.join(dir, 'openpyxl.xlsx'));
    await expectLikePandas(file, ['Sales', 'Q1 costs']);
  });

  it('LibreOffice: the same workbook saved again, formulas with cached values', async () => {
    if (!requirePython() || !requireProgram('soffice', ['--version'])) return;
    const input = path.join(dir, 'lo', 'libreoffice.xlsx');
    rmSync(path.dirname(input), { recursive: true, force: true });
    execFileSync('mkdir', ['-p', path.join(dir, 'lo', 'out')]);
    openpyxlWorkbookAs(input);
    execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${path.join(dir, 'lo', 'profile')}`, '--convert-to', 'xlsx:Calc MS Excel 2007 XML', '--outdir', path.join(dir, 'lo', 'out'), input], { stdio: 'ignore', timeout: 180_000 });
    const file = path.join(dir, 'lo', 'out', 'libreoffice.xlsx');
    await expectLikePandas(file, ['Sales', 'Q1 costs']);
    // The formulas' cached values LibreOffice wrote are read: total = units × 2.
    expect(engine.rows(`SELECT sum(total) FROM "/data/libreoffice.xlsx"`)).toEqual([[2 * (40 * 41) / 2]]);
  }, 240_000);

  it('exceljs: formulas with cached values, dates, empty cells, several sheets', async () => {
    if (!requirePython()) return;
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Budget');
    sheet.addRow(['item', 'cost', 'count', 'due', 'sum']);
    for (let i = 1; i <= 30; i += 1) {
      sheet.addRow([`row ${i} "x"`, i % 7 === 0 ? null : i * 10.5, i, new Date(Date.UTC(2024, 0, i)), null]);
      sheet.getCell(`E${i + 1}`).value = { formula: `B${i + 1}+C${i + 1}`, result: (i % 7 === 0 ? 0 : i * 10.5) + i };
    }
    const second = workbook.addWorksheet('Other');
    second.addRow(['k', 'v']);
    second.addRow(['a', 1.5]);
    second.addRow(['b', null]);
    const file = path.join(dir, 'exceljs.xlsx');
    writeFileSync(file, new Uint8Array(await workbook.xlsx.writeBuffer()));
    await expectLikePandas(file, ['Budget', 'Other']);
  });
});
