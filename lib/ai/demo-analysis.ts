/**
 * The offline demo model over a dropped dataset: reads the request against the dataset's real
 * columns and types (from the browser's preview of the file, lib/files/sniff.client.ts), and writes the
 * SQL (DuckDB) or Python that answers it, or says plainly what it cannot answer. It never answers
 * a different question: a measure or a column the request names that the file does not have is
 * named back, with the columns it does have.
 */
import { tableNameOf } from '@/lib/files/data-file';

export type DatasetColumn = { name: string; type: string };
export type Dataset = { file: string; table: string; format: 'csv' | 'tsv' | 'json' | 'jsonl'; delimiter: string; columns: DatasetColumn[] };

export type Period = 'day' | 'week' | 'month' | 'quarter' | 'year';
export type Aggregate = 'sum' | 'count' | 'avg' | 'median' | 'min' | 'max';
/** What is added up: one column, or the product of two (price × quantity). */
export type Measure = { label: string; columns: string[] };
export type Grouping = { kind: 'column'; column: string } | { kind: 'period'; column: string; period: Period } | { kind: 'none' };
export type Analysis = {
  dataset: Dataset;
  aggregate: Aggregate;
  measure: Measure | null;
  by: Grouping;
  top: number | null;
  language: 'sql' | 'python';
  chart: boolean;
  /** Choices the request left open, said in the answer. */
  notes: string[];
};
export type Understanding = { kind: 'analysis'; analysis: Analysis } | { kind: 'chart-last' } | { kind: 'decline'; text: string };

/** How an operator gives Runpad a real model: said whenever the demo cannot do what was asked. */
export const REAL_MODEL_HINT = 'For anything else a real model is needed: an operator sets `OPENAI_API_KEY` or `RUNPAD_MODELS` and restarts Runpad (docs/OPERATING.md, "Models").';

/** What the demo understands over a dataset, in the words of its answers. */
export const DATASET_REPERTOIRE =
  'totals, counts, averages and medians of a column, by another column or by day, week, month, quarter or year of a date column; the top N; and a chart of the last result';

const NUMERIC = new Set(['integer', 'number', 'float']);
const TEXTUAL = new Set(['string', 'text', 'boolean']);
const TYPE_WORDS = 'integer|number|float|boolean|date|string|text|empty';

/** The datasets described in a message: "/data/orders.csv (2 MB, CSV, 50,000 rows): columns a (integer), b (date)". */
export function datasetsIn(text: string): Dataset[] {
  const found: Dataset[] = [];
  for (const line of text.split('\n')) {
    const match = /^\/data\/(.+?\.(csv|tsv|jsonl?|ndjson))\b.*?:? columns:? (.+)$/i.exec(line.trim());
    if (!match) continue;
    const columns = [...match[3].matchAll(new RegExp(`(?:^|, )(.+?) \\((${TYPE_WORDS})\\)(?=, |$)`, 'g'))].map((m) => ({ name: m[1], type: m[2] }));
    if (columns.length === 0) continue;
    const extension = match[2].toLowerCase();
    const format = extension === 'tsv' ? 'tsv' : extension === 'json' ? 'json' : extension === 'csv' ? 'csv' : 'jsonl';
    const delimiter = format === 'tsv' ? '\t' : (/delimiter "(.)"/.exec(line)?.[1] ?? ',');
    found.push({ file: match[1], table: tableNameOf(match[1]), format, delimiter, columns });
  }
  return found;
}

/** A column name's words: "unitPrice" and "unit_price" are both ["unit", "price"]. */
export function tokensOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const singular = (word: string) => (word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('ses') ? word.slice(0, -2) : word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);

const ID_WORDS = new Set(['id', 'uuid', 'guid', 'key', 'code', 'zip', 'zipcode', 'postcode', 'phone', 'number', 'no', 'nr', 'sku']);

/** An identifier, never a measure: order_id, orderId, id, zip_code. */
export function isIdColumn(name: string): boolean {
  const tokens = tokensOf(name);
  return tokens.length > 0 && (ID_WORDS.has(tokens.at(-1)!) || tokens[0] === 'id');
}

