import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewToText, sniffTable } from '@/lib/files/sniff.client';
import { stdlibPython } from '@/lib/testing/python-env';
import { datasetsIn, understand, type Analysis, type Dataset } from './demo-analysis';
import { chartProgramFor, pythonFor, sqlFor } from './demo-analysis-code';

/**
 * The offline demo over a dropped dataset: an orders file with an id column, a date column (some
 * blank, some with a time), categories, blanks and quoted fields. The request is read against its
 * real columns; the SQL runs in DuckDB and the Python in python3 here, and both must give the
 * totals computed below from the same rows.
 */
const ORDERS = [
  'order_id,order_date,customer,category,quantity,unit_price,revenue',
  '1001,2024-01-05,"Smith, Jane",Books,2,10.00,20.00',
  '1002,2024-01-20,Bob,Toys,1,35.50,35.50',
  '1003,2024-02-02,"O\'Neil ""Bo""",Books,3,12.00,36.00',
  '1004,2024-02-28 14:30:00,Ann,Garden,,8.25,',
  '1005,,Cy,Toys,4,5.00,20.00',
  '1006,2024-03-01,Dee,Garden,2,40.00,80.00',
  '1007,2024-03-15,Eve,Books,1,9.99,9.99',
  '1008,2024-03-31,"Fay, Jr.",Toys,5,6.00,30.00',
  '',
].join('\n');
// By month (the undated order left out): Jan 55.5, Feb 36, Mar 119.99.
const REVENUE_BY_MONTH = [
  { month: '2024-01', total_revenue: 55.5 },
  { month: '2024-02', total_revenue: 36 },
  { month: '2024-03', total_revenue: 119.99 },
];

let dir: string;
let db: DuckDBInstance;
let connection: DuckDBConnection;

/** The dataset as the model is told of it: the browser's preview of the file. */
function datasetOf(file: string, text: string): Dataset {
  const preview = previewToText(`data/${file}`, text.length, sniffTable(text, { fileName: file, complete: true }));
  const [dataset] = datasetsIn(`Hi\n[Files attached to this message, available to Python under /data/:]\n${preview}`);
  return dataset;
}

const orders = () => datasetOf('orders.csv', ORDERS);

function analysisOf(request: string, dataset = orders()): Analysis {
  const understood = understand(request, dataset);
  if (understood.kind !== 'analysis') throw new Error(`not understood: ${JSON.stringify(understood)}`);
  return understood.analysis;
}

/** Runs SQL over the file as runpad.sql does: a table named after the file, read by DuckDB's sniffer. */
async function runSql(query: string): Promise<Record<string, unknown>[]> {
  const reader = await connection.runAndReadAll(query);
  return reader.getRowObjectsJson() as Record<string, unknown>[];
}

/** Runs the demo's Python with Debian's python3 on the standard library alone: `display` stands in for the page's, printing the markdown table. */
function runPython(code: string): string {
  const program = `import json\ndef display(obj, raw=False):\n    print(obj["text/markdown"])\n${code.replaceAll('/data/', `${dir}/`)}\nprint("ROWS=" + json.dumps(rows))\n`;
  return stdlibPython(['-c', program]);
}

const rowsOf = (output: string) => JSON.parse(output.split('ROWS=')[1]) as Record<string, unknown>[];
/** DuckDB's JSON rows give big integers as strings: the values (not the labels) as numbers. */
const numbers = (rows: Record<string, unknown>[]) => rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && /^(total|average|median|count|min|max)/.test(k) ? Number(v) : v])));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runpad-demo-'));
  fs.writeFileSync(path.join(dir, 'orders.csv'), ORDERS);
  fs.writeFileSync(path.join(dir, 'sales.csv'), 'region,units,price\nnorth,12,2.5\nsouth,30,1\nnorth,8,2.5\nwest,50,3\n');
  db = await DuckDBInstance.create(':memory:');
  connection = await db.connect();
  for (const file of ['orders.csv', 'sales.csv']) await connection.run(`CREATE TABLE ${file.replace('.csv', '')} AS SELECT * FROM read_csv('${path.join(dir, file)}')`);
});

