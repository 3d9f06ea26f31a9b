/**
 * Real-looking answers with the runs they saw, and the figures a careful reader would trace: the
 * unit corpus of lib/trace (corpus.test.ts) and the data of `bench/trace.mjs` (precision, recall).
 *
 * `expect` lists, in reading order, every figure of the LAST answer that should be taken as a
 * figure, each with where it comes from: `'c1'` (the run with tool call id c1), `'c1:2'` (its
 * output 2), or null (no output shows it: the model wrote it). Numbers missing from `expect` are
 * false friends (years, list labels, code, links…) that must not be taken as figures.
 * `knownMiss` marks a case the tracer gets wrong today, with why; the bench counts and lists it,
 * and the test holds it to its known wrong result, so that a fix (or a new way of being wrong) is
 * seen.
 */
import type { TraceMessage } from '@/lib/trace/sources';

export type CorpusCase = { name: string; messages: TraceMessage[]; expect: Array<[raw: string, source: string | null]>; knownMiss?: string };

type Part = Record<string, unknown>;
let ids = 0;

export const stdout = (text: string) => ({ output_type: 'stream', name: 'stdout', text });
export const stderr = (text: string) => ({ output_type: 'stream', name: 'stderr', text });
export const plain = (text: string) => ({ output_type: 'execute_result', data: { 'text/plain': text } });
export const markdownOut = (text: string) => ({ output_type: 'display_data', data: { 'text/markdown': text } });
export const errorOut = (ename: string, evalue: string) => ({ output_type: 'error', ename, evalue, traceback: [`  File "<exec>", line 14, in <module>`, `${ename}: ${evalue}`] });
export const png = (repr = '<Figure size 640x480 with 1 Axes>') => ({ output_type: 'display_data', data: { 'image/png': 'iVBORw0KGgo=', 'text/plain': repr } });
export const svgDiagram = (label: string) => ({ output_type: 'display_data', data: { 'image/svg+xml': `<svg><text>${label}</text></svg>`, 'text/plain': '<Graphviz diagram, 320×180>' } });

/** A table output: `columns` (name:type, type defaults to number for numbers), then rows. */
export function table(columns: string[], rows: unknown[][], options: { index?: boolean } = {}) {
  const fields = columns.map((spec) => {
    const [name, type] = spec.split(':');
    return { name, type: type ?? (typeof rows[0]?.[columns.indexOf(spec)] === 'number' ? 'number' : 'string') };
  });
  const data = rows.map((row, i) => Object.fromEntries([...(options.index ? [['index', i]] : []), ...fields.map((f, j) => [f.name, row[j]])]));
  return {
    output_type: 'execute_result',
    data: {
      'application/vnd.dataresource+json': {
        schema: { fields: [...(options.index ? [{ name: 'index', type: 'integer' }] : []), ...fields], ...(options.index ? { primaryKey: ['index'] } : {}) },
        data,
        shape: [rows.length, fields.length],
      },
      'text/plain': '<table>',
    },
  };
}

/** A Vega-Lite chart with inline data. */
export function chart(values: Array<Record<string, unknown>>, mark = 'bar') {
  return { output_type: 'display_data', data: { 'application/vnd.vegalite.v5+json': { $schema: 'https://vega.github.io/schema/vega-lite/v5.json', mark, data: { values }, encoding: {} } } };
}

export function run(toolCallId: string, outputs: unknown[], tool = 'python', code = 'print(1)'): Part {
  return { type: `tool-${tool}`, toolCallId, state: 'output-available', input: { code }, output: { status: 'ok', outputs, durationMs: 12 } };
}

export const text = (value: string): Part => ({ type: 'text', text: value, state: 'done' });
export const user = (value: string): TraceMessage => ({ id: `u${(ids += 1)}`, role: 'user', parts: [text(value)] });
export const answer = (...parts: Part[]): TraceMessage => ({ id: `a${(ids += 1)}`, role: 'assistant', parts });

const SALES_TABLE = table(
  ['region', 'revenue', 'orders', 'growth'],
  [
    ['North', 3214567.89, 1234, 0.124],
    ['South', 2845001.5, 998, -0.034],
    ['East', 1502330.0, 610, 0.071],
    ['West', 987654.32, 402, 0.25],
  ],
  { index: true },
);

