import { streamText, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '@/lib/runtime/protocol';
import { createDemoModel, plan, summarize } from './demo-model.server';
import { helpText, NOTHING_TO_CHART, programFor, recogniseIntent, type DemoIntent } from './demo-programs.server';
import { datasetsIn, understand } from './demo-analysis';
import { chartProgramFor, pythonFor, sqlFor } from './demo-analysis-code';
import { tools } from './python-tool.server';
import { runToModel } from './run-to-model.server';

/**
 * Everything the offline demo writes (its programs, its answers, its help) is read by someone
 * trying Runpad without a key: no placeholder of the model's view of a run, and none of the
 * product's internal words.
 */
const INTERNAL = /\[image|\binterpreter\b|\bkernel\b|tool[ -]?(call|result)|system prompt|model view|Output of block|placeholder|TODO|undefined|NaN|\[object/i;

const ATTACHED = '[Files attached to this message, available to Python under /data/:]\n/data/orders.csv (1.2 MB, CSV, 50,000 rows): columns order_id (integer), order_date (date), customer (string), category (string), quantity (integer), unit_price (number), revenue (number)';
const [ORDERS] = datasetsIn(ATTACHED);

const REQUESTS = [
  'Compute the 30th Fibonacci number',
  'factorial of 20',
  'primes up to 100',
  'sum of the squares of 1 to 100',
  'what is 2**100 / 7',
  'Show me a table of squares and cubes',
  'Make a pandas dataframe table of squares',
  'Plot a sine wave',
  'Plot a sine wave with matplotlib',
  'Query with SQL',
  'Draw a diagram of how Runpad works',
  'Fit a linear model in R',
  'Show me how you fix an error in your code',
  'tell me a joke',
  'Now make a chart of it',
];
const DATASET_REQUESTS = [
  'Give me total revenue by month using SQL',
  'Total revenue by month in Python',
  'How many orders per week?',
  'average revenue by category',
  'median quantity by quarter',
  'top 5 categories by revenue',
  'top 3 orders by revenue',
  'chart revenue by year',
  'Query my data with SQL',
  'total profit by month',
  'revenue by region',
  'average shipping time by category',
  'Which customers will churn?',
  'Now make a chart of it',
];

describe('the demo never shows a placeholder or an internal word', () => {
  it('does not end an R answer with the image placeholder (the reported "So: [image 1: shown to the user, attached].")', async () => {
    const run: RunResult = {
      status: 'ok',
      durationMs: 900,
      outputs: [
        { output_type: 'stream', name: 'stdout', text: 'Call:\nlm(formula = mpg ~ wt, data = mtcars)\n' },
        { output_type: 'display_data', data: { 'image/png': 'iVBORw0KGgo=', 'text/plain': '<plot>' }, metadata: {} },
        { output_type: 'stream', name: 'stdout', text: 'slope = -5.344 mpg per 1000 lbs, R-squared = 0.753\n' },
      ],
    } as RunResult;
    for (const includeImages of [true, false]) {
      const view = await runToModel(run, { includeImages });
      expect(view.text).toContain('[image 1'); // what the model is told …
      const answer = summarize(view.text);
      expect(answer).not.toContain('[image'); // … is not what the user reads
      expect(answer).toContain('So: **`slope = -5.344 mpg per 1000 lbs, R-squared = 0.753`**.');
      expect(answer).toContain('It drew a figure, shown above.');
    }
  });

  it('says an interactive chart was drawn, and a table what it holds, in words', async () => {
    const chart = summarize('status: ok (5 ms)\n[image 1: shown to the user, attached] (an interactive chart: Vega-Lite line chart titled "Total revenue by month")\nstdout:\ncharted 12 rows: total_revenue by month\n');
    expect(chart).toContain('It drew an interactive chart, shown above.');
    expect(chart).not.toMatch(INTERNAL);
    const table = summarize('status: ok (5 ms)\nresult:\ntable: 3 rows × 2 columns\ncolumns: month (VARCHAR), total_revenue (DOUBLE)\nmonth | total_revenue\n2024-01 | 55.5\n2024-02 | 36.0\n2024-03 | 119.99\n');
    expect(table).toContain('The result has 3 rows (`month`, `total_revenue`)');
    expect(table).toContain('Highest `total_revenue`: **`2024-03`** with 119.99; lowest: **`2024-02`** with 36.');
  });

  it.each([false, true])('in any program or answer it writes (packages unreachable: %s)', (packagesUnreachable) => {
    const texts: string[] = [helpText({ packagesUnreachable }), helpText({ dataset: ORDERS, packagesUnreachable }), NOTHING_TO_CHART];
    const cases: Array<[string, boolean]> = [...REQUESTS.map((r): [string, boolean] => [r, false]), ...DATASET_REQUESTS.map((r): [string, boolean] => [r, true])];
    for (const [request, withDataset] of cases) {
      const turn = { request: withDataset ? `${request}\n${ATTACHED}` : request, toolResults: [], lastCode: null, datasets: withDataset ? [ORDERS] : [], earlierRequests: withDataset ? [`Total revenue by month\n${ATTACHED}`] : [], packagesUnreachable };
      const planned = plan(turn);
      texts.push(planned.text, planned.code ?? '');
      const intent: DemoIntent = recogniseIntent(turn.request, { dataset: withDataset ? ORDERS : null, packagesUnreachable });
      texts.push(programFor(intent) ?? '');
      const understood = understand(request, ORDERS);
      if (understood.kind === 'analysis') texts.push(sqlFor(understood.analysis), pythonFor(understood.analysis), chartProgramFor(sqlFor(understood.analysis), 'T'));
      if (understood.kind === 'decline') texts.push(understood.text);
    }
    for (const text of texts) expect(text).not.toMatch(INTERNAL);
    // Each says what it is: no offer of matplotlib when it cannot load.
    if (packagesUnreachable) for (const text of texts.filter((t) => !t.startsWith('import'))) expect(text).not.toMatch(/needs matplotlib|with matplotlib\*/);
  });
});

async function answer(messages: ModelMessage[], instructions?: string) {
  const result = streamText({ model: createDemoModel(), messages, tools, instructions });
  let text = '';
  let call: { toolName: string; code: string } | null = null;
  for await (const part of result.stream) {
    if (part.type === 'text-delta') text += part.text;
    if (part.type === 'tool-call') call = { toolName: part.toolName, code: (part.input as { code: string }).code };
  }
  return { text, call };
}

describe('the demo reads the conversation', () => {
  const first = `Give me total revenue by month using SQL\n${ATTACHED}`;

  it('answers revenue by month with SQL over the real columns, never the id', async () => {
    const { text, call } = await answer([{ role: 'user', content: first }]);
    expect(call?.toolName).toBe('sql');
    expect(call?.code).toContain(`strftime(TRY_CAST("order_date" AS TIMESTAMP), '%Y-%m') AS "month"`);
    expect(call?.code).toContain('ROUND(SUM("revenue"), 2) AS "total_revenue"');
    expect(call?.code).not.toContain('order_id');
    expect(text).toContain('the total of `revenue` by month of `order_date`');
  });

  it('"Now make a chart of it" charts the last query as a Vega-Lite chart, in Python with no package', async () => {
    const sql = sqlFor((understand(first, ORDERS) as { kind: 'analysis'; analysis: Parameters<typeof sqlFor>[0] }).analysis);
    const { text, call } = await answer(
      [
        { role: 'user', content: first },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'sql', input: { code: sql } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'sql', output: { type: 'content', value: [{ type: 'text', text: 'status: ok (40 ms)\nresult:\ntable: 3 rows × 2 columns' }] } }] },
        { role: 'assistant', content: 'The result has 3 rows.' },
        { role: 'user', content: 'Now make a chart of it' },
      ],
      'Only the standard library is available: the package source does not answer.',
    );
    expect(call?.toolName).toBe('python');
    expect(call?.code).toContain(JSON.stringify(sql));
    expect(call?.code).toContain('"title": "Total revenue by month"');
    expect(call?.code).toContain('application/vnd.vegalite.v5+json');
    expect(call?.code).not.toContain('matplotlib');
    expect(text).toContain('interactive Vega-Lite chart');
  });

  it('keeps the dataset of an earlier message for the next question', async () => {
    const { call } = await answer([
      { role: 'user', content: first },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'average revenue by category' },
    ]);
    expect(call?.toolName).toBe('sql');
    expect(call?.code).toContain('ROUND(AVG("revenue"), 2) AS "average_revenue"');
    expect(call?.code).toContain('GROUP BY "category"');
  });

  it('declines what it cannot do in words, with no code', async () => {
    const { text, call } = await answer([{ role: 'user', content: `total profit by month\n${ATTACHED}` }]);
    expect(call).toBeNull();
    expect(text).toContain('has no profit column');
    expect(text).toContain('`OPENAI_API_KEY` or `RUNPAD_MODELS`');
  });

  it('with no package source, draws a sine wave with Vega-Lite even when asked for matplotlib, and says why', async () => {
    const { text, call } = await answer([{ role: 'user', content: 'Plot a sine wave with matplotlib' }], 'Only the standard library is available: the package source does not answer.');
    expect(call?.code).toContain('application/vnd.vegalite.v5+json');
    expect(text).toContain("matplotlib can't be downloaded in this browser right now");
  });
});