/** Words a request uses for a measure, and the column names that hold it. */
const MEASURE_WORDS: Record<string, string[]> = {
  revenue: ['revenue', 'sales', 'amount', 'turnover', 'income', 'total', 'subtotal', 'value', 'gross'],
  sales: ['sales', 'revenue', 'amount', 'turnover', 'total', 'subtotal', 'value'],
  turnover: ['turnover', 'revenue', 'sales', 'amount'],
  income: ['income', 'revenue', 'amount'],
  amount: ['amount', 'total', 'revenue', 'sales', 'value'],
  profit: ['profit', 'margin', 'earnings'],
  margin: ['margin', 'profit'],
  cost: ['cost', 'costs', 'expense', 'expenses', 'spend'],
  costs: ['cost', 'costs', 'expense', 'expenses', 'spend'],
  spend: ['spend', 'cost', 'expense'],
  quantity: ['quantity', 'qty', 'units', 'unit', 'items', 'volume'],
  units: ['units', 'quantity', 'qty', 'items'],
  price: ['price'],
  discount: ['discount'],
  tax: ['tax', 'vat'],
  weight: ['weight'],
  duration: ['duration', 'time', 'minutes', 'seconds', 'hours', 'days'],
  score: ['score', 'rating'],
  rating: ['rating', 'score', 'stars'],
  value: ['value', 'amount', 'total', 'revenue', 'sales'],
};
const PRICE_WORDS = ['price', 'unit_price', 'unitprice'];
const QUANTITY_WORDS = ['quantity', 'qty', 'units', 'count', 'items'];

/** Words that name rows, not a measure: "how many orders", "number of rows". */
const ROW_WORDS = new Set(['row', 'rows', 'record', 'records', 'entry', 'entries', 'line', 'lines', 'item', 'items', 'order', 'orders', 'transaction', 'transactions', 'purchase', 'purchases', 'thing', 'things', 'it', 'them', 'all', 'everything', 'data']);
/** Words after "by" that are not a grouping: "by using SQL". */
const BY_FILLER = new Set(['using', 'with', 'sql', 'python', 'pandas', 'duckdb', 'running', 'writing', 'descending', 'ascending', 'itself', 'me', 'you', 'hand']);

const PERIODS: Array<[Period, RegExp]> = [
  ['day', /\b(daily|day|days|date|dates)\b/],
  ['week', /\b(weekly|week|weeks)\b/],
  ['month', /\b(monthly|month|months|over time|trend)\b/],
  ['quarter', /\b(quarterly|quarter|quarters)\b/],
  ['year', /\b(yearly|annual|annually|year|years)\b/],
];

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twenty: 20 };

/** The user's own words: the request without the attached files' descriptions. */
export function ownWords(request: string): string {
  return request.split('[Files attached to this message')[0].trim();
}

function columnMatching(columns: DatasetColumn[], phrase: string): DatasetColumn | null {
  const words = phrase.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  // Longest first: "unit price" before "price".
  for (let length = Math.min(words.length, 4); length >= 1; length -= 1) {
    const key = words.slice(0, length).map(singular).join('_');
    const exact = columns.find((c) => tokensOf(c.name).map(singular).join('_') === key);
    if (exact) return exact;
  }
  return null;
}

/** Columns whose whole name the request says ("unit price", "unit_price", "categories"). */
function mentionedColumns(columns: DatasetColumn[], text: string): DatasetColumn[] {
  const words = text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).map(singular);
  const joined = ` ${words.join(' ')} `;
  return columns
    .map((column) => {
      const spoken = ` ${tokensOf(column.name).map(singular).join(' ')} `;
      const at = joined.indexOf(spoken);
      return { column, at };
    })
    .filter((m) => m.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((m) => m.column);
}

/** A column holding the measure word: named it exactly, or with it as one of its words (sale_amount). */
function columnFor(columns: DatasetColumn[], names: string[]): DatasetColumn | null {
  const numeric = columns.filter((c) => NUMERIC.has(c.type) && !isIdColumn(c.name));
  for (const name of names) {
    const exact = numeric.find((c) => tokensOf(c.name).join('_') === name);
    if (exact) return exact;
  }
  for (const name of names) {
    const part = numeric.find((c) => tokensOf(c.name).includes(name));
    if (part) return part;
  }
  return null;
}

/** "revenue": a revenue-like column, else price × quantity when both are there. */
function measureFor(columns: DatasetColumn[], word: string): Measure | null {
  const column = columnFor(columns, MEASURE_WORDS[word] ?? [word]);
  if (column) return { label: word === singular(tokensOf(column.name).join('_')) ? column.name : word, columns: [column.name] };
  if (['revenue', 'sales', 'turnover', 'income', 'amount'].includes(word)) {
    const price = columnFor(columns, PRICE_WORDS);
    const quantity = columnFor(columns, QUANTITY_WORDS);
    if (price && quantity && price !== quantity) return { label: word, columns: [price.name, quantity.name] };
  }
  return null;
}

