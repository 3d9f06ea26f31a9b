import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import type { Output, RunResult } from '@/lib/runtime/protocol';
import { allowedText, attachmentsToSchemaText, knownWords, runToSchemaView } from './model-sees.server';
import { strictest } from '@/lib/messages/model-input-schema';
import { runToModel } from './run-to-model.server';
import { toModelMessages } from './model-messages.server';

/** A value planted in the data: it must reach no request under `schema`. */
const SECRET = 'ZEBRA-4417';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const run = (...outputs: Output[]): RunResult => ({ status: 'ok', durationMs: 12, outputs });
const view = (...outputs: Output[]) => runToSchemaView(run(...outputs), KNOWN).text;
/** What the model knows in these tests: the words of its code and the header of a dropped file. */
const KNOWN = knownWords({ code: ['df = pd.read_csv("/data/sales.csv")\ndf.loc[df.region == "north"].amount.sum()'], files: [{ name: 'sales.csv', size: 10, mediaType: 'text/csv', sha256: 'c'.repeat(64), columns: [{ name: 'customer', type: 'string' }, { name: 'amount', type: 'number' }, { name: 'sales', type: 'number' }], header: true }] });

describe('schema view of a run, per output kind', () => {
  it('stream: the number of lines and bytes printed, not the text; adjacent chunks are one block', () => {
    const text = view({ output_type: 'stream', name: 'stdout', text: `name ${SECRET}\n` }, { output_type: 'stream', name: 'stdout', text: 'second line\n' }, { output_type: 'stream', name: 'stderr', text: 'warn' });
    expect(text).toContain('stdout: 2 lines, 28 B printed (not sent)');
    expect(text).toContain('stderr: 1 line, 4 B printed (not sent)');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('second line');
  });

  it('table: shape, column names and types; no cell', () => {
    const table = { schema: { fields: [{ name: 'customer', type: 'string' }, { name: 'amount', type: 'number' }] }, data: [{ customer: SECRET, amount: 991.5 }], shape: [1200, 2] as [number, number] };
    const text = view({ output_type: 'execute_result', data: { 'application/vnd.dataresource+json': table, 'text/plain': `${SECRET} 991.5` } });
    expect(text).toContain('result: a table of 1,200 rows × 2 columns; columns: customer (string), amount (number)');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('991');
  });

  it('Vega-Lite chart: marks, channels with field names and types, row count; no title, constant, value or image', () => {
    const spec = {
      title: `Sales of ${SECRET}`,
      data: { values: [{ region: SECRET, sales: 12345 }] },
      mark: 'bar',
      encoding: { x: { field: 'region', type: 'nominal' }, y: { field: 'sales', aggregate: 'sum', type: 'quantitative' }, color: { value: SECRET } },
    };
    const text = view({ output_type: 'display_data', data: { 'application/vnd.vegalite.v5+json': spec, 'image/png': PNG } });
    expect(text).toContain('a chart shown to the user (Vega-Lite bar chart; axes and channels: x = region (nominal), y = sum(sales) (quantitative); 1 data row), drawn as PNG');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('12345');
    expect(text).not.toContain(PNG);
    expect(runToSchemaView(run({ output_type: 'display_data', data: { 'image/png': PNG } }), KNOWN).images).toEqual([]);
  });

  it('image: that a figure was made, its kind and size; never the image or its text', () => {
    const text = view({ output_type: 'display_data', data: { 'image/png': PNG, 'text/plain': `<Figure ${SECRET}>` } }, { output_type: 'display_data', data: { 'image/jpeg': `blob:${'a'.repeat(64)}` } });
    expect(text).toContain('display: a figure shown to the user (PNG, 72 B); its image is not sent');
    expect(text).toContain('display: a figure shown to the user (JPEG); its image is not sent');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(PNG);
  });

  it('SVG and Graphviz diagrams: that a diagram was made; not its source or labels', () => {
    const text = view(
      { output_type: 'display_data', data: { 'text/vnd.graphviz': `digraph { "${SECRET}" -> b }`, 'image/svg+xml': `<svg><text>${SECRET}</text></svg>` } },
      { output_type: 'display_data', data: { 'image/svg+xml': `<svg><text>${SECRET}</text></svg>` } },
    );
    expect(text).toContain('display: a diagram shown to the user (Graphviz; SVG, 34 B); its source and image are not sent');
    expect(text).toContain('display: a diagram shown to the user (SVG, 34 B)');
    expect(text).not.toContain(SECRET);
  });

  it('markdown and plain text results: their size only', () => {
    const text = view({ output_type: 'display_data', data: { 'text/markdown': `# ${SECRET}\nrow` } }, { output_type: 'execute_result', data: { 'text/plain': `'${SECRET}'` } });
    expect(text).toContain('display: markdown shown to the user (2 lines, 16 B); its text is not sent');
    expect(text).toContain('result: text shown to the user (1 line, 12 B); its text is not sent');
    expect(text).not.toContain(SECRET);
  });

  it('error: its class, the words of its message the model knows, the line of the code; no value, no source line', () => {
    const traceback = [
      'Traceback (most recent call last):',
      '  File "<cell-1>", line 3, in <module>\n    df.loc["ZEBRA-4417"]',
      '  File "/lib/python3.12/site-packages/pandas/core/indexing.py", line 1191, in __getitem__',
      `KeyError: '${SECRET}'`,
    ];
    const text = view({ output_type: 'error', ename: 'KeyError', evalue: `'${SECRET}' not found in column amount at row 42`, traceback });
    expect(text).toContain('error: KeyError: <value> amount <value>');
    expect(text).toContain('at line 3 of the code');
    expect(text).not.toContain('ZEBRA');
    expect(text).not.toContain('4417');
    expect(text).not.toContain('pandas');
  });

  it("an error's class is a value when the code named it from data: only classes the engines define or the code wrote keep their name", () => {
    // Values as they become class names: Python `type(value + 'Error', (Exception,), {})`, JavaScript `e.name = value`, an R condition's class.
    const values = [`${SECRET.replace('-', '_')}`, 'O_Brien_Hidden_Person', 'LIONVALUE', 'ΩμέγαÉclair', 'Jane.Roe', 'x9_4417'];
    const suffixes = ['Error', 'Exception', 'Warning', 'Interrupt', 'Exit', 'Iteration'];
    for (const value of values) {
      for (const suffix of suffixes) {
        const ename = `${value}${suffix}`;
        const sentinelWords = value.match(/[\p{L}\p{N}]+/gu)!;
        const outputs = view({ output_type: 'error', ename, evalue: 'no message', traceback: [] });
        const failure = runToSchemaView({ ...run(), status: 'error', failures: [{ kind: 'code', engine: 'JavaScript', ename, evalue: 'x' }] }, KNOWN).text;
        for (const text of [outputs, failure]) for (const word of sentinelWords) expect(text, `${ename} in ${text}`).not.toContain(word);
      }
    }
    // The engines' own classes, and one the code defined, keep their names.
    const known = knownWords({ code: ['class BadRowError(ValueError):\n    pass'], files: [] });
    for (const ename of ['ValueError', 'KeyError', 'ZeroDivisionError', 'KeyboardInterrupt', 'StopIteration', 'ConversionException', 'ParserError', 'RangeError', 'simpleError', 'DotSyntaxError', 'BadRowError']) {
      expect(runToSchemaView(run({ output_type: 'error', ename, evalue: '', traceback: [] }), known).text).toContain(`error: ${ename}:`);
    }
  });

  it('file written: its name when the model knows its words, else a placeholder; its size', () => {
    expect(view({ output_type: 'file', name: 'sales.csv', size: 2048, mediaType: 'text/csv' })).toContain('wrote /output/sales.csv (2.0 kB)');
    expect(view({ output_type: 'file', name: 'ZEBRA_CUSTOMER_ALPHA.txt', size: 2048, mediaType: 'text/plain' })).toContain('wrote /output/<value> (2.0 kB)');
  });

  it('a notice and the run status keep the words the model knows; a failure keeps its own words and class', () => {
    const text = runToSchemaView({ ...run(), status: 'error', notice: `Stopped after "${SECRET}" used 3.5 GB`, failures: [{ kind: 'code', engine: 'Python', ename: 'ValueError', evalue: `bad ${SECRET}`, line: 2, excerpt: 'df.loc[df.region == "north"]' }] }, KNOWN).text;
    expect(text).toContain('status: error');
    expect(text).toContain('Python raised ValueError: <value> (line 2)\n2 | df.loc[df.region == "north"]');
    expect(text).toContain('Fix the code and run it again. <value>');
    expect(text).not.toContain('ZEBRA');
  });

  it('runToModel under schema is the schema view, whatever images are allowed', async () => {
    const result = run({ output_type: 'display_data', data: { 'image/png': PNG } });
    const model = await runToModel(result, { includeImages: true, modelSees: 'schema', resolveBlob: async () => ({ mediaType: 'image/png', base64: PNG }) });
    expect(model.images).toEqual([]);
    expect(model.text).toBe(runToSchemaView(result, new Set()).text);
  });
});