const MONTHLY_TABLE = table(
  ['month:string', 'orders:integer', 'revenue:number'],
  Array.from({ length: 24 }, (_, i) => [`${2023 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`, 800 + ((i * 37) % 136), 40_000 + i * 512.5]),
);

/** A table capped to its first rows and columns, whose output carries the full shape. */
const CAPPED_TABLE = (() => {
  const output = table(['event:string', 'duration_s'], [['open', 17.5], ['click', 0.4], ['close', 3.25]]);
  output.data['application/vnd.dataresource+json'].shape = [48_210, 12];
  return output;
})();

export const CORPUS: CorpusCase[] = [
  {
    name: 'revenue summary, rounded and scaled',
    messages: [
      user('Summarise sales.csv by region'),
      answer(run('c1', [SALES_TABLE]), text('**North** leads with $3.2M in revenue (1,234 orders), growing 12.4%. South shrank 3.4%, and West grew 25%.')),
    ],
    expect: [['$3.2M', 'c1'], ['1,234', 'c1'], ['12.4%', 'c1'], ['3.4%', 'c1'], ['25%', 'c1']],
  },
  {
    name: 'a made-up growth rate among real figures',
    messages: [
      user('How did revenue change?'),
      answer(run('c1', [stdout('revenue 2022: 2845001.50\nrevenue 2023: 3214567.89\n')]), text('Revenue rose from $2.85M in 2022 to $3.21M in 2023, an increase of about 13%.')),
    ],
    expect: [['$2.85M', 'c1'], ['$3.21M', 'c1'], ['13%', null]],
  },
  {
    name: 'printed mean and std',
    messages: [
      user('Describe the price column'),
      answer(run('c1', [stdout('count    500.000000\nmean      42.318200\nstd        7.912345\nmin       18.500000\nmax       71.250000\n')]), text('The 500 prices average 42.32 (standard deviation 7.91), ranging from 18.5 to 71.25.')),
    ],
    expect: [['500', 'c1'], ['42.32', 'c1'], ['7.91', 'c1'], ['18.5', 'c1'], ['71.25', 'c1']],
  },
  {
    name: 'years and a fiscal quarter are no figures',
    messages: [
      user('Compare 2022 and 2023'),
      answer(run('c1', [stdout('2022 total: 18,402\n2023 total: 21,977\n')]), text('In 2023 the total reached 21,977, up from 18,402 in 2022. Q3 2023 was the strongest quarter, and FY2024 starts in April.')),
    ],
    expect: [['21,977', 'c1'], ['18,402', 'c1']],
  },
  {
    name: 'dates in several formats',
    messages: [
      user('When did the peak happen?'),
      answer(run('c1', [stdout('peak: 2024-03-15 with 1,873 visits\n')]), text('The peak was on 2024-03-15 (March 15, 2024, or 15/03/2024) at 14:30 with 1,873 visits; the dip was on 3 March.')),
    ],
    expect: [['1,873', 'c1']],
  },
  {
    name: 'numbers in code spans and code blocks',
    messages: [
      user('How many rows?'),
      answer(run('c1', [stdout('(10000, 12)\n')]), text('`df.shape` is `(10000, 12)`: the file has 10,000 rows and 12 columns. I used:\n\n```python\ndf.head(20)\nprint(len(df) * 3)\n```\n')),
    ],
    expect: [['10,000', 'c1'], ['12', 'c1']],
  },
  {
    name: 'numbers inside links',
    messages: [
      user('Where is this from?'),
      answer(run('c1', [stdout('rows: 365\n')]), text('The data has 365 rows; see [issue 42](https://example.com/issues/42) and [the 2019 report](https://example.com/r/2019.pdf).')),
    ],
    expect: [['365', 'c1']],
  },
  {
    name: 'ordered list labels',
    messages: [
      user('Top products?'),
      answer(
        run('c1', [table(['product', 'units'], [['Widget', 4210], ['Gadget', 3875], ['Doohickey', 1990]], { index: true })]),
        text('Top 3 products by units:\n\n1. Widget — 4,210 units\n2. Gadget — 3,875 units\n3. Doohickey — 1,990 units\n'),
      ),
    ],
    expect: [['4,210', 'c1'], ['3,875', 'c1'], ['1,990', 'c1']],
  },
  {
    name: 'headings with section numbers',
    messages: [
      user('Analyse churn'),
      answer(run('c1', [stdout('churn rate: 0.0831\nchurned: 415 of 4994\n')]), text('## 1. Churn\n\nThe churn rate is 8.31% (415 of 4,994 customers).\n\n## 2. Next steps\n\nSee step 2 above.')),
    ],
    expect: [['8.31%', 'c1'], ['415', 'c1'], ['4,994', 'c1']],
  },
  {
    name: 'SQL result table',
    messages: [
      user('Orders per month in SQL'),
      answer(
        run('s1', [table(['month:string', 'orders:integer', 'revenue:number'], [['2024-01', 812, 40210.5], ['2024-02', 774, 38110.25], ['2024-03', 901, 45990.0]])], 'sql', 'SELECT ...'),
        text('March had the most orders (901) and revenue ($45,990), while February dipped to 774 orders.'),
      ),
    ],
    expect: [['901', 's1'], ['$45,990', 's1'], ['774', 's1']],
  },
  {
    name: 'chart data',
    messages: [
      user('Plot signups per week'),
      answer(run('c1', [chart([{ week: 'W1', signups: 120 }, { week: 'W2', signups: 185 }, { week: 'W3', signups: 243 }])]), text('Signups doubled over three weeks, from 120 to 243.')),
    ],
    expect: [['120', 'c1'], ['243', 'c1']],
  },
  {
    name: 'percentage from a fraction',
    messages: [
      user('What share of orders are returns?'),
      answer(run('c1', [plain('0.06734')]), text('About 6.7% of orders are returned.')),
    ],
    expect: [['6.7%', 'c1']],
  },
  {
    name: 'fraction from a percentage',
    messages: [
      user('Conversion?'),
      answer(run('c1', [stdout('conversion: 3.45%\n')]), text('The conversion rate is 0.0345, i.e. 3.45%.')),
    ],
    expect: [['0.0345', 'c1'], ['3.45%', 'c1']],
  },
  {
    name: 'thousands suffix',
    messages: [
      user('How many sessions?'),
      answer(run('c1', [stdout('sessions=48213\nbounce=0.41\n')]), text('Roughly 48k sessions, with a bounce rate of 41%.')),
    ],
    expect: [['48k', 'c1'], ['41%', 'c1']],
  },
  {
    name: 'billions spelled out',
    messages: [
      user('Market size'),
      answer(run('c1', [stdout('total_market_usd = 4512000000\n')]), text('The market is worth about $4.5 billion, or 4.51bn.')),
    ],
    expect: [['$4.5 billion', 'c1'], ['4.51bn', 'c1']],
  },
  {
    name: 'a column in millions',
    messages: [
      user('Revenue by year'),
      answer(run('c1', [table(['year:integer', 'revenue_musd'], [[2021, 2.91], [2022, 3.05], [2023, 3.22]])]), text('Revenue reached $3.22M in 2023, after $3.05M in 2022.')),
    ],
    expect: [['$3.22M', 'c1'], ['$3.05M', 'c1']],
  },
  {
    name: 'negative numbers and signs',
    messages: [
      user('Temperature anomaly'),
      answer(run('c1', [stdout('min anomaly: -2.37\nmax anomaly: +1.84\n')]), text('Anomalies range from −2.37 °C to +1.84 °C.')),
    ],
    expect: [['−2.37', 'c1'], ['+1.84', 'c1']],
  },
  {
    name: 'p-value printed and a significance threshold',
    messages: [
      user('Is the difference significant?'),
      answer(run('c1', [stdout('t = 3.214, p = 0.0016\n')]), text('Yes: t = 3.21 and p = 0.0016, well below p < 0.05. At the 95% confidence level the difference holds.')),
    ],
    expect: [['3.21', 'c1'], ['0.0016', 'c1']],
  },
  {
    name: 'versions and ordinals',
    messages: [
      user('Which version?'),
      answer(run('c1', [stdout('3.12.1 (main)\nrows: 77\n')]), text('This ran on Python 3.12 (Pyodide 0.27.2); it is the 3rd run. The table has 77 rows.')),
    ],
    expect: [['77', 'c1']],
  },
  {
    name: 'identifiers glued to letters',
    messages: [
      user('Group sizes'),
      answer(run('c1', [stdout('A1: 25\nB2: 31\n')]), text('Group A1 has 25 members and B2 has 31; COVID-19 cases were excluded and the 3D view skipped.')),
    ],
    expect: [['25', 'c1'], ['31', 'c1']],
  },
  {
    name: 'a number only an earlier turn shows',
    messages: [
      user('Load the file'),
      answer(run('c1', [stdout('loaded 12,480 rows\n')]), text('Loaded 12,480 rows.')),
      user('And the average?'),
      answer(run('c2', [stdout('mean: 73.2\n')]), text('Of the 12,480 rows, the average score is 73.2.')),
    ],
    expect: [['12,480', 'c1'], ['73.2', 'c2']],
  },
  {
    name: 'this turn wins over an earlier one',
    messages: [
      user('Count'),
      answer(run('c1', [stdout('count: 128\n')]), text('128 rows.')),
      user('After cleaning?'),
      answer(run('c2', [stdout('count: 128 -> 120 after dropping 8 duplicates\n')]), text('After dropping 8 duplicates, 120 rows remain (of 128).')),
    ],
    expect: [['8', 'c2'], ['120', 'c2'], ['128', 'c2']],
  },
  {
    name: 'a later run wins within a turn',
    messages: [
      user('Total'),
      answer(run('c1', [errorOut('KeyError', "'amount'")]), run('c2', [stdout('total amount: 55,210.40\n')]), text('The total amount is $55,210.40.')),
    ],
    expect: [['$55,210.40', 'c2']],
  },
  {
    name: 'traceback line numbers are not sources',
    messages: [
      user('Why did it fail?'),
      answer(run('c1', [errorOut('ValueError', 'could not convert string to float')]), text('It failed at line 14 because a value could not be converted; 14 rows may be affected.')),
    ],
    expect: [['14', null]],
  },
  {
    name: 'stderr warnings are not sources',
    messages: [
      user('Fit the model'),
      answer(run('c1', [stderr('UserWarning: 37 iterations did not converge\n'), stdout('R^2 = 0.873\n')]), text('The model explains 87.3% of the variance (R² = 0.873) after 37 iterations.')),
    ],
    expect: [['87.3%', 'c1'], ['0.873', 'c1'], ['37', null]],
  },
  {
    name: 'diagram labels are excluded',
    messages: [
      user('Draw the pipeline'),
      answer(run('g1', [svgDiagram('42 steps')], 'graphviz', 'digraph { a -> b }'), run('c1', [stdout('nodes: 6\n')]), text('The pipeline has 6 nodes and 42 steps.')),
    ],
    expect: [['6', 'c1'], ['42', null]],
  },
  {
    name: 'a figure repr is not a source',
    messages: [
      user('Plot it'),
      answer(run('c1', [png('<Figure size 640x480 with 1 Axes>')]), text('The chart is 640 pixels wide and shows 12 months.')),
    ],
    expect: [['640', null], ['12', null]],
  },
  {
    name: 'made-up precision is not traced',
    messages: [
      user('Average order value'),
      answer(run('c1', [stdout('aov: 48.3\n')]), text('The average order value is $48.27.')),
    ],
    expect: [['$48.27', null]],
  },
  {
    name: 'rounding to whole numbers',
    messages: [
      user('Median age'),
      answer(run('c1', [stdout('median age: 37.6\nmean age: 38.21\n')]), text('The median customer is about 38 years old; the mean is 38.2.')),
    ],
    expect: [['38', 'c1'], ['38.2', 'c1']],
  },
  {
    name: 'a markdown table in the answer',
    messages: [
      user('Compare the plans'),
      answer(
        run('c1', [table(['plan', 'users', 'arpu'], [['Free', 10234, 0], ['Pro', 1876, 12.5], ['Team', 312, 48.75]])]),
        text('| plan | users | ARPU |\n| --- | ---: | ---: |\n| Free | 10,234 | $0 |\n| Pro | 1,876 | $12.50 |\n| Team | 312 | $48.75 |\n'),
      ),
    ],
    expect: [['10,234', 'c1'], ['$0', 'c1'], ['1,876', 'c1'], ['$12.50', 'c1'], ['312', 'c1'], ['$48.75', 'c1']],
  },
  {
    name: 'euros and pounds',
    messages: [
      user('Prices in EU and UK'),
      answer(run('c1', [stdout('EU avg: 19.99 EUR\nUK avg: 17.49 GBP\n')]), text('The average basket is €19.99 in the EU and £17.49 in the UK.')),
    ],
    expect: [['€19.99', 'c1'], ['£17.49', 'c1']],
  },
  {
    name: 'times and durations',
    messages: [
      user('How long did queries take?'),
      answer(run('c1', [stdout('p50 latency: 120 ms\np95 latency: 840 ms\n')]), text('Median latency was 120 ms and the 95th percentile 840 ms, measured between 09:00 and 17:30.')),
    ],
    expect: [['120 ms', 'c1'], ['840 ms', 'c1']],
  },
  {
    name: 'a range of numbers',
    messages: [
      user('Age range'),
      answer(run('c1', [stdout('min 18 max 64\n')]), text('Customers are 18-64 years old.')),
    ],
    expect: [['18', 'c1'], ['64', 'c1']],
  },
  {
    name: 'year range and decade',
    messages: [
      user('Trend'),
      answer(run('c1', [stdout('slope per year: 0.42\n')]), text('From 2010–2020 the index rose 0.42 points a year, faster than in the 1990s.')),
    ],
    expect: [['0.42', 'c1']],
  },
  {
    name: 'a count of rows that is a year-sized number',
    messages: [
      user('How many customers?'),
      answer(run('c1', [stdout('customers: 2023\n')]), text('There are 2023 customers in the file.')),
    ],
    expect: [['2023', 'c1']],
  },
  {
    name: 'percent change computed in the head',
    messages: [
      user('Growth in Q4?'),
      answer(run('c1', [table(['quarter:string', 'revenue'], [['Q3', 812000], ['Q4', 903500]])]), text('Q4 revenue was $903,500, up 11.3% from $812,000 in Q3.')),
    ],
    expect: [['$903,500', 'c1'], ['11.3%', null], ['$812,000', 'c1']],
  },
  {
    name: 'totals summed in the head',
    messages: [
      user('Total units?'),
      answer(run('c1', [table(['store:string', 'units'], [['A', 120], ['B', 340], ['C', 95]])]), text('Stores A, B and C sold 120, 340 and 95 units, 555 in total.')),
    ],
    expect: [['120', 'c1'], ['340', 'c1'], ['95', 'c1'], ['555', null]],
  },
  {
    name: 'correlation coefficient',
    messages: [
      user('Correlation of price and demand'),
      answer(run('c1', [plain('-0.7342')]), text('Price and demand are strongly negatively correlated (r = -0.73).')),
    ],
    expect: [['-0.73', 'c1']],
  },
  {
    name: 'a text/markdown result',
    messages: [
      user('Summary'),
      answer(run('c1', [markdownOut('**Rows:** 8,760  \n**Missing:** 2.5%')]), text('8,760 hourly readings, 2.5% missing.')),
    ],
    expect: [['8,760', 'c1'], ['2.5%', 'c1']],
  },
  {
    name: 'bracketed references',
    messages: [
      user('Sources?'),
      answer(run('c1', [stdout('n = 2,048\n')]), text('The sample has 2,048 respondents [1], weighted as in [2].')),
    ],
    expect: [['2,048', 'c1']],
  },
  {
    name: 'top N is a parameter',
    messages: [
      user('Top 5 cities'),
      answer(run('c1', [table(['city:string', 'orders'], [['Paris', 1520], ['Lyon', 840], ['Nice', 610], ['Lille', 540], ['Nantes', 505]])]), text('The top 5 cities account for 4,015 orders; Paris alone has 1,520.')),
    ],
    expect: [['4,015', null], ['1,520', 'c1']],
  },
  {
    name: 'scientific notation output',
    messages: [
      user('Smallest p-value'),
      answer(run('c1', [stdout('min p: 3.2e-05\n')]), text('The smallest p-value is 0.000032.')),
    ],
    expect: [['0.000032', 'c1']],
  },
  {
    name: 'large integer rounded to millions',
    messages: [
      user('Population'),
      answer(run('c1', [table(['country:string', 'population:integer'], [['France', 68042591], ['Spain', 48347910]])]), text('France has about 68 million people and Spain 48.3 million.')),
    ],
    expect: [['68 million', 'c1'], ['48.3 million', 'c1']],
  },
  {
    name: 'string cells with units',
    messages: [
      user('Memory'),
      answer(run('c1', [table(['model:string', 'memory:string'], [['small', '1.2 GB'], ['large', '7.8 GB']])]), text('The large model needs 7.8 GB, the small one 1.2 GB.')),
    ],
    expect: [['7.8 GB', 'c1'], ['1.2 GB', 'c1']],
  },
  {
    name: 'times-faster ratio',
    messages: [
      user('Speedup?'),
      answer(run('c1', [stdout('speedup: 3.41x\n')]), text('The vectorised version is 3.4x faster.')),
    ],
    expect: [['3.4x', 'c1']],
  },
  {
    name: 'no runs at all',
    messages: [user('What is a p-value?'), answer(text('A p-value below 0.05 is often called significant; about 5% of null results pass it.'))],
    expect: [],
  },
  {
    name: 'percentage points',
    messages: [
      user('Change in share'),
      answer(run('c1', [stdout('share 2023: 31.5%\nshare 2024: 34.2%\ndiff: 2.7\n')]), text('Share rose from 31.5% to 34.2%, a gain of 2.7 percentage points.')),
    ],
    expect: [['31.5%', 'c1'], ['34.2%', 'c1'], ['2.7 percentage points', 'c1']],
  },
  {
    name: 'a figure in a heading and bold',
    messages: [
      user('Headline'),
      answer(run('c1', [stdout('total: 1043\n')]), text('### 1,043 incidents in total\n\nOf these, **1,043** were logged by the system.')),
    ],
    expect: [['1,043', 'c1'], ['1,043', 'c1']],
  },
  {
    name: 'weekday and month names with days',
    messages: [
      user('Busiest day'),
      answer(run('c1', [stdout('Monday: 412\n')]), text('Mondays are busiest with 412 orders; the Jan 5 spike and the 24 December lull are outliers.')),
    ],
    expect: [['412', 'c1']],
  },
  {
    name: 'zero and small counts',
    messages: [
      user('Missing values?'),
      answer(run('c1', [stdout('missing per column: {"a": 0, "b": 3}\n')]), text('Column a has 0 missing values and column b has 3.')),
    ],
    expect: [['0', 'c1'], ['3', 'c1']],
  },
  {
    name: 'a model coefficient table',
    messages: [
      user('Regression'),
      answer(
        run('c1', [table(['term:string', 'coef', 'p'], [['intercept', 12.8812, 0.0001], ['price', -0.4521, 0.0032], ['ads', 1.9034, 0.21]])]),
        text('Each extra unit of price lowers sales by 0.45 (p = 0.0032); ads add 1.9 per unit but are not significant (p = 0.21).'),
      ),
    ],
    expect: [['0.45', 'c1'], ['0.0032', 'c1'], ['1.9', 'c1'], ['0.21', 'c1']],
  },
  {
    name: 'an answer that restates the question',
    messages: [
      user('Split 1,000 users into 4 groups of 250'),
      answer(run('c1', [stdout('groups: [250, 250, 250, 250]\n')]), text('I split the 1,000 users into 4 groups of 250 each.')),
    ],
    expect: [['1,000', null], ['4', null], ['250', 'c1']],
  },
  {
    name: 'value printed with thousands separators, prose without',
    messages: [
      user('Total?'),
      answer(run('c1', [stdout('Total: 1,234,567\n')]), text('The total is 1234567.')),
    ],
    expect: [['1234567', 'c1']],
  },
  {
    name: 'prose with separators, printed without',
    messages: [
      user('Total?'),
      answer(run('c1', [stdout('total=98765.4321\n')]), text('The total is 98,765.43.')),
    ],
    expect: [['98,765.43', 'c1']],
  },
  {
    name: 'K and M in printed text',
    messages: [
      user('Followers'),
      answer(run('c1', [stdout('followers: 12.5K\nviews: 3.1M\n')]), text('12,500 followers and 3.1M views.')),
    ],
    expect: [['12,500', 'c1'], ['3.1M', 'c1']],
  },
  {
    name: 'sample size and confidence interval',
    messages: [
      user('Estimate'),
      answer(run('c1', [stdout('mean 5.62, 95% CI [5.31, 5.93], n=300\n')]), text('The mean is 5.62 (95% CI 5.31–5.93, n = 300).')),
    ],
    expect: [['5.62', 'c1'], ['5.31', 'c1'], ['5.93', 'c1'], ['300', 'c1']],
  },
  {
    name: 'an R run',
    messages: [
      user('Fit in R'),
      answer(run('r1', [stdout('[1] 0.9312\n')], 'r', 'summary(fit)$r.squared'), text('The R² is 0.93.')),
    ],
    expect: [['0.93', 'r1']],
  },
  {
    name: 'a number that rounds across .5',
    messages: [
      user('Rate'),
      answer(run('c1', [stdout('rate: 0.1245\n')]), text('The rate is 12.5%.')),
    ],
    expect: [['12.5%', 'c1']],
  },
  {
    name: 'two tables, the right cell',
    messages: [
      user('Compare'),
      answer(
        run('c1', [table(['k:string', 'v'], [['a', 11.2], ['b', 19.7]]), table(['k:string', 'w'], [['a', 7.1], ['b', 3.3]])]),
        text('b scores 19.7 on v and 3.3 on w.'),
      ),
    ],
    expect: [['19.7', 'c1:0'], ['3.3', 'c1:1']],
  },
  {
    name: 'per-capita figure computed in the head',
    messages: [
      user('Per capita'),
      answer(run('c1', [stdout('gdp=2.78e12 pop=67.8e6\n')]), text('With a GDP of $2.78 trillion and 67.8 million people, that is about $41,000 per person.')),
    ],
    expect: [['$2.78 trillion', 'c1'], ['67.8 million', 'c1'], ['$41,000', null]],
  },
  {
    name: 'time of day and clock durations',
    messages: [
      user('When do errors happen?'),
      answer(run('c1', [stdout('errors at 3am: 57\n')]), text('Errors cluster at 3am (57 of them), and the job restarts at 3:15.')),
    ],
    expect: [['57', 'c1']],
  },
  {
    name: 'inline code with numbers next to prose numbers',
    messages: [
      user('Filter'),
      answer(run('c1', [stdout('kept 731 rows\n')]), text('Filtering with `df[df.amount > 100]` kept 731 rows.')),
    ],
    expect: [['731', 'c1']],
  },
  {
    name: 'random seed and bins are parameters',
    messages: [
      user('Histogram'),
      answer(run('c1', [png(), stdout('mode bin: 40-45, count 88\n')]), text('With seed 42 and bins=20, the most common bin holds 88 values.')),
    ],
    expect: [['88', 'c1']],
  },
  {
    name: 'a forecast number the model invented',
    messages: [
      user('Forecast next month'),
      answer(run('c1', [stdout('last month: 1510\ntrend: +2.1% per month\n')]), text('Last month had 1,510 sales and the trend is +2.1% a month, so expect roughly 1,542 next month.')),
    ],
    expect: [['1,510', 'c1'], ['+2.1%', 'c1'], ['1,542', null]],
  },
  {
    name: 'chart with several fields',
    messages: [
      user('Plot revenue and cost'),
      answer(run('c1', [chart([{ m: 'Jan', revenue: 120.5, cost: 80.2 }, { m: 'Feb', revenue: 130.1, cost: 95.7 }], 'line')]), text('February revenue was 130.1 against costs of 95.7.')),
    ],
    expect: [['130.1', 'c1'], ['95.7', 'c1']],
  },
  {
    name: 'long printed report',
    messages: [
      user('Report'),
      answer(
        run('c1', [stdout(Array.from({ length: 60 }, (_, i) => `row ${i}: value ${(i * 17.3).toFixed(1)}`).join('\n') + '\nTOTAL: 30609.9\n')]),
        text('The 60 values sum to 30,609.9; the last one is 1,020.7.'),
      ),
    ],
    expect: [['60', null], ['30,609.9', 'c1'], ['1,020.7', 'c1']],
  },
  {
    name: 'default index numbers are not sources',
    messages: [
      user('How many products?'),
      answer(run('c1', [table(['name:string', 'price'], [['a', 1.5], ['b', 2.5], ['c', 9.99]], { index: true })]), text('The cheapest item is $1.50 and only 1 product costs over $5.')),
    ],
    expect: [['$1.50', 'c1'], ['1', null], ['$5', null]],
  },
  {
    name: "a count of rows is the table's size the page shows",
    messages: [
      user('Monthly revenue for the last two years'),
      answer(run('c1', [MONTHLY_TABLE], 'sql', 'SELECT month, orders, revenue FROM sales'), text('The query returned 24 months of data (24 rows × 3 columns); the best month had 935 orders.')),
    ],
    expect: [['24', 'c1'], ['24', 'c1'], ['3', 'c1'], ['935', 'c1']],
  },
  {
    name: 'a capped table still shows its full size',
    messages: [
      user('Load events.parquet'),
      answer(run('c1', [CAPPED_TABLE]), text('The file holds 48,210 events with 12 fields each; the first one is 17.5 seconds long.')),
    ],
    expect: [['48,210', 'c1'], ['12', 'c1'], ['17.5', 'c1']],
  },
  {
    name: 'a count no table shows is not traced to its size',
    messages: [
      user('How many months?'),
      answer(run('c1', [MONTHLY_TABLE]), text('That is 30 months of orders in 4 columns.')),
    ],
    expect: [['30', null], ['4', null]],
  },
  {
    name: 'a month in a cell is no count',
    messages: [
      user('Orders per month'),
      answer(run('c1', [table(['month:string', 'orders'], [['2024-01', 120], ['2024-02', 131], ['2024-07', 98]])]), text('Orders peaked at 131; 7 months had no data.')),
    ],
    expect: [['131', 'c1'], ['7', null]],
  },
  {
    name: 'model remembers a number from an earlier answer only',
    messages: [
      user('Load'),
      answer(run('c1', [stdout('shape: (5000, 8)\n')]), text('5,000 rows and 8 columns.')),
      user('Thanks, summarise'),
      answer(text('As before: 5,000 rows and 8 columns, and about 4,900 after cleaning.')),
    ],
    expect: [['5,000', 'c1'], ['8', 'c1'], ['4,900', null]],
  },
  {
    name: 'ratios written as percentages from counts',
    messages: [
      user('Share of mobile'),
      answer(run('c1', [stdout('mobile: 6,210 / 9,870 = 0.62918\n')]), text('Mobile makes up 62.9% of visits (6,210 of 9,870).')),
    ],
    expect: [['62.9%', 'c1'], ['6,210', 'c1'], ['9,870', 'c1']],
  },
  {
    name: 'alpha threshold and power',
    messages: [
      user('Sample size'),
      answer(run('c1', [stdout('required n per group: 394\n')]), text('At α = 0.05 and 80% power you need 394 people per group.')),
    ],
    expect: [['80%', null], ['394', 'c1']],
  },
  {
    name: 'growth printed as a ratio',
    messages: [
      user('Growth?'),
      answer(run('c1', [stdout('ratio 2023/2022: 1.124\n')]), text('Revenue grew 12.4% year over year.')),
    ],
    expect: [['12.4%', 'c1']],
    knownMiss: 'a ratio (1.124) is not read as a change (+12.4%): that needs to know the number is a ratio',
  },
  {
    name: 'thin-space thousands separators',
    messages: [
      user('Population?'),
      answer(run('c1', [stdout('population: 3214567\n')]), text('The city has 3\u202f214\u202f567 inhabitants.')),
    ],
    expect: [['3\u202f214\u202f567', 'c1']],
    knownMiss: 'only commas are read as thousands separators (en-US), as the app formats numbers',
  },
];
