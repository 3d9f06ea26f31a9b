import { z } from 'zod';

/** The name a reader gives the i-th column of a file without a header row (DuckDB's own: column0, column1, …). */
export function headerlessName(index: number): string {
  return `column${index}`;
}

/** A file's columns as the browser's reader found them: names and types, never a value. */
export const columnsSchema = z.array(z.object({ name: z.string().max(200), type: z.string().max(40) })).max(2_000);

const attachmentFields = z.object({
  name: z.string().max(200),
  size: z.number().int().nonnegative(),
  mediaType: z.string().max(200),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Where the bytes are (lib/files/data-file.ts); absent on attachments stored before files could stay on a device: uploaded. */
  location: z.enum(['account', 'device']).optional(),
  /** The file's columns as the browser's reader found them: names and types, never a value. */
  columns: columnsSchema.optional(),
  /**
   * Whether the column names come from a header row the reader detected (lib/files/sniff.client.ts
   * decides as DuckDB's sniffer does). False: the first row is data, and the names are the reader's
   * own (column0, column1, …).
   */
  header: z.boolean().optional(),
  /** Data rows, when the whole file was read. */
  rows: z.number().int().nonnegative().optional(),
  /** What the browser sniffed: columns, types, first rows (compact text for the model). Uploaded files only. */
  preview: z.string().max(8_000).optional(),
});

export type Attachment = z.infer<typeof attachmentFields>;

/**
 * A file attached to a user message (message metadata), as stored on the server. Of a file kept on
 * the device the server holds its name, size, hash, columns and types, never a row: a preview
 * (which shows first rows) is dropped, and the column names of a file without a header row (which
 * would be its first row) are the reader's own. Applied to what the page sends and to what is read
 * back, so attachments stored before this rule lose their rows too.
 */
export const attachmentSchema = attachmentFields.transform((file): Attachment => {
  if (file.location !== 'device') return file;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- dropped on purpose: a preview shows rows
  const { preview, ...kept } = file;
  return kept.header === true || kept.columns === undefined ? kept : { ...kept, header: false, columns: kept.columns.map((column, i) => ({ ...column, name: headerlessName(i) })) };
});

export const messageMetadataSchema = z.object({ files: z.array(attachmentSchema).max(50).optional() }).passthrough();

/**
 * A stored message's metadata read back with the rule above applied to its files (a kept file's
 * preview dropped, a headerless file's names the reader's own); anything else as stored.
 */
export function storedMetadata(metadata: unknown): unknown {
  if (typeof metadata !== 'object' || metadata === null || !('files' in metadata)) return metadata;
  const parsed = messageMetadataSchema.safeParse(metadata);
  return parsed.success ? parsed.data : { ...metadata, files: [] };
}

export function attachmentsOf(metadata: unknown): Attachment[] {
  const parsed = messageMetadataSchema.safeParse(metadata);
  return parsed.success ? (parsed.data.files ?? []) : [];
}

/** A file's columns in words: `columns a (integer), b (string)`; without a header row, the reader's names (column0, …) and why. */
export function columnsText(file: Attachment): string {
  const columns = (file.columns ?? []).map((column, i) => `${file.header === true ? column.name : headerlessName(i)} (${column.type})`);
  if (columns.length === 0) return '';
  return file.header === true ? `columns ${columns.join(', ')}` : `no header row (its first row is data, so the columns have the reader’s names); columns ${columns.join(', ')}`;
}

/** What the model is told, with the user's message, about the files that came with it. */
export function attachmentsToText(files: Attachment[]): string {
  const lines = ['[Files attached to this message, available to Python under /data/:]'];
  for (const file of files) {
    const columns = columnsText(file);
    lines.push(file.preview ?? `/data/${file.name} (${file.size.toLocaleString('en-US')} bytes, ${file.mediaType}${file.rows === undefined ? '' : `, ${file.rows.toLocaleString('en-US')} rows`})${columns ? `: ${columns}` : ''}`);
  }
  return lines.join('\n');
}