describe('allowedText: the words the model knows, placeholders for the rest', () => {
  it.each([
    [`could not convert string to float: '${SECRET}'`, '<value> string <value> float: <value>'],
    ['invalid literal for int() with base 10: "12,5"', '<value> int() <value>'],
    ["Could not convert string 'O'Brien Hidden Person' to INT32", '<value> string <value> INT32'],
    ['object ‘KIWISECRET’ not found', 'object <value>'],
    ['sum of amount for region north', 'sum <value> amount <value> region north'],
    ['ΑΘΗΝΑ, 東京 and Zürich\nsecond line', '<value>'],
  ])('%s', (message, expected) => {
    expect(allowedText(message, KNOWN)).toBe(expected);
  });

  it('cuts a long message', () => {
    expect(allowedText('amount '.repeat(200), KNOWN).length).toBeLessThanOrEqual(301);
  });
});

describe('dropped files under schema', () => {
  it("name, size, type, rows and the header row's columns with types; never the preview, its rows or notes", () => {
    const preview = `/sales.csv (2 KB, CSV, 3 rows): columns customer (string), amount (number)\nfirst 1 row:\ncustomer | amount\n${SECRET} | 10\nnote: row 3 has "${SECRET}"`;
    const text = attachmentsToSchemaText([{ name: 'sales.csv', size: 2048, mediaType: 'text/csv', sha256: 'c'.repeat(64), preview, columns: [{ name: 'customer', type: 'string' }, { name: 'amount', type: 'number' }], header: true, rows: 3 }]);
    expect(text).toContain('/data/sales.csv (2.0 kB, text/csv, 3 rows): columns customer (string), amount (number)');
    expect(text).not.toContain(SECRET);
  });

  it("a file without a header row: the reader's names (column0, …), never the first row's cells", () => {
    const text = attachmentsToSchemaText([{ name: 'raw.csv', size: 20, mediaType: 'text/csv', sha256: 'c'.repeat(64), columns: [{ name: SECRET, type: 'string' }, { name: '12', type: 'integer' }], header: false }]);
    expect(text).toContain("/data/raw.csv (20 B, text/csv): no header row (its first row is data, so the columns have the reader’s names); columns column0 (string), column1 (integer)");
    expect(text).not.toContain(SECRET);
  });

  it('a file without columns: its name, size and type', () => {
    expect(attachmentsToSchemaText([{ name: 'a.bin', size: 10, mediaType: 'application/octet-stream', sha256: 'c'.repeat(64) }])).toContain('/data/a.bin (10 B, application/octet-stream)');
  });
});

