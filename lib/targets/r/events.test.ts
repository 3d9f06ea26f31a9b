import { describe, expect, it } from 'vitest';
import { conditionLine, eventsToOutputs, fromWebR, parseEvents, placePlots, rRunSchema, type REvent } from './events.client';
import { mediaTypeOfName } from './media-type.client';
import { outputSchema } from '@/lib/runtime/protocol';

/** webR's toJs() form, as capture.R's results arrive in the worker. */
const chr = (...values: (string | null)[]) => ({ type: 'character', names: null, values });
const dbl = (...values: (number | null)[]) => ({ type: 'double', names: null, values });
const int = (...values: number[]) => ({ type: 'integer', names: null, values });
const lgl = (...values: (boolean | null)[]) => ({ type: 'logical', names: null, values });
const list = (entries: Record<string, unknown>) => ({ type: 'list', names: Object.keys(entries), values: Object.values(entries) });
const unnamed = (...values: unknown[]) => ({ type: 'list', names: null, values });

function run(status: string, ...events: unknown[]) {
  const parsed = rRunSchema.parse(fromWebR(list({ status: chr(status), events: unnamed(...events) })));
  const { events: valid, dropped } = parseEvents(parsed.events);
  return { status: parsed.status, dropped, outputs: eventsToOutputs(valid, (path) => (path.endsWith('001.png') ? 'iVBORw0KGgo=' : null), mediaTypeOfName) };
}

