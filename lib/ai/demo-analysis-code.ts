/**
 * The code an analysis of the offline demo runs (lib/ai/demo-analysis.ts understands the request):
 * DuckDB SQL over the file's table, Python with the standard library only (so it runs with no
 * package), and a Vega-Lite chart of the SQL's result (charts work offline).
 */
import { tokensOf, type Aggregate, type Analysis, type Grouping, type Measure, type Period } from './demo-analysis';

// --- SQL ------------------------------------------------------------------------------------------

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const AGGREGATE_PREFIX: Record<Aggregate, string> = { sum: 'total', count: 'count', avg: 'average', median: 'median', min: 'min', max: 'max' };

/** The result's value column: total_revenue, average_amount, count. */
export function valueName(analysis: Pick<Analysis, 'aggregate' | 'measure'>): string {
  if (!analysis.measure) return 'count';
  return `${AGGREGATE_PREFIX[analysis.aggregate]}_${tokensOf(analysis.measure.label).join('_') || 'value'}`;
}

/** The result's label column: the period's name, or the grouping column's. */
export function labelName(by: Grouping): string | null {
  return by.kind === 'period' ? by.period : by.kind === 'column' ? by.column : null;
}

function measureSql(measure: Measure): string {
  return measure.columns.map(quoteIdent).join(' * ');
}

function periodSql(column: string, period: Period): string {
  const at = `TRY_CAST(${quoteIdent(column)} AS TIMESTAMP)`;
  switch (period) {
    case 'day':
      return `strftime(${at}, '%Y-%m-%d')`;
    case 'week':
      return `strftime(date_trunc('week', ${at}), '%Y-%m-%d')`;
    case 'month':
      return `strftime(${at}, '%Y-%m')`;
    case 'quarter':
      return `year(${at}) || '-Q' || quarter(${at})`;
    case 'year':
      return `strftime(${at}, '%Y')`;
  }
}

function aggregateSql(analysis: Analysis): string {
  const { aggregate, measure } = analysis;
  if (!measure || aggregate === 'count') return 'COUNT(*)';
  const value = measureSql(measure);
  switch (aggregate) {
    case 'sum':
      return `ROUND(SUM(${value}), 2)`;
    case 'avg':
      return `ROUND(AVG(${value}), 2)`;
    case 'median':
      return `quantile_cont(${value}, 0.5)`;
    case 'min':
      return `MIN(${value})`;
    case 'max':
      return `MAX(${value})`;
  }
}

/** DuckDB SQL for the analysis, over the file's table. */
export function sqlFor(analysis: Analysis): string {
  const { by, top, dataset } = analysis;
  const value = quoteIdent(valueName(analysis));
  const table = quoteIdent(dataset.table);
  if (by.kind === 'none' && top !== null && analysis.measure) {
    return `SELECT *\nFROM ${table}\nWHERE ${measureSql(analysis.measure)} IS NOT NULL\nORDER BY ${measureSql(analysis.measure)} DESC\nLIMIT ${top};`;
  }
  if (by.kind === 'none') return `SELECT ${aggregateSql(analysis)} AS ${value}\nFROM ${table};`;
  const label = quoteIdent(labelName(by)!);
  if (by.kind === 'period') {
    const period = periodSql(by.column, by.period);
    const order = top !== null ? `${value} DESC\nLIMIT ${top}` : label;
    return `-- rows with no ${by.column} are left out\nSELECT ${period} AS ${label}, ${aggregateSql(analysis)} AS ${value}\nFROM ${table}\nWHERE ${period} IS NOT NULL\nGROUP BY ${label}\nORDER BY ${order};`;
  }
  const extra = analysis.measure && analysis.aggregate === 'sum' && analysis.notes.some((n) => n.startsWith('You did not say')) ? `, quantile_cont(${measureSql(analysis.measure)}, 0.5) AS ${quoteIdent(`median_${tokensOf(analysis.measure.label).join('_')}`)}, COUNT(*) AS ${quoteIdent('rows')}` : '';
  return `SELECT ${label}, ${aggregateSql(analysis)} AS ${value}${extra}\nFROM ${table}\nGROUP BY ${label}\nORDER BY ${value} DESC${top !== null ? `\nLIMIT ${top}` : ''};`;
}

// --- Python ---------------------------------------------------------------------------------------

const py = (value: string) => JSON.stringify(value);

const PERIOD_PYTHON: Record<Period, string> = {
  day: 'd.isoformat()',
  week: '(d - timedelta(days=d.weekday())).isoformat()',
  month: 'd.strftime("%Y-%m")',
  quarter: 'f"{d.year}-Q{(d.month - 1) // 3 + 1}"',
  year: 'str(d.year)',
};