afterAll(() => {
  connection?.closeSync();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the demo reads the dataset it was given', () => {
  it('finds the file and its columns with their types in the preview', () => {
    const dataset = orders();
    expect(dataset.file).toBe('orders.csv');
    expect(dataset.table).toBe('orders');
    expect(dataset.columns).toEqual([
      { name: 'order_id', type: 'integer' },
      { name: 'order_date', type: 'date' },
      { name: 'customer', type: 'string' },
      { name: 'category', type: 'string' },
      { name: 'quantity', type: 'integer' },
      { name: 'unit_price', type: 'number' },
      { name: 'revenue', type: 'number' },
    ]);
  });
});

describe('revenue by month: the question asked, with the right totals', () => {
  it('groups the revenue column by month of the date column, never the id', () => {
    const analysis = analysisOf('Give me total revenue by month using SQL');
    expect(analysis).toMatchObject({ aggregate: 'sum', measure: { columns: ['revenue'] }, by: { kind: 'period', column: 'order_date', period: 'month' }, language: 'sql' });
    expect(sqlFor(analysis)).not.toContain('order_id');
  });

  it('its SQL gives the totals by month in DuckDB', async () => {
    const rows = await runSql(sqlFor(analysisOf('Give me total revenue by month using SQL')));
    expect(numbers(rows)).toEqual(REVENUE_BY_MONTH);
  });

  it('its Python gives the same totals, with the standard library only', () => {
    const code = pythonFor(analysisOf('Total revenue by month, in Python'));
    expect(code).not.toMatch(/import (pandas|numpy|matplotlib)/);
    const output = runPython(code);
    expect(rowsOf(output)).toEqual(REVENUE_BY_MONTH);
    expect(output).toContain('| month | total_revenue |');
  });

  it('makes revenue price × quantity when there is no revenue column, and says so', async () => {
    const text = ORDERS.split('\n').map((line) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).slice(0, 6).join(',')).join('\n');
    fs.writeFileSync(path.join(dir, 'lines.csv'), text);
    await connection.run(`CREATE OR REPLACE TABLE lines AS SELECT * FROM read_csv('${path.join(dir, 'lines.csv')}')`);
    const analysis = analysisOf('total revenue by month', datasetOf('lines.csv', text));
    expect(analysis.measure).toEqual({ label: 'revenue', columns: ['unit_price', 'quantity'] });
    expect(analysis.notes.join(' ')).toContain('`unit_price` × `quantity`');
    const rows = numbers(await runSql(sqlFor(analysis)));
    // Garden's February line has no quantity: left out of the sum, as a blank revenue is.
    expect(rows).toEqual(REVENUE_BY_MONTH.map((r) => ({ month: r.month, total_revenue: r.total_revenue })));
  });

  it.each([
    ['How many orders per quarter?', [{ quarter: '2024-Q1', count: 7 }]],
    ['average revenue by category', [{ category: 'Garden', average_revenue: 80 }, { category: 'Toys', average_revenue: 28.5 }, { category: 'Books', average_revenue: 22 }]],
    ['median quantity by category', [{ category: 'Toys', median_quantity: 4 }, { category: 'Books', median_quantity: 2 }, { category: 'Garden', median_quantity: 2 }]],
    ['top 2 categories by revenue', [{ category: 'Toys', total_revenue: 85.5 }, { category: 'Garden', total_revenue: 80 }]],
    ['weekly revenue', null],
    ['revenue per year', [{ year: '2024', total_revenue: 211.49 }]],
  ])('"%s": SQL and Python agree, and with the expected rows', async (request, expected) => {
    const analysis = analysisOf(request);
    const fromSql = numbers(await runSql(sqlFor(analysis)));
    const fromPython = numbers(rowsOf(runPython(pythonFor(analysis))));
    expect(fromPython).toEqual(fromSql);
    if (expected) expect(fromSql).toEqual(expected);
  });

  it('lists the top N rows by a measure when the request names no grouping', async () => {
    const analysis = analysisOf('top 3 orders by revenue');
    const rows = await runSql(sqlFor(analysis));
    expect(rows.map((r) => Number(r.order_id))).toEqual([1006, 1003, 1002]);
    expect(rowsOf(runPython(pythonFor(analysis))).map((r) => Number(r.order_id))).toEqual([1006, 1003, 1002]);
  });
});