describe('R run events → outputs', () => {
  it('keeps R’s order: printed text, a message on stderr, a warning with its call, then more text merged into one stream', () => {
    const { status, outputs } = run(
      'ok',
      list({ type: chr('stream'), name: chr('stdout'), text: chr('[1] 1 2 3\n') }),
      list({ type: chr('stream'), name: chr('stderr'), text: chr('rows: 12\n') }),
      list({ type: chr('warning'), message: chr('NaNs produced'), call: chr('log(-1)') }),
      list({ type: chr('stream'), name: chr('stdout'), text: chr('[1] NaN\n') }),
      list({ type: chr('stream'), name: chr('stdout'), text: chr('done\n') }),
    );
    expect(status).toBe('ok');
    expect(outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: '[1] 1 2 3\n' },
      { output_type: 'stream', name: 'stderr', text: 'rows: 12\n' },
      { output_type: 'error', ename: 'Warning', evalue: 'NaNs produced', traceback: ['Warning message:\nIn log(-1) : NaNs produced'] },
      { output_type: 'stream', name: 'stdout', text: '[1] NaN\ndone\n' },
    ]);
  });

  it('an error says its call as R does, with the user’s frames; a top-level stop() has no call', () => {
    const { status, outputs } = run(
      'error',
      list({ type: chr('error'), ename: chr('Error'), evalue: chr('bad y: 2'), call: chr('f(2)'), frames: chr('g()', 'f(2)') }),
      list({ type: chr('error'), ename: chr('Error'), evalue: chr('oops'), call: chr(null), frames: chr() }),
    );
    expect(status).toBe('error');
    expect(outputs[0]).toEqual({ output_type: 'error', ename: 'Error', evalue: 'bad y: 2', traceback: ['Error in f(2) : bad y: 2', 'Traceback (innermost last):', '1: g()', '2: f(2)'] });
    expect(outputs[1]).toEqual({ output_type: 'error', ename: 'Error', evalue: 'oops', traceback: ['Error: oops'] });
    expect(conditionLine('Warning', 'w', null)).toBe('Warning message:\nw');
  });

  it('a data frame is the same table output as pandas’: typed fields, row names as the key, Inf/NaN as R prints them, the full shape', () => {
    const { outputs } = run(
      'ok',
      list({
        type: chr('table'),
        names: chr('(row)', 'mpg', 'cyl', 'am', 'model'),
        columns: unnamed(
          list({ type: chr('string'), values: chr('Mazda RX4', 'Datsun 710') }),
          list({ type: chr('number'), values: dbl(21, Infinity) }),
          list({ type: chr('integer'), values: int(6, 4) }),
          list({ type: chr('boolean'), values: lgl(true, null) }),
          list({ type: chr('string'), values: chr('a', null) }),
        ),
        index: lgl(true),
        shape: int(32, 4),
        text: chr('            mpg cyl'),
      }),
    );
    expect(outputs).toHaveLength(1);
    const output = outputSchema.parse(outputs[0]);
    expect(output.output_type).toBe('execute_result');
    if (output.output_type !== 'execute_result') return;
    const table = output.data['application/vnd.dataresource+json']!;
    expect(table.schema.fields).toEqual([
      { name: '(row)', type: 'string' },
      { name: 'mpg', type: 'number' },
      { name: 'cyl', type: 'integer' },
      { name: 'am', type: 'boolean' },
      { name: 'model', type: 'string' },
    ]);
    expect(table.schema.primaryKey).toEqual(['(row)']);
    expect(table.data).toEqual([
      { '(row)': 'Mazda RX4', mpg: 21, cyl: 6, am: true, model: 'a' },
      { '(row)': 'Datsun 710', mpg: 'Inf', cyl: 4, am: null, model: null },
    ]);
    expect(table.shape).toEqual([32, 4]);
    expect(output.data['text/plain']).toContain('mpg');
  });

  it('plots become PNG images (one that cannot be read says so), files under /output/ become downloads', () => {
    const { outputs } = run(
      'ok',
      list({ type: chr('image'), path: chr('/tmp/runpad-plots/plot-001-001.png') }),
      list({ type: chr('image'), path: chr('/tmp/runpad-plots/plot-001-002.png') }),
      list({ type: chr('file'), name: chr('fit.csv'), size: dbl(120) }),
    );
    expect(outputs).toEqual([
      { output_type: 'display_data', data: { 'image/png': 'iVBORw0KGgo=', 'text/plain': '<R plot>' } },
      { output_type: 'stream', name: 'stderr', text: 'A plot could not be read back from R.\n' },
      { output_type: 'file', name: 'fit.csv', size: 120, mediaType: 'text/csv' },
    ]);
  });

  it('a plot sits where its page began, between what was printed before and after it (R’s order)', () => {
    const plot = (page: number) => `/tmp/runpad-plots/plot-001-00${page}.png`;
    const { outputs } = run(
      'ok',
      list({ type: chr('stream'), name: chr('stdout'), text: chr('before\n') }),
      list({ type: chr('plot'), path: chr(plot(1)) }),
      list({ type: chr('stream'), name: chr('stdout'), text: chr('after\n') }),
      list({ type: chr('image'), path: chr(plot(1)) }),
    );
    expect(outputs).toEqual([
      { output_type: 'stream', name: 'stdout', text: 'before\n' },
      { output_type: 'display_data', data: { 'image/png': 'iVBORw0KGgo=', 'text/plain': '<R plot>' } },
      { output_type: 'stream', name: 'stdout', text: 'after\n' },
    ]);
  });

  it('places each PNG at its own page’s mark; a PNG without a mark stays at the end, a mark without a PNG goes', () => {
    const path = (device: number, page: number) => `/tmp/runpad-plots/plot-00${device}-00${page}.png`;
    const text = (value: string): REvent => ({ type: 'stream', name: 'stdout', text: value });
    const events: REvent[] = [
      text('a'),
      { type: 'plot', path: path(1, 1) },
      text('b'),
      { type: 'plot', path: path(2, 1) }, // a second device, drawn before the first's next page
      { type: 'plot', path: path(1, 2) },
      { type: 'plot', path: path(1, 3) }, // begun, never written
      text('c'),
      { type: 'image', path: path(1, 1) },
      { type: 'image', path: path(1, 2) },
      { type: 'image', path: path(2, 1) },
      { type: 'image', path: path(3, 1) }, // no mark (a page begun where no hook saw it)
      { type: 'file', name: 'out.csv', size: 3 },
    ];
    expect(placePlots(events)).toEqual([
      text('a'),
      { type: 'image', path: path(1, 1) },
      text('b'),
      { type: 'image', path: path(2, 1) },
      { type: 'image', path: path(1, 2) },
      text('c'),
      { type: 'image', path: path(3, 1) },
      { type: 'file', name: 'out.csv', size: 3 },
    ]);
  });

  it('events that are not what capture.R makes are dropped and counted, not trusted', () => {
    const { outputs, dropped } = run(
      'ok',
      list({ type: chr('stream'), name: chr('stdin'), text: chr('x') }),
      list({ type: chr('html'), html: chr('<script>') }),
      list({ type: chr('stream'), name: chr('stdout'), text: chr('ok\n') }),
    );
    expect(dropped).toBe(2);
    expect(outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: 'ok\n' }]);
    expect(() => rRunSchema.parse(fromWebR(list({ status: chr('exploded'), events: unnamed() })))).toThrow();
  });
});