const AGGREGATE_PYTHON: Record<Aggregate, string> = {
  sum: 'round(sum(present), 2) if present else None',
  count: 'len(values)',
  avg: 'round(sum(present) / len(present), 2) if present else None',
  median: 'median(present) if present else None',
  min: 'min(present) if present else None',
  max: 'max(present) if present else None',
};

/** Python (standard library only, so it runs with no package) for the same analysis. */
export function pythonFor(analysis: Analysis): string {
  const { dataset, by, top, measure } = analysis;
  const label = labelName(by);
  const value = valueName(analysis);
  const path = `/data/${dataset.file}`;
  const reader =
    dataset.format === 'csv' || dataset.format === 'tsv'
      ? [`with open(${py(path)}, newline="", encoding="utf-8-sig") as f:`, `    records = list(csv.DictReader(f, delimiter=${py(dataset.delimiter)}))`]
      : dataset.format === 'json'
        ? [`with open(${py(path)}, encoding="utf-8") as f:`, '    records = [{k: "" if v is None else str(v) for k, v in r.items()} for r in json.load(f)]']
        : [`with open(${py(path)}, encoding="utf-8") as f:`, '    records = [{k: "" if v is None else str(v) for k, v in json.loads(line).items()} for line in f if line.strip()]'];
  const measureValue = measure ? (measure.columns.length === 2 ? `product(number(row.get(${py(measure.columns[0])})), number(row.get(${py(measure.columns[1])})))` : `number(row.get(${py(measure.columns[0])}))`) : 'None';
  const key =
    by.kind === 'period'
      ? `period(row.get(${py(by.column)}))`
      : by.kind === 'column'
        ? `(row.get(${py(by.column)}) or "").strip() or None`
        : '"all"';
  const lines = [
    'import csv',
    'import json',
    'from datetime import date, timedelta',
    'from statistics import median',
    '',
    'def number(text):',
    '    text = (text or "").strip()',
    '    if not text:',
    '        return None',
    '    try:',
    '        return int(text)',
    '    except ValueError:',
    '        return float(text)',
    '',
    'def product(a, b):',
    '    return None if a is None or b is None else a * b',
    '',
  ];
  if (by.kind === 'period') {
    lines.push('def period(text):', '    text = (text or "").strip()', '    if not text:', '        return None', '    d = date.fromisoformat(text[:10])', `    return ${PERIOD_PYTHON[by.period]}`, '');
  }
  lines.push(...reader, '');
  if (by.kind === 'none' && top !== null && measure) {
    lines.push(
      `ranked = [(${measureValue}, row) for row in records]`,
      'ranked = [pair for pair in ranked if pair[0] is not None]',
      'ranked.sort(key=lambda pair: pair[0], reverse=True)',
      `rows = [row for _, row in ranked[:${top}]]`,
      'columns = list(records[0].keys()) if records else []',
    );
  } else {
    lines.push(
      'groups = {}',
      'for row in records:',
      `    key = ${key}`,
      ...(by.kind === 'period' ? ['    if key is None:', `        continue  # rows with no ${by.column} are left out`] : []),
      `    groups.setdefault(key, []).append(${measureValue})`,
      '',
      'rows = []',
      'for key, values in groups.items():',
      '    present = [v for v in values if v is not None]',
      `    rows.append({${py(label ?? 'all')}: key, ${py(value)}: ${AGGREGATE_PYTHON[analysis.aggregate]}})`,
      by.kind === 'period' && top === null
        ? `rows.sort(key=lambda r: r[${py(label!)}])`
        : `rows.sort(key=lambda r: (r[${py(value)}] is None, -(r[${py(value)}] or 0)))`,
      ...(top !== null ? [`rows = rows[:${top}]`] : []),
      ...(by.kind === 'none' ? [`rows = [{${py(value)}: r[${py(value)}]} for r in rows]`] : []),
      `columns = [${[label && by.kind !== 'none' ? py(label) : null, py(value)].filter(Boolean).join(', ')}]`,
    );
  }
  lines.push(
    '',
    'def cell(v):',
    '    if v is None:',
    '        return ""',
    '    if isinstance(v, float):',
    '        return f"{v:,.2f}"',
    '    return str(v).replace("|", "\\\\|")',
    '',
    'table = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]',
    'table += ["| " + " | ".join(cell(r.get(c)) for c in columns) + " |" for r in rows]',
    'display({"text/markdown": "\\n".join(table)}, raw=True)',
    `print(f"{len(rows)} rows from ${dataset.file.replace(/[{}"\\]/g, '')}")`,
  );
  return `${lines.join('\n')}\n`;
}

