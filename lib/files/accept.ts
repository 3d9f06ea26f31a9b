/**
 * What may be uploaded, and how names are made safe. Shared by the browser (early, friendly
 * rejection) and the server (the rule that counts). Limits are documented in the README.
 */
export const UPLOAD_LIMITS = {
  /** Files a run writes under /output/, each. (A dataset's limit is the operator's: RUNPAD_UPLOAD_FILE_BYTES.) */
  outputFileBytes: 50_000_000,
} as const;

const ACCEPTED: Record<string, string> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  jsonl: 'application/x-ndjson',
  ndjson: 'application/x-ndjson',
  parquet: 'application/vnd.apache.parquet',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  arrow: 'application/vnd.apache.arrow.file',
  feather: 'application/vnd.apache.arrow.file',
  txt: 'text/plain',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};

export const ACCEPTED_MEDIA_TYPES: readonly string[] = [...new Set(Object.values(ACCEPTED))];

export const ACCEPTED_DESCRIPTION = 'CSV, TSV, JSON, JSONL, Parquet, Excel (.xlsx), Arrow IPC / Feather (.arrow, .feather), plain text, PNG or JPEG';
export const ACCEPT_ATTRIBUTE = Object.keys(ACCEPTED)
  .map((ext) => `.${ext}`)
  .join(',');

/** The media type we store for an accepted file, or null when the type is not accepted. */
export function acceptedMediaType(fileName: string): string | null {
  const ext = fileName.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  return ext && ext in ACCEPTED ? ACCEPTED[ext] : null;
}

/**
 * A name safe to use as /data/<name>: no directories (the last path segment only), no control
 * characters, no leading dots, at most 120 characters; null when nothing usable is left.
 */
export function sanitizeFileName(raw: string): string | null {
  const lastSegment = raw.split(/[\\/]/).pop() ?? '';
  const cleaned = lastSegment
    // Control characters, and format characters that change how a name displays
    // (U+202E makes "gpj.exe" read "exe.jpg"): bidirectional controls, zero-width characters.
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  if (!cleaned || cleaned === '..') return null;
  if (cleaned.length <= 120) return cleaned;
  const ext = cleaned.match(/\.[A-Za-z0-9]{1,10}$/)?.[0] ?? '';
  return cleaned.slice(0, 120 - ext.length) + ext;
}

/** "data.csv" → "data (1).csv" for the n-th clash. */
export function withSuffix(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}
