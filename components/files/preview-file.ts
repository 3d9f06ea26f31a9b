'use client';

import { previewToText, sniffTable, type TablePreview } from '@/lib/files/sniff.client';
import type { Attachment } from '@/lib/messages/attachment';

const SNIFF_BYTES = 256 * 1024;

/** The text for the model (with first rows) and the facts a file's record may hold (columns and types, never a row). */
export type FilePreview = { text: string; table: TablePreview | null };

/**
 * The model's first look at a dataset, made in the browser: delimited and JSON text sniffed from
 * the file's first bytes; Parquet, Excel and Arrow IPC read by the kept readers (lib/files/formats, loaded on
 * first need), Parquet by ranges (its footer and first row group).
 */
export async function previewFile(file: File): Promise<FilePreview> {
  const where = `data/${file.name}`;
  if (/\.(parquet|xlsx|arrow|feather)$/i.test(file.name)) {
    const [{ tablePreviewOf, fileAsBuffer }, { FormatReadError, formatFailureText }, { tabularFormatOf }] = await Promise.all([
      import('@/lib/files/formats/preview.client'),
      import('@/lib/files/formats/table.client'),
      import('@/lib/files/formats/read-table.client'),
    ]);
    const format = tabularFormatOf(file.name) ?? 'parquet';
    try {
      const table = await tablePreviewOf(format, fileAsBuffer(file));
      return { text: previewToText(where, file.size, table), table };
    } catch (error) {
      // A file the reader cannot read is still attached: the model is told why it is no table.
      if (error instanceof FormatReadError) return { text: `${previewToText(where, file.size, null)}\nnote: ${formatFailureText(file.name, error)}`, table: null };
      throw error;
    }
  }
  const textual = /\.(csv|tsv|json|jsonl|ndjson|txt)$/i.test(file.name);
  if (!textual) return { text: previewToText(where, file.size, null), table: null };
  const complete = file.size <= SNIFF_BYTES;
  const text = await file.slice(0, SNIFF_BYTES).text();
  const table = sniffTable(text, { fileName: file.name, complete });
  return { text: previewToText(where, file.size, table), table };
}

/**
 * A file's record with what its preview found: its columns, their types, whether they come from a
 * header row, its row count. The preview's text, which shows first rows, goes with an uploaded file
 * only: a file kept on this device never sends a row (the server would drop it: lib/files/attachment.ts).
 */
export function withPreview(file: Attachment, preview: FilePreview | null, droppedName: string): Attachment {
  if (!preview) return file;
  const { table } = preview;
  const facts = table ? { columns: table.columns.map((c) => ({ name: c.name, type: c.type })), header: table.header, ...(table.rowCount === null ? {} : { rows: table.rowCount }) } : {};
  return file.location === 'device' ? { ...file, ...facts } : { ...file, ...facts, preview: preview.text.replace(droppedName, file.name) };
}