// --- Charts ---------------------------------------------------------------------------------------

/**
 * Python that runs a query and draws its result as an interactive Vega-Lite chart (no package
 * needed): the first non-numeric column along x, the first total/average/median (else the first
 * numeric) column up y; a line over periods, bars otherwise.
 */
export function chartProgramFor(query: string, title: string): string {
  return [
    'import numbers',
    'import re',
    '',
    `result = sql(${py(query)})`,
    'if result is None:',
    '    raise ValueError("the query returned no rows to chart")',
    'records = result.to_dict("records") if hasattr(result, "to_dict") else list(result)',
    'columns = list(result.columns)',
    '',
    'def is_number(v):',
    '    return isinstance(v, numbers.Number) and not isinstance(v, bool)',
    '',
    'numeric = [c for c in columns if records and all(r[c] is None or is_number(r[c]) for r in records)]',
    'x = next((c for c in columns if c not in numeric), columns[0])',
    'y = next((c for c in numeric if c != x and re.match(r"(total|average|median|count|min|max)", c)), None) or next((c for c in numeric if c != x), None)',
    'if y is None:',
    '    raise ValueError(f"nothing to chart: the result has no numeric column besides {x}")',
    'values = [{x: "(blank)" if r[x] is None else str(r[x]), y: None if r[y] is None else float(r[y])} for r in records]',
    'over_time = all(re.match(r"^\\d{4}(-\\d{2}(-\\d{2})?|-Q\\d)?$", v[x]) for v in values)',
    'spec = {',
    '    "$schema": "https://vega.github.io/schema/vega-lite/v5.json",',
    `    "title": ${py(title)},`,
    '    "data": {"values": values},',
    '    "mark": {"type": "line", "point": True, "tooltip": True} if over_time else {"type": "bar", "tooltip": True},',
    '    "encoding": {',
    '        "x": {"field": x, "type": "ordinal", "sort": "ascending" if over_time else "-y"},',
    '        "y": {"field": y, "type": "quantitative"},',
    '    },',
    '}',
    'display({"application/vnd.vegalite.v5+json": spec}, raw=True)',
    'print(f"charted {len(values)} rows: {y} by {x}")',
    '',
  ].join('\n');
}

/** The chart's title: "Total revenue by month". */
export function titleOf(analysis: Analysis): string {
  const what = analysis.measure ? `${{ sum: 'Total', count: 'Count', avg: 'Average', median: 'Median', min: 'Minimum', max: 'Maximum' }[analysis.aggregate]} ${analysis.measure.label.replace(/_/g, ' ')}` : 'Rows';
  const label = labelName(analysis.by);
  return label ? `${what} by ${label.replace(/_/g, ' ')}` : what;
}

/** The program an analysis runs: SQL, Python, or a chart of the SQL's result. */
export function programOf(analysis: Analysis): { tool: 'sql' | 'python'; code: string } {
  if (analysis.chart) return { tool: 'python', code: chartProgramFor(sqlFor(analysis), titleOf(analysis)) };
  return analysis.language === 'python' ? { tool: 'python', code: pythonFor(analysis) } : { tool: 'sql', code: sqlFor(analysis) };
}

/** What the demo says before running it: what it computes, over which columns, and what it assumed. */
export function openingOf(analysis: Analysis): string {
  const over = analysis.measure ? (analysis.measure.columns.length === 2 ? `\`${analysis.measure.columns[0]}\` × \`${analysis.measure.columns[1]}\`` : `\`${analysis.measure.columns[0]}\``) : 'rows';
  const by = analysis.by.kind === 'period' ? ` by ${analysis.by.period} of \`${analysis.by.column}\`` : analysis.by.kind === 'column' ? ` by \`${analysis.by.column}\`` : '';
  const what = analysis.measure ? `${{ sum: 'the total of', count: 'the count of', avg: 'the average of', median: 'the median of', min: 'the minimum of', max: 'the maximum of' }[analysis.aggregate]} ${over}` : 'the number of rows';
  const top = analysis.top !== null ? `, the top ${analysis.top}` : '';
  const how = analysis.chart ? 'and chart it as an interactive Vega-Lite chart (no package needed)' : analysis.language === 'python' ? 'with Python (standard library only)' : 'with SQL, in DuckDB in your browser';
  const lead = analysis.by.kind === 'none' && analysis.top !== null && analysis.measure ? `I'll list the ${analysis.top} rows of \`${analysis.dataset.file}\` with the highest ${over}, ${how}.` : `I'll compute ${what}${by}${top} in \`${analysis.dataset.file}\`, ${how}.`;
  return [lead, ...analysis.notes].join(' ');
}