describe('the strictest policy', () => {
  it('schema wins over outputs; nothing set is outputs', () => {
    expect(strictest('outputs', 'schema')).toBe('schema');
    expect(strictest('schema', 'outputs')).toBe('schema');
    expect(strictest('outputs', null)).toBe('outputs');
    expect(strictest()).toBe('outputs');
  });
});

describe('the model messages under schema', () => {
  const preview = `/sales.csv (1 KB, CSV, 2 rows): columns customer (string), amount (number)\nfirst 1 row:\ncustomer | amount\n${SECRET} | 10`;
  const outputs: Output[] = [
    { output_type: 'stream', name: 'stdout', text: `${SECRET}\n` },
    { output_type: 'display_data', data: { 'image/png': `blob:${'d'.repeat(64)}` } },
    { output_type: 'error', ename: 'ValueError', evalue: `bad value '${SECRET}'`, traceback: [] },
  ];
  const messages: UIMessage[] = [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'summarise' }], metadata: { files: [{ name: 'sales.csv', size: 1024, mediaType: 'text/csv', sha256: 'c'.repeat(64), preview, columns: [{ name: 'customer', type: 'string' }, { name: 'amount', type: 'number' }], header: true }] } },
    { id: 'a1', role: 'assistant', parts: [{ type: 'tool-python', toolCallId: 'call_1', state: 'output-available', input: { code: 'print(df)' }, output: run(...outputs) } as UIMessage['parts'][number]] },
  ];
  const resolveBlob = async () => ({ mediaType: 'image/png', base64: PNG });

  it.each([
    ['tools, Responses', { api: 'responses' as const, codeMode: 'tools' as const }],
    ['tools, Chat Completions', { api: 'chat' as const, codeMode: 'tools' as const }],
    ['blocks', { api: 'chat' as const, codeMode: 'blocks' as const }],
  ])('%s: no value, row or image; column names and the error type are there', async (_, mode) => {
    const sent = JSON.stringify(await toModelMessages(messages, { ...mode, includeImages: true, resolveBlob, modelSees: 'schema' }));
    expect(sent).not.toContain(SECRET);
    expect(sent).not.toContain(PNG);
    expect(sent).toContain('columns customer (string), amount (number)');
    expect(sent).toContain('error: ValueError: <value>');
    // The same conversation under `outputs` does carry them: the test can fail.
    const open = JSON.stringify(await toModelMessages(messages, { ...mode, includeImages: true, resolveBlob }));
    expect(open).toContain(SECRET);
  });
});