function describeColumns(dataset: Dataset): string {
  return dataset.columns.map((c) => `\`${c.name}\` (${c.type})`).join(', ');
}

function decline(dataset: Dataset, first: string): Understanding {
  const measure = dataset.columns.find((c) => NUMERIC.has(c.type) && !isIdColumn(c.name));
  const group = dataset.columns.find((c) => TEXTUAL.has(c.type));
  const date = dataset.columns.find((c) => c.type === 'date');
  const examples = [
    measure && date ? `*Total ${measure.name} by month*` : null,
    measure && group ? `*Average ${measure.name} by ${group.name}*` : null,
    group ? `*Top 5 ${group.name} by ${measure ? measure.name : 'count'}*` : null,
    group ? `*How many rows per ${group.name}?*` : null,
  ].filter(Boolean);
  return {
    kind: 'decline',
    text: [
      '*(Offline demo model.)*',
      '',
      first,
      '',
      `\`${dataset.file}\` has these columns: ${describeColumns(dataset)}.`,
      '',
      `Over a dataset I can answer ${DATASET_REPERTOIRE}, with SQL (DuckDB) or Python.${examples.length ? ` For example: ${examples.join(', ')}.` : ''}`,
      '',
      REAL_MODEL_HINT,
    ].join('\n'),
  };
}

/** Which aggregate the request asks for, if it says. */
function aggregateOf(text: string): Aggregate | null {
  if (/\bmedian\b/.test(text)) return 'median';
  if (/\b(average|avg|mean)\b/.test(text)) return 'avg';
  if (/\b(how many|count|counts|number of)\b/.test(text)) return 'count';
  if (/\b(minimum|min|smallest|lowest)\b/.test(text) && !/\btop\b/.test(text)) return 'min';
  if (/\b(maximum|max|largest|biggest)\b/.test(text) && !/\btop\b/.test(text)) return 'max';
  if (/\b(total|totals|sum|sums|overall)\b/.test(text)) return 'sum';
  return null;
}

function topOf(text: string): number | null {
  const match = /\btop\s+(\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|twenty)\b/.exec(text) ?? /\b(\d{1,4}|five|ten|three)\s+(?:best|biggest|largest|highest|most)\b/.exec(text);
  if (match) return Number(match[1]) || NUMBER_WORDS[match[1]] || null;
  return /\btop\b/.test(text) ? 10 : null;
}

/** A chart request that points back at a result: "now make a chart of it", "plot that". */
export function isChartOfLast(text: string): boolean {
  return /\b(chart|plot|graph|visuali[sz]e|draw)\b/.test(text) && (/\b(it|this|that|these|those|them|the result|the results|the last|the previous|the table|the above)\b/.test(text) || text.split(/\s+/).length <= 3);
}

const chartWords = (text: string) => /\b(chart|plot|graph|visuali[sz]e|draw)\b/.test(text);

/**
 * What the request asks of the dataset. An analysis when every part of it is on the dataset; a
 * decline naming what is missing otherwise; a chart of the last result when that is what it asks.
 */