describe('what it cannot do, it says, with the columns it has and how to get a real model', () => {
  it.each([
    ['total profit by month', /no profit column/],
    ['revenue by region', /no column of that name/],
    ['average shipping time by category', /“shipping time”/],
    ['Which customers are likely to churn?', /can't answer that one/],
    ['revenue by category in 2024', /cannot filter the rows \(“in 2024”\)/],
    ['revenue by month for Books only', /cannot filter the rows \(“for books only”\)/],
    ['revenue by month this year', /cannot filter the rows \(“this year”\)/],
    ['total revenue by category and month', /group by two things at once/],
    ['revenue by category and region', /group by two things at once/],
  ])('"%s" is declined in words', (request, reason) => {
    const understood = understand(request, orders());
    expect(understood.kind).toBe('decline');
    const text = understood.kind === 'decline' ? understood.text : '';
    expect(text).toMatch(reason);
    expect(text).toContain('`revenue` (number)'); // the columns it does have
    expect(text).toMatch(/totals, counts, averages and medians .* by day, week, month, quarter or year of a date column; the top N; and a chart of the last result/);
    expect(text).toContain('`OPENAI_API_KEY` or `RUNPAD_MODELS`');
    expect(text).toContain('docs/OPERATING.md');
  });

  it('asks which column to add up when several could be meant, and never picks the id', () => {
    const understood = understand('give me the total by category', orders());
    expect(understood.kind).toBe('decline');
    const text = understood.kind === 'decline' ? understood.text : '';
    expect(text).toContain('`quantity`, `unit_price`, `revenue`');
    expect(text.split('Which one?')[0]).not.toContain('`order_id`,');
  });

  it('declines a month grouping when the file has no date column', () => {
    const sales = datasetOf('sales.csv', 'region,units,price\nnorth,12,2.5\n');
    const understood = understand('units by month', sales);
    expect(understood).toMatchObject({ kind: 'decline' });
    expect(understood.kind === 'decline' && understood.text).toContain('has no date column');
  });
});

describe('charts', () => {
  it('"Now make a chart of it" is a chart of the last result', () => {
    expect(understand('Now make a chart of it', orders())).toEqual({ kind: 'chart-last' });
  });

  it('a chart is a Vega-Lite spec displayed from Python, with no package', () => {
    const analysis = analysisOf('chart total revenue by month');
    expect(analysis.chart).toBe(true);
    const code = chartProgramFor(sqlFor(analysis), 'Total revenue by month');
    expect(code).toContain('display({"application/vnd.vegalite.v5+json": spec}, raw=True)');
    expect(code).not.toMatch(/matplotlib|pandas|numpy/);
  });

  it('the chart program draws the query result: label along x, the total up y, a line over months', () => {
    const query = sqlFor(analysisOf('total revenue by month'));
    const stub = [
      'import json',
      'class Result:',
      '    def __init__(self, columns, rows):',
      '        self.columns, self.rows = columns, rows',
      '    def __iter__(self):',
      '        return (dict(zip(self.columns, r)) for r in self.rows)',
      `def sql(query):\n    return Result(["month", "total_revenue"], [("2024-01", 55.5), ("2024-02", 36.0), ("2024-03", 119.99)])`,
      'def display(obj, raw=False):',
      '    print("SPEC=" + json.dumps(obj["application/vnd.vegalite.v5+json"]))',
    ].join('\n');
    const output = stdlibPython(['-c', `${stub}\n${chartProgramFor(query, 'Total revenue by month')}`]);
    const spec = JSON.parse(output.split('SPEC=')[1].split('\n')[0]);
    expect(spec.mark.type).toBe('line');
    expect(spec.encoding.x.field).toBe('month');
    expect(spec.encoding.y).toEqual({ field: 'total_revenue', type: 'quantitative' });
    expect(spec.data.values).toEqual(REVENUE_BY_MONTH);
    expect(output).toContain('charted 3 rows: total_revenue by month');
  });
});
