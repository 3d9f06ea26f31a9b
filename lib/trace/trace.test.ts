import { describe, expect, it } from 'vitest';
import { answer, chart, run, stdout, table, text, user } from '@/tests/trace/corpus';
import { checkRequest, describeTrace, summaryLine, traceConversation, untracedMarkdown } from './index';

describe('traces say where a figure came from', () => {
  const messages = [
    user('Sales by region'),
    answer(
      run('c1', [stdout('loading…\n'), stdout('rows: 4\ntotal: 8,549,553.71\n')]),
      run('c2', [table(['region:string', 'revenue'], [['North', 3214567.89], ['South', 2845001.5]]), chart([{ week: 'W1', signups: 120 }])], 'sql'),
      text('Total revenue is $8.55M over 4 rows; North has $3.21M; week 1 had 120 signups; the margin is 17%.'),
    ),
  ];
  const trace = traceConversation(messages).get(messages[1].id)!;

  it('points at the output, the line and the offsets of printed text', () => {
    const total = trace.figures.find((f) => f.raw === '$8.55M')!;
    expect(total.source).toMatchObject({ toolCallId: 'c1', tool: 'python', outputIndex: 1, runNumber: 1, runsInAnswer: 2, earlier: false, how: 'rounded', location: { kind: 'text', line: 2 } });
    const location = total.source!.location as { start: number; end: number };
    expect('rows: 4\ntotal: 8,549,553.71\n'.slice(location.start, location.end)).toBe('8,549,553.71');
    expect(describeTrace(total)).toBe('From Python run 1 of this answer, output 2 (printed text, line 2): rounded from 8,549,553.71.');
  });

  it('points at a table cell by row and column, and at a chart record', () => {
    const north = trace.figures.find((f) => f.raw === '$3.21M')!;
    expect(north.source).toMatchObject({ toolCallId: 'c2', tool: 'sql', outputIndex: 0, location: { kind: 'table', row: 0, column: 'revenue' } });
    expect(describeTrace(north)).toBe('From SQL run 2 of this answer, output 1 (table row 1, column revenue): rounded from 3,214,567.89.');
    const signups = trace.figures.find((f) => f.raw === '120')!;
    expect(signups.source).toMatchObject({ toolCallId: 'c2', outputIndex: 1, location: { kind: 'chart', row: 0, field: 'signups' } });
  });

  it('summarises, asks the model to check the rest, and lists them for an export', () => {
    expect(trace.figures.map((f) => f.raw)).toEqual(['$8.55M', '4', '$3.21M', '120', '17%']);
    expect(summaryLine(trace)).toBe('4 of 5 figures traced to outputs');
    expect(describeTrace(trace.figures[4])).toBe('Not found in any output.');
    const request = checkRequest(trace);
    expect(request).toContain('- 17% (“');
    expect(request).toMatch(/verify each one with code/);
    expect(request).not.toContain('$3.21M');
    const markdown = untracedMarkdown(traceConversation(messages).values());
    expect(markdown).toContain('## Figures not found in any output');
    expect(markdown).toContain('- **17%** in answer 1:');
    expect(untracedMarkdown([{ ...trace, figures: trace.figures.filter((f) => f.source), traced: 4 }])).toBeNull();
  });

  it('reads the head and the tail of a long printed output, with true offsets', () => {
    const filler = 'x'.repeat(400_000);
    const output = `head 111.5\n${filler}\ntail 222.5\n`;
    const long = [user('long'), answer(run('c1', [stdout(output)]), text('Head 111.5, tail 222.5.'))];
    const figures = traceConversation(long).get(long[1].id)!.figures;
    const tail = figures[1].source!.location as { start: number; line: number };
    expect(figures.every((f) => f.source)).toBe(true);
    expect(output.slice(tail.start, tail.start + 5)).toBe('222.5');
    expect(tail.line).toBe(3);
  });

  it("traces a count to the table's size the page shows above it, after its cells", () => {
    const months = Array.from({ length: 24 }, (_, i) => [`2024-${String((i % 12) + 1).padStart(2, '0')}`, 800 + i, 40_000 + i * 10]);
    const chat = [
      user('Monthly orders'),
      answer(run('c1', [table(['month:string', 'orders', 'revenue'], months)]), text('The table covers 24 months in 3 columns; March had 802 orders.')),
    ];
    const figures = traceConversation(chat).get(chat[1].id)!.figures;
    expect(figures.map((f) => f.raw)).toEqual(['24', '3', '802']);
    expect(figures[0].source).toMatchObject({ toolCallId: 'c1', outputIndex: 0, how: 'exact', location: { kind: 'shape', dimension: 'rows' }, shown: '24' });
    expect(describeTrace(figures[0])).toBe("From Python run of this answer, output 1 (the table's count of rows): shown as 24.");
    expect(figures[1].source).toMatchObject({ location: { kind: 'shape', dimension: 'columns' } });
    expect(figures[2].source).toMatchObject({ location: { kind: 'table', row: 2, column: 'orders' } });
    // A capped table shows its full size: the count traced is the shape, not the rows held.
    const capped = table(['v'], [[1.5], [2.5]]);
    capped.data['application/vnd.dataresource+json'].shape = [50_000, 1];
    const big = [user('Load'), answer(run('c2', [capped]), text('It has 50,000 rows; 2 are shown.'))];
    const [rows, shown] = traceConversation(big).get(big[1].id)!.figures;
    expect(rows.source).toMatchObject({ location: { kind: 'shape', dimension: 'rows' } });
    expect(shown.source).toBeNull();
  });

  it('gives no trace to answers that can see no run', () => {
    const chat = [user('hi'), answer(text('Hello! 42 is a fine number.'))];
    expect(traceConversation(chat).size).toBe(0);
  });
});
