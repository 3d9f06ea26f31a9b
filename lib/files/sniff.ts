/**
 * Sniffs a dataset in the browser so the model learns its columns, types and first rows before
 * writing code. Handles a BOM, the delimiter (, ; tab |), RFC 4180 quoting (quoted delimiters,
 * doubled quotes, newlines inside quotes), CRLF, ragged rows, JSON and JSON Lines.
 */
export type ColumnType = 'integer' | 'number' | 'boolean' | 'date' | 'string' | 'empty';
export type TablePreview = {
  format: 'csv' | 'tsv' | 'json' | 'jsonl';
  delimiter?: ',' | ';' | '\t' | '|';
  columns: { name: string; type: ColumnType }[];
  rows: string[][];
  rowCount: number | null;
  truncated: boolean;
  warnings: string[];
};
type SniffOptions = { fileName: string; maxRows?: number; complete: boolean };

const DELIMITERS = [',', ';', '\t', '|'] as const;
type Delimiter = (typeof DELIMITERS)[number];
const CELL_CHARS = 80;

/** Splits delimited text into records, honouring quotes. */
export function parseDelimited(text: string, delimiter: Delimiter): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === delimiter) {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records.filter((r) => !(r.length === 1 && r[0] === ''));
}

function detectDelimiter(text: string, fileName: string): Delimiter {
  if (/\.tsv$/i.test(fileName)) return '\t';
  const sample = text.split(/\r?\n/).slice(0, 20).join('\n');
  let best: Delimiter = ',';
  let bestScore = -1;
  for (const delimiter of DELIMITERS) {
    const counts = parseDelimited(sample, delimiter).map((r) => r.length);
    if (counts.length === 0 || counts[0] < 2) continue;
    const consistent = counts.filter((c) => c === counts[0]).length / counts.length;
    const score = consistent * 10 + counts[0] / 100;
    if (score > bestScore) {
      best = delimiter;
      bestScore = score;
    }
  }
  return best;
}

function typeOf(values: string[]): ColumnType {
  const present = values.map((v) => v.trim()).filter((v) => v !== '');
  if (present.length === 0) return 'empty';
  if (present.every((v) => /^[-+]?\d+$/.test(v))) return 'integer';
  if (present.every((v) => /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v))) return 'number';
  if (present.every((v) => /^(true|false)$/i.test(v))) return 'boolean';
  if (present.every((v) => /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[-+]\d{2}:?\d{2})?)?$/.test(v))) return 'date';
  return 'string';
}

const clip = (value: string) => (value.length > CELL_CHARS ? `${value.slice(0, CELL_CHARS - 1)}…` : value);

function fromRecords(header: string[], body: string[][], base: Omit<TablePreview, 'columns' | 'rows' | 'warnings'>, maxRows: number): TablePreview {
  const warnings: string[] = [];
  const ragged = body.filter((r) => r.length !== header.length).length;
  if (ragged > 0) warnings.push(`ragged rows: ${ragged} rows have a different number of fields than the header (${header.length})`);
  const columns = header.map((name, i) => ({ name: name.trim() || `column_${i + 1}`, type: typeOf(body.map((r) => r[i] ?? '')) }));
  return { ...base, columns, rows: body.slice(0, maxRows).map((r) => r.map(clip)), warnings };
}

function sniffJson(text: string, format: 'json' | 'jsonl', options: SniffOptions, maxRows: number): TablePreview | null {
  let records: Record<string, unknown>[];
  try {
    if (format === 'jsonl') {
      const lines = text.split(/\r?\n/).filter((l) => l.trim());
      if (!options.complete) lines.pop();
      records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    } else {
      const value = JSON.parse(text) as unknown;
      if (Array.isArray(value)) records = value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v));
      else if (value && typeof value === 'object') {
        const columns = Object.entries(value as Record<string, unknown>).filter(([, v]) => Array.isArray(v)) as [string, unknown[]][];
        const length = Math.max(0, ...columns.map(([, v]) => v.length));
        records = Array.from({ length }, (_, i) => Object.fromEntries(columns.map(([k, v]) => [k, v[i]])));
      } else return null;
    }
  } catch {
    return null;
  }
  const names: string[] = [];
  for (const record of records) for (const key of Object.keys(record)) if (!names.includes(key)) names.push(key);
  const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const body = records.map((r) => names.map((n) => cell(r[n])));
  return fromRecords(names, body, { format, rowCount: options.complete || format === 'jsonl' ? (options.complete ? records.length : null) : null, truncated: !options.complete }, maxRows);
}

export function sniffTable(rawText: string, options: SniffOptions): TablePreview | null {
  const text = rawText.replace(/^\uFEFF/, '');
  const maxRows = options.maxRows ?? 5;
  if (!text.trim()) return null;
  const name = options.fileName.toLowerCase();
  if (name.endsWith('.jsonl') || name.endsWith('.ndjson')) return sniffJson(text, 'jsonl', options, maxRows);
  if (name.endsWith('.json') || (!/\.(csv|tsv|txt)$/.test(name) && /^\s*[[{]/.test(text))) return sniffJson(text, 'json', options, maxRows);
  const usable = options.complete ? text : text.slice(0, Math.max(text.lastIndexOf('\n'), 0));
  const delimiter = detectDelimiter(usable, options.fileName);
  const records = parseDelimited(usable, delimiter);
  if (records.length === 0) return null;
  const [header, ...body] = records;
  return fromRecords(header, body, { format: delimiter === '\t' ? 'tsv' : 'csv', delimiter, rowCount: options.complete ? body.length : null, truncated: !options.complete }, maxRows);
}

function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Compact text for the model: where the file is, its shape, columns with types, first rows. */
export function previewToText(path: string, sizeBytes: number, preview: TablePreview | null): string {
  const where = `/${path.replace(/^\/+/, '')}`;
  if (!preview) return `${where} (${formatSize(sizeBytes)})`;
  const rows = preview.rowCount === null ? 'row count unknown (large file)' : `${preview.rowCount.toLocaleString('en-US')} rows`;
  const delimiter = preview.delimiter && preview.delimiter !== ',' && preview.delimiter !== '\t' ? `, delimiter ${JSON.stringify(preview.delimiter)}` : '';
  const lines = [
    `${where} (${formatSize(sizeBytes)}, ${preview.format.toUpperCase()}${delimiter}, ${rows})`,
    `columns: ${preview.columns.map((c) => `${c.name} (${c.type})`).join(', ')}`,
  ];
  if (preview.rows.length > 0) {
    lines.push(`first ${preview.rows.length} rows:`, preview.columns.map((c) => c.name).join(' | '));
    for (const row of preview.rows) lines.push(row.join(' | '));
  }
  for (const warning of preview.warnings) lines.push(`note: ${warning}`);
  return lines.join('\n');
}