export function understand(request: string, dataset: Dataset): Understanding {
  const text = ownWords(request).toLowerCase();
  const language = /\b(python|pandas)\b/.test(text) ? 'python' : 'sql';
  const chart = chartWords(text);
  const aggregateWord = aggregateOf(text);
  const top = topOf(text);
  const mentioned = mentionedColumns(dataset.columns, text);
  const notes: string[] = [];

  // The grouping: a period of a date column, or a column after "by", "per", "each", "across".
  let by: Grouping = { kind: 'none' };
  let measure: Measure | null = null;
  const byPhrases = [...text.matchAll(/\b(?:by|per|for each|for every|each|across|in each|grouped by|group by|broken down by)\s+(?:of\s+)?(?:the\s+|a\s+|an\s+)?([a-z0-9_ ]+)/g)].map((m) => m[1].trim());
  const topNoun = /\btop\s+(?:(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twenty)\s+)?([a-z0-9_ ]+?)(?:\s+(?:by|per|in|of|with|from|for|using)\b|$)/.exec(text)?.[1] ?? null;

  for (const phrase of topNoun ? [topNoun, ...byPhrases] : byPhrases) {
    const column = columnMatching(dataset.columns, phrase);
    const period = PERIODS.find(([, pattern]) => pattern.test(phrase.split(/\s+/).slice(0, 2).join(' ')))?.[0];
    if (column && !(NUMERIC.has(column.type) && !isIdColumn(column.name) && (top !== null || by.kind !== 'none'))) {
      if (by.kind === 'none') by = { kind: 'column', column: column.name };
      continue;
    }
    if (column && NUMERIC.has(column.type)) {
      measure ??= { label: column.name, columns: [column.name] };
      continue;
    }
    if (period && by.kind === 'none') {
      const dates = dataset.columns.filter((c) => c.type === 'date');
      const date = dates.find((c) => mentioned.includes(c)) ?? dates[0];
      if (!date) return decline(dataset, `You asked for it by ${period}, but \`${dataset.file}\` has no date column (one whose values all read as dates, such as 2024-03-15), so I cannot group it by ${period}.`);
      if (dates.length > 1 && !mentioned.includes(date)) notes.push(`By ${period} of \`${date.name}\` (the file's first date column).`);
      by = { kind: 'period', column: date.name, period };
      continue;
    }
    if (phrase === topNoun) {
      if (ROW_WORDS.has(phrase.split(/\s+/)[0]) || singular(phrase.split(/\s+/)[0]) === singular(dataset.table)) continue;
      return decline(dataset, `You asked for the top ${phrase}, but \`${dataset.file}\` has no column called “${phrase}”.`);
    }
    const word = phrase.split(/\s+/)[0];
    // "by revenue": the measure (read below), named as what to rank by.
    if (Object.hasOwn(MEASURE_WORDS, word) || BY_FILLER.has(word) || ROW_WORDS.has(word)) continue;
    return decline(dataset, `You asked for it by “${phrase.split(/\s+/).slice(0, 3).join(' ')}”, but \`${dataset.file}\` has no column of that name, so I cannot group by it.`);
  }
  // No "by …" but a period word ("monthly revenue"): the period of the date column.
  if (by.kind === 'none') {
    const period = PERIODS.find(([, pattern]) => pattern.test(text))?.[0];
    const date = dataset.columns.find((c) => c.type === 'date' && mentioned.includes(c)) ?? dataset.columns.find((c) => c.type === 'date');
    if (period && !mentionedColumns(dataset.columns, period).length) {
      if (!date) return decline(dataset, `You asked for it by ${period}, but \`${dataset.file}\` has no date column (one whose values all read as dates, such as 2024-03-15), so I cannot group it by ${period}.`);
      by = { kind: 'period', column: date.name, period };
    }
  }

  // No filters: "in 2024", "since March", "for Books only" would be left out of the answer.
  const filter =
    /\b(?:in|during|for|since|from|before|after|between|where|excluding|except|only|last|this|past)\s+(?:the\s+)?(\d{4}\b|q[1-4]\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|last\b|this\b|past\b|\d+\s+(?:days|weeks|months|years)\b)/.exec(text) ??
    /\b(?:this|last|past|next|previous)\s+(?:year|quarter|month|week|day)\b/.exec(text) ??
    /(?:\S+\s+){0,2}\bonly\b|\b(?:where|except|excluding)\b(?:\s+\S+){0,3}/.exec(text);
  if (filter) {
    return decline(dataset, `I cannot filter the rows (“${filter[0].trim().split(/\s+/).slice(0, 4).join(' ')}”): I only compute over the whole file. Ask without the filter, or filter the file before dropping it.`);
  }

  // One grouping at a time: "by category and month" is two, which the demo does not do.
  const second = byPhrases.map((phrase) => / (?:and|&) (?:by |per |the )?([a-z0-9_ ]+)/.exec(phrase)?.[1]).find((rest) => rest && !/^(chart|plot|graph|show|draw|make|give|sort|order|list|then|use|using|in|with)\b/.test(rest));
  const periodToo = by.kind === 'column' && PERIODS.some(([, p]) => p.test(text)) && !mentionedColumns(dataset.columns, text).some((c) => c.type === 'date' && c.name === by.column);
  if (by.kind !== 'none' && (second || periodToo)) {
    return decline(dataset, 'You asked to group by two things at once; I can group by one at a time (a column, or a period of a date column). Ask for each on its own, for example by the first, then by the second.');
  }

  // The measure: a numeric column the request names, else a measure word and the column that holds it.
  const groupColumn = by.kind === 'none' ? null : by.column;
  if (!measure) {
    const named = mentioned.find((c) => NUMERIC.has(c.type) && c.name !== groupColumn && !isIdColumn(c.name));
    if (named) measure = { label: named.name, columns: [named.name] };
  }
  if (!measure && aggregateWord !== 'count') {
    const words = text.split(/[^a-z0-9]+/);
    const word = words.find((w) => Object.hasOwn(MEASURE_WORDS, w));
    if (word) {
      measure = measureFor(dataset.columns, word);
      if (!measure) return decline(dataset, `You asked for ${word}, but \`${dataset.file}\` has no ${word} column${['revenue', 'sales'].includes(word) ? ' (nor a price and a quantity to multiply)' : ''}. Which column should I use?`);
      if (measure.columns.length === 2) notes.push(`There is no ${word} column, so ${word} is \`${measure.columns[0]}\` × \`${measure.columns[1]}\`.`);
      else if (measure.label !== measure.columns[0]) notes.push(`${word[0].toUpperCase()}${word.slice(1)} is the \`${measure.columns[0]}\` column.`);
    }
  }
  const unnamed = /\b(?:total|sum|average|avg|mean|median|minimum|maximum)\s+(?:of\s+)?(?:the\s+)?([a-z][a-z_]*(?:\s+[a-z][a-z_]*)?)\s+(?:by|per|for|in|over|across|each|of)\b/.exec(text)?.[1];
  if (!measure && aggregateWord && aggregateWord !== 'count') {
    if (unnamed && !unnamed.split(/\s+/).every((w) => ROW_WORDS.has(w)) && !mentionedColumns(dataset.columns, unnamed).length && !PERIODS.some(([, p]) => p.test(unnamed))) {
      return decline(dataset, `You asked for the ${aggregateWord === 'avg' ? 'average' : aggregateWord} of “${unnamed}”, but \`${dataset.file}\` has no column of that name. Which column should I use?`);
    }
    const candidates = dataset.columns.filter((c) => NUMERIC.has(c.type) && !isIdColumn(c.name) && c.name !== groupColumn);
    if (candidates.length !== 1) {
      return decline(dataset, candidates.length === 0 ? `\`${dataset.file}\` has no numeric column to ${aggregateWord === 'sum' ? 'add up' : 'average'} (identifiers such as \`order_id\` do not count).` : `You did not say which column to ${aggregateWord === 'sum' ? 'add up' : 'use'}, and \`${dataset.file}\` has several: ${candidates.map((c) => `\`${c.name}\``).join(', ')}. Which one?`);
    }
    measure = { label: candidates[0].name, columns: [candidates[0].name] };
    notes.push(`You did not name a column; \`${candidates[0].name}\` is the file's only numeric column that is not an identifier.`);
  }

  const aggregate: Aggregate = aggregateWord ?? (measure ? 'sum' : 'count');
  if (aggregate === 'count') measure = null;
  const asked = aggregateWord !== null || by.kind !== 'none' || top !== null || measure !== null;
  if (!asked) {
    if (chart && isChartOfLast(text)) return { kind: 'chart-last' };
    if (/\b(sql|query|summar\w*|overview|explore|describe|look at)\b|\b(show|see|preview)\b.*\b(data|file|table)\b/.test(text)) return overview(dataset, language, chart);
    return decline(dataset, "I did not understand what to compute from your data: I can't answer that one.");
  }
  if (by.kind === 'none' && top === null && chart) return decline(dataset, 'A chart needs something to draw against: say what to group by, such as a column or a month of a date column.');
  return { kind: 'analysis', analysis: { dataset, aggregate, measure, by, top, language, chart, notes } };
}

/** A vague request ("query my data"): the total and median of its first measure by its first text column, said as such. */
function overview(dataset: Dataset, language: 'sql' | 'python', chart: boolean): Understanding {
  const group = dataset.columns.find((c) => TEXTUAL.has(c.type));
  const measure = dataset.columns.find((c) => NUMERIC.has(c.type) && !isIdColumn(c.name));
  const by: Grouping = group ? { kind: 'column', column: group.name } : { kind: 'none' };
  const notes = [
    `You did not say what to compute, so here is an overview: ${measure ? `the total of \`${measure.name}\`` : 'the number of rows'}${group ? ` by \`${group.name}\`` : ''}. Ask for a total, count, average or median by a column or a month to get something else.`,
  ];
  return { kind: 'analysis', analysis: { dataset, aggregate: measure ? 'sum' : 'count', measure: measure ? { label: measure.name, columns: [measure.name] } : null, by, top: null, language, chart, notes } };
}
